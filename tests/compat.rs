//! Provider-compatibility (CMP) rules: where each finding points, when the rules run, and
//! how configuration and suppressions decide what a build compiles. The rule pages' own
//! examples (tests/rule_pages.rs) show each rule firing once and staying silent on its fix.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::{Repo, lines};

const ALL_TARGETS: &str = "[build]\ntargets = [\"openai\", \"anthropic\", \"mcp\", \"gemini\"]\n";

/// A cycod tool named `name` that every provider takes.
fn cycod_tool(name: &str) -> String {
    format!("name: {name}\ndescription: Print {name}\nrun: echo {name}\ntags: [read]\n")
}

/// The JSON file at `rel` in `repo`.
fn read_json(repo: &Repo, rel: &str) -> serde_json::Value {
    let bytes = std::fs::read(repo.root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Build `paths` of `repo` (all of it when empty) for the `bundle` target only, which must
/// succeed; its stderr and `toolc.bundle.json`.
fn build_bundle(repo: &Repo, paths: &[&str]) -> (String, serde_json::Value) {
    let mut args = vec!["build"];
    args.extend_from_slice(paths);
    args.extend(["--out", "dist", "--target", "bundle"]);
    let run = toolc(&repo.root, &args);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    (stderr, read_json(repo, "dist/toolc.bundle.json"))
}

fn report_lines(repo: &Repo) -> Vec<String> {
    lines(&repo.check().expect("valid configuration"))
}

fn toolc(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("toolc")
        .expect("binary")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run toolc")
}

/// The common valid tool.md tool with `input` (YAML, indented under `input:`) as its input
/// schema.
fn tool_md(id: &str, input: &str) -> String {
    let tool =
        common::BASE_TOOL.replacen("tool_id: \"search-docs\"", &format!("tool_id: \"{id}\""), 1);
    let start = tool.find("  input:\n").expect("input") + "  input:\n".len();
    let end = tool.find("  output:\n").expect("output");
    format!("{}{input}\n{}", &tool[..start], &tool[end..])
}

#[test]
fn gemini_findings_point_at_the_keyword_in_the_source_schema() {
    let input = "    type: object\n    properties:\n      query:\n        type: string\n        const: \"x\"\n      when:\n        type: string\n        format: email\n    required: [query, when]\n    additionalProperties: false";
    let repo = Repo::with(&[
        ("toolc.toml", "[build]\ntargets = [\"gemini\"]\n"),
        ("tools/search-docs.tool.md", &tool_md("search-docs", input)),
    ]);
    assert_eq!(
        report_lines(&repo),
        [
            // An unsupported keyword: on its key.
            "tools/search-docs.tool.md:18:9 CMP004 error Gemini cannot take the input schema of `search-docs`: `const` is not in Gemini's schema subset",
            // A bad value: on the value.
            "tools/search-docs.tool.md:21:17 CMP004 error Gemini cannot take the input schema of `search-docs`: Gemini does not accept `format: \"email\"` on this type",
        ]
    );
}

#[test]
fn a_nullable_type_keeps_its_gemini_format_and_converts() {
    let input = "    type: object\n    properties:\n      at:\n        type: [string, \"null\"]\n        format: date-time\n    required: [at]\n    additionalProperties: false";
    let repo = Repo::with(&[
        ("toolc.toml", ALL_TARGETS),
        ("tools/search-docs.tool.md", &tool_md("search-docs", input)),
    ]);
    assert_eq!(report_lines(&repo), Vec::<String>::new());
    let out = Repo::new();
    let dir = out.root.to_string_lossy().into_owned();
    let run = toolc(&repo.root, &["build", "--out", &dir]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let gemini = read_json(&out, "gemini.tools.json");
    assert_eq!(
        gemini["functionDeclarations"][0]["parameters"]["properties"]["at"],
        serde_json::json!({"type": "STRING", "nullable": true, "format": "date-time"})
    );
    let openai = read_json(&out, "openai.tools.json");
    assert_eq!(openai[0]["function"]["strict"], true, "{openai}");
}

#[test]
fn names_are_checked_per_provider_with_one_finding() {
    let repo = Repo::with(&[
        ("toolc.toml", ALL_TARGETS),
        // Gemini and MCP take dots; OpenAI and Anthropic do not.
        (".cycod/tools/files.list.yaml", &cycod_tool("files.list")),
        // Only Gemini refuses a leading digit.
        (".cycod/tools/3d-render.yaml", &cycod_tool("3d-render")),
        (".cycod/tools/fine_name.yaml", &cycod_tool("fine_name")),
    ]);
    assert_eq!(
        report_lines(&repo),
        [
            ".cycod/tools/3d-render.yaml:1:7 CMP001 error tool name `3d-render` is rejected by Gemini",
            ".cycod/tools/files.list.yaml:1:7 CMP001 error tool name `files.list` is rejected by OpenAI and Anthropic",
        ]
    );
    // Building only for the providers that take the names is fine.
    let repo_mcp = Repo::with(&[
        ("toolc.toml", "[build]\ntargets = [\"mcp\"]\n"),
        (".cycod/tools/files.list.yaml", &cycod_tool("files.list")),
        (".cycod/tools/3d-render.yaml", &cycod_tool("3d-render")),
    ]);
    assert_eq!(report_lines(&repo_mcp), Vec::<String>::new());
}

#[test]
fn a_name_taken_in_another_format_is_a_duplicate_with_the_first_as_related() {
    let repo = Repo::with(&[
        ("toolc.toml", "[build]\ntargets = [\"bundle\"]\n"),
        (".cycod/tools/status.yaml", &cycod_tool("status")),
        (
            "tools.json",
            r#"{"tools": [{"name": "status", "description": "Show the status", "command": ["./tools/bin/status"],
               "schema": {"type": "object", "properties": {}, "additionalProperties": false}}]}"#,
        ),
        ("tools/bin/status", "#!/bin/sh\n"),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        [
            "tools.json:1:21 CMP002 error a tool named `status` is already in the bundle, from .cycod/tools/status.yaml"
        ]
    );
    let related = &report.diagnostics[0].related;
    assert_eq!(related.len(), 1);
    assert_eq!(related[0].file.display(), ".cycod/tools/status.yaml");
    assert_eq!(related[0].message, "first tool of this name");
}

#[test]
fn more_than_128_tools_for_openai_is_reported_on_the_129th() {
    let mut files: Vec<(String, String)> = (1..=129)
        .map(|i| {
            let name = format!("tool-{i:03}");
            (format!(".cycod/tools/{name}.yaml"), cycod_tool(&name))
        })
        .collect();
    files.push((
        "toolc.toml".into(),
        "[build]\ntargets = [\"openai\"]\n".into(),
    ));
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let repo = Repo::with(&borrowed);
    assert_eq!(
        report_lines(&repo),
        [
            ".cycod/tools/tool-129.yaml:1:7 CMP006 warning the OpenAI bundle holds 129 tools; OpenAI accepts at most 128 in one request"
        ]
    );
    std::fs::remove_file(repo.root.join(".cycod/tools/tool-129.yaml")).expect("remove");
    assert_eq!(report_lines(&repo), Vec::<String>::new());
    // Other providers have no such limit.
    repo.write(
        "tools-extra/.cycod/tools/tool-129.yaml",
        cycod_tool("tool-129").as_bytes(),
    );
    repo.write(
        "toolc.toml",
        b"[build]\ntargets = [\"anthropic\", \"mcp\"]\n",
    );
    assert_eq!(report_lines(&repo), Vec::<String>::new());
}

#[test]
fn check_runs_cmp_rules_only_for_configured_or_named_targets() {
    let repo = Repo::with(&[(".cycod/tools/files.list.yaml", &cycod_tool("files.list"))]);
    // No [build] table: the repository is not held to any provider.
    assert_eq!(report_lines(&repo), Vec::<String>::new());
    let run = toolc(&repo.root, &["check", "--no-color", "--target", "openai"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&run.stdout).contains("error[CMP001]"),
        "{run:?}"
    );
    let run = toolc(&repo.root, &["check", "--target", "gpt"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("`gpt` is not a build target"));
    // `build` always checks the targets it builds: all of them by default.
    let run = toolc(&repo.root, &["build", "--no-color", "--out", "dist"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stdout).contains("error[CMP001]"));
    assert!(!repo.root.join("dist").exists());
    let run = toolc(
        &repo.root,
        &["build", "--out", "dist", "--target", "mcp,gemini"],
    );
    assert_eq!(run.status.code(), Some(0), "{run:?}");
}

#[test]
fn cmp_findings_can_be_configured_and_suppressed() {
    let long = "x".repeat(1100);
    let tool = format!(
        "name: wiki\n# toolc: ignore CMP008 -- our OpenAI proxy accepts longer descriptions\ndescription: \"{long}\"\nrun: wiki\ntags: [read]\n"
    );
    let repo = Repo::with(&[
        ("toolc.toml", "[build]\ntargets = [\"openai\"]\n"),
        (".cycod/tools/wiki.yaml", &tool),
    ]);
    assert_eq!(report_lines(&repo), Vec::<String>::new());
    let report = repo.check().expect("config");
    assert_eq!(report.suppressed.len(), 1);
    assert_eq!(report.suppressed[0].rule.code, "CMP008");
    // Without the comment it is an error; configuration can lower it.
    repo.write(
        ".cycod/tools/wiki.yaml",
        format!("name: wiki\ndescription: \"{long}\"\nrun: wiki\ntags: [read]\n").as_bytes(),
    );
    assert_eq!(
        report_lines(&repo),
        [
            ".cycod/tools/wiki.yaml:2:14 CMP008 error the description of `wiki` is 1100 characters long, over OpenAI's limit of 1024"
        ]
    );
    repo.write(
        "toolc.toml",
        b"[build]\ntargets = [\"openai\"]\n[rules]\nlong-tool-description = \"warning\"\n",
    );
    assert_eq!(
        report_lines(&repo),
        [
            ".cycod/tools/wiki.yaml:2:14 CMP008 warning the description of `wiki` is 1100 characters long, over OpenAI's limit of 1024"
        ]
    );
}

/// What is compiled follows the errors as configured: a rule set to `off` (or a suppressed
/// error) no longer keeps a tool out of the bundles silently.
#[test]
fn a_tool_whose_only_error_is_turned_off_is_bundled() {
    let tool = "name: report\ndescription: Print the report\nrun: report\ntags: [read]\ncontinue-on-error: true\n";
    let repo = Repo::with(&[(".cycod/tools/report.yaml", tool)]);
    let run = toolc(&repo.root, &["build", "--out", "dist"]);
    assert_eq!(run.status.code(), Some(1), "CYC001 is an error: {run:?}");
    repo.write("toolc.toml", b"[rules]\ncycod-unknown-key = \"off\"\n");
    let run = toolc(&repo.root, &["build", "--out", "dist"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let bundle = std::fs::read_to_string(repo.root.join("dist/toolc.bundle.json")).expect("bundle");
    assert!(bundle.contains("\"name\": \"report\""), "{bundle}");
}

#[test]
fn dojops_tools_outside_the_allowlist_are_left_out() {
    let repo = Repo::with(&[
        (".dojops/tools/my-tool/tool.yaml", common::VALID_TOOL),
        (
            ".dojops/tools/my-tool/input.schema.json",
            common::VALID_SCHEMA,
        ),
        (
            ".dojops/policy.yaml",
            "allowedTools:\n  - some-global-tool\n",
        ),
        (
            "toolc.toml",
            "[rules]\npolicy-blocks-project-tools = \"off\"\npolicy-unknown-tool = \"off\"\n",
        ),
    ]);
    let (stderr, bundle) = build_bundle(&repo, &[]);
    assert!(stderr.contains("not in `allowedTools`"), "{stderr}");
    assert_eq!(bundle["tools"], serde_json::json!([]));
    assert_eq!(bundle["left_out"][0]["name"], "my-tool");
}

#[test]
fn a_named_file_builds_alone() {
    let repo = Repo::with(&[
        (".cycod/tools/one.yaml", &cycod_tool("one")),
        (".cycod/tools/two.yaml", &cycod_tool("two")),
    ]);
    let (_, bundle) = build_bundle(&repo, &[".cycod/tools/one.yaml"]);
    let names: Vec<&str> = bundle["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["one"]);
}

/// A minimal valid agent file with id `id`.
fn agent(id: &str) -> String {
    format!(
        "---\nagent_id: \"{id}\"\ntools:\n  tool_choice: \"auto\"\n  refs: []\n---\n# Purpose\nHelps.\n"
    )
}

#[test]
fn agent_files_of_removed_agents_are_reported_by_check_and_removed_by_build() {
    let repo = Repo::with(&[
        (".cycod/tools/one.yaml", &cycod_tool("one")),
        ("agents/helper.agent.md", &agent("helper")),
    ]);
    let run = toolc(&repo.root, &["build", "--out", "dist"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    repo.write("dist/agents/gone.json", b"{}\n");
    repo.write("dist/agents/notes.txt", b"kept: not an agent file\n");
    let run = toolc(&repo.root, &["build", "--check", "--out", "dist"]);
    assert_eq!(run.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("no longer built: dist/agents/gone.json"),
        "{run:?}"
    );
    assert!(
        repo.root.join("dist/agents/gone.json").exists(),
        "--check writes nothing"
    );
    let run = toolc(&repo.root, &["build", "--out", "dist"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(!repo.root.join("dist/agents/gone.json").exists());
    assert!(repo.root.join("dist/agents/notes.txt").exists());
    let run = toolc(&repo.root, &["build", "--check", "--out", "dist"]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    // A build of one file leaves out the agent, which still exists: its file stays.
    let run = toolc(
        &repo.root,
        &["build", ".cycod/tools/one.yaml", "--out", "dist"],
    );
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert!(repo.root.join("dist/agents/helper.json").is_file());
}

/// A failed write replaces nothing: every file is staged before the first rename.
#[test]
fn a_failed_write_leaves_the_previous_bundles() {
    let repo = Repo::with(&[
        (".cycod/tools/one.yaml", &cycod_tool("one")),
        ("agents/helper.agent.md", &agent("helper")),
    ]);
    repo.write("dist/openai.tools.json", b"old\n");
    // A file where the agents folder should be: the agent file, written last, cannot be.
    repo.write("dist/agents", b"not a folder\n");
    let run = toolc(&repo.root, &["build", "--out", "dist"]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert_eq!(
        std::fs::read_to_string(repo.root.join("dist/openai.tools.json")).expect("read"),
        "old\n"
    );
    let names: Vec<String> = std::fs::read_dir(repo.root.join("dist"))
        .expect("dist")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n == "openai.tools.json" || n == "agents"),
        "nothing new and no temporary file left: {names:?}"
    );
}

/// Gemini refuses an `OBJECT` with empty `properties`: a tool that takes nothing is declared
/// without `parameters`, and an empty nested object is a CMP004 error.
#[test]
fn gemini_objects_without_properties() {
    let repo = Repo::with(&[(".cycod/tools/changelog.yaml", &cycod_tool("changelog"))]);
    let run = toolc(
        &repo.root,
        &["build", "--out", "dist", "--target", "gemini"],
    );
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let gemini = read_json(&repo, "dist/gemini.tools.json");
    assert_eq!(
        gemini["functionDeclarations"][0],
        serde_json::json!({"name": "changelog", "description": "Print changelog"})
    );
    let input = "    type: object\n    properties:\n      filters:\n        type: object\n        properties: {}\n    required: [filters]\n    additionalProperties: false";
    let repo = Repo::with(&[
        ("toolc.toml", "[build]\ntargets = [\"gemini\"]\n"),
        ("tools/search-docs.tool.md", &tool_md("search-docs", input)),
    ]);
    assert_eq!(
        report_lines(&repo),
        [
            "tools/search-docs.tool.md:18:21 CMP004 error Gemini cannot take the input schema of `search-docs`: an object with no properties, which Gemini refuses"
        ]
    );
}

/// A property of the schema toolc derives from cycod `parameters` is reported on the
/// parameter, with cycod's own fix.
#[test]
fn strict_findings_on_cycod_point_at_the_parameter() {
    let tool = "name: weather\ndescription: Get the weather\nbash: curl -s \"wttr.in/{CITY}?format={FORMAT}\"\nparameters:\n  CITY:\n    description: City name\n  FORMAT:\n    description: Output format\n    default: \"3\"\ntags: [read]\n";
    let repo = Repo::with(&[
        ("toolc.toml", "[build]\ntargets = [\"openai\"]\n"),
        (".cycod/tools/weather.yaml", tool),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        [
            ".cycod/tools/weather.yaml:7:3 CMP005 info OpenAI strict mode cannot take the input schema of `weather`: property `FORMAT` is not in `required`"
        ]
    );
    assert!(
        report.diagnostics[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("remove the parameter's `default`")),
        "{:?}",
        report.diagnostics[0].help
    );
}

/// Every cycod step is in the bundle's `run`, a step that calls another tool too.
#[test]
fn cycod_tool_steps_are_kept_in_the_bundle() {
    let tool = "name: release\ndescription: Tag and announce a release\nsteps:\n  - name: tag\n    run: git tag v1\n  - name: announce\n    tool: post-message\n    arguments:\n      TEXT: released v1\ntags: [write]\n";
    let repo = Repo::with(&[
        (".cycod/tools/release.yaml", tool),
        (
            ".cycod/tools/post-message.yaml",
            "name: post-message\ndescription: Post a message\nbash: echo {TEXT}\nparameters:\n  TEXT:\n    description: The message\ntags: [write]\n",
        ),
    ]);
    let (_, bundle) = build_bundle(&repo, &[]);
    let release = bundle["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "release"))
        .expect("release bundled");
    assert_eq!(
        release["run"],
        serde_json::json!({"kind": "steps", "steps": [
            {"kind": "argv", "argv": ["git", "tag", "v1"]},
            {"kind": "tool", "tool": "post-message", "arguments": {"TEXT": "released v1"}}
        ]})
    );
}
