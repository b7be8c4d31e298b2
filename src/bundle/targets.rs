//! Every target's list of tools written in one pass over the bundled tools: a few thousand
//! tools at a time are lowered once and rendered for every target at once, in parallel, and
//! each entry's pretty JSON is indented into its place in its file. (Each file lowering every
//! tool again took a build of 800,000 tiny tools 9 seconds to write.)

use std::io::Write;

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
    // The next round is rendered while this one is written (writing a gigabyte of bundles
    // took a third of the build of 900,000 tools while the cores waited): never more than
    // two rounds at once, as a round is handed over only when the last is written.
    std::thread::scope(|scope| {
        let (rounds, rendered) = std::sync::mpsc::sync_channel(0);
        scope.spawn(move || {
            let each_round = compiled.map_tools(|tools| {
                let each: Vec<Rendered> = targets.iter().map(|&t| render(&tools, t)).collect();
                each
            });
            for round in each_round {
                // The writer is gone: nothing is left to render for.
                if rounds.send(round).is_err() {
                    break;
                }
            }
        });
        for pieces in rendered {
            for piece in pieces {
                for (s, r) in streams.iter_mut().zip(piece) {
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
        let made = match target {
            Target::OpenAi => pretty(&mut out.bytes, base, Some(openai::entry(t))),
            Target::Anthropic => pretty(&mut out.bytes, base, Some(anthropic::entry(t))),
            Target::Mcp => pretty(&mut out.bytes, base, Some(mcp::entry(t))),
            Target::Gemini => pretty(&mut out.bytes, base, gemini::entry(t)),
            Target::Bundle => pretty(&mut out.bytes, base, Some(canonical::entry(t))),
        };
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

/// Write `entry` to `out` as pretty JSON whose lines after the first are indented `base`
/// spaces more; false when there is none, or it cannot be written.
fn pretty(out: &mut Vec<u8>, base: usize, entry: Option<impl Serialize>) -> bool {
    let mut to = serde_json::Serializer::with_formatter(out, Indented::new(base));
    entry.is_some_and(|e| e.serialize(&mut to).is_ok())
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
