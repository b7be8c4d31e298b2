//! `toolc server` as an editor drives it: the real binary, JSON-RPC over its stdin and
//! stdout. Positions are checked against UTF-16 columns computed here, independently of
//! the server.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use common::{BASE_TOOL as TOOL, Repo, TRIAGE_AGENT as AGENT, VALID_DOPS as SKILL};
use serde_json::{Value, json};

/// How long a test waits for one message before it fails.
const WAIT: Duration = Duration::from_secs(60);

/// A client speaking to one server process.
struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    /// Messages received while waiting for another one.
    backlog: Vec<Value>,
    next_id: i64,
}

/// Read `Content-Length`-framed messages from `out` into a channel until it closes.
fn read_messages(out: impl Read + Send + 'static) -> Receiver<Value> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut out = BufReader::new(out);
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                if out.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; length.expect("Content-Length header")];
            if out.read_exact(&mut body).is_err() {
                return;
            }
            let message = serde_json::from_slice(&body).expect("a JSON message");
            if tx.send(message).is_err() {
                return;
            }
        }
    });
    rx
}

impl Client {
    /// Start `toolc server` in `root` and initialize it with `root` as workspace folder.
    fn start(root: &Path) -> Client {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("toolc"))
            .arg("server")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("toolc server starts");
        let stdin = child.stdin.take().expect("stdin");
        let incoming = read_messages(child.stdout.take().expect("stdout"));
        let mut client = Client {
            child,
            stdin,
            incoming,
            backlog: Vec::new(),
            next_id: 0,
        };
        let init = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "workspaceFolders": [{"uri": uri(root), "name": "repo"}],
                "capabilities": {},
            }),
        );
        assert_eq!(init["capabilities"]["positionEncoding"], "utf-16", "{init}");
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Send a request and wait for its result.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.wait(&format!("the response to {method}"), |m| m["id"] == id);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The first message (held back or new) that `matches`.
    fn wait(&mut self, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&matches) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(m) if matches(&m) => return m,
                Ok(m) => self.backlog.push(m),
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "timed out waiting for {what}; received: {:#?}",
                        self.backlog
                    )
                }
                Err(RecvTimeoutError::Disconnected) => panic!("the server exited; {what}"),
            }
        }
    }

    /// The diagnostics of the first publication for `uri` that `matches`.
    fn diagnostics(&mut self, uri: &str, matches: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let m = self.wait(&format!("diagnostics of {uri}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && matches(
                    m["params"]["diagnostics"]
                        .as_array()
                        .map_or(&[], Vec::as_slice),
                )
        });
        m["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// The diagnostics published for version `version` of the open document `uri`.
    fn diagnostics_of_version(&mut self, uri: &str, version: i32) -> Vec<Value> {
        let m = self.wait(&format!("diagnostics of {uri} version {version}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        });
        m["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    /// Shut the server down; it must exit with status 0.
    fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The protocol position of byte `offset` of `text`: line and UTF-16 column.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": text[line_start..offset].encode_utf16().count()})
}

/// The byte offset of a protocol position in `text`.
fn offset(text: &str, at: &Value) -> usize {
    let line = at["line"].as_u64().expect("line") as usize;
    let character = at["character"].as_u64().expect("character") as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = 0;
    for (i, c) in text[start..].char_indices() {
        if units >= character {
            return start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// `text` with protocol text edits applied.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(text, &e["range"]["start"]),
                offset(text, &e["range"]["end"]),
                e["newText"].as_str().expect("newText"),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, new) in edits {
        out.replace_range(start..end, new);
    }
    out
}

fn codes(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect()
}

#[test]
fn a_broken_buffer_is_reported_at_utf16_positions_hovered_and_fixed_by_its_code_action() {
    let repo = Repo::with(&[("tools/search-docs.tool.md", TOOL)]);
    let path = repo.root.join("tools/search-docs.tool.md");
    let doc = uri(&path);
    let mut client = Client::start(&repo.root);

    // A misspelt key after non-ASCII text on its line, and a suppressed finding.
    let broken = TOOL
        .replace(
            "meta:\n  name: \"Search Docs\"\n  description: \"Search the product documentation. Use it for product questions.\"\n  owner: \"docs-team\"\n  last_updated: \"2025-04-01\"\n",
            "meta: {name: \"Søk 🔧 Docs\", descriptoin: \"Search the product documentation. Use it for product questions.\", owner: \"docs-team\"}\n",
        )
        .replace(
            "type: \"retrieval\"",
            "type: \"retreival\" # toolc: ignore TMD006 -- renamed upstream",
        );
    assert!(broken.contains("descriptoin"), "{broken}");
    client.open(&doc, &broken);
    let found = client.diagnostics_of_version(&doc, 1);
    let misspelt = found
        .iter()
        .find(|d| d["code"] == "TMD003")
        .unwrap_or_else(|| panic!("no TMD003 in {found:#?}"));
    let at = broken.find("descriptoin").expect("key");
    assert_eq!(misspelt["range"]["start"], position(&broken, at));
    assert_eq!(
        misspelt["range"]["end"],
        position(&broken, at + "descriptoin".len())
    );
    // 28 UTF-16 units: 27 characters (the emoji is two units) and 31 bytes.
    assert_eq!(misspelt["range"]["start"]["character"], 28);
    assert_eq!(misspelt["source"], "toolc");
    assert!(
        misspelt["codeDescription"]["href"]
            .as_str()
            .is_some_and(|h| h.ends_with("rules/TMD003.md")),
        "{misspelt}"
    );
    assert!(!codes(&found).contains(&"TMD006"), "suppressed: {found:#?}");

    // Hover on the flagged key: the finding, then its rule's page.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": position(&broken, at + 2)}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("[TMD003]"), "{text}");
    assert!(text.contains("## What it does"), "{text}");
    assert_eq!(hover["range"], misspelt["range"]);

    // Hover on the code in the suppression comment: that rule's page.
    let code_at = broken.find("TMD006").expect("code");
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": position(&broken, code_at + 1)}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("invalid-tool-type (TMD006)"), "{text}");

    // The quick fix of the misspelt key, applied as the editor would, fixes the file.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": doc},
            "range": misspelt["range"],
            "context": {"diagnostics": [misspelt]},
        }),
    );
    let action = actions
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|a| a["kind"] == "quickfix" && a["diagnostics"][0]["code"] == "TMD003")
        })
        .unwrap_or_else(|| panic!("no quick fix for TMD003 in {actions:#?}"));
    assert_eq!(action["isPreferred"], true, "a safe fix: {action}");
    let edits = action["edit"]["changes"][&doc]
        .as_array()
        .expect("edits of the document");
    let fixed = apply(&broken, edits);
    assert!(fixed.contains("Søk 🔧 Docs\", description:"), "{fixed}");
    client.change(&doc, 2, &fixed);
    let after = client.diagnostics_of_version(&doc, 2);
    assert_eq!(codes(&after), Vec::<&str>::new(), "{after:#?}");

    client.shutdown();
}

