//! DojOps (`dojops/dojops`): the releases toolc knows, the verification allowlists, the policy
//! keys and the files each release loads.
//!
//! Two verification lists, because two loaders read them: the `.dops` skill verifier of
//! current DojOps (`packages/runtime/src/binary-verifier.ts`), which grew `packer` in 1.2.1,
//! and the `tool.yaml` tool registry (`custom-tool.ts`), which DojOps 1.1.0 removed together
//! with `tool.yaml` itself: its list stays as the last release that loaded manifests had it.

use super::{Change, Gate, Runtime, Version};

/// The release the facts below were read from.
pub(crate) const CURRENT: Version = Version::new(1, 2, 2);
/// The first release that no longer loads `tool.yaml` / `plugin.yaml` tools.
pub(crate) const TOOL_YAML_REMOVED: Version = Version::new(1, 1, 0);
/// The last release that loads them.
pub(crate) const LAST_TOOL_YAML_RELEASE: Version = Version::new(1, 0, 9);

/// DojOps, as toolc knows it.
pub(crate) static RUNTIME: Runtime = Runtime {
    id: "dojops",
    name: "DojOps",
    current: CURRENT,
    read_from: "`dojops/dojops` at commit 39d8c09a: `binary-verifier.ts`, `skill-registry/src/policy.ts`, `CHANGELOG.md`",
    formats: &["dojops-tool", "dojops-dops", "dojops-policy"],
    changes: &[
        Change {
            since: TOOL_YAML_REMOVED,
            what: "`tool.yaml` and `plugin.yaml` custom tools are no longer loaded (custom tools are `.dops` v2 skills, in `.dojops/skills/`); `.dops` v1 is rejected; the policy lists are `allowedSkills` and `blockedModules`, the 1.0 names `allowedTools` / `blockedTools` and the legacy `allowedPlugins` / `blockedPlugins` are still read when the new ones are absent",
        },
        Change {
            since: Version::new(1, 2, 1),
            what: "`packer` joins the verification allowlist of `.dops` skills (34 programs)",
        },
    ],
};

/// DOJ024 (a `tool.yaml` tool current DojOps does not load) applies from 1.1.0 on.
pub(crate) const TOOL_YAML_GATE: Gate = Gate {
    code: "DOJ024",
    runtime: "dojops",
    since: TOOL_YAML_REMOVED,
};

/// DOJ025 (a `.dops` skill outside `.dojops/skills/`) applies from 1.1.0 on, when skills
/// moved there.
pub(crate) const SKILL_FOLDER_GATE: Gate = Gate {
    code: "DOJ025",
    runtime: "dojops",
    since: TOOL_YAML_REMOVED,
};

/// The keys DojOps tries for the policy allowlist, first present wins: the current name
/// (1.1.0 and later), the name of 1.0.x, the legacy plugin name.
pub(crate) const POLICY_ALLOWED_KEYS: &[&str] =
    &["allowedSkills", "allowedTools", "allowedPlugins"];
/// The keys DojOps tries for the policy blocklist, in the same order.
pub(crate) const POLICY_BLOCKED_KEYS: &[&str] =
    &["blockedModules", "blockedTools", "blockedPlugins"];

/// The spec's verification whitelist (tool spec 1, §8).
pub(crate) const SPEC_BINARIES: &[&str] = &[
    "terraform",
    "kubectl",
    "helm",
    "ansible-lint",
    "docker",
    "hadolint",
    "yamllint",
    "jsonlint",
    "shellcheck",
    "tflint",
    "kubeval",
    "conftest",
    "checkov",
    "trivy",
    "kube-score",
    "polaris",
];

/// Binaries the runtime allowed beyond the spec's 16 by DojOps 1.0.9, for `tool.yaml` and
/// `.dops` alike.
pub(crate) const RUNTIME_ONLY_BINARIES: &[&str] = &[
    "ansible-playbook",
    "nginx",
    "promtool",
    "systemd-analyze",
    "make",
    "actionlint",
    "caddy",
    "haproxy",
    "nomad",
    "podman",
    "fluentd",
    "opa",
    "vault",
    "circleci",
    "npx",
    "tsc",
    "cfn-lint",
];

/// A program the `.dops` verifier added after `tool.yaml` was removed, with the DojOps
/// release that first allows it.
pub(crate) struct SkillOnly {
    /// The program name.
    pub name: &'static str,
    /// The first release that runs it.
    pub since: Version,
}

/// Programs only the `.dops` verifier allows (with the others, the 34 names of
/// `binary-verifier.ts` at DojOps 1.2.2).
pub(crate) const SKILL_ONLY_BINARIES: &[SkillOnly] = &[SkillOnly {
    name: "packer",
    since: Version::new(1, 2, 1),
}];

/// True when DojOps runs `program` for a `.dops` skill's verification command.
pub(crate) fn skill_allows(program: &str) -> bool {
    tool_allows(program) || SKILL_ONLY_BINARIES.iter().any(|b| b.name == program)
}

/// The release from which the `.dops` verifier allows `program`, when a later release than
/// the first added it.
pub(crate) fn skill_only_since(program: &str) -> Option<Version> {
    SKILL_ONLY_BINARIES
        .iter()
        .find(|b| b.name == program)
        .map(|b| b.since)
}

/// Every program the `.dops` verifier allows, the spec's first.
pub(crate) fn skill_allowed() -> impl Iterator<Item = &'static str> {
    tool_allowed().chain(SKILL_ONLY_BINARIES.iter().map(|b| b.name))
}

/// True when the DojOps releases that loaded `tool.yaml` run `program` for its verification.
pub(crate) fn tool_allows(program: &str) -> bool {
    SPEC_BINARIES.contains(&program) || RUNTIME_ONLY_BINARIES.contains(&program)
}

/// Every program those releases allowed for `tool.yaml`, the spec's first.
pub(crate) fn tool_allowed() -> impl Iterator<Item = &'static str> {
    SPEC_BINARIES.iter().chain(RUNTIME_ONLY_BINARIES).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skill_list_has_the_34_names_of_current_dojops() {
        assert_eq!(skill_allowed().count(), 34);
        assert_eq!(tool_allowed().count(), 33);
        assert!(skill_allows("packer") && !tool_allows("packer"));
        assert!(skill_allows("cfn-lint") && tool_allows("cfn-lint"));
        assert!(!skill_allows("pwsh") && !skill_allows(""));
    }
}
