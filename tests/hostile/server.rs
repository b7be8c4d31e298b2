//! `toolc server` fed by a hostile client and a hostile folder: frames it cannot take are
//! refused with a JSON-RPC error and the session goes on; a folder that once made it panic
//! is checked and published.

use super::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};

/// How long one answer may take.
const WAIT: Duration = Duration::from_secs(60);

/// A server process spoken to in raw frames.
struct Raw {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
}

impl Raw {
    /// `toolc server` in `root`, initialized.
    fn start(root: &std::path::Path) -> Raw {
        let mut raw = Raw::spawn(root);
        raw.initialize(root, 1);
        raw.message(&serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        raw
    }

    /// Send `initialize` (as request `id`) for the workspace `root`, and wait for its answer.
    fn initialize(&mut self, root: &std::path::Path, id: u64) -> Value {
        let root_uri = format!("file://{}", root.display());
        self.message(
            &serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "initialize",
            "params": {"processId": null, "rootUri": root_uri, "capabilities": {}}}),
        );
        self.wait(|m| m["id"] == id)
    }

    /// `toolc server` in `root`, not yet initialized.
    fn spawn(root: &std::path::Path) -> Raw {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("toolc"))
            .arg("server")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("toolc server starts");
        let stdin = child.stdin.take();
        let out = child.stdout.take().expect("stdout");
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(out);
            loop {
                let mut length = 0;
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
                        length = n.parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; length];
                if out.read_exact(&mut body).is_err() {
                    return;
                }
                let Ok(message) = serde_json::from_slice::<Value>(&body) else {
                    return;
                };
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        Raw {
            child,
            stdin,
            incoming,
        }
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    fn message(&mut self, message: &Value) {
        let body = message.to_string();
        self.bytes(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// The first message that `matches`.
    fn wait(&mut self, matches: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(m) if matches(&m) => return m,
                Ok(_) => {}
                Err(e) => panic!("no such message from the server: {e}"),
            }
        }
    }

    /// Close stdin and wait for the process: its exit code and stderr.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                let mut stderr = String::new();
                if let Some(mut e) = self.child.stderr.take() {
                    let _ = e.read_to_string(&mut stderr);
                }
                return (status.code(), stderr);
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Row 16: a body that is not JSON (or JSON that is no message) gets the JSON-RPC error and
/// the session goes on to a clean shutdown.
#[test]
fn the_server_answers_a_body_that_is_not_json_and_goes_on() {
    let repo = repo();
    let mut server = Raw::start(&repo.root);
    server.bytes(b"Content-Length: 9\r\n\r\nnot json!");
    let error = server.wait(|m| m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], Value::Null);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "id": 5, "nonsense": 1}));
    let error = server.wait(|m| m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert_eq!(error["id"], 5);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    server.wait(|m| m["id"] == 9);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    let (code, stderr) = server.finish();
    assert_eq!(code, Some(0), "{stderr}");
}

/// A second `initialize`, before `initialized` or after it, is answered with an error and the
/// session goes on (lsp-server's handshake ended it, exit code 1, on any message but
/// `initialized`); a request before `initialized` is answered with an error too.
#[test]
fn a_second_initialize_is_refused_and_the_session_goes_on() {
    let repo = repo();
    let mut server = Raw::spawn(&repo.root);
    let first = server.initialize(&repo.root, 1);
    assert!(first.get("result").is_some(), "{first}");
    let again = server.initialize(&repo.root, 2);
    assert_eq!(again["error"]["code"], -32600, "{again}");
    server.message(
        &serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/documentSymbol",
        "params": {"textDocument": {"uri": "file:///nowhere.json"}}}),
    );
    let early = server.wait(|m| m["id"] == 3);
    assert_eq!(early["error"]["code"], -32600, "{early}");
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let late = server.initialize(&repo.root, 4);
    assert_eq!(late["error"]["code"], -32600, "{late}");
    server.message(&serde_json::json!({"jsonrpc": "2.0", "id": 5, "method": "shutdown"}));
    server.wait(|m| m["id"] == 5);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    let (code, stderr) = server.finish();
    assert_eq!(code, Some(0), "{stderr}");
}

/// Row 16: `Content-Length: 18446744073709551615` is refused at once, nothing allocated for
/// it; the server ends when its input does, without a panic.
#[test]
fn the_server_refuses_a_frame_longer_than_any_message() {
    let repo = repo();
    let mut server = Raw::start(&repo.root);
    server.bytes(b"Content-Length: 18446744073709551615\r\n\r\n{}");
    let error = server.wait(|m| m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32600, "{error}");
    let (code, stderr) = server.finish();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(matches!(code, Some(0 | 1)), "{code:?}: {stderr}");
}

