//! A credential written into any field of any format is never printed in full, by any rule
//! and in any output format: messages, labels, notes, help, related places and snippets show
//! it masked, and a fix whose text would carry it is left out of the output.
//!
//! One token is planted in every field a rule quotes (names, ids, versions, unknown keys,
//! one glued to the word before it or behind a failed token, a line of more tokens than a
//! line is read for, paths, commands, references, environment variables,
//! headers, URLs, request fields) and in the ones the secret rules read; the rules that
//! quote it do fire (the masked prefix shows),
//! and the token itself appears nowhere in any of the eight output formats, nor in the diff
//! `check --diff` prints of the fixes.

mod common;

use common::{Repo, VALID_SCHEMA};

/// The planted credential (a made-up GitHub token with a valid checksum), and what may be
/// shown of it.
const TOKEN: &str = "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";
const SHOWN: &str = "ghp_Q7";

/// A literal password, assigned to a secret-like name.
const PASSWORD: &str = "Winter2025!Tr0mb0ne";

fn repo() -> Repo {
    let t = TOKEN;
    let p = PASSWORD;
    // More tokens on one line than a line is read for.
    let many = vec![t; 17].join(" ");
    let request =
        include_str!("fixtures/tool-request/valid/requests/TR-20250131-140500Z-sales-summary.md")
            .replace(
                "requested_by: core",
                &format!("requested_by: {t}\nreviewer: {t}"),
            )
            .replace("backend: ERA", &format!("backend: {t}"))
            .replace(
                "--out /out/summary.json",
                &format!("--out /out/summary.json --token {t} DB_PASSWORD={p} ~/{t}"),
            )
            .replace("## Input Files", &format!("## {t}\n\n## Input Files"));
    Repo::with(&[
        (
            ".dojops/tools/leaky/tool.yaml",
            &format!(
                "spec: 1\nname: {t}\ndescription: Uses {t}\nversion: {t}\n{t}: 1\npermisions: {t}\ninputSchema: input.schema.json\ngenerator:\n  strategy: llm\n  systemPrompt: \"token {t}\"\nfiles:\n  - path: \"../{t}\"\n    serializer: yaml\nverification:\n  command: \"{t} --check && curl -H 'Authorization: Bearer {t}' http://x.example.com\"\n"
            ),
        ),
        (".dojops/tools/leaky/input.schema.json", VALID_SCHEMA),
        (
            ".dojops/skills/leaky.dops",
            &format!(
                "---\ndops: v2\nkind: skill\nmeta:\n  name: {t}\n  version: {t}\n  description: d\ncontext:\n  technology: {t}\nfiles:\n  - path: /{t}\n---\n## Prompt\nUse {t}.\n"
            ),
        ),
        (
            ".cycod/tools/leaky.yaml",
            &format!(
                "name: {t}\ndescription: Calls {{{t}}}\nbash: curl -u user:{p} http://x.example.com/{{{t}}}\n{t}: 1\nx{t}: 2\naghp_x{t}: 3\n{many}: 4\nparameters:\n  {t}:\n    type: {t}\n    description: d\nenvironment:\n  API_TOKEN: {t}\n  DB_PASSWORD: {p}\ntags: [{t}]\n"
            ),
        ),
        (
            "tools.json",
            &format!(
                r#"{{"tools": [{{"name": "{t}", "description": "d", "schema": {{"type": "object", "properties": {{"{t}": {{"type": "{t}"}}}}}}, "command": ["./tools/bin/{t}", "--token={t}"], "envPassthrough": ["{t}", "GITHUB_TOKEN"], "{t}": 1}}]}}"#
            ),
        ),
        (
            "docs/leaky.tool.md",
            &format!(
                "---\nspec_version: \"1.2\"\ntool_id: \"{t}\"\nversion: \"{t}\"\nstatus: \"{t}\"\nmeta:\n  name: \"n\"\n  description: \"d\"\n  owner: \"o\"\ntype: \"{t}\"\ntransport:\n  type: \"rest-api\"\n  base_url: \"http://api.example.com/{t}\"\n  endpoint: \"GET /x?api_key={t}\"\n  headers:\n    Authorization: \"Bearer {t}\"\n  credentials:\n    scheme: \"{t}\"\n---\n# Purpose\nUses {t}.\n"
            ),
        ),
        ("requests/TR-20250131-140500Z-sales-summary.md", &request),
        (
            ".mcp.json",
            &format!(
                r#"{{"mcpServers": {{"{t}": {{"command": "npx", "args": ["-y", "{t}", "--key={t}"], "env": {{"GITHUB_TOKEN": "{t}", "DB_PASSWORD": "{p}"}}, "{t}": 1}}, "web": {{"type": "http", "url": "http://user:{p}@mcp.example.com/{t}", "headers": {{"Authorization": "Bearer {t}"}}}}}}}}"#
            ),
        ),
        (
            "server/server.json",
            &format!(
                r#"{{"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", "name": "{t}", "description": "d", "version": "{t}", "packages": [{{"registryType": "{t}", "identifier": "{t}", "version": "{t}", "transport": {{"type": "stdio"}}, "environmentVariables": [{{"name": "API_KEY", "value": "{t}", "default": "{t}"}}]}}], "remotes": [{{"type": "sse", "url": "http://{t}.example.com/sse"}}]}}"#
            ),
        ),
        (
            ".claude/skills/leaky/SKILL.md",
            &format!(
                "---\nname: {t}\ndescription: Uses {t}\nallowed-tools: Bash({t}) {t}\n{t}: x\n---\nSee [the key]({t}.md) and run `scripts/{t}.sh`.\n"
            ),
        ),
        (
            ".claude/skills/leaky/scripts/run.sh",
            &format!("#!/bin/sh\nexport GITHUB_TOKEN={t}\n"),
        ),
        (
            "agents/leaky.agent.md",
            &format!(
                "---\nspec_version: \"1.2\"\nagent_id: \"{t}\"\nversion: \"1.0.0\"\nmeta:\n  name: \"n\"\n  description: \"d\"\ntools:\n  refs:\n    - ref: \"{t}\"\n---\nInstructions with {t}.\n"
            ),
        ),
    ])
}

