//! MCP files next to skillsaw (`pip install skillsaw`), the Python linter that also checks
//! MCP configurations and `server.json`: each fixture in `tests/fixtures/mcp/` holds one
//! defect, and toolc reports exactly that defect, at its line and column. With skillsaw
//! installed and named by `SKILLSAW` (CI does both), every error it reports on a fixture must
//! be reported by toolc in the same file too, except where skillsaw is wrong (listed below,
//! with the reason).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{check_dir, lines};

/// Each fixture and the one finding toolc gives it (`CODE severity`), or none.
const CASES: &[(&str, Option<&str>)] = &[
    ("config-bearer-in-header", Some("MCP019 error")),
    ("config-cursor-servers-key", Some("MCP017 error")),
    ("config-empty-command", Some("MCP001 error")),
    ("config-http-without-url", Some("MCP018 error")),
    ("config-invalid-json", Some("SYN002 error")),
    ("config-no-command-or-url", Some("MCP001 error")),
    ("config-password-in-url", Some("MCP019 error")),
    ("config-plaintext-url", Some("MCP021 warning")),
    ("config-stdio-without-command", Some("MCP018 error")),
    ("config-token-in-env", Some("MCP019 error")),
    ("config-undefined-input", Some("MCP012 error")),
    ("config-unknown-type", Some("MCP003 error")),
    ("config-unpinned-npx", Some("MCP020 warning")),
    ("config-vscode-comments", None),
    ("config-vscode-mcpservers-key", Some("MCP017 error")),
    ("server-bad-hash", Some("MCP003 error")),
    ("server-bad-name", Some("MCP006 error")),
    ("server-bad-namespace-label", Some("MCP006 error")),
    ("server-description-too-long", Some("MCP004 error")),
    ("server-icon-http", Some("MCP011 error")),
    ("server-mcpb-url-without-mcp", Some("MCP014 warning")),
    ("server-mcpb-without-hash", Some("MCP010 error")),
    ("server-missing-schema", Some("MCP001 error")),
    ("server-named-argument-with-value", Some("MCP013 error")),
    ("server-npm-without-version", Some("MCP001 error")),
    ("server-package-version-latest", Some("MCP007 error")),
    ("server-package-version-range", Some("MCP007 error")),
    ("server-positional-without-value", Some("MCP001 error")),
    ("server-private-npm-registry", Some("MCP014 warning")),
    ("server-remote-http", Some("MCP011 error")),
    ("server-remote-localhost", Some("MCP011 error")),
    ("server-remote-stdio", Some("MCP003 error")),
    ("server-remote-undefined-variable", Some("MCP012 error")),
    ("server-repository-url-mismatch", Some("MCP003 error")),
    ("server-status-key", Some("MCP005 warning")),
    ("server-stdio-with-url", Some("MCP003 error")),
    ("server-subfolder-climbs", Some("MCP003 error")),
    ("server-unknown-registry-type", Some("MCP014 warning")),
    ("server-unknown-transport", Some("MCP003 error")),
    ("server-website-http", Some("MCP011 error")),
];

/// Fixtures where skillsaw reports an error that is not one, and why.
const SKILLSAW_WRONG: &[(&str, &str)] = &[(
    "config-vscode-comments",
    "VS Code reads `.vscode/mcp.json` as JSON with comments and trailing commas; skillsaw parses it as strict JSON",
)];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp")
}

#[test]
fn every_fixture_gives_exactly_its_finding() {
    let mut dirs: Vec<String> = std::fs::read_dir(fixtures())
        .expect("tests/fixtures/mcp")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    dirs.sort();
    let listed: Vec<&str> = CASES.iter().map(|(d, _)| *d).collect();
    assert_eq!(dirs, listed, "every fixture has a case, in order");
    for (dir, want) in CASES {
        let report = check_dir(&fixtures().join(dir)).expect("config");
        let found: Vec<String> = lines(&report)
            .iter()
            .map(|l| {
                l.splitn(4, ' ')
                    .skip(1)
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let want: Vec<String> = want.iter().map(|w| (*w).to_string()).collect();
        assert_eq!(found, want, "{dir}: {:#?}", lines(&report));
        for d in &report.diagnostics {
            let at = d.file.position(d.span.start);
            assert!(at.line >= 1 && at.column >= 1, "{dir}: no position");
        }
    }
}

/// The skillsaw program, when `SKILLSAW` names it.
fn skillsaw() -> Option<PathBuf> {
    std::env::var_os("SKILLSAW").map(PathBuf::from)
}

/// The errors skillsaw reports when run in `dir`: (file, message), paths relative to `dir`.
fn skillsaw_errors(program: &Path, dir: &Path) -> Vec<(String, String)> {
    let out = Command::new(program)
        .current_dir(dir)
        .args([
            "lint",
            "--no-progress",
            "--no-color",
            "--format",
            "json",
            ".",
        ])
        .output()
        .expect("run skillsaw");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "skillsaw output is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    report["violations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter(|v| v["severity"] == "error")
        .map(|v| {
            (
                v["file_path"].as_str().unwrap_or("").to_string(),
                v["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn toolc_reports_every_error_skillsaw_reports() {
    let Some(program) = skillsaw() else {
        eprintln!("skipped: SKILLSAW does not name a skillsaw program (pip install skillsaw)");
        return;
    };
    // skillsaw reads `.mcp.json` only at the root it is given, so those fixtures are linted
    // one by one; every other file is found from the fixtures' folder in one run.
    let mut errors: Vec<(String, String)> = skillsaw_errors(&program, &fixtures());
    for (dir, _) in CASES {
        if fixtures().join(dir).join(".mcp.json").is_file() {
            let found = skillsaw_errors(&program, &fixtures().join(dir));
            errors.extend(found.into_iter().map(|(f, m)| (format!("{dir}/{f}"), m)));
        }
    }
    let mut missed = Vec::new();
    for (dir, why) in SKILLSAW_WRONG {
        assert!(
            errors
                .iter()
                .any(|(f, _)| f.starts_with(&format!("{dir}/"))),
            "{dir}: skillsaw no longer reports it ({why}): remove it from SKILLSAW_WRONG"
        );
    }
    for (file, message) in &errors {
        let Some((dir, rel)) = file.split_once('/') else {
            continue;
        };
        if SKILLSAW_WRONG.iter().any(|(d, _)| *d == dir) {
            continue;
        }
        let report = check_dir(&fixtures().join(dir)).expect("config");
        if !report.diagnostics.iter().any(|d| d.file.display() == rel) {
            missed.push(format!("{file}: {message}"));
        }
    }
    let flagged: std::collections::BTreeSet<&str> = errors
        .iter()
        .filter_map(|(f, _)| f.split_once('/').map(|(d, _)| d))
        .collect();
    eprintln!(
        "skillsaw reports an error in {} of {} fixtures; toolc in {}",
        flagged.len(),
        CASES.len(),
        CASES
            .iter()
            .filter(|(_, w)| w.is_some_and(|w| w.ends_with("error")))
            .count()
    );
    assert!(
        missed.is_empty(),
        "skillsaw errors toolc does not report:\n{}",
        missed.join("\n")
    );
}