/// A body within the frame limit that is millions of tiny JSON values (20 MB of `1,`) is
/// refused before it is parsed: parsed, such a body took 45 times its size. The server's
/// peak memory stays near its own, and the session goes on.
#[cfg(target_os = "linux")]
#[test]
fn the_server_refuses_a_message_of_millions_of_values() {
    let repo = repo();
    let mut server = Raw::start(&repo.root);
    let items = vec!["1"; 10_000_000].join(",");
    let body = format!(r#"{{"jsonrpc":"2.0","id":4,"method":"x","params":[{items}]}}"#);
    server.bytes(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    let error = server.wait(|m| m.get("error").is_some());
    assert_eq!(error["error"]["code"], -32600, "{error}");
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
        .expect("the server's status");
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    assert!(
        peak_kib < 200 * 1024,
        "peak {peak_kib} KiB for a body of {} bytes",
        body.len()
    );
    server.message(&serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    server.wait(|m| m["id"] == 9);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    let (code, stderr) = server.finish();
    assert_eq!(code, Some(0), "{stderr}");
}

/// Rows 18 and 3 in the server: a `*.tool.md` with a multi-byte space before a sentence's
/// last word, and a `.gitignore` linked to `/dev/zero`, are published as findings; the
/// server lives on.
#[cfg(unix)]
#[test]
fn the_server_survives_the_folder_it_opens() {
    let repo = repo();
    let tool = common::BASE_TOOL.replace(
        "Search the product documentation.",
        "Search the product\u{a0}documentation.",
    );
    assert_ne!(tool, common::BASE_TOOL);
    repo.write("tools/search-docs.tool.md", tool.as_bytes());
    repo.write("sub/.cycod/tools/t.yaml", b"name: t\n");
    std::os::unix::fs::symlink("/dev/zero", repo.root.join("sub/.gitignore")).expect("link");
    let mut server = Raw::start(&repo.root);
    let published = server.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"]
                .as_str()
                .is_some_and(|u| u.ends_with("sub/.gitignore"))
    });
    assert!(
        published.to_string().contains("does not read it"),
        "{published}"
    );
    server.message(&serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    server.wait(|m| m["id"] == 9);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    let (code, stderr) = server.finish();
    assert_eq!(code, Some(0), "{stderr}");
}

/// Row 20: in a buffer whose lines end in a lone `\r` (or `\r\n`), a finding's range is on the
/// line the editor shows, as the protocol counts lines.
#[test]
fn ranges_land_on_the_line_the_editor_counts() {
    let repo = repo();
    let mut server = Raw::start(&repo.root);
    for (name, end) in [("cr", "\r"), ("crlf", "\r\n")] {
        let path = repo.root.join(format!(".cycod/tools/{name}.yaml"));
        let uri = format!("file://{}", path.display());
        let text = [
            "name: t",
            "description: d",
            "bash: echo hi",
            "tags: [read]",
            "foo: 1",
            "",
        ]
        .join(end);
        server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}));
        let published = server.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri.as_str()
                && m["params"]["version"] == 1
        });
        assert_eq!(unknown_key_at(&published), (4, 0), "{name}: {published}");
    }
}

