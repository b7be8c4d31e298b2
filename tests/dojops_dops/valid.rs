//! Valid skills are silent: every optional block, every known parser, the real-world v2 skills.

use super::*;

/// Every optional block, each with valid values.
const FULL: &str = r#"---
dops: v2
kind: tool
meta:
  name: nginx
  version: "2.0"
  description: Generate nginx server blocks
  author: someone
  license: MIT
  repository: https://example.com/nginx-skill
  tags: [web, proxy]
  icon: https://example.com/nginx.svg
context:
  technology: nginx
  fileFormat: raw
  outputGuidance: |
    Output the configuration only.
    ---
    Never wrap it in code fences.
  bestPractices:
    - Redirect HTTP to HTTPS
  context7Libraries:
    - name: nginx
      query: "server blocks, TLS"
files:
  - path: "{outputPath}/nginx.conf"
    format: raw
    conditional: false
detection:
  paths: ["nginx.conf", "**/nginx/*.conf"]
  updateMode: true
verification:
  structural:
    - path: "server"
      required: true
      type: object
      minItems: 1
      message: "a server block is required"
      requiredUnless: "upstream"
  binary:
    command: "nginx -t -c {entryFile}"
    parser: nginx-stderr
    timeout: 30000
    cwd: tool
  severity:
    error: ["emerg"]
    warning: []
    info: ["notice"]
permissions:
  filesystem: write
  child_process: required
  network: none
scope:
  write: ["nginx.conf", 'conf.d\*.conf', "a..b/x.conf"]
risk:
  level: LOW
  rationale: "Configuration is reviewed before deployment"
execution:
  mode: update
  deterministic: true
  idempotent: true
update:
  strategy: preserve_structure
  inputSource: file
  injectAs: existingContent
capabilities:
  sideEffects: filesystem
  runtime: short
dependencies:
  - skill: tls-certificates
    optional: true
---
# nginx

## prompt

You are an nginx expert.

## Update Prompt

Update the configuration.

## KEYWORDS

nginx
"#;

// ── valid skills ───────────────────────────────────────────────────────────────────────

#[test]
fn minimal_skill_is_silent() {
    assert_eq!(check(BASE), Vec::<String>::new());
}

#[test]
fn every_optional_block_with_valid_values_is_silent() {
    assert_eq!(check(FULL), Vec::<String>::new());
}

#[test]
fn every_known_parser_is_accepted() {
    for parser in [
        "terraform-json",
        "hadolint-json",
        "kubectl-stderr",
        "helm-lint",
        "nginx-stderr",
        "promtool",
        "systemd-analyze",
        "make-dryrun",
        "ansible-syntax",
        "docker-compose-config",
        "actionlint",
        "github-actions",
        "gitlab-ci",
        "generic-stderr",
        "generic-json",
        "packer-validate",
        "shellcheck-json",
    ] {
        let skill = BASE.replace(
            "files:",
            &format!(
                "verification:\n  binary:\n    command: make -n\n    parser: {parser}\nfiles:"
            ),
        );
        assert_eq!(check(&skill), Vec::<String>::new(), "{parser}");
    }
}

#[test]
fn real_world_v2_skills_have_no_error() {
    for corpus in ["dojops-skills", "dojops-kind-tool"] {
        let Some(dir) = common::corpus(corpus) else {
            continue;
        };
        let report = common::check_dir(&dir).expect("config");
        // DojOps's own github-actions skill verifies with shell syntax it runs without a
        // shell (DOJ023): a warning, the skill itself loads.
        let expected: &[&str] = if corpus == "dojops-skills" {
            &[
                ".dojops/skills/github-actions.dops:159:39 DOJ023 warning DojOps runs this command without a shell: `.github/workflows/*.yml`, `2>&1` and `||` reach `actionlint` as literal arguments",
            ]
        } else {
            &[]
        };
        assert_eq!(lines(&report), expected, "{corpus}");
    }
}