#[test]
fn definitions_symbols_and_cross_file_findings_follow_the_buffers() {
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", TOOL),
        ("agents/triage.agent.md", AGENT),
    ]);
    let tool = uri(&repo.root.join("tools/search-docs.tool.md"));
    let agent = uri(&repo.root.join("agents/triage.agent.md"));
    let mut client = Client::start(&repo.root);

    // The agent's `ref` goes to the tool file's `tool_id`.
    client.open(&agent, AGENT);
    let at = AGENT.find("\"search-docs\"").expect("ref") + 3;
    let target = client.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": agent}, "position": position(AGENT, at)}),
    );
    assert_eq!(target["uri"], tool, "{target}");
    let id_at = TOOL.find("\"search-docs\"").expect("tool_id");
    assert_eq!(target["range"]["start"], position(TOOL, id_at), "{target}");

    // The tool's outline: the tool and its parameter.
    client.open(&tool, TOOL);
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": tool}}),
    );
    assert_eq!(symbols[0]["name"], "search-docs", "{symbols}");
    assert_eq!(symbols[0]["children"][0]["name"], "query", "{symbols}");

    // Disabling the tool in its buffer reports the agent, which is not edited.
    let disabled = TOOL.replace("status: \"active\"", "status: \"disabled\"");
    client.change(&tool, 2, &disabled);
    let found = client.diagnostics(&agent, |d| !d.is_empty());
    assert_eq!(codes(&found), ["REF021"], "{found:#?}");

    // Enabling it again clears the agent.
    client.change(&tool, 3, TOOL);
    let cleared = client.diagnostics(&agent, <[Value]>::is_empty);
    assert!(cleared.is_empty());

    client.shutdown();
}

