//! The programs DojOps lets a verification command run; anything else fails verification
//! with "Verification command not allowed".
//!
//! Two lists, because two runtimes read them: the `.dops` skill verifier of current DojOps
//! (`packages/runtime/src/binary-verifier.ts`), which grew `packer` in 1.2.1, and the
//! `tool.yaml` tool registry (`custom-tool.ts`), which DojOps 1.1.0 removed together with
//! `tool.yaml` itself: its list stays as the last release that loaded manifests (1.0.9) had it.

/// The spec's verification whitelist (tool spec 1, §8).
pub const SPEC_BINARIES: &[&str] = &[
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
pub const RUNTIME_ONLY_BINARIES: &[&str] = &[
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
pub struct SkillOnly {
    /// The program name.
    pub name: &'static str,
    /// The first release that runs it, as `major.minor.patch`.
    pub since: &'static str,
}

/// Programs only the `.dops` verifier allows (read from `binary-verifier.ts` at DojOps
/// 1.2.2, commit 39d8c09a: 34 names).
pub const SKILL_ONLY_BINARIES: &[SkillOnly] = &[SkillOnly {
    name: "packer",
    since: "1.2.1",
}];

/// True when DojOps runs `program` for a `.dops` skill's verification command.
pub fn skill_allows(program: &str) -> bool {
    tool_allows(program) || SKILL_ONLY_BINARIES.iter().any(|b| b.name == program)
}

/// Every program the `.dops` verifier allows, the spec's first.
pub fn skill_allowed() -> impl Iterator<Item = &'static str> {
    tool_allowed().chain(SKILL_ONLY_BINARIES.iter().map(|b| b.name))
}

/// True when the DojOps releases that loaded `tool.yaml` run `program` for its verification.
pub fn tool_allows(program: &str) -> bool {
    SPEC_BINARIES.contains(&program) || RUNTIME_ONLY_BINARIES.contains(&program)
}

/// Every program those releases allowed for `tool.yaml`, the spec's first.
pub fn tool_allowed() -> impl Iterator<Item = &'static str> {
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