/// Row 19 in the editor: the "fix all" action applies safe fixes as `check --fix` does (one
/// engine): two misspellings of one absent key are not both renamed to it, so the edited
/// buffer holds the key once and has no syntax error.
#[test]
fn fix_all_in_the_editor_never_applies_two_fixes_that_add_the_same_key() {
    let repo = repo();
    let manifest = VALID_TOOL.replace(
        "version: \"1.0.0\"",
        "verison: \"1.0.0\"\nversoin: \"1.0.1\"",
    );
    tool(&repo, "twice", manifest.as_bytes());
    let path = repo.root.join(".dojops/tools/twice/tool.yaml");
    let uri = format!("file://{}", path.display());
    let mut server = Raw::start(&repo.root);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": manifest}}}));
    server.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str()
    });
    server.message(
        &serde_json::json!({"jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction",
        "params": {"textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]}}}),
    );
    let answer = server.wait(|m| m["id"] == 7);
    let actions = answer["result"].as_array().cloned().unwrap_or_default();
    assert_eq!(actions.len(), 1, "{answer}");
    let edits = actions[0]["edit"]["changes"][uri.as_str()]
        .as_array()
        .cloned()
        .unwrap_or_default();
    // The edits applied to the buffer, by line and character (the text is ASCII).
    let mut lines: Vec<String> = manifest.split('\n').map(str::to_string).collect();
    let mut sorted = edits.clone();
    sorted.sort_by_key(|e| {
        std::cmp::Reverse((
            e["range"]["start"]["line"].as_u64(),
            e["range"]["start"]["character"].as_u64(),
        ))
    });
    for e in sorted {
        let at = |p: &str, what: &str| e["range"][p][what].as_u64().expect("position") as usize;
        let (sl, sc, el, ec) = (
            at("start", "line"),
            at("start", "character"),
            at("end", "line"),
            at("end", "character"),
        );
        let joined = format!(
            "{}{}{}",
            &lines[sl][..sc],
            e["newText"].as_str().expect("text"),
            &lines[el][ec..]
        );
        lines.splice(
            sl..=el,
            joined.split('\n').map(str::to_string).collect::<Vec<_>>(),
        );
    }
    let fixed = lines.join("\n");
    assert_eq!(
        fixed.lines().filter(|l| l.starts_with("version:")).count(),
        1,
        "{fixed}"
    );
    assert!(
        fixed.contains("verison:") || fixed.contains("versoin:"),
        "one misspelling is left for a person: {fixed}"
    );
}

/// One `didChange` of 16,000 ranged edits to a document of 4 MB: each edit copied the whole
/// text (80 s for 8 MB). The edits land as a text editor applies them, one after another,
/// and the server answers the next request in the time it answers any other.
#[test]
fn many_edits_in_one_message_cost_what_the_edits_are() {
    let repo = repo();
    let path = repo.root.join(".cycod/tools/t.yaml");
    let uri = format!("file://{}", path.display());
    let head = "name: t\ndescription: Lists the files of the folder.\nbash: ls\ntags: [read]\n";
    let text = format!("{head}{}", "# c\n".repeat(1_000_000));
    let mut server = Raw::start(&repo.root);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}));
    server
        .wait(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 1);
    // Each inserts one letter at the start of line 4: a run of `#` that joins the comment
    // there, then `foo: 1` and a line end typed backwards in front of it.
    let typed = "foo: 1\n";
    let edits: Vec<Value> = std::iter::repeat_n('#', 16_000 - typed.len())
        .chain(typed.chars().rev())
        .map(|c| {
            let at = serde_json::json!({"line": 4, "character": 0});
            serde_json::json!({"range": {"start": at, "end": at}, "text": c.to_string()})
        })
        .collect();
    let started = Instant::now();
    server.message(
        &serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": edits}}),
    );
    let published = server
        .wait(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 2);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // The typed key is an unknown cycod key on line 4.
    assert_eq!(unknown_key_at(&published), (4, 0), "{published}");
}

/// Where the unknown cycod key (`CYC001`) a publication reports starts: line, character.
fn unknown_key_at(published: &Value) -> (u64, u64) {
    let diags = published["params"]["diagnostics"].as_array();
    let found = diags
        .into_iter()
        .flatten()
        .find(|d| d["code"] == "CYC001")
        .unwrap_or_else(|| panic!("no CYC001 in {published}"));
    let start = &found["range"]["start"];
    (
        start["line"].as_u64().unwrap_or(u64::MAX),
        start["character"].as_u64().unwrap_or(u64::MAX),
    )
}

/// The outline of a cycod tool of 30,000 parameters: every symbol was built into the answer
/// as a JSON tree (release build: 336 MB for a document of 3.8 MB, and a 12 MB reply). An
/// outline holds the first 5,000 symbols, the tool first.
#[test]
fn the_outline_of_a_tool_of_thirty_thousand_parameters_is_bounded() {
    let repo = repo();
    let mut server = Raw::start(&repo.root);
    let path = repo.root.join(".cycod/tools/t.yaml");
    let uri = format!("file://{}", path.display());
    let params: String = (0..30_000)
        .map(|i| format!("  P{i}:\n    description: Pattern {i}\n    required: true\n"))
        .collect();
    let text = format!("name: t\ndescription: d\nbash: echo {{P0}}\nparameters:\n{params}");
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}));
    server.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str()
    });
    server.message(&serde_json::json!({"jsonrpc": "2.0", "id": 5,
        "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}}));
    let reply = server.wait(|m| m["id"] == 5);
    let tools = reply["result"].as_array().expect("symbols");
    assert_eq!(tools.len(), 1, "{reply:.300}");
    assert_eq!(tools[0]["name"], "t");
    let children = tools[0]["children"].as_array().expect("parameters").len();
    assert_eq!(children, 4_999);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    server.wait(|m| m["id"] == 9);
    server.message(&serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    let (code, stderr) = server.finish();
    assert_eq!(code, Some(0), "{stderr}");
}