#[test]
fn findings_on_disk_are_published_at_start_and_a_fix_all_action_applies_the_safe_fixes() {
    let broken = TOOL
        .replace("type: \"retrieval\"", "type: \"retreival\"")
        .replace("  endpoint:", "  endpont:");
    let repo = Repo::with(&[("tools/search-docs.tool.md", &broken)]);
    let doc = uri(&repo.root.join("tools/search-docs.tool.md"));
    let mut client = Client::start(&repo.root);
    // Published for the file on disk before any document is opened.
    let found = client.diagnostics(&doc, |d| !d.is_empty());
    assert!(codes(&found).contains(&"TMD006"), "{found:#?}");

    client.open(&doc, &broken);
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": doc},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        }),
    );
    let all = actions
        .as_array()
        .and_then(|a| a.first())
        .unwrap_or_else(|| panic!("no fix-all action: {actions}"));
    assert_eq!(all["kind"], "source.fixAll.toolc");
    let fixed = apply(
        &broken,
        all["edit"]["changes"][&doc].as_array().expect("edits"),
    );
    client.change(&doc, 2, &fixed);
    let after = client.diagnostics_of_version(&doc, 2);
    assert_eq!(codes(&after), Vec::<&str>::new(), "{after:#?}\n{fixed}");

    client.shutdown();
}

const CYCOD: &str = "name: search
description: Search files for a pattern
bash: grep -r \"{PATTERN}\" .
parameters:
  PATTERN:
    type: string
    description: Pattern to search for
    required: true
tags: [search, read]
";

