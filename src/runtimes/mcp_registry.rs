//! The MCP registry's `server.json`: every published schema version and what each changed,
//! from the registry's server.json changelog (`modelcontextprotocol/registry`,
//! `docs/reference/server-json/CHANGELOG.md`). A schema version is a date, named in the
//! file's own `$schema`, so a project targets it there rather than in `toolc.toml`.

use super::{Dated, Unversioned};

/// Every published schema version, oldest first, with what it changed.
pub(crate) const SCHEMAS: &[Dated] = &[
    Dated {
        when: "2025-07-09",
        what: "the first published schema",
    },
    Dated {
        when: "2025-09-16",
        what: "every key renamed from snake_case to camelCase (`registry_type` → `registryType`, …): files with the old names are rejected",
    },
    Dated {
        when: "2025-09-29",
        what: "`status` and the registry's own `_meta` entry removed: the registry keeps them itself",
    },
    Dated {
        when: "2025-10-11",
        what: "a package's `version` is optional: npm, PyPI and NuGet packages still give one; OCI images carry it in the identifier, MCPB packages in the download URL (with `fileSha256` required)",
    },
    Dated {
        when: "2025-10-17",
        what: "MCPB packages may give a `version` too",
    },
    Dated {
        when: "2025-12-11",
        what: "remote URLs may hold `{variables}` declared under `variables`",
    },
];

/// The current schema version: what `mcp-publisher init` writes.
pub(crate) const CURRENT_SCHEMA: &str = "2025-12-11";

/// The registry's `server.json`, as toolc knows it.
pub(crate) static KNOWLEDGE: Unversioned = Unversioned {
    name: "The MCP registry's server.json",
    as_of: "schema 2025-12-11",
    read_from: "`modelcontextprotocol/registry`: `docs/reference/server-json/CHANGELOG.md` and the published schemas",
    formats: &["mcp-server"],
    changes: SCHEMAS,
};

/// `server.json` keys renamed to camelCase by the 2025-09-16 schema.
pub(crate) const RENAMED: &[(&str, &str)] = &[
    ("registry_type", "registryType"),
    ("registry_base_url", "registryBaseUrl"),
    ("file_sha256", "fileSha256"),
    ("runtime_hint", "runtimeHint"),
    ("runtime_arguments", "runtimeArguments"),
    ("package_arguments", "packageArguments"),
    ("environment_variables", "environmentVariables"),
    ("is_required", "isRequired"),
    ("is_secret", "isSecret"),
    ("value_hint", "valueHint"),
    ("is_repeated", "isRepeated"),
    ("website_url", "websiteUrl"),
];

/// `server.json` keys removed by a schema version, and what replaced them.
pub(crate) const REMOVED: &[(&str, &str)] = &[(
    "status",
    "the 2025-09-29 schema removed `status` from server.json: the registry keeps each version's status itself",
)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_schema_is_the_last_published() {
        assert_eq!(SCHEMAS.last().map(|s| s.when), Some(CURRENT_SCHEMA));
        assert!(SCHEMAS.windows(2).all(|w| w[0].when < w[1].when));
    }
}
