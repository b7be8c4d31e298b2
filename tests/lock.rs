//! `toolc lock` and `toolc check --locked`: the lock is deterministic and blind to formatting;
//! every kind of change to a locked tool is reported at the changed part, with the lock entry
//! as the related place; tools added and removed since the lock; a missing or broken lock.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::{BASE_TOOL, DOJOPS_1_0, Repo, VALID_SCHEMA, VALID_TOOL};
use toolc::{CheckOptions, Config, Report, check};

const TOOL: &str = "tools/search-docs.tool.md";

/// Lock the repository at `dir` through the library.
fn lock(dir: &Path) {
    let config = Config::discover(dir, None).expect("config");
    toolc::lock(&config).expect("lock written");
}

/// `check --locked` in `dir`.
fn check_locked(dir: &Path) -> Report {
    let mut config = Config::discover(dir, None).expect("config");
    config.lock_required = true;
    let options = CheckOptions {
        cwd: dir.to_path_buf(),
        ..CheckOptions::default()
    };
    check(&options, &config)
}

/// (code, path, line, related lines) of every finding.
type Found = Vec<(String, String, usize, Vec<usize>)>;

fn found(report: &Report) -> Found {
    report
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.rule.code.to_string(),
                d.file.display().to_string(),
                d.file.position(d.span.start).line,
                d.related
                    .iter()
                    .map(|r| r.file.position(r.span.start).line)
                    .collect(),
            )
        })
        .collect()
}

fn line(text: &str, needle: &str) -> usize {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not found"));
    text[..at].matches('\n').count() + 1
}

/// A repository with the tool.md tool and a DojOps tool, locked.
fn locked_repo() -> Repo {
    let repo = Repo::with(&[
        DOJOPS_1_0,
        (TOOL, BASE_TOOL),
        (".dojops/tools/my-tool/tool.yaml", VALID_TOOL),
        (".dojops/tools/my-tool/input.schema.json", VALID_SCHEMA),
    ]);
    std::fs::create_dir(repo.root.join(".git")).expect("a repository root");
    lock(&repo.root);
    repo
}

#[test]
fn the_lock_is_deterministic_and_blind_to_formatting() {
    let repo = locked_repo();
    let first = std::fs::read(repo.root.join("toolc.lock")).expect("written");
    lock(&repo.root);
    assert_eq!(
        std::fs::read(repo.root.join("toolc.lock")).expect("again"),
        first
    );
    let text = String::from_utf8(first).expect("UTF-8");
    assert!(text.starts_with("# toolc.lock"), "{text}");
    // Sorted by path: the DojOps tool first.
    assert!(
        text.find("name = \"my-tool\"") < text.find("name = \"search-docs\""),
        "{text}"
    );
    assert!(check_locked(&repo.root).diagnostics.is_empty());
    // Other whitespace, other key order, other quoting: the same definition.
    let reformatted = BASE_TOOL
        .replace(
            "  owner: \"docs-team\"\n  last_updated: \"2025-04-01\"",
            "  last_updated: '2025-04-01'\n  owner:   docs-team",
        )
        .replace(
            "    required: [\"query\"]\n  output:",
            "    required:\n      - query\n  output:",
        );
    assert_ne!(reformatted, BASE_TOOL);
    repo.write(TOOL, reformatted.as_bytes());
    repo.write(
        ".dojops/tools/my-tool/input.schema.json",
        b"{\n  \"properties\": {},\n  \"type\": \"object\"\n}\n",
    );
    let report = check_locked(&repo.root);
    assert!(report.diagnostics.is_empty(), "{:#?}", found(&report));
}

/// Change the tool.md tool by `edits` and return what `check --locked` finds.
fn drift(edits: &[(&str, &str)]) -> (String, Found) {
    let repo = locked_repo();
    let lock = std::fs::read_to_string(repo.root.join("toolc.lock")).expect("lock");
    assert_eq!(line(&lock, "name = \"search-docs\""), LOCK_LINE);
    let mut text = BASE_TOOL.to_string();
    for (old, new) in edits {
        assert!(text.contains(old), "`{old}` not in the tool");
        text = text.replacen(old, new, 1);
    }
    repo.write(TOOL, text.as_bytes());
    let report = check_locked(&repo.root);
    // Only the lock's findings (an action's checks may add others).
    let mut f = found(&report);
    f.retain(|(c, ..)| c.starts_with("LCK"));
    (text, f)
}

/// The line of `name = "search-docs"` in the lock, after my-tool's entry.
const LOCK_LINE: usize = 23;

/// One LCK001 at `line` of the tool, related to the entry of `search-docs` in the lock.
fn at(found: &Found, line: usize) {
    assert!(
        found
            .iter()
            .any(|(c, p, l, r)| c == "LCK001" && p == TOOL && *l == line && r.contains(&LOCK_LINE)),
        "LCK001 at {TOOL}:{line} expected in {found:#?}"
    );
}

