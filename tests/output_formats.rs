//! The machine formats as their consumers read them: SARIF against the SARIF 2.1.0 schema
//! (the trimmed copy in `tests/data/`), with fingerprints that survive moved lines; GitHub
//! workflow commands that parse and decode back to the diagnostics; JUnit that is well-formed
//! XML; `--output-format`, `--statistics` and `--stdin-filename` as a user runs them.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

use common::{Repo, VALID_SCHEMA, VALID_TOOL};
use serde_json::Value;

const SEND_EMAIL: &str = include_str!("../examples/demo/tools/send-email.tool.md");
const SEARCH_DOCS: &str = include_str!("../examples/demo/tools/search-docs.tool.md");
const SUPPORT_AGENT: &str = include_str!("../examples/demo/agents/support.agent.md");

fn toolc(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let bin = assert_cmd::cargo::cargo_bin!("toolc");
    let mut child = std::process::Command::new(bin)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toolc starts");
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.unwrap_or("").as_bytes());
    }
    child.wait_with_output().expect("toolc runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A repository with errors and warnings in several formats, a related location, a suppressed
/// diagnostic, and a path and messages full of characters every format must escape.
fn troubled_repo() -> Repo {
    let repo = Repo::new();
    // An unknown key whose name needs escaping everywhere: `%`, `:`-free quoting, XML specials.
    repo.write(
        ".dojops/tools/odd/tool.yaml",
        VALID_TOOL
            .replace("name: my-tool", "name: odd\n\"a%b<&>'c\": 1")
            .as_bytes(),
    );
    repo.write(
        ".dojops/tools/odd/input.schema.json",
        VALID_SCHEMA.as_bytes(),
    );
    // An invalid name (error) and, suppressed, an unknown key.
    repo.write(
        ".dojops/tools/bad name, v1:2/tool.yaml",
        VALID_TOOL
            .replace(
                "name: my-tool",
                "name: Bad_Name\n# toolc: ignore DOJ007 -- kept for the old loader\nauthor: me",
            )
            .as_bytes(),
    );
    repo.write(
        ".dojops/tools/bad name, v1:2/input.schema.json",
        VALID_SCHEMA.as_bytes(),
    );
    // Cross-file: an agent referencing a tool that does not exist (related location).
    repo.write("tools/send-email.tool.md", SEND_EMAIL.as_bytes());
    repo.write("tools/search-docs.tool.md", SEARCH_DOCS.as_bytes());
    repo.write(
        "agents/support.agent.md",
        SUPPORT_AGENT
            .replace("ref: \"send-email\"", "ref: \"send-emial\"")
            .as_bytes(),
    );
    repo
}

fn json_diagnostics(dir: &Path) -> Vec<Value> {
    let out = toolc(dir, &["check", "--format", "json"], None);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    doc["diagnostics"].as_array().cloned().unwrap_or_default()
}

fn sarif(dir: &Path) -> Value {
    let out = toolc(dir, &["check", "--format", "sarif"], None);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("SARIF is JSON ({e}):\n{}", stdout(&out)))
}

fn assert_valid_sarif(log: &Value) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-2.1.0-trimmed.schema.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("schema file")).expect("JSON");
    assert!(jsonschema::meta::is_valid(&schema));
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid SARIF:\n{}", errors.join("\n"));
}

