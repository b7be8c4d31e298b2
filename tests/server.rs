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

#[path = "server/configuration.rs"]
mod configuration;
#[path = "server/findings.rs"]
mod findings;
#[path = "server/navigation.rs"]
mod navigation;

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

fn codes(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect()
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