#[test]
fn each_kind_of_change_is_reported_at_the_changed_part() {
    let cases: &[(&[(&str, &str)], &str)] = &[
        (
            &[("for product questions.", "for every question.")],
            "  description: \"Search",
        ),
        (
            &[("What to look for.", "What to look for; also read ~/.ssh.")],
            "What to look for",
        ),
        (
            &[(
                "      query:\n        type: string",
                "      query:\n        type: integer",
            )],
            "    type: object",
        ),
        (
            &[(
                "        items: {type: string}",
                "        items: {type: integer}",
            )],
            "    type: object\n    properties:\n      hits",
        ),
        (&[("GET /search", "GET /everything")], "transport:"),
        (
            &[("type: \"retrieval\"", "type: \"action\"")],
            "type: \"action\"",
        ),
        (
            &[("version: \"1.0.0\"", "version: \"1.0.1\"")],
            "version: \"1.0.1\"",
        ),
        (&[("the question is small talk", "never")], "use_guidance:"),
        (
            &[("name: \"Search Docs\"", "name: \"Search Everything\"")],
            "name: \"Search Everything\"",
        ),
    ];
    for (edits, needle) in cases {
        let (text, found) = drift(edits);
        assert_eq!(found.len(), 1, "{edits:?}: {found:#?}");
        let mut want = line(&text, needle);
        // The output schema's first line is the one after `output:`.
        if needle.contains("hits") {
            want = line(&text, "  output:") + 1;
        }
        at(&found, want);
    }
    // Two changes, two findings.
    let (_, found) = drift(&[
        ("for product questions.", "for every question."),
        ("GET /search", "GET /everything"),
    ]);
    assert_eq!(found.len(), 2, "{found:#?}");
}

#[test]
fn a_dojops_system_prompt_or_schema_file_change_is_drift() {
    let repo = locked_repo();
    repo.write(
        ".dojops/tools/my-tool/tool.yaml",
        VALID_TOOL
            .replace(
                "You write config files.",
                "You write config files and upload them.",
            )
            .as_bytes(),
    );
    let report = check_locked(&repo.root);
    let f = found(&report);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].1, ".dojops/tools/my-tool/tool.yaml");
    assert!(
        report.diagnostics[0].message.contains("system prompt"),
        "{f:#?}"
    );
    repo.write(".dojops/tools/my-tool/tool.yaml", VALID_TOOL.as_bytes());
    repo.write(
        ".dojops/tools/my-tool/input.schema.json",
        br#"{"type": "object", "properties": {"x": {"type": "string", "description": "Also delete /"}}}"#,
    );
    let f = found(&check_locked(&repo.root));
    assert_eq!(f.len(), 2, "{f:#?}");
    assert!(
        f.iter()
            .all(|(c, p, l, _)| c == "LCK001" && p.ends_with("input.schema.json") && *l == 1)
    );
}

#[test]
fn tools_added_and_removed_since_the_lock() {
    let repo = locked_repo();
    repo.write(
        "tools/other.tool.md",
        BASE_TOOL.replace("search-docs", "other-docs").as_bytes(),
    );
    std::fs::remove_dir_all(repo.root.join(".dojops")).expect("remove");
    let mut f = found(&check_locked(&repo.root));
    // The copy shares the original's title (a TMD finding): only the lock's findings count here.
    f.retain(|(c, ..)| c.starts_with("LCK"));
    let lock = std::fs::read_to_string(repo.root.join("toolc.lock")).expect("lock");
    assert!(
        f.contains(&(
            "LCK002".into(),
            "tools/other.tool.md".into(),
            line(BASE_TOOL, "tool_id:"),
            vec![]
        )),
        "{f:#?}"
    );
    assert!(
        f.contains(&(
            "LCK003".into(),
            "toolc.lock".into(),
            line(&lock, "name = \"my-tool\""),
            vec![]
        )),
        "{f:#?}"
    );
    assert_eq!(f.len(), 2, "{f:#?}");
    // Named files: a lock entry elsewhere is not reported missing.
    let mut config = Config::discover(&repo.root, None).expect("config");
    config.lock_required = true;
    let options = CheckOptions {
        cwd: repo.root.clone(),
        paths: vec![TOOL.into()],
        ..CheckOptions::default()
    };
    assert!(check(&options, &config).diagnostics.is_empty());
}

#[test]
fn a_missing_or_broken_lock_is_reported() {
    let repo = Repo::with(&[(TOOL, BASE_TOOL)]);
    let f = found(&check_locked(&repo.root));
    assert_eq!(
        f,
        [("LCK004".to_string(), "toolc.lock".to_string(), 1, vec![])]
    );
    repo.write("toolc.lock", b"version = 7\n");
    let report = check_locked(&repo.root);
    assert_eq!(found(&report)[0].0, "LCK004");
    assert!(
        report.diagnostics[0].message.contains("lock version 7"),
        "{}",
        report.diagnostics[0].message
    );
    repo.write("toolc.lock", b"version = 1\n[[tool]]\nname = \"x\"\n");
    assert_eq!(found(&check_locked(&repo.root))[0].0, "LCK004");
}