/// `toolc check --format FORMAT` on the repository: its standard output and error.
fn output(repo: &Repo, format: &str) -> String {
    run(repo, &["check", "--format", format, "--no-color"])
}

/// `toolc ARGS` in the repository: its standard output and error.
fn run(repo: &Repo, args: &[&str]) -> String {
    let out = assert_cmd::Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(&repo.root)
        .env("TOOLC_SHELLCHECK", "")
        .args(args)
        .output()
        .expect("run toolc");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_credential_is_never_printed_in_full() {
    let repo = repo();
    for format in [
        "human", "json", "sarif", "github", "junit", "gitlab", "rdjson", "markdown",
    ] {
        let text = output(&repo, format);
        assert!(
            text.matches(SHOWN).count() > 20,
            "{format}: the rules that quote the planted fields did not fire:\n{text}"
        );
        if let Some(at) = text.find(&TOKEN[..12]) {
            let context = &text[at.saturating_sub(80)..(at + 120).min(text.len())];
            panic!("{format}: the token is printed in full: …{context}…");
        }
        if let Some(at) = text.find(PASSWORD) {
            let context = &text[at.saturating_sub(300)..(at + 120).min(text.len())];
            panic!("{format}: the password is printed: …{context}…");
        }
    }
}

/// The diff of `check --diff` shows the lines around a fix, which no finding quotes: a
/// credential there is masked as in every output.
#[test]
fn a_credential_beside_a_fix_is_never_printed_in_full_by_check_diff() {
    let repo = repo();
    let text = run(&repo, &["check", "--diff", "--no-color"]);
    assert!(
        text.contains("@@") && text.contains("+permissions:"),
        "no diff of the misspelt key's fix:\n{text}"
    );
    assert!(
        text.contains(&format!("-permisions: {SHOWN}")),
        "the fixed line is not shown, masked:\n{text}"
    );
    if let Some(at) = text.find(&TOKEN[..12]) {
        let context = &text[at.saturating_sub(80)..(at + 120).min(text.len())];
        panic!("the token is printed in full: …{context}…");
    }
    assert!(!text.contains(PASSWORD), "the password is printed:\n{text}");
}
