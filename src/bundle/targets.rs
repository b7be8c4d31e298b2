//! Every target's list of tools written in one pass over the bundled tools: a few thousand
//! tools at a time are lowered once and rendered for every target at once, in parallel, and
//! each entry's pretty JSON is indented into its place in its file. (Each file lowering every
//! tool again took a build of 800,000 tiny tools 9 seconds to write.)

use std::io::Write;

use rayon::prelude::*;
use serde::Serialize;

use super::{Compiled, Target, anthropic, canonical, gemini, mcp, openai};
use crate::ir::Tool;

/// At most this much room is made for a few tools' entries before they are rendered.
const ROOM_GUESSED: usize = 1 << 20;

/// One target's file as it is written.
struct Stream<'w> {
    target: Target,
    out: &'w mut dyn Write,
    /// The file with an empty list of tools, and where that list (`[]`) is in it.
    document: Vec<u8>,
    list: usize,
    /// The indentation of the line the list opens on.
    indent: usize,
    /// Entries written so far.
    entries: usize,
    /// The first failure writing to `out`: nothing more is written to it.
    failed: Option<std::io::Error>,
}

impl Stream<'_> {
    fn write(&mut self, bytes: &[u8]) {
        if self.failed.is_none()
            && let Err(e) = self.out.write_all(bytes)
        {
            self.failed = Some(e);
        }
    }

    /// Write the entry of `t`, if it has one, straight into the file.
    fn entry(&mut self, t: &Tool) {
        let Some(entry) = entry_of(t, self.target) else {
            return;
        };
        if self.failed.is_some() {
            return;
        }
        // An entry's lines one level deeper than the list's line.
        let base = self.indent + 2;
        let mut out = std::io::BufWriter::new(&mut *self.out);
        let head = if self.entries == 0 { "\n" } else { ",\n" };
        let written = out
            .write_all(head.as_bytes())
            .and_then(|()| out.write_all(" ".repeat(base).as_bytes()))
            .and_then(|()| pretty(&mut out, base, entry).map_err(std::io::Error::from))
            .and_then(|()| out.flush());
        match written {
            Ok(()) => self.entries += 1,
            Err(e) => self.failed = Some(e),
        }
    }
}

/// What the renderer hands the writer: one target's entries of a round, rendered, or a
/// round of large tools to write straight into each file.
enum Part {
    Rendered(usize, Vec<Rendered>),
    Large(Vec<Vec<Tool>>),
}

/// Schema and description text in one round past which its tools are written straight into
/// each file, one target after the other, by the writer: rendered ahead, the text of one tool
/// of 60,000 parameters was held for two targets at once, beside all it was made from.
const LARGE_ROUND: usize = 1 << 20;

/// The schema and description text of `tools`.
fn text_of(tools: &[Vec<Tool>]) -> usize {
    tools
        .iter()
        .flatten()
        .map(|t| {
            let output = t.output_schema.as_ref().map_or(0, |s| s.text().len());
            t.input_schema.text().len() + output + t.description.len()
        })
        .sum()
}

/// Write the file of each target in `outs` to its writer. A writer that fails (a compared
/// file that differs) stops only its own file. Each writer's outcome, in order.
pub(super) fn write(
    compiled: &Compiled,
    outs: Vec<(Target, &mut dyn Write)>,
) -> Vec<std::io::Result<()>> {
    let mut streams: Vec<Stream<'_>> = outs
        .into_iter()
        .map(|(target, out)| {
            let mut document = Vec::new();
            let made = match target {
                Target::OpenAi => openai::document(&mut document),
                Target::Anthropic => anthropic::document(&mut document),
                Target::Mcp => mcp::document(&mut document),
                Target::Gemini => gemini::document(&mut document),
                Target::Bundle => {
                    canonical::document(&compiled.left_out, &compiled.skills, &mut document)
                }
            };
            // The list of tools comes before anything taken from the repository, so the
            // first `[]` is it.
            let list = document.windows(2).position(|w| w == b"[]");
            let line = document[..list.unwrap_or(0)]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let indent = document[line..].iter().take_while(|&&b| b == b' ').count();
            let failed = match (made, list) {
                (Err(e), _) => Some(e),
                (Ok(()), None) => Some(std::io::Error::other("a bundle with no list of tools")),
                (Ok(()), Some(_)) => None,
            };
            Stream {
                target,
                out,
                list: list.unwrap_or(0),
                document,
                indent,
                entries: 0,
                failed,
            }
        })
        .collect();
    for s in &mut streams {
        let head = s.document[..=s.list].to_vec();
        s.write(&head);
    }
    let targets: Vec<(Target, usize)> = streams.iter().map(|s| (s.target, s.indent)).collect();
    // The next target's entries are rendered while this one's are written (writing a
    // gigabyte of bundles took a third of the build of 900,000 tools while the cores
    // waited). One target at a time: every target's text of one tool of 60,000 parameters
    // at once was 17 times its file.
    std::thread::scope(|scope| {
        let (sender, parts) = std::sync::mpsc::sync_channel(0);
        scope.spawn(move || {
            for round in compiled.map_tools(|tools| tools) {
                if text_of(&round) > LARGE_ROUND {
                    if sender.send(Part::Large(round)).is_err() {
                        return;
                    }
                    continue;
                }
                for (i, &target) in targets.iter().enumerate() {
                    let pieces: Vec<Rendered> = round
                        .par_iter()
                        .map(|tools| render(tools, target))
                        .collect();
                    // The writer is gone: nothing is left to render for.
                    if sender.send(Part::Rendered(i, pieces)).is_err() {
                        return;
                    }
                }
            }
        });
        for part in parts {
            match part {
                Part::Rendered(i, pieces) => {
                    let Some(s) = streams.get_mut(i) else {
                        continue;
                    };
                    for r in pieces {
                        // Each entry is written after a comma; the list's first has none.
                        let bytes = if s.entries == 0 {
                            r.bytes.get(1..).unwrap_or_default()
                        } else {
                            &r.bytes
                        };
                        s.write(bytes);
                        s.entries += r.entries;
                    }
                }
                Part::Large(round) => {
                    for s in &mut streams {
                        round.iter().flatten().for_each(|t| s.entry(t));
                    }
                }
            }
        }
    });
    streams
        .into_iter()
        .map(|mut s| {
            if s.entries > 0 {
                let close = format!("\n{}]", " ".repeat(s.indent));
                s.write(close.as_bytes());
            } else {
                s.write(b"]");
            }
            let tail = s.document.get(s.list + 2..).unwrap_or_default().to_vec();
            s.write(&tail);
            s.failed.map_or(Ok(()), Err)
        })
        .collect()
}

