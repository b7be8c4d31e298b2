//! The `toolc.lock` file: TOML, one `[[tool]]` table per tool (`[[skill]]` per Agent Skill,
//! `[[server]]` per MCP server) with its parts and texts one per line, so a reviewer sees in
//! the lock's diff which part of which definition changed.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Deserialize;
use toml::Spanned;

use super::Entry;
use super::record::Kind;
use crate::source::Span;

/// The lock's file name, in the lock's folder.
pub(crate) const FILE_NAME: &str = "toolc.lock";

/// The version of the lock format; a lock of another version is refused, not guessed at.
pub(super) const VERSION: u32 = 1;

const HEADER: &str = "\
# toolc.lock: the reviewed definition of every tool, Agent Skill and MCP server, written by
# `toolc lock`. Commit it. `toolc check --locked` fails when one no longer matches it; after reviewing
# the change, run `toolc lock` again and commit the new lock with it. Do not edit by hand.
";

/// A TOML key: bare when it can be, else a quoted string.
fn key(k: &str) -> String {
    let bare = !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if bare { k.to_string() } else { string(k) }
}

/// A TOML basic string.
fn string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The lock's text for `entries` (already in order).
#[cfg(test)]
pub(super) fn render(entries: &[Entry]) -> String {
    let mut out = head();
    for e in entries {
        render_entry(e, &mut out);
    }
    out
}

/// The lock's text before its entries: the header and the version.
pub(super) fn head() -> String {
    format!("{HEADER}version = {VERSION}\n")
}

/// The lock's text of `e`, appended to `out`: its table, then the tables of its parts and
/// texts.
pub(super) fn render_entry(e: &Entry, out: &mut String) {
    let table = e.kind.table();
    let _ = write!(
        out,
        "\n[[{table}]]\nname = {}\nformat = {}\npath = {}\nsha256 = {}\n",
        string(&e.name),
        string(&e.format),
        string(&e.path),
        string(&e.sha256)
    );
    for (part, map) in [("parts", &e.parts), ("texts", &e.texts)] {
        if map.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n[{table}.{part}]");
        for (k, v) in map {
            let _ = writeln!(out, "{} = {}", key(k), string(v));
        }
    }
}

/// A lock as TOML: the whole of it, or one piece (the head with its `version`, or an entry
/// with the tables of its parts and texts).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLock {
    version: Option<Spanned<u32>>,
    #[serde(default)]
    tool: Vec<RawEntry>,
    #[serde(default)]
    skill: Vec<RawEntry>,
    #[serde(default)]
    server: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    name: Spanned<String>,
    format: String,
    path: String,
    sha256: String,
    #[serde(default)]
    parts: BTreeMap<String, String>,
    #[serde(default)]
    texts: BTreeMap<String, String>,
}

/// A lock entry read from the file, with where its name is written.
#[derive(Debug, Clone)]
pub(super) struct Locked {
    /// The entry.
    pub entry: Entry,
    /// Where the entry's `name` is written in the lock.
    pub span: Span,
}

/// Why a lock could not be read: a message, and where in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ParseError {
    /// What is wrong.
    pub message: String,
    /// Where.
    pub span: Span,
}

/// The lock's text cut before each line that starts an array table (`[[tool]]`), with where
/// each piece starts: the head, then an entry a piece, as toolc writes them.
fn pieces(text: &str) -> Vec<(usize, &str)> {
    let mut starts = vec![0];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > 0 && line.trim_start().starts_with("[[") {
            starts.push(at);
        }
        at += line.len();
    }
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| (w[0], &text[w[0]..w[1]]))
        .collect()
}

/// `piece` (at `start` in the lock) as TOML; an error's place is in the lock.
fn parse_piece(start: usize, piece: &str) -> Result<RawLock, ParseError> {
    toml::from_str(piece).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        ParseError {
            message: e.message().trim().to_string(),
            span: Span::new(start + span.start, start + span.end),
        }
    })
}

/// A lock whose pieces do not read (a name with a line break is written as a multi-line
/// string, which a cut before a line starting `[[` can fall inside) is read whole up to this
/// size, as TOML reads it, and a broken lock gets TOML's own error. Past it, the error of the
/// piece stands: a lock of more than 1 MiB whose names hold a line starting `[[` is refused
/// (it was read whole up to 4 MiB, a few hundred megabytes of parser for a hostile one).
const READ_WHOLE_UP_TO: usize = MAX_PIECE;

/// The largest piece of a lock read (its head, or one entry with its tables): the TOML
/// parser holds up to a hundred times what it reads (a head of 10 MB of `1,` took 958 MB),
/// and an entry toolc writes is a few hundred bytes (tens of kilobytes for a tool of
/// thousands of parameters).
const MAX_PIECE: usize = 1 << 20;

/// The entries read so far: tools, skills and servers, each in the order of the file.
#[derive(Default)]
struct Entries {
    tools: Vec<Locked>,
    skills: Vec<Locked>,
    servers: Vec<Locked>,
}

