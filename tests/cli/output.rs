//! Output options: `--quiet`, colour without a terminal, `rules` and `explain`, paths relative to
//! the working directory, and cropped long lines.

use super::*;

// --- output options -------------------------------------------------------------------------

#[test]
fn quiet_prints_no_summary() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    let loud = stdout(&toolc(&repo.root, &["check"]));
    assert!(loud.contains("Found 1 error"), "{loud}");
    for flag in ["-q", "--quiet"] {
        let quiet = stdout(&toolc(&repo.root, &["check", flag]));
        assert!(quiet.contains("DOJ003"), "{quiet}");
        assert!(!quiet.contains("Found"), "{quiet}");
    }
    let clean = Repo::new();
    tool(&clean, "ok", "ok");
    assert_eq!(stdout(&toolc(&clean.root, &["check", "-q"])), "");
}

#[test]
fn no_escape_codes_without_a_terminal() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    warning_tool(&repo, "b");
    for args in [&["check"][..], &["check", "--no-color"][..]] {
        let output = toolc(&repo.root, args);
        assert!(stdout(&output).contains("DOJ003"));
        assert!(
            !output.stdout.contains(&0x1b) && !output.stderr.contains(&0x1b),
            "{args:?}: {}",
            stdout(&output)
        );
    }
}

#[test]
fn rules_lists_every_rule() {
    let output = toolc(Path::new(env!("CARGO_MANIFEST_DIR")), &["rules"]);
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    let all = toolc::rules();
    assert_eq!(text.lines().count(), all.len(), "{text}");
    for (line, rule) in text.lines().zip(&all) {
        assert!(
            line.starts_with(rule.code)
                && line.contains(rule.name)
                && line.contains(rule.severity.as_str()),
            "{line}"
        );
    }
    let json = toolc(Path::new("."), &["rules", "--format", "json"]);
    let list: Vec<Value> = serde_json::from_slice(&json.stdout).expect("JSON list");
    assert_eq!(list.len(), all.len());
}

#[test]
fn explain_by_code_and_by_name() {
    let rule = toolc::rule("DOJ003").expect("DOJ003 exists");
    let page = rule.page().expect("DOJ003 has a page");
    let body = page.split_once("\n---\n").expect("front matter").1;
    for query in ["DOJ003", "doj003", "invalid-tool-name"] {
        let output = toolc(Path::new("."), &["explain", query]);
        assert_eq!(code(&output), 0, "{query}: {}", stderr(&output));
        let out = stdout(&output);
        // One header line for people, then the page without its front matter.
        let (header, rest) = out.split_once("\n\n").expect("a header line");
        assert!(
            header.starts_with("DOJ003 · invalid-tool-name · error · "),
            "{header}"
        );
        assert!(header.contains("since 0.1.0"), "{header}");
        assert_eq!(rest, body.trim_start_matches('\n'));
        for internal in ["source:", "example:", "precision:", "---"] {
            assert!(
                !out.starts_with(internal) && !out.contains(&format!("\n{internal}")),
                "{out}"
            );
        }
    }
}

#[test]
fn explain_unknown_rule_suggests_the_closest() {
    for (query, suggestion) in [
        ("invalid-tool-nam", "invalid-tool-name"),
        ("duplicate-keys", "duplicate-key"),
    ] {
        let output = toolc(Path::new("."), &["explain", query]);
        assert_eq!(code(&output), 2);
        assert_eq!(stdout(&output), "");
        let err = stderr(&output);
        assert!(
            err.contains(&format!("did you mean `{suggestion}`?")),
            "{err}"
        );
    }
    let output = toolc(Path::new("."), &["explain", "XYZ"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("`XYZ`"), "{}", stderr(&output));
}

#[test]
fn paths_are_relative_to_the_working_directory() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    std::fs::create_dir_all(repo.root.join("docs")).expect("mkdir");
    let docs = repo.root.join("docs");
    let absolute = repo.root.join(".dojops/tools/a");
    let absolute = absolute.to_str().expect("UTF-8 temp path");
    for (cwd, arg, expected) in [
        (&repo.root, absolute, ".dojops/tools/a/tool.yaml"),
        (&docs, absolute, "../.dojops/tools/a/tool.yaml"),
        (&docs, "../.dojops", "../.dojops/tools/a/tool.yaml"),
        (&docs, "..", "../.dojops/tools/a/tool.yaml"),
        (
            &docs,
            "../.dojops/tools/a/tool.yaml",
            "../.dojops/tools/a/tool.yaml",
        ),
        (
            &repo.root,
            "./.dojops/../.dojops",
            ".dojops/tools/a/tool.yaml",
        ),
    ] {
        let (_, diags) = check_json(cwd, &[arg]);
        assert_eq!(
            summary(&diags),
            [format!("DOJ003 {expected}:2:7")],
            "{arg} from {}",
            cwd.display()
        );
        let human = stdout(&toolc(cwd, &["check", "--no-color", arg]));
        assert!(human.contains(&format!("--> {expected}:2:7")), "{human}");
    }
}

#[test]
fn cropped_long_lines_keep_their_true_column_in_the_header() {
    // Two tools on one long line: the second's error is far right, so its snippet is cropped.
    let filler = "x".repeat(2000);
    let manifest = format!(
        r#"{{"tools": [{{"name": "a", "description": "{filler}", "command": ["./tools/bin/a"]}}, {{"name": "b", "description": "d", "command": ["echo"]}}]}}"#
    );
    let repo = common::Repo::with(&[("tools.json", manifest.as_str())]);
    let run = |format: &str| {
        let out = assert_cmd::Command::cargo_bin("toolc")
            .expect("binary")
            .current_dir(&repo.root)
            .args([
                "check",
                "--no-color",
                "--select",
                "ACL005",
                "--format",
                format,
            ])
            .output()
            .expect("run");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("json");
    let column = json["diagnostics"][0]["span"]["start"]["column"]
        .as_u64()
        .expect("column");
    assert!(column > 2000, "{column}");
    let human = run("human");
    assert!(
        human.contains(&format!("tools.json:1:{column}\n")),
        "{human}"
    );
    assert!(
        human.len() < 4000,
        "the long line is cropped: {} bytes",
        human.len()
    );
}