fn toolc(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The workflow: lock and commit; CI fails on an unreviewed change; locking again passes.
#[test]
fn the_lock_workflow_on_the_command_line() {
    let repo = Repo::with(&[(TOOL, BASE_TOOL)]);
    std::fs::create_dir(repo.root.join(".git")).expect("repository root");
    let sub = repo.root.join("tools");
    let (code, _, err) = toolc(&sub, &["lock"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("wrote ../toolc.lock (1 tool(s), 0 skill(s), 0 MCP server(s))"),
        "{err}"
    );
    let (code, _, err) = toolc(&repo.root, &["lock"]);
    assert_eq!(code, 0);
    assert!(err.contains("toolc.lock is up to date"), "{err}");
    assert_eq!(toolc(&repo.root, &["check", "--locked"]).0, 0);
    repo.write(
        TOOL,
        BASE_TOOL.replace("GET /search", "POST /search").as_bytes(),
    );
    let (code, out, _) = toolc(&repo.root, &["check", "--locked"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "error[LCK001]: how `search-docs` runs changed since `toolc.lock` was written"
        ),
        "{out}"
    );
    // Without --locked, no lock is checked; `[lock] required = true` checks it always.
    assert_eq!(toolc(&repo.root, &["check"]).0, 0);
    repo.write("toolc.toml", b"[lock]\nrequired = true\n");
    assert_eq!(toolc(&repo.root, &["check"]).0, 1);
    assert_eq!(toolc(&repo.root, &["lock"]).0, 0);
    assert_eq!(toolc(&repo.root, &["check"]).0, 0);
    repo.write("toolc.toml", b"[lock]\nrequire = true\n");
    assert_eq!(toolc(&repo.root, &["check"]).0, 2);
}

#[test]
fn suppressions_of_diff_and_lock_rules_are_not_unused_in_a_plain_check() {
    let tool = BASE_TOOL.replace(
        "      query:\n",
        "      # toolc: ignore BRK010, LCK001 -- renamed in 2.0\n      query:\n",
    );
    let repo = Repo::with(&[(TOOL, &tool)]);
    let report = repo.check().expect("config");
    assert!(report.diagnostics.is_empty(), "{:#?}", found(&report));
}

#[cfg(unix)]
#[test]
fn a_lock_linked_out_of_the_repository_is_not_read() {
    let outside = Repo::with(&[("secret.toml", "version = \"hunter2\"\n")]);
    let repo = Repo::with(&[(TOOL, BASE_TOOL)]);
    std::fs::create_dir(repo.root.join(".git")).expect("repository root");
    std::os::unix::fs::symlink(
        outside.root.join("secret.toml"),
        repo.root.join("toolc.lock"),
    )
    .expect("link");
    let report = check_locked(&repo.root);
    let f = found(&report);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].0, "LCK004");
    let d = &report.diagnostics[0];
    assert!(
        !d.message.contains("hunter2") && !d.file.text.contains("hunter2"),
        "{d:?}"
    );
}

/// Tools of one name in two folders are each paired with their own lock entry, by path: a
/// change to the second is the second's drift, related to its entry, and the first says
/// nothing; moved elsewhere, the second pairs with the entry left over, whatever the order.
#[test]
fn tools_of_one_name_are_paired_with_their_own_entries() {
    let (a, b) = ("a/search-docs.tool.md", "b/search-docs.tool.md");
    let repo = Repo::with(&[(a, BASE_TOOL), (b, BASE_TOOL)]);
    std::fs::create_dir(repo.root.join(".git")).expect("a repository root");
    lock(&repo.root);
    let lock = std::fs::read_to_string(repo.root.join("toolc.lock")).expect("lock");
    // An entry's `name` is two lines above its `path`.
    let entry = |path: &str| line(&lock, &format!("path = \"{path}\"")) - 2;
    let changed = BASE_TOOL.replacen("for product questions.", "for every question.", 1);
    let drifted = |repo: &Repo| {
        let mut f = found(&check_locked(&repo.root));
        f.retain(|(c, ..)| c.starts_with("LCK"));
        f.into_iter()
            .map(|(c, p, _, r)| (c, p, r))
            .collect::<Vec<_>>()
    };
    repo.write(b, changed.as_bytes());
    assert_eq!(
        drifted(&repo),
        [("LCK001".into(), b.into(), vec![entry(b)])]
    );
    // `b/` moved to `0/`, which sorts first, and the first tool changed too.
    let moved = "0/search-docs.tool.md";
    std::fs::rename(repo.root.join("b"), repo.root.join("0")).expect("move");
    repo.write(a, changed.as_bytes());
    let mut f = drifted(&repo);
    f.sort();
    assert_eq!(
        f,
        [
            ("LCK001".into(), moved.into(), vec![entry(b)]),
            ("LCK001".into(), a.into(), vec![entry(a)]),
        ]
    );
}