#[test]
fn sarif_is_valid_and_complete() {
    let repo = troubled_repo();
    let log = sarif(&repo.root);
    assert_valid_sarif(&log);
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "toolc");
    let rules = driver["rules"].as_array().expect("rules");
    let results = run["results"].as_array().expect("results");
    assert!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .is_some_and(|u| u.starts_with("file:///") && u.ends_with('/'))
    );

    // Every result points at its rule; every rule listed fired.
    let mut fired = BTreeSet::new();
    for r in results {
        let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
        fired.insert(r["ruleId"].as_str().expect("ruleId").to_string());
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(!uri.starts_with('/') && !uri.contains("://"), "{uri}");
        assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert!(r["partialFingerprints"]["toolc/v2"].is_string());
    }
    let listed: BTreeSet<String> = rules
        .iter()
        .map(|r| r["id"].as_str().expect("id").to_string())
        .collect();
    assert_eq!(fired, listed);
    for rule in rules {
        let id = rule["id"].as_str().expect("id");
        let uri = rule["helpUri"].as_str().expect("helpUri");
        assert!(uri.ends_with(&format!("/rules/{id}.md")), "{uri}");
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("rules/{id}.md"))
                .exists()
        );
        assert!(rule["defaultConfiguration"]["level"].is_string());
        assert!(
            rule["fullDescription"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty())
        );
    }

    // Paths with spaces, commas and colons are percent-encoded.
    assert!(results.iter().any(|r| r["ruleId"] == "DOJ003"
        && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            == ".dojops/tools/bad%20name%2C%20v1%3A2/tool.yaml"));
    // The suppressed diagnostic is there, marked; the others are not.
    let suppressed: Vec<&Value> = results
        .iter()
        .filter(|r| r.get("suppressions").is_some())
        .collect();
    assert_eq!(suppressed.len(), 1, "{suppressed:?}");
    assert_eq!(suppressed[0]["ruleId"], "DOJ007");
    assert_eq!(suppressed[0]["suppressions"][0]["kind"], "inSource");
    // The cross-file reference keeps its related location.
    let reference = results
        .iter()
        .find(|r| r["ruleId"] == "REF020")
        .expect("REF020 for the misspelt reference");
    assert!(
        reference["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .is_some_and(|u| u.ends_with("send-email.tool.md"))
    );
    // Same diagnostics as the JSON output, plus the suppressed one.
    assert_eq!(results.len(), json_diagnostics(&repo.root).len() + 1);
}

/// (rule, fingerprint) → start line of every result.
fn fingerprints(log: &Value) -> BTreeMap<(String, String), u64> {
    log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                (
                    r["ruleId"].as_str().unwrap_or("").to_string(),
                    r["partialFingerprints"]["toolc/v2"]
                        .as_str()
                        .unwrap_or("")
                        .to_string(),
                ),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn sarif_fingerprints_survive_inserted_lines() {
    let repo = troubled_repo();
    let before = fingerprints(&sarif(&repo.root));
    let path = ".dojops/tools/bad name, v1:2/tool.yaml";
    let text = std::fs::read_to_string(repo.root.join(path)).expect("read");
    repo.write(
        path,
        format!("# a comment\n# and another\n{text}").as_bytes(),
    );
    let agent = std::fs::read_to_string(repo.root.join("agents/support.agent.md")).expect("read");
    repo.write(
        "agents/support.agent.md",
        agent.replacen("\n", "\n# moved\n", 1).as_bytes(),
    );
    let after = fingerprints(&sarif(&repo.root));
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "fingerprints changed when lines moved"
    );
    // The lines did move: the fingerprint is not the line number in disguise.
    assert!(before.iter().any(|(k, line)| after[k] != *line));
    // No two results share a fingerprint.
    assert_eq!(
        before.len(),
        sarif(&repo.root)["runs"][0]["results"]
            .as_array()
            .map_or(0, Vec::len)
    );
}

