//! Checks that real files showed missing, each triggered and each silent on valid input:
//! `.dops` verification programs off DojOps's allowlist (DOJ013) and shell syntax in a command
//! DojOps runs without a shell (DOJ023), agentcli schemas the providers refuse at their root
//! (ACL015), and a tool.md file in the spec's older layout (TMD041).

mod common;

use common::{BASE_TOOL, Repo, VALID_AGENTCLI, lines};

/// A valid `.dops` skill whose binary check runs `command` (with `child_process`).
fn skill(command: &str, child_process: &str) -> String {
    format!(
        r#"---
dops: v2
meta:
  name: ci
  version: 1.0.0
  description: Generate a workflow
context:
  technology: github-actions
  fileFormat: yaml
  outputGuidance: Output the workflow only.
  bestPractices:
    - Pin actions
files:
  - path: ci.yml
verification:
  binary:
    command: '{command}'
    parser: actionlint
permissions:
  child_process: {child_process}
---
## Prompt

Write the workflow.

## Keywords

ci
"#
    )
}

fn dops(command: &str) -> Vec<String> {
    dops_with(command, "required")
}

fn dops_with(command: &str, child_process: &str) -> Vec<String> {
    let repo = Repo::with(&[(".dojops/skills/ci.dops", &skill(command, child_process))]);
    lines(&repo.check().expect("config"))
}

// ── DOJ013 in .dops ──────────────────────────────────────────────────────────────────

#[test]
fn doj013_each_program_of_a_dops_command_must_be_allowed() {
    assert_eq!(
        dops("python3 -m yamllint {entryFile}"),
        [
            ".dojops/skills/ci.dops:17:15 DOJ013 error `python3` is not on DojOps's verification allowlist"
        ]
    );
    // DojOps checks every `&&` part: the second program is refused too.
    assert_eq!(
        dops("terraform init -input=false && terraformx validate"),
        [
            ".dojops/skills/ci.dops:17:46 DOJ013 error `terraformx` is not on DojOps's verification allowlist"
        ]
    );
    let found = dops(" actionlint {entryFile}");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].contains("starts with a space"), "{found:#?}");
}

#[test]
fn doj013_one_finding_per_command_at_the_first_refused_program() {
    // DojOps stops at the first program it refuses: the same program twice is one finding.
    assert_eq!(
        dops("pwsh -NoProfile -File lint.ps1 && pwsh -File test.ps1"),
        [
            ".dojops/skills/ci.dops:17:15 DOJ013 error `pwsh` is not on DojOps's verification allowlist"
        ]
    );
    // Two different refused programs: one finding, the second shown beside the first.
    let repo = Repo::with(&[(
        ".dojops/skills/ci.dops",
        &skill(
            "falco --validate rules.yaml && traefik healthcheck",
            "required",
        ),
    )]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        [
            ".dojops/skills/ci.dops:17:15 DOJ013 error `falco` is not on DojOps's verification allowlist"
        ]
    );
    let related: Vec<&str> = report.diagnostics[0]
        .related
        .iter()
        .map(|r| r.message.as_str())
        .collect();
    assert_eq!(
        related,
        ["`traefik` is refused too, once the first is fixed"]
    );
    // An `&&` with nothing after it leaves DojOps an empty program, which it refuses.
    assert_eq!(
        dops("actionlint {entryFile} &&"),
        [
            ".dojops/skills/ci.dops:17:38 DOJ013 error an `&&` of the verification command has no program after it"
        ]
    );
}

#[test]
fn doj013_knows_the_programs_current_dojops_added() {
    // `packer` joined the allowlist with DojOps's own Packer skill (1.2.1).
    assert_eq!(
        dops("packer init . && packer validate -syntax-only ."),
        Vec::<String>::new()
    );
}

#[test]
fn doj013_knows_which_release_added_a_program() {
    // A project on DojOps 1.2.0 runs a verifier without `packer`.
    let command = "packer init . && packer validate .";
    let repo = Repo::with(&[
        (".dojops/skills/ci.dops", &skill(command, "required")),
        ("toolc.toml", "[runtimes]\ndojops = \"1.2.0\"\n"),
    ]);
    assert_eq!(
        lines(&repo.check().expect("config")),
        [
            ".dojops/skills/ci.dops:17:15 DOJ013 error `packer` is on DojOps's verification allowlist only from 1.2.1 on"
        ]
    );
    let current = Repo::with(&[
        (".dojops/skills/ci.dops", &skill(command, "required")),
        ("toolc.toml", "[runtimes]\ndojops = \"1.2.1\"\n"),
    ]);
    assert_eq!(
        lines(&current.check().expect("config")),
        Vec::<String>::new()
    );
}

#[test]
fn doj013_says_when_the_check_does_not_run_yet() {
    let repo = Repo::with(&[(".dojops/skills/ci.dops", &skill("pwsh -File x.ps1", "none"))]);
    let report = repo.check().expect("config");
    assert_eq!(report.diagnostics.len(), 1, "{:#?}", lines(&report));
    assert!(report.diagnostics[0].notes[0].contains("skipped"));
    // Did you mean: a near miss names the program.
    let repo = Repo::with(&[(
        ".dojops/skills/ci.dops",
        &skill("actionlnt {entryFile}", "required"),
    )]);
    let report = repo.check().expect("config");
    assert_eq!(report.diagnostics.len(), 1, "{:#?}", lines(&report));
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("did you mean `actionlint`?")
    );
}

