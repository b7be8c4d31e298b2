//! The programs DojOps lets a verification command run: one list for `tool.yaml` and `.dops`
//! (the runtime's tool registry and its skill verifier share it), anything else fails
//! verification with "Verification command not allowed".

/// The spec's verification whitelist (§8).
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
/// Binaries current DojOps also accepts (IMPLEMENTATION-NOTES.md).
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

/// True when DojOps runs `program` for a verification command.
pub fn allows(program: &str) -> bool {
    SPEC_BINARIES.contains(&program) || RUNTIME_ONLY_BINARIES.contains(&program)
}

/// Every program DojOps allows, the spec's first.
pub fn allowed() -> impl Iterator<Item = &'static str> {
    SPEC_BINARIES.iter().chain(RUNTIME_ONLY_BINARIES).copied()
}