/// Undo GitHub's escaping of a property or message.
fn unescape(text: &str) -> String {
    text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

#[test]
fn github_commands_are_well_formed_and_escaped() {
    let repo = troubled_repo();
    let out = toolc(&repo.root, &["check", "--format", "github"], None);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let diags = json_diagnostics(&repo.root);
    // The last line is the notice of what a suppression comment hid.
    let (lines, hidden): (Vec<&str>, Vec<&str>) = text
        .lines()
        .partition(|l| !l.starts_with("::notice title=toolc (hidden findings)::"));
    assert_eq!(
        hidden,
        ["::notice title=toolc (hidden findings)::1 finding hidden by `# toolc: ignore` comments."],
        "{text}"
    );
    assert_eq!(
        lines.len(),
        diags.len(),
        "one command per diagnostic:\n{text}"
    );
    for (line, d) in lines.iter().zip(&diags) {
        let (command, rest) = line
            .strip_prefix("::")
            .and_then(|l| l.split_once(' '))
            .unwrap_or_else(|| panic!("not a workflow command: {line}"));
        let expected = match d["severity"].as_str() {
            Some("error") => "error",
            Some("warning") => "warning",
            _ => "notice",
        };
        assert_eq!(command, expected, "{line}");
        let (props, message) = rest
            .split_once("::")
            .unwrap_or_else(|| panic!("no message: {line}"));
        let props: BTreeMap<&str, String> = props
            .split(',')
            .map(|p| {
                let (k, v) = p
                    .split_once('=')
                    .unwrap_or_else(|| panic!("bad property {p:?}"));
                assert!(!v.contains(':'), "unescaped `:` in {p:?}");
                (k, unescape(v))
            })
            .collect();
        let keys: Vec<&str> = props.keys().copied().collect();
        assert_eq!(
            keys,
            ["col", "endColumn", "endLine", "file", "line", "title"]
        );
        assert_eq!(props["file"], d["path"].as_str().unwrap_or(""));
        assert_eq!(props["line"], d["span"]["start"]["line"].to_string());
        assert_eq!(props["col"], d["span"]["start"]["column"].to_string());
        assert_eq!(props["endLine"], d["span"]["end"]["line"].to_string());
        assert_eq!(props["endColumn"], d["span"]["end"]["column"].to_string());
        assert_eq!(
            props["title"],
            format!(
                "toolc ({} {})",
                d["code"].as_str().unwrap_or(""),
                d["name"].as_str().unwrap_or("")
            )
        );
        assert!(!message.contains('\n') && !message.contains('\r'));
        let message = unescape(message);
        assert!(
            message.starts_with(d["message"].as_str().unwrap_or("")),
            "{message:?} vs {d}"
        );
        if let Some(help) = d["help"].as_str() {
            assert!(message.ends_with(&format!("\nhelp: {help}")), "{message:?}");
        }
    }
    // The awkward characters were there, and came out escaped.
    assert!(text.contains("file=.dojops/tools/bad name%2C v1%3A2/tool.yaml,"));
    assert!(text.contains("a%25b<&>'c"));
}

#[test]
fn junit_is_well_formed_xml() {
    use quick_xml::XmlVersion;
    use quick_xml::events::Event;
    let repo = troubled_repo();
    let out = toolc(&repo.root, &["check", "--format", "junit"], None);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let mut reader = quick_xml::Reader::from_str(&text);
    reader.config_mut().check_end_names = true;
    let (mut suites, mut cases, mut failures) = (Vec::new(), 0, 0);
    loop {
        match reader.read_event() {
            Err(e) => panic!("not XML at {}: {e}\n{text}", reader.buffer_position()),
            Ok(Event::Eof) => break,
            Ok(Event::Start(e) | Event::Empty(e)) => {
                let mut name_attr = String::new();
                for a in e.attributes() {
                    let a = a.expect("well-formed attribute");
                    let value = a
                        .normalized_value(XmlVersion::Explicit1_0)
                        .expect("attribute escapes are valid");
                    if a.key.as_ref() == "name" {
                        name_attr = value.into_owned();
                    }
                }
                match e.name().as_ref() {
                    "testsuite" => suites.push(name_attr),
                    "testcase" => cases += 1,
                    "failure" => failures += 1,
                    _ => {}
                }
            }
            Ok(Event::GeneralRef(r)) => {
                let name = r.xml_content(XmlVersion::Explicit1_0);
                assert!(
                    ["amp", "lt", "gt", "quot", "apos"].contains(&name.as_ref())
                        || name.starts_with('#'),
                    "unknown entity &{name};"
                );
            }
            Ok(_) => {}
        }
    }
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites"));
    let diags = json_diagnostics(&repo.root);
    assert_eq!(failures, diags.len(), "one failure per diagnostic");
    assert!(cases >= 5, "one testcase per file: {cases}");
    assert!(
        suites.contains(&"dojops-tool".to_string()) && suites.contains(&"agent-md".to_string())
    );
    assert!(text.contains("a%b&lt;&amp;&gt;&apos;c"));
}

#[test]
fn output_format_writes_files_beside_the_main_output() {
    let repo = troubled_repo();
    let out = toolc(
        &repo.root,
        &[
            "check",
            "--no-color",
            "--output-format",
            "sarif:toolc.sarif",
            "--output-format=junit:junit.xml",
            "--output-format",
            "json:out.json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("error[DOJ003]"), "human on stdout");
    let written = std::fs::read_to_string(repo.root.join("toolc.sarif")).expect("SARIF written");
    assert_valid_sarif(&serde_json::from_str(&written).expect("JSON"));
    let junit = std::fs::read_to_string(repo.root.join("junit.xml")).expect("JUnit written");
    assert!(junit.starts_with("<?xml"));
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(repo.root.join("out.json")).expect("JSON written"),
    )
    .expect("JSON");
    assert_eq!(json["version"], 2);

    for bad in ["sarif", "xml:out.xml", "sarif:"] {
        let out = toolc(&repo.root, &["check", "--output-format", bad], None);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--output-format"));
    }
    // Missing folders are created; a file in the way of one is an exit 2.
    let out = toolc(
        &repo.root,
        &["check", "--output-format", "sarif:no/such/dir/x.sarif"],
        None,
    );
    assert_ne!(out.status.code(), Some(2));
    assert!(repo.root.join("no/such/dir/x.sarif").is_file());
    let out = toolc(
        &repo.root,
        &["check", "--output-format", "sarif:junit.xml/x.sarif"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn statistics_count_per_rule() {
    let repo = troubled_repo();
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    for d in json_diagnostics(&repo.root) {
        *expected
            .entry(d["code"].as_str().unwrap_or("").to_string())
            .or_default() += 1;
    }
    let out = toolc(
        &repo.root,
        &["check", "--statistics", "--format", "json"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let stats: Value = serde_json::from_slice(&out.stdout).expect("JSON statistics");
    let got: BTreeMap<String, u64> = stats
        .as_array()
        .expect("array")
        .iter()
        .map(|s| {
            (
                s["code"].as_str().unwrap_or("").to_string(),
                s["count"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(got, expected);

    let out = toolc(&repo.root, &["check", "--statistics", "--no-color"], None);
    let text = stdout(&out);
    for (code, n) in &expected {
        assert!(
            text.lines().any(|l| {
                let cols: Vec<&str> = l.split_whitespace().collect();
                cols.len() >= 3 && cols[0] == n.to_string() && cols[1] == code
            }),
            "{code} × {n} missing:\n{text}"
        );
    }
    assert!(!text.contains("-->"), "statistics replace the diagnostics");
    let out = toolc(
        &repo.root,
        &["check", "--statistics", "--format", "sarif"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn stdin_filename_checks_the_buffer_with_the_repository_around_it() {
    let repo = troubled_repo();
    // The saved agent has a misspelt reference; the buffer fixes it. Cross-file resolution
    // still sees the tools on disk, and nothing outside the buffer is reported.
    let fixed = SUPPORT_AGENT;
    let out = toolc(
        &repo.root,
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "agents/support.agent.md",
        ],
        Some(fixed),
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["diagnostics"], Value::Array(vec![]), "{doc}");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(doc["summary"]["files"], 1);

    // The same buffer with the typo: the reference is resolved against the other files.
    let broken = SUPPORT_AGENT.replace("ref: \"search-docs\"", "ref: \"search-dcos\"");
    let out = toolc(
        &repo.root,
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "agents/support.agent.md",
        ],
        Some(&broken),
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let diags = doc["diagnostics"].as_array().expect("diagnostics");
    assert!(!diags.is_empty());
    assert!(
        diags.iter().all(|d| d["path"] == "agents/support.agent.md"),
        "{doc}"
    );
    assert!(diags.iter().any(|d| {
        d["code"] == "REF020"
            && d["help"]
                .as_str()
                .is_some_and(|h| h.contains("search-docs"))
    }));
    assert_eq!(out.status.code(), Some(1));

    // A buffer not saved yet: checked by its name.
    let out = toolc(
        &repo.root,
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "agents/new.agent.md",
        ],
        Some(&broken),
    );
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(
        doc["diagnostics"]
            .as_array()
            .is_some_and(|d| !d.is_empty() && d.iter().all(|d| d["path"] == "agents/new.agent.md"))
    );

    // A file that is no tool definition: nothing to say.
    let out = toolc(
        &repo.root,
        &["check", "--stdin-filename", "notes.txt", "-q"],
        Some("hello"),
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn machine_formats_report_a_bad_configuration_and_exit_2() {
    let repo = Repo::with(&[("toolc.toml", "[rules]\nNOPE001 = \"off\"\n")]);
    let out = toolc(&repo.root, &["check", "--format", "sarif"], None);
    assert_eq!(out.status.code(), Some(2));
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    assert_valid_sarif(&log);
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "toolc.toml"
    );
    let out = toolc(&repo.root, &["check", "--format", "github"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).starts_with("::error file=toolc.toml,"));
    let out = toolc(&repo.root, &["check", "--format", "junit"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("<failure"));
}

#[test]
fn clean_repository_in_every_format() {
    let repo = Repo::with(&[("tools/send-email.tool.md", SEND_EMAIL)]);
    let out = toolc(&repo.root, &["check", "--format", "github"], None);
    assert_eq!((out.status.code(), stdout(&out)), (Some(0), String::new()));
    let out = toolc(&repo.root, &["check", "--format", "sarif"], None);
    assert_eq!(out.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    assert_valid_sarif(&log);
    assert_eq!(log["runs"][0]["results"], Value::Array(vec![]));
    let out = toolc(&repo.root, &["check", "--format", "junit"], None);
    assert!(stdout(&out).contains("tests=\"1\" failures=\"0\""));
}