#[test]
fn doj013_and_doj023_are_silent_on_what_dojops_runs_as_written() {
    for command in [
        "actionlint {entryFile}",
        "terraform init -backend=false -input=false && terraform validate -json",
        "kubectl apply --dry-run=client -f {entryFile}",
        "npx tsc --noEmit {entryFile}",
    ] {
        assert_eq!(dops(command), Vec::<String>::new(), "{command}");
    }
}

// ── DOJ023 ───────────────────────────────────────────────────────────────────────────

#[test]
fn doj023_shell_syntax_in_a_command_run_without_a_shell() {
    assert_eq!(
        dops("actionlint .github/workflows/*.yml 2>&1 || true"),
        [
            ".dojops/skills/ci.dops:17:26 DOJ023 warning DojOps runs this command without a shell: `.github/workflows/*.yml`, `2>&1` and `||` reach `actionlint` as literal arguments"
        ]
    );
    let repo = Repo::with(&[(
        ".dojops/skills/ci.dops",
        &skill("yamllint {entryFile} | tee out.txt", "required"),
    )]);
    let report = repo.check().expect("config");
    let d = &report.diagnostics[0];
    assert_eq!(d.rule.code, "DOJ023");
    assert!(
        d.message.contains("`|` reaches `yamllint`"),
        "{}",
        d.message
    );
    assert!(
        d.help.as_deref().is_some_and(|h| h.contains("pipes")),
        "{:?}",
        d.help
    );
    for command in [
        "yamllint -d \"{extends: relaxed}\" {entryFile}",
        "actionlint $HOME/ci.yml",
        "actionlint {entryFile}; echo done",
    ] {
        let found = dops(command);
        assert!(
            found.len() == 1 && found[0].contains(" DOJ023 warning "),
            "{command}: {found:#?}"
        );
    }
}

// ── ACL015 ───────────────────────────────────────────────────────────────────────────

fn manifest_with_schema_key(key: &str, value: &str) -> Vec<String> {
    let manifest = VALID_AGENTCLI.replace(
        "\"additionalProperties\": false}",
        &format!("\"additionalProperties\": false, \"{key}\": {value}}}"),
    );
    let repo = Repo::with(&[
        ("tools.json", &manifest),
        ("tools/bin/get_time", "#!/bin/sh\n"),
    ]);
    lines(&repo.check().expect("config"))
}

#[test]
fn acl015_every_refused_keyword_at_the_root() {
    for (key, value) in [
        ("oneOf", "[{\"required\": [\"tz\"]}]"),
        ("anyOf", "[{\"required\": [\"tz\"]}]"),
        ("allOf", "[{\"required\": [\"tz\"]}]"),
        ("enum", "[{\"tz\": \"UTC\"}]"),
        ("not", "{\"required\": [\"x\"]}"),
    ] {
        let found = manifest_with_schema_key(key, value);
        assert!(
            found.len() == 1
                && found[0].contains(" ACL015 error ")
                && found[0].contains(&format!("`{key}` at its top level")),
            "{key}: {found:#?}"
        );
    }
}

#[test]
fn acl015_is_silent_below_the_root_and_on_valid_schemas() {
    assert_eq!(
        manifest_with_schema_key("required", "[\"tz\"]"),
        Vec::<String>::new()
    );
    let nested = VALID_AGENTCLI.replace(
        "\"tz\": {\"type\": \"string\"}",
        "\"tz\": {\"type\": \"string\", \"enum\": [\"UTC\", \"CET\"]}",
    );
    let repo = Repo::with(&[
        ("tools.json", &nested),
        ("tools/bin/get_time", "#!/bin/sh\n"),
    ]);
    assert_eq!(lines(&repo.check().expect("config")), Vec::<String>::new());
}

// ── TMD041 ───────────────────────────────────────────────────────────────────────────

#[test]
fn tmd041_one_finding_for_the_older_layout_besides_each_key() {
    let old = BASE_TOOL.replace("  credentials:", "  auth:");
    let repo = Repo::with(&[("tools/search-docs.tool.md", &old)]);
    let report = repo.check().expect("config");
    let found = lines(&report);
    let layout: Vec<&String> = found.iter().filter(|l| l.contains("TMD041")).collect();
    assert_eq!(layout.len(), 1, "{found:#?}");
    assert!(
        layout[0].contains("older layout of the spec: `transport.auth` → `transport.credentials`"),
        "{found:#?}"
    );
    // The per-key findings stay.
    assert!(found.iter().any(|l| l.contains("TMD034")), "{found:#?}");
    assert!(found.iter().any(|l| l.contains("TMD014")), "{found:#?}");
}

#[test]
fn tmd041_is_silent_on_the_current_layout() {
    let repo = Repo::with(&[("tools/search-docs.tool.md", BASE_TOOL)]);
    assert_eq!(lines(&repo.check().expect("config")), Vec::<String>::new());
}
