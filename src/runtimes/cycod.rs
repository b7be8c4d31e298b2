//! cycod (`robch/cycod`): what its custom tool loader reads. cycod is built from source with no
//! release numbers a project could target, so the facts carry the commit they were read from.

use super::{Dated, Unversioned};

/// cycod, as toolc knows it.
pub(crate) static KNOWLEDGE: Unversioned = Unversioned {
    name: "cycod",
    as_of: "commit fd7c682f",
    read_from: "`robch/cycod` at commit fd7c682f: `src/cycod/CustomTools/` (`CustomToolModels.cs`, `CustomToolExecutor.cs`, `CustomToolFactory.cs`) and the custom tools specification",
    formats: &["cycod-tool"],
    changes: &[Dated {
        when: "fd7c682f",
        what: "the custom tool format as toolc checks it: eight command options, four parameter types, hyphenated keys, a 60000 ms default timeout, parameters substituted in declaration order",
    }],
};

/// Command options in the order the runtime picks them when several are set.
pub(crate) const COMMANDS: &[&str] = &[
    "run", "bash", "cmd", "pwsh", "python", "script", "tool", "mcp",
];

/// The parameter types cycod accepts.
pub(crate) const PARAMETER_TYPES: &[&str] = &["string", "number", "boolean", "array"];

/// The timeout of a tool that sets none, in milliseconds.
pub(crate) const DEFAULT_TIMEOUT_MS: i64 = 60_000;
