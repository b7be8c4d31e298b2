//! The same install from outside the package index in an MCP server's command and in a
//! skill's code block: one rule, one severity, in both places.

mod common;

use common::Repo;

/// A package installed from outside the index when a command starts is `SEC047` in an MCP
/// server's command as in a skill's code block; pinned by commit, it is neither.
#[test]
fn an_install_from_outside_the_index_is_the_same_finding_in_a_server_and_a_skill() {
    let skill = "---\nname: lint\ndescription: Lints the project. Use when the user asks for a lint.\n---\n\n# Lint\n\n```bash\n";
    let cases = [
        (
            [
                "uvx",
                "--from",
                "git+https://git.example-forge.dev/lint/lint-mcp",
                "lint-mcp",
            ],
            true,
        ),
        (
            ["npx", "-y", "github:someone-else/lint-mcp", "--stdio"],
            true,
        ),
        (
            [
                "npm",
                "exec",
                "--yes",
                "https://cdn.example-kits.dev/lint-2.4.0.tgz",
            ],
            true,
        ),
        (
            [
                "uvx",
                "--from",
                "git+https://git.example-forge.dev/lint/lint-mcp@3f9c2a7e4b1d08c6a5e2f9b7d3c1a0e8f6b4d2c9",
                "lint-mcp",
            ],
            false,
        ),
    ];
    for (argv, reported) in cases {
        let args: Vec<String> = argv[1..].iter().map(|a| format!("\"{a}\"")).collect();
        let repo = Repo::with(&[
            (
                ".mcp.json",
                &format!(
                    "{{\"mcpServers\": {{\"lint\": {{\"command\": \"{}\", \"args\": [{}]}}}}}}\n",
                    argv[0],
                    args.join(", ")
                ),
            ),
            (
                ".claude/skills/lint/SKILL.md",
                &format!("{skill}{}\n```\n", argv.join(" ")),
            ),
        ]);
        let report = repo.check().expect("config");
        let mut found: Vec<String> = report
            .diagnostics
            .iter()
            .filter(|d| d.rule.code == "SEC047")
            .map(|d| format!("{} {}", d.file.display(), d.severity))
            .collect();
        found.sort();
        let expected: &[&str] = if reported {
            &[".claude/skills/lint/SKILL.md warning", ".mcp.json warning"]
        } else {
            &[]
        };
        assert_eq!(found, expected, "{argv:?}");
    }
}