/// The entries of some tools in one target's list, each after a comma and a line break.
struct Rendered {
    bytes: Vec<u8>,
    entries: usize,
}

/// Render `tools` for `target`, whose list opens on a line indented `indent` spaces.
fn render(tools: &[Tool], (target, indent): (Target, usize)) -> Rendered {
    let mut out = Rendered {
        bytes: Vec::new(),
        entries: 0,
    };
    // An entry's lines one level deeper than the list's line.
    let base = indent + 2;
    for (i, t) in tools.iter().enumerate() {
        let start = out.bytes.len();
        out.bytes.extend_from_slice(b",\n");
        out.bytes.extend(std::iter::repeat_n(b' ', base));
        let made = entry_of(t, target).is_some_and(|e| pretty(&mut out.bytes, base, e).is_ok());
        if !made {
            out.bytes.truncate(start);
            continue;
        }
        out.entries += 1;
        if out.entries == 1 {
            // Room for the rest as long as the first (up to a bound: a long first entry
            // says nothing of the others): grown by doubling, the few tools' text was copied
            // about once more (a tenth of a build of 960,000 tiny tools' writing).
            let first = out.bytes.len() - start;
            let rest = first.saturating_mul(tools.len() - i - 1);
            out.bytes.reserve(rest.min(ROOM_GUESSED));
        }
    }
    // A long first entry over short others guessed too much room: not kept while the other
    // groups are rendered.
    if out.bytes.capacity() > 2 * out.bytes.len() {
        out.bytes.shrink_to_fit();
    }
    out
}

/// The entry of `t` in `target`'s list, if it has one.
#[derive(Serialize)]
#[serde(untagged)]
enum Entry<'t> {
    OpenAi(openai::Entry<'t>),
    Anthropic(anthropic::Entry<'t>),
    Mcp(mcp::Entry<'t>),
    Gemini(gemini::Declaration<'t>),
    Bundle(&'t Tool),
}

fn entry_of(t: &Tool, target: Target) -> Option<Entry<'_>> {
    Some(match target {
        Target::OpenAi => Entry::OpenAi(openai::entry(t)),
        Target::Anthropic => Entry::Anthropic(anthropic::entry(t)),
        Target::Mcp => Entry::Mcp(mcp::entry(t)),
        Target::Gemini => Entry::Gemini(gemini::entry(t)?),
        Target::Bundle => Entry::Bundle(canonical::entry(t)),
    })
}

/// Write `entry` to `out` as pretty JSON whose lines after the first are indented `base`
/// spaces more (an error of `out` kept as it is).
fn pretty(out: &mut impl Write, base: usize, entry: impl Serialize) -> serde_json::Result<()> {
    let mut to = serde_json::Serializer::with_formatter(out, Indented::new(base));
    entry.serialize(&mut to)
}

/// Pretty JSON as `serde_json` writes it (two spaces a level), each line after the first
/// `base` spaces further in: an entry written straight into its place in its list. (Written
/// flush left and then indented line by line, each entry was copied once more: a tenth of a
/// build's writing.)
struct Indented {
    base: usize,
    depth: usize,
    /// The array or object open now has a value (it closes on a line of its own).
    has_value: bool,
}

impl Indented {
    fn new(base: usize) -> Indented {
        Indented {
            base,
            depth: 0,
            has_value: false,
        }
    }

    /// A line break, then the indentation of the level open now.
    fn line<W: ?Sized + Write>(&self, w: &mut W) -> std::io::Result<()> {
        const SPACES: &[u8] = &[b' '; 64];
        w.write_all(b"\n")?;
        let mut left = self.base + 2 * self.depth;
        while left > 0 {
            let n = left.min(SPACES.len());
            w.write_all(&SPACES[..n])?;
            left -= n;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.has_value {
            self.line(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.line(w)
    }
}

impl serde_json::ser::Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}
