//! AML (`alirion-io/aml`), the specification family of `*.tool.md` tools, `*.agent.md` agents
//! and the definitions agents name: the releases toolc knows and what changed in them.

use super::{Change, Gate, Runtime, Version};

/// The release the facts below were read from.
pub(crate) const CURRENT: Version = Version::new(1, 2, 1);
/// The release that made knowledge bases files agents refer to by id (`*.kb.md`).
pub(crate) const KB_FILES: Version = Version::new(1, 1, 0);

/// AML, as toolc knows it.
pub(crate) static RUNTIME: Runtime = Runtime {
    id: "aml",
    name: "AML",
    current: CURRENT,
    read_from: "`alirion-io/aml` at commit 5f2f5b0b: `docs/01-agent-definition.md`, `docs/07-guardrail-definition.md`, `CHANGELOG.md`",
    formats: &["tool-md", "agent-md"],
    changes: &[
        Change {
            since: KB_FILES,
            what: "knowledge bases become `*.kb.md` files that agents name by `kb_id` (`knowledge` refs) instead of inline settings",
        },
        Change {
            since: Version::new(1, 2, 0),
            what: "models (`*.model.md`) and guardrails (`*.guardrail.md`) become files that agents name by id (`runtime.model`, `guardrails.<position>[].ref`)",
        },
        Change {
            since: Version::new(1, 2, 1),
            what: "JSON Schemas for every file kind; the examples move to `docs/examples/`, as pages that show each file in a fenced block",
        },
    ],
};

/// The rules about definition references (REF024–REF026) apply from the release that
/// introduced the first referenced definitions.
pub(crate) const DEFINITION_GATES: [Gate; 3] = [
    Gate {
        code: "REF024",
        runtime: "aml",
        since: KB_FILES,
    },
    Gate {
        code: "REF025",
        runtime: "aml",
        since: KB_FILES,
    },
    Gate {
        code: "REF026",
        runtime: "aml",
        since: KB_FILES,
    },
];