#[test]
fn every_kind_of_reference_goes_to_its_definition() {
    let proxy = SKILL
        .replace("name: nginx", "name: proxy")
        .replace("files:", "dependencies:\n  - skill: nginx\nfiles:");
    let caller = "steps:\n  - bash: ls\n  - tool: search\ntags: [read]\n";
    let policy = "allowedTools: [my-tool, nginx, proxy]\n";
    let repo = Repo::with(&[
        (".dojops/tools/my-tool/tool.yaml", common::VALID_TOOL),
        (
            ".dojops/tools/my-tool/input.schema.json",
            common::VALID_SCHEMA,
        ),
        (".dojops/skills/nginx.dops", SKILL),
        (".dojops/skills/proxy.dops", &proxy),
        (".dojops/policy.yaml", policy),
        (".cycod/tools/search.yaml", CYCOD),
        (".cycod/tools/caller.yaml", caller),
        ("tools.json", MANIFEST),
    ]);
    let mut client = Client::start(&repo.root);
    // (file, its text, the reference in it, the file it goes to, the text there)
    let cases = [
        (
            ".dojops/tools/my-tool/tool.yaml",
            common::VALID_TOOL,
            "\"input.schema.json\"",
            ".dojops/tools/my-tool/input.schema.json",
            None,
        ),
        (
            ".dojops/skills/proxy.dops",
            proxy.as_str(),
            "skill: nginx",
            ".dojops/skills/nginx.dops",
            Some((SKILL, "nginx\n  version")),
        ),
        (
            ".dojops/policy.yaml",
            policy,
            "my-tool",
            ".dojops/tools/my-tool/tool.yaml",
            Some((common::VALID_TOOL, "my-tool")),
        ),
        (
            ".cycod/tools/caller.yaml",
            caller,
            "tool: search",
            ".cycod/tools/search.yaml",
            Some((CYCOD, "search")),
        ),
    ];
    for (path, text, reference, target, name) in cases {
        let doc = uri(&repo.root.join(path));
        client.open(&doc, text);
        let at = text.find(reference).expect("reference") + reference.len() - 2;
        let found = client.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": doc}, "position": position(text, at)}),
        );
        assert_eq!(
            found["uri"],
            uri(&repo.root.join(target)),
            "{path}: {found}"
        );
        let start = name.map_or(json!({"line": 0, "character": 0}), |(text, name)| {
            position(text, text.find(name).expect("name"))
        });
        assert_eq!(found["range"]["start"], start, "{path}: {found}");
    }

    // Outlines of a cycod tool and an agentcli manifest: each tool with its parameters.
    for (path, tool, parameter) in [
        (".cycod/tools/search.yaml", "search", "PATTERN"),
        ("tools.json", "get_time", "tz"),
    ] {
        let symbols = client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri(&repo.root.join(path))}}),
        );
        assert_eq!(symbols[0]["name"], tool, "{path}: {symbols}");
        assert_eq!(
            symbols[0]["children"][0]["name"], parameter,
            "{path}: {symbols}"
        );
    }
    client.shutdown();
}

const MANIFEST: &str = r#"{
  "tools": [
    {
      "name": "get_time",
      "description": "Get the current time for an IANA timezone",
      "schema": {"type": "object", "properties": {"tz": {"type": "string"}}},
      "command": ["./tools/bin/get_time"]
    }
  ]
}
"#;

#[test]
fn an_edit_of_the_configuration_applies_at_once() {
    let broken = TOOL.replace("type: \"retrieval\"", "type: \"retreival\"");
    let repo = Repo::with(&[("toolc.toml", ""), ("tools/search-docs.tool.md", &broken)]);
    let tool = uri(&repo.root.join("tools/search-docs.tool.md"));
    let config = uri(&repo.root.join("toolc.toml"));
    let mut client = Client::start(&repo.root);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["TMD006"]);

    // An unsaved buffer of toolc.toml that turns the rule off clears the tool's finding.
    client.open(&config, "");
    client.change(&config, 2, "[rules]\ninvalid-tool-type = \"off\"\n");
    client.diagnostics(&tool, <[Value]>::is_empty);

    // An invalid configuration is reported on itself; the defaults apply meanwhile.
    client.change(&config, 3, "[rules]\nno-such-rule = \"off\"\n");
    let invalid = client.diagnostics(&config, |d| !d.is_empty());
    assert_eq!(codes(&invalid), ["TLC003"]);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["TMD006"]);
    client.shutdown();
}

#[test]
fn published_findings_never_show_a_credential_in_full() {
    let token = "ghp_Q7d3WmX9pL2vN8rT4yB6kH1sJ5fG0aE3cZ2u";
    let text = format!("{CYCOD}{token}: 1\n");
    let repo = Repo::with(&[(".cycod/tools/search.yaml", &text)]);
    let doc = uri(&repo.root.join(".cycod/tools/search.yaml"));
    let mut client = Client::start(&repo.root);
    client.open(&doc, &text);
    let found = client.diagnostics(&doc, |d| !d.is_empty());
    let shown = serde_json::to_string(&found).expect("json");
    assert!(
        shown.contains("ghp_Q7"),
        "the finding quotes the key: {shown}"
    );
    assert!(!shown.contains(token), "{shown}");
    client.shutdown();
}