impl Entries {
    /// Add the entries of `raw` (read at `start`); the head's version is checked.
    fn add(&mut self, start: usize, raw: RawLock, head: bool) -> Result<(), ParseError> {
        if head {
            let Some(version) = raw.version.as_ref() else {
                return Err(ParseError {
                    message: "missing field `version`".to_string(),
                    span: Span::point(start),
                });
            };
            if *version.get_ref() != VERSION {
                let span = version.span();
                return Err(ParseError {
                    message: format!(
                        "lock version {} is not one this toolc reads (it writes version {VERSION})",
                        version.get_ref()
                    ),
                    span: Span::new(start + span.start, start + span.end),
                });
            }
        }
        let locked = |kind: Kind, raws: Vec<RawEntry>| {
            raws.into_iter().map(move |r| {
                let span = r.name.span();
                Locked {
                    entry: Entry {
                        kind,
                        format: r.format,
                        path: r.path,
                        name: r.name.into_inner(),
                        sha256: r.sha256,
                        parts: r.parts,
                        texts: r.texts,
                    },
                    span: Span::new(start + span.start, start + span.end),
                }
            })
        };
        self.tools.extend(locked(Kind::Tool, raw.tool));
        self.skills.extend(locked(Kind::Skill, raw.skill));
        self.servers.extend(locked(Kind::Server, raw.server));
        Ok(())
    }

    /// Tools, then skills, then servers.
    fn into_list(mut self) -> Vec<Locked> {
        self.tools.append(&mut self.skills);
        self.tools.append(&mut self.servers);
        self.tools
    }
}

/// The error of a piece past [`MAX_PIECE`], on its first line.
fn too_long(start: usize, piece: &str) -> ParseError {
    let first =
        crate::text::floor_boundary(piece, piece.find('\n').unwrap_or(piece.len()).min(200));
    let what = if start == 0 { "its head" } else { "an entry" };
    ParseError {
        message: format!(
            "{what} is {} bytes; toolc reads lock entries of at most {} KiB (one it writes is a few hundred bytes)",
            piece.len(),
            MAX_PIECE / 1024
        ),
        span: Span::new(start, start + first),
    }
}

/// Read the entries of a lock's text: its tools, then its skills, then its servers, each in
/// the order of the file. It is read an entry at a time: the TOML parser keeps every token
/// of what it reads, some twenty times the text, which for a lock of a million entries is
/// gigabytes.
pub(super) fn parse(text: &str) -> Result<Vec<Locked>, ParseError> {
    let mut entries = Entries::default();
    let by_pieces = pieces(text)
        .into_iter()
        .enumerate()
        .try_for_each(|(i, (start, piece))| {
            if piece.len() > MAX_PIECE {
                return Err(too_long(start, piece));
            }
            entries.add(start, parse_piece(start, piece)?, i == 0)
        });
    match by_pieces {
        Ok(()) => Ok(entries.into_list()),
        Err(_) if text.len() <= READ_WHOLE_UP_TO => {
            let mut whole = Entries::default();
            whole.add(0, parse_piece(0, text)?, true)?;
            Ok(whole.into_list())
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str) -> Entry {
        Entry {
            kind: Kind::Tool,
            format: "tool-md".into(),
            path: "tools/a \"b\".tool.md".into(),
            name: name.into(),
            sha256: "ab".repeat(32),
            parts: BTreeMap::from([("run".to_string(), "0123456789abcdef".to_string())]),
            texts: BTreeMap::from([(
                "input_schema/properties/q/description".to_string(),
                "fedcba9876543210".to_string(),
            )]),
        }
    }

    #[test]
    fn what_is_written_reads_back() {
        let entries = vec![entry("a"), entry("b")];
        let text = render(&entries);
        assert!(text.contains("\n[tool.texts]\n\"input_schema/properties/q/description\" = "));
        let read = parse(&text).expect("parses");
        let back: Vec<Entry> = read.iter().map(|l| l.entry.clone()).collect();
        assert_eq!(back, entries);
        assert_eq!(&text[read[1].span.start..read[1].span.end], "\"b\"");
    }

    #[test]
    fn skills_and_servers_have_tables_of_their_own() {
        let mut skill = entry("review");
        skill.kind = Kind::Skill;
        let mut server = entry("weather");
        server.kind = Kind::Server;
        let entries = vec![entry("a"), skill, server];
        let text = render(&entries);
        assert!(text.contains("\n[[skill]]\nname = \"review\""), "{text}");
        assert!(text.contains("\n[server.parts]\n"), "{text}");
        let back: Vec<Entry> = parse(&text)
            .expect("parses")
            .into_iter()
            .map(|l| l.entry)
            .collect();
        assert_eq!(back, entries);
    }

    /// A name with a line break is written as a multi-line string, whose lines may start
    /// `[[`: the lock still reads back as written.
    #[test]
    fn a_name_over_lines_reads_back() {
        let entries = vec![entry("evil\n[[tool]]"), entry("b")];
        let text = render(&entries);
        let starts = text.lines().filter(|l| l.starts_with("[[tool]]")).count();
        assert_eq!(starts, 3, "two entries and a line of a name: {text}");
        let back: Vec<Entry> = parse(&text)
            .expect("parses")
            .into_iter()
            .map(|l| l.entry)
            .collect();
        assert_eq!(back, entries);
    }

    #[test]
    fn other_versions_and_broken_files_are_errors() {
        let e = parse("version = 2\n").expect_err("refused");
        assert!(e.message.contains("lock version 2"), "{}", e.message);
        assert_eq!(e.span, Span::new(10, 11));
        assert!(parse("version = \n").is_err());
        assert!(parse("version = 1\n[[tool]]\nname = 3\n").is_err());
        let no_version = "[[tool]]\nname = \"a\"\nformat = \"f\"\npath = \"p\"\nsha256 = \"0\"\n";
        let e = parse(no_version).expect_err("refused");
        assert!(
            e.message.contains("missing field `version`"),
            "{}",
            e.message
        );
    }
}
