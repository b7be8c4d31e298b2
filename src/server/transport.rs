//! The server's stdio transport: `Content-Length` frames read without trusting them. A frame
//! longer than any message toolc takes is refused before any of it is held (it is skipped as
//! it streams by), a body that is not JSON or not a message is answered with the JSON-RPC
//! error that says so, and the session goes on with the next frame. (`lsp-server`'s own
//! transport allocates whatever length a header names and ends the session on a bad body.)

use std::io::{BufRead, Read, Write};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, bounded};
use lsp_server::{Connection, Message};
use serde_json::{Value, json};

/// Bodies longer than this are refused unread: an editor buffer is at most the read cap
/// ([`crate::fs::MAX_READ_BYTES`]), which JSON escaping may double.
pub(super) const MAX_BODY: u64 = 2 * crate::fs::MAX_READ_BYTES + 1024 * 1024;

/// A header line longer than this is not a header.
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// JSON-RPC's code for a body that is not JSON.
const PARSE_ERROR: i64 = -32700;

/// JSON-RPC's code for JSON that is not a message, or a frame that cannot be taken.
const INVALID_REQUEST: i64 = -32600;

/// The thread that writes to stdout; the reader is left to end with the process (it may be
/// waiting on stdin).
pub(super) struct Writer(JoinHandle<std::io::Result<()>>);

impl Writer {
    /// Wait until everything sent has been written.
    pub(super) fn join(self) -> Result<(), String> {
        match self.0.join() {
            Ok(result) => result.map_err(|e| e.to_string()),
            Err(_) => Err("the writer thread panicked".to_string()),
        }
    }
}

/// A connection over stdin and stdout, and the thread writing to stdout.
pub(super) fn stdio() -> (Connection, Writer) {
    let (to_server, from_client) = bounded::<Message>(0);
    let (to_client, from_server) = bounded::<Message>(0);
    let (to_report, refusals) = bounded::<String>(16);
    std::thread::Builder::new()
        .name("toolc-server-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            read_loop(&mut stdin.lock(), &to_server, &to_report);
        })
        .map_err(|e| eprintln!("toolc server: cannot start the reader: {e}"))
        .ok();
    let writer = std::thread::Builder::new()
        .name("toolc-server-writer".into())
        .spawn(move || write_loop(&mut std::io::stdout().lock(), &from_server, &refusals))
        .unwrap_or_else(|e| std::thread::spawn(move || Err(e)));
    (
        Connection {
            sender: to_client,
            receiver: from_client,
        },
        Writer(writer),
    )
}

/// Read frames from `input` until it ends or the client says `exit`: messages go to the
/// server, refusals (as JSON-RPC error responses) to the writer.
pub(super) fn read_loop(
    input: &mut impl BufRead,
    to_server: &Sender<Message>,
    to_report: &Sender<String>,
) {
    loop {
        let body = match read_frame(input, to_report) {
            Ok(Some(body)) => body,
            Ok(None) | Err(_) => return,
        };
        match parse(&body) {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if to_server.send(message).is_err() || exit {
                    return;
                }
            }
            Err(refusal) => {
                if to_report.send(refusal).is_err() {
                    return;
                }
            }
        }
    }
}

/// The body of the next frame; `None` at the end of the input. A frame that cannot be taken
/// (no length, too long) is refused through `to_report` and skipped.
fn read_frame(
    input: &mut impl BufRead,
    to_report: &Sender<String>,
) -> std::io::Result<Option<Vec<u8>>> {
    loop {
        let mut length: Option<u64> = None;
        let mut headers = 0;
        loop {
            let mut line = Vec::new();
            let n = input
                .by_ref()
                .take(MAX_HEADER_LINE)
                .read_until(b'\n', &mut line)?;
            if n == 0 {
                return Ok(None);
            }
            if !line.ends_with(b"\n") {
                // Not a header: the rest of the line goes, unread.
                skip_line(input)?;
                headers += 1;
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                if headers == 0 {
                    continue;
                }
                break;
            }
            headers += 1;
            if let Some((name, value)) = text.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<u64>().ok();
            }
        }
        let Some(length) = length else {
            refuse(
                to_report,
                "a message without a valid `Content-Length` header",
            )?;
            continue;
        };
        if length > MAX_BODY {
            refuse(
                to_report,
                &format!(
                    "a message of {length} bytes; toolc server takes messages of at most {} MiB",
                    MAX_BODY / (1024 * 1024)
                ),
            )?;
            // Skipped as it streams by: nothing of it is held.
            std::io::copy(&mut input.by_ref().take(length), &mut std::io::sink())?;
            continue;
        }
        // Grown as bytes arrive, never sized from the header.
        let mut body = Vec::new();
        input.by_ref().take(length).read_to_end(&mut body)?;
        if (body.len() as u64) < length {
            return Ok(None);
        }
        return Ok(Some(body));
    }
}

/// Send the refusal of a frame to the writer (an error response with no id: the frame's id
/// is not known).
fn refuse(to_report: &Sender<String>, why: &str) -> std::io::Result<()> {
    to_report
        .send(error_response(Value::Null, INVALID_REQUEST, why))
        .map_err(|_| std::io::Error::other("the writer is gone"))
}

/// Skip the rest of a line (up to and including its `\n`), holding none of it.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// The JSON values a message may hold: a parsed value takes 50 to 100 bytes, so a body of
/// 40 MB of `1,` took 1.8 GB. A client's messages hold a few thousand (a `didChange` carries
/// its file as one string).
const MAX_VALUES: usize = 1_000_000;

/// How many values `body` holds, about (its `,`, `:`, `[` and `{` outside strings), counted
/// up to just past `MAX_VALUES`.
fn values_in(body: &[u8]) -> usize {
    let mut count = 0;
    let mut in_string = false;
    let mut escaped = false;
    for &b in body {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b':' | b'[' | b'{' => {
                    count += 1;
                    if count > MAX_VALUES {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    count
}

/// The message a body holds, or the error response that refuses it.
fn parse(body: &[u8]) -> Result<Message, String> {
    if values_in(body) > MAX_VALUES {
        return Err(error_response(
            Value::Null,
            INVALID_REQUEST,
            &format!(
                "a message of more than {MAX_VALUES} JSON values; toolc server takes at most that many"
            ),
        ));
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        error_response(
            Value::Null,
            PARSE_ERROR,
            &format!("the body is not JSON: {e}"),
        )
    })?;
    let id = value
        .get("id")
        .filter(|id| id.is_number() || id.is_string())
        .cloned()
        .unwrap_or(Value::Null);
    serde_json::from_value::<Message>(value)
        .map_err(|e| error_response(id, INVALID_REQUEST, &format!("not a JSON-RPC message: {e}")))
}

/// A JSON-RPC error response, as text.
fn error_response(id: Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

/// Write what the server sends and the reader's refusals to `out`, each as one frame, until
/// the server is done.
fn write_loop(
    out: &mut impl Write,
    from_server: &Receiver<Message>,
    refusals: &Receiver<String>,
) -> std::io::Result<()> {
    let mut refusals_open = true;
    loop {
        if !refusals_open {
            for message in from_server {
                message.write(out)?;
            }
            return Ok(());
        }
        crossbeam_channel::select! {
            recv(from_server) -> message => match message {
                Ok(message) => message.write(out)?,
                Err(_) => return Ok(()),
            },
            recv(refusals) -> refusal => match refusal {
                Ok(text) => {
                    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
                    out.flush()?;
                }
                Err(_) => refusals_open = false,
            },
        }
    }
}

#[cfg(test)]
#[path = "transport_tests.rs"]
mod tests;