#[test]
fn a_custom_rule_taken_out_of_the_configuration_is_known_no_more() {
    let rule = "[[custom-rules]]\ncode = \"ORG001\"\nname = \"description-too-short\"\nseverity = \"warning\"\nmessage = \"describe `{name}` in at least 40 characters\"\nformats = [\"cycod-tool\"]\nthen = { field = \"description\", function = \"length\", options = { min = 40 } }\n";
    let tool_text = "name: list\ndescription: Lists files\nbash: ls -1\ntags: [read]\n";
    let repo = Repo::with(&[("toolc.toml", rule), (".cycod/tools/list.yaml", tool_text)]);
    let tool = uri(&repo.root.join(".cycod/tools/list.yaml"));
    let config = uri(&repo.root.join("toolc.toml"));
    let mut client = Client::start(&repo.root);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);

    // Taken out: its finding goes, and a setting that names it names no rule, as in a new
    // process.
    client.open(&config, rule);
    client.change(&config, 2, "[rules]\nORG001 = \"off\"\n");
    let invalid = client.diagnostics(&config, |d| !d.is_empty());
    assert_eq!(codes(&invalid), ["TLC003"]);
    client.diagnostics(&tool, <[Value]>::is_empty);

    // Declared again in a nested configuration: the server re-reads it on its own.
    client.change(&config, 3, "");
    client.diagnostics(&config, <[Value]>::is_empty);
    let nested = uri(&repo.root.join(".cycod/toolc.toml"));
    client.open(&nested, rule);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);
    client.shutdown();
}

/// A custom rule asking cycod tools for descriptions of at least `min` characters.
fn description_rule(min: u32) -> String {
    format!(
        "[[custom-rules]]\ncode = \"ORG001\"\nname = \"description-too-short\"\nseverity = \"warning\"\nmessage = \"describe `{{name}}` in at least {min} characters\"\nformats = [\"cycod-tool\"]\nthen = {{ field = \"description\", function = \"length\", options = {{ min = {min} }} }}\n"
    )
}

#[test]
fn a_change_to_a_file_the_configuration_extends_applies_at_once() {
    let tool_text = "name: list\ndescription: Lists files\nbash: ls -1\ntags: [read]\n";
    let shared = description_rule(40);
    let repo = Repo::with(&[
        ("toolc.toml", "extend = \"policy/shared.toml\"\n"),
        ("policy/shared.toml", &shared),
        (".cycod/tools/list.yaml", tool_text),
    ]);
    let tool = uri(&repo.root.join(".cycod/tools/list.yaml"));
    let mut client = Client::start(&repo.root);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);

    // The shared file, edited in the editor: its rule now asks for 5 characters.
    let policy = uri(&repo.root.join("policy/shared.toml"));
    client.open(&policy, &shared);
    client.change(&policy, 2, &description_rule(5));
    client.diagnostics(&tool, <[Value]>::is_empty);

    // And back: the finding returns, with the toolc.toml that extends it open too.
    let config = uri(&repo.root.join("toolc.toml"));
    client.open(&config, "extend = \"policy/shared.toml\"\n");
    client.change(&policy, 3, &shared);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);
    client.shutdown();
}

#[test]
fn a_change_to_a_file_a_nested_configuration_extends_applies_at_once() {
    let shared = description_rule(40);
    let repo = Repo::with(&[
        ("toolc.toml", ""),
        (".cycod/toolc.toml", "extend = \"../policy/team.toml\"\n"),
        ("policy/team.toml", &shared),
        (
            ".cycod/tools/list.yaml",
            "name: list\ndescription: Lists files\nbash: ls -1\ntags: [read]\n",
        ),
    ]);
    let tool = uri(&repo.root.join(".cycod/tools/list.yaml"));
    let mut client = Client::start(&repo.root);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);

    // The team's file, edited in the editor: its rule now asks for 5 characters.
    let policy = uri(&repo.root.join("policy/team.toml"));
    client.open(&policy, &shared);
    client.change(&policy, 2, &description_rule(5));
    client.diagnostics(&tool, <[Value]>::is_empty);
    client.shutdown();
}
