//! Configuration: found upward from a subfolder, rules by code and by name, overrides by glob,
//! format includes, errors in the file, and a configuration named on the command line.

use super::*;

// --- configuration --------------------------------------------------------------------------

#[test]
fn config_is_found_upward_from_a_subfolder() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    warning_tool(&repo, "b");
    config(&repo, "toolc.toml", "[rules]\nDOJ003 = \"warning\"\n");
    let sub = repo.root.join(".dojops/tools");
    let (status, diags) = check_json(&sub, &[]);
    assert_eq!(
        summary(&diags),
        ["DOJ003 a/tool.yaml:2:7", "DOJ007 b/tool.yaml:3:1"]
    );
    assert!(
        diags.iter().all(|d| d["severity"] == "warning"),
        "{diags:#?}"
    );
    assert_eq!(status, 0, "warnings only");
}

#[test]
fn rules_by_code_by_name_and_off() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    warning_tool(&repo, "b");
    config(
        &repo,
        "toolc.toml",
        "[rules]\ninvalid-tool-name = \"info\"\nDOJ007 = \"off\"\n",
    );
    let (status, diags) = check_json(&repo.root, &[]);
    assert_eq!(summary(&diags), ["DOJ003 .dojops/tools/a/tool.yaml:2:7"]);
    assert_eq!(diags[0]["severity"], "info");
    assert_eq!(status, 0, "info never fails a run");

    config(
        &repo,
        "toolc.toml",
        "[rules]\nDOJ = \"off\"\nDOJ003 = \"error\"\n",
    );
    let (status, diags) = check_json(&repo.root, &[]);
    assert_eq!(
        summary(&diags),
        ["DOJ003 .dojops/tools/a/tool.yaml:2:7"],
        "a code is more specific than its prefix"
    );
    assert_eq!(status, 1);
}

#[test]
fn overrides_apply_by_glob() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    tool_at(
        &repo,
        "legacy/.dojops/tools",
        "b",
        &VALID_TOOL.replace("my-tool", "Bad_B"),
    );
    config(
        &repo,
        "toolc.toml",
        "[[overrides]]\npaths = [\"legacy/**\"]\nrules = { DOJ003 = \"off\" }\n",
    );
    let (_, diags) = check_json(&repo.root, &[]);
    assert_eq!(summary(&diags), ["DOJ003 .dojops/tools/a/tool.yaml:2:7"]);
    // Globs are relative to the config file's folder wherever toolc runs from.
    let (_, diags) = check_json(&repo.root.join("legacy"), &[".."]);
    assert_eq!(summary(&diags), ["DOJ003 ../.dojops/tools/a/tool.yaml:2:7"]);
}

#[test]
fn format_include_picks_up_a_manifest_outside_dojops() {
    let repo = Repo::new();
    tool_at(
        &repo,
        "my-tools",
        "x",
        &VALID_TOOL.replace("my-tool", "Bad_X"),
    );
    let (_, diags) = check_json(&repo.root, &[]);
    assert!(diags.is_empty(), "not a built-in pattern: {diags:#?}");
    config(
        &repo,
        "toolc.toml",
        "[formats.dojops-tool]\ninclude = [\"my-tools/*/tool.yaml\"]\n",
    );
    let (_, diags) = check_json(&repo.root, &[]);
    assert_eq!(summary(&diags), ["DOJ003 my-tools/x/tool.yaml:2:7"]);
    assert_eq!(diags[0]["format"], "dojops-tool");
}

/// Each bad config exits 2 with TLC003 at `line:column` of `toolc.toml`.
#[test]
fn bad_config_exits_2_with_a_diagnostic_in_the_file() {
    let cases: &[(&str, &str)] = &[
        ("[rules]\nDOJ003 = \"off\"\nDOJ999 = \"off\"\n", "3:1"),
        ("# severities\n[rules]\nSEC001 = \"loud\"\n", "3:10"),
        ("[rules]\nDOJ003 = off\n", "2:10"),
        ("[formats.not-a-format]\ninclude = [\"x/*.yaml\"]\n", "1:10"),
        ("[rule]\nDOJ003 = \"off\"\n", "1:2"),
    ];
    for (text, at) in cases {
        let repo = Repo::new();
        tool(&repo, "a", "Bad_A");
        repo.write("toolc.toml", text.as_bytes());
        let (status, diags) = check_json(&repo.root, &[]);
        assert_eq!(status, 2, "{text}");
        assert_eq!(
            summary(&diags),
            [format!("TLC003 toolc.toml:{at}")],
            "{text}"
        );
        // Nothing was checked: no diagnostic of the tool.
        let output = toolc(&repo.root, &["check", "--no-color"]);
        assert_eq!(code(&output), 2);
        let err = stderr(&output);
        assert!(
            err.contains(&format!("toolc.toml:{at}")) && err.contains("TLC003"),
            "{err}"
        );
        assert!(!stdout(&output).contains("DOJ003"), "{}", stdout(&output));
    }
}

#[test]
fn unknown_rule_in_config_gets_a_suggestion() {
    let repo = Repo::new();
    repo.write("toolc.toml", b"[rules]\ninvalid-tool-nmae = \"off\"\n");
    let (status, diags) = check_json(&repo.root, &[]);
    assert_eq!(status, 2);
    // The suggestion is a did-you-mean with the edit that writes it.
    assert_eq!(
        diags[0]["help"].as_str(),
        Some("did you mean `invalid-tool-name`?"),
        "{:?}",
        diags[0]
    );
    assert_eq!(
        diags[0]["fix"]["edits"][0]["replacement"].as_str(),
        Some("invalid-tool-name"),
        "{:?}",
        diags[0]
    );
}

#[test]
fn explicit_config_file() {
    let repo = Repo::new();
    tool(&repo, "a", "Bad_A");
    config(&repo, "ci/strict.toml", "[rules]\nDOJ003 = \"off\"\n");
    config(&repo, "toolc.toml", "[rules]\nDOJ003 = \"warning\"\n");
    let (status, diags) = check_json(&repo.root, &["--config", "ci/strict.toml"]);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(status, 0);
    // Relative to the working directory, `..` included.
    let (_, diags) = check_json(
        &repo.root.join("ci"),
        &["--config", "../ci/strict.toml", ".."],
    );
    assert!(diags.is_empty(), "{diags:#?}");
    let output = toolc(&repo.root, &["check", "--config", "nope.toml"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("nope.toml"), "{}", stderr(&output));
}

#[test]
fn explicit_config_overrides_are_relative_to_its_folder() {
    let repo = Repo::new();
    tool_at(
        &repo,
        "legacy/.dojops/tools",
        "b",
        &VALID_TOOL.replace("my-tool", "Bad_B"),
    );
    config(
        &repo,
        "toolc.toml",
        "[[overrides]]\npaths = [\"legacy/**\"]\nrules = { DOJ003 = \"off\" }\n",
    );
    let sub = repo.root.join("legacy");
    let (_, diags) = check_json(&sub, &["--config", "../toolc.toml", "."]);
    assert!(diags.is_empty(), "{diags:#?}");
}
