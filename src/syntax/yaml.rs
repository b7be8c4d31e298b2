//! YAML → [`Node`], built from `granit-parser` events (byte-accurate spans).
//!
//! The tree builder is ours so that duplicate keys, alias expansion limits and depth limits
//! are diagnostics rather than crashes or hangs.

use std::collections::HashMap;

use granit_parser::{Event, Parser, ScalarStyle, Span as YSpan};

use super::yaml_marks::{scan_error, token_span};
use super::{
    Entry, MAX_DEPTH, MapBuilder, Node, NodeKind, Number, Parsed, Repeats, SeqBuilder, SyntaxError,
    SyntaxErrorKind, Text,
};
use crate::source::Span;

/// Budget of nodes a document may expand to through aliases (a billion-laughs guard).
const MAX_EXPANDED_NODES: usize = 200_000;

/// Anchors a document may define at least (and one per KiB of it past that).
const MIN_ANCHORS: usize = 10_000;

/// Budget of text the aliases of a document may copy, in bytes: the document's own length,
/// and at least 1 MiB. A few aliases of one long string stay within the node budget, and
/// 20,000 of a 300 KB description (a file of 360 KB) took 11.7 GB.
const MIN_ALIAS_TEXT: usize = 1024 * 1024;

/// Parse `text` (a slice of a file starting at byte `base`) as a single YAML document.
pub(crate) fn parse(text: &str, base: usize) -> Parsed {
    let mut builder = Builder {
        base,
        text,
        stack: Vec::new(),
        anchors: HashMap::new(),
        nodes: 0,
        alias_text: 0,
        repeats: Repeats::default(),
        out: Parsed::default(),
        documents: 0,
        stopped: false,
    };
    let mut parser = Parser::new_from_str(text);
    loop {
        match parser.next_event() {
            None => break,
            Some(Ok((event, span))) => {
                if let Err(stop) = builder.event(event, span) {
                    builder.out.errors.push(stop);
                    builder.out.root = None;
                    break;
                }
                if builder.stopped {
                    break;
                }
            }
            Some(Err(err)) => {
                builder.out.errors.push(scan_error(text, base, &err));
                builder.out.root = None;
                break;
            }
        }
    }
    // The mappings still open where the parse stopped say their repeated keys too (found
    // when a mapping ends), and every error is in the order of the text, as in JSON: a file
    // of more repeats than the cap shows its first.
    for frame in std::mem::take(&mut builder.stack) {
        if let Frame::Map { entries, .. } = frame {
            let _ = entries.finish(&mut builder.repeats);
        }
    }
    let (repeats, left_out) = builder.repeats.finish();
    builder.out.errors.extend(repeats);
    builder.out.repeats_left_out = left_out;
    builder.out.errors.sort_by_key(|e| e.span.start);
    builder.out
}

struct Anchored {
    node: Node,
    size: usize,
    height: usize,
    /// Bytes of text a copy holds ([`Node::text_len`]).
    text_len: usize,
}

enum Frame {
    Seq {
        start: usize,
        /// Packed once long and plain (a list of millions of tags took a node each).
        items: SeqBuilder,
        /// Where the last item ends.
        last_end: Option<usize>,
        anchor: usize,
    },
    Map {
        start: usize,
        /// Packed once long and dense (a mapping of millions of one-letter entries took 56
        /// bytes an entry); its repeats dropped as it grows.
        entries: MapBuilder,
        key: Option<(Text, Span)>,
        anchor: usize,
    },
}

struct Builder<'a> {
    base: usize,
    text: &'a str,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Anchored>,
    nodes: usize,
    /// Bytes of text the aliases so far copied.
    alias_text: usize,
    /// The repeated keys found so far.
    repeats: Repeats,
    out: Parsed,
    documents: usize,
    stopped: bool,
}

impl Builder<'_> {
    fn span(&self, s: &YSpan) -> Span {
        let start = s.start.byte_offset().unwrap_or(0);
        let end = s.end.byte_offset().unwrap_or(start);
        Span::new(start, end).shifted(self.base)
    }

    fn event(&mut self, event: Event<'_>, ys: YSpan) -> Result<(), SyntaxError> {
        let span = self.span(&ys);
        match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
            Event::DocumentStart(..) => {
                self.documents += 1;
                if self.documents > 1 {
                    self.out.errors.push(SyntaxError {
                        kind: SyntaxErrorKind::MultipleDocuments,
                        message:
                            "a second YAML document is not allowed here; only the first is read"
                                .into(),
                        span: token_span(self.text, span.start - self.base).shifted(self.base),
                        related: None,
                        explain: None,
                    });
                    self.stopped = true;
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                let forced_string = tag.as_ref().is_some_and(|t| t.suffix() == "str");
                let kind = if style == ScalarStyle::Plain && !forced_string {
                    resolve_plain(&value)
                } else {
                    NodeKind::String(value.into())
                };
                self.finish(Node::new(span, kind), anchor)?;
            }
            Event::SequenceStart(_, anchor, _) => {
                self.check_depth(span)?;
                self.stack.push(Frame::Seq {
                    start: span.start,
                    items: SeqBuilder::growing(span.start),
                    last_end: None,
                    anchor,
                });
            }
            Event::MappingStart(_, anchor, _) => {
                self.check_depth(span)?;
                self.stack.push(Frame::Map {
                    start: span.start,
                    entries: MapBuilder::with_capacity(0, span.start),
                    key: None,
                    anchor,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Ok(());
                };
                let (node, anchor) = match frame {
                    Frame::Seq {
                        start,
                        items,
                        last_end,
                        anchor,
                    } => {
                        let end = last_end.unwrap_or(span.end);
                        let end = if self.is_flow_close(span) {
                            span.end
                        } else {
                            end
                        };
                        (
                            Node::new(
                                Span::new(start, end.max(start)),
                                NodeKind::Seq(items.finish()),
                            ),
                            anchor,
                        )
                    }
                    Frame::Map {
                        start,
                        entries,
                        anchor,
                        ..
                    } => {
                        let (entries, last_end) = entries.finish(&mut self.repeats);
                        let end = last_end.unwrap_or(span.end);
                        let end = if self.is_flow_close(span) {
                            span.end
                        } else {
                            end
                        };
                        (
                            Node::new(Span::new(start, end.max(start)), NodeKind::Map(entries)),
                            anchor,
                        )
                    }
                };
                self.finish(node, anchor)?;
            }
            Event::Alias(id) => {
                let Some(anchored) = self.anchors.get(&id) else {
                    return Err(SyntaxError {
                        kind: SyntaxErrorKind::Yaml,
                        message: "unknown anchor".into(),
                        span,
                        related: None,
                        explain: None,
                    });
                };
                if self.nodes + anchored.size > MAX_EXPANDED_NODES {
                    return Err(SyntaxError {
                        kind: SyntaxErrorKind::AliasLimit,
                        message: format!(
                            "aliases expand this document beyond {MAX_EXPANDED_NODES} nodes"
                        ),
                        span,
                        related: None,
                        explain: None,
                    });
                }
                let text_budget = self.text.len().max(MIN_ALIAS_TEXT);
                if self.alias_text + anchored.text_len > text_budget {
                    return Err(SyntaxError {
                        kind: SyntaxErrorKind::AliasLimit,
                        message: format!(
                            "aliases copy more than {text_budget} bytes of text into this document (at most its own length, or 1 MiB)"
                        ),
                        span,
                        related: None,
                        explain: None,
                    });
                }
                self.alias_text += anchored.text_len;
                if self.stack.len() + anchored.height > MAX_DEPTH {
                    return Err(SyntaxError {
                        kind: SyntaxErrorKind::TooDeep,
                        message: format!(
                            "this alias nests the document deeper than {MAX_DEPTH} levels"
                        ),
                        span,
                        related: None,
                        explain: None,
                    });
                }
                // The copy counts against the budget in full (`finish` adds the one for its
                // root): otherwise many aliases of one large anchor pass the check one by one.
                self.nodes += anchored.size.saturating_sub(1);
                let mut node = anchored.node.clone();
                node.set_span(span);
                self.finish(node, 0)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn is_flow_close(&self, span: Span) -> bool {
        let rel = span.start.saturating_sub(self.base);
        matches!(self.text.as_bytes().get(rel), Some(b'}' | b']')) && !span.is_empty()
    }

    fn check_depth(&self, span: Span) -> Result<(), SyntaxError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(SyntaxError {
                kind: SyntaxErrorKind::TooDeep,
                message: format!("the document is nested deeper than {MAX_DEPTH} levels"),
                span,
                related: None,
                explain: None,
            });
        }
        Ok(())
    }

    fn finish(&mut self, node: Node, anchor: usize) -> Result<(), SyntaxError> {
        self.nodes += 1;
        if anchor != 0 {
            // Each anchor keeps a copy of its node for the aliases to come, whether any comes
            // or not: three million `&a x` (15 MB) took 392 MB.
            let most = MIN_ANCHORS.max(self.text.len() / 1024);
            if self.anchors.len() >= most {
                return Err(SyntaxError {
                    kind: SyntaxErrorKind::AliasLimit,
                    message: format!(
                        "this document defines more than {most} anchors (toolc keeps one per KiB of a document, at least {MIN_ANCHORS})"
                    ),
                    span: node.span(),
                    related: None,
                    explain: None,
                });
            }
            let size = node.size();
            let height = node.height();
            let text_len = node.text_len();
            self.anchors.insert(
                anchor,
                Anchored {
                    node: node.clone(),
                    size,
                    height,
                    text_len,
                },
            );
        }
        match self.stack.last_mut() {
            None => {
                if self.out.root.is_none() {
                    self.out.root = Some(node);
                }
            }
            Some(Frame::Seq {
                items, last_end, ..
            }) => {
                *last_end = Some(node.span().end);
                items.push(node);
            }
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                None => {
                    let span = node.span();
                    // The key's node is done with: its text is moved, not copied.
                    let text = match node.kind {
                        NodeKind::String(s) => s,
                        NodeKind::Null => Text::new(),
                        NodeKind::Bool(b) => {
                            Text::from_static_str(if b { "true" } else { "false" })
                        }
                        NodeKind::Number(_) => Text::from(
                            self.text
                                .get(span.start - self.base..span.end - self.base)
                                .unwrap_or_default(),
                        ),
                        NodeKind::Seq(_) | NodeKind::Map(_) => {
                            return Err(SyntaxError {
                                kind: SyntaxErrorKind::Yaml,
                                message:
                                    "a mapping key must be a plain value, not a list or mapping"
                                        .into(),
                                span,
                                related: None,
                                explain: None,
                            });
                        }
                    };
                    *key = Some((text, span));
                }
                // Repeated keys are found when the mapping ends (`MapBuilder::finish`).
                Some((k, key_span)) => {
                    entries.push(Entry::new(k, key_span, node), &mut self.repeats);
                }
            },
        }
        Ok(())
    }
}

/// Resolve a plain scalar by the YAML 1.2 core schema.
fn resolve_plain(value: &str) -> NodeKind {
    match value {
        "" | "~" | "null" | "Null" | "NULL" => return NodeKind::Null,
        "true" | "True" | "TRUE" => return NodeKind::Bool(true),
        "false" | "False" | "FALSE" => return NodeKind::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return NodeKind::Number(Number::Float(f64::INFINITY));
        }
        "-.inf" | "-.Inf" | "-.INF" => return NodeKind::Number(Number::Float(f64::NEG_INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return NodeKind::Number(Number::Float(f64::NAN)),
        _ => {}
    }
    if let Some(int) = parse_int(value) {
        return NodeKind::Number(int);
    }
    if looks_like_float(value)
        && let Ok(f) = value.parse::<f64>()
    {
        return NodeKind::Number(Number::Float(f));
    }
    NodeKind::String(value.into())
}

fn parse_int(value: &str) -> Option<Number> {
    let (digits, radix) = if let Some(hex) = value.strip_prefix("0x") {
        (hex, 16)
    } else if let Some(oct) = value.strip_prefix("0o") {
        (oct, 8)
    } else {
        let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
        if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        return Some(value.parse::<i64>().map_or_else(
            |_| Number::Float(value.parse().unwrap_or(f64::NAN)),
            Number::Int,
        ));
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    i64::from_str_radix(digits, radix).ok().map(Number::Int)
}

fn looks_like_float(value: &str) -> bool {
    let v = value.strip_prefix(['-', '+']).unwrap_or(value);
    let (mantissa, exponent) = match v.find(['e', 'E']) {
        Some(i) => (&v[..i], Some(&v[i + 1..])),
        None => (v, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((a, b)) => {
            (!a.is_empty() || !b.is_empty())
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => !mantissa.is_empty() && mantissa.bytes().all(|c| c.is_ascii_digit()),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|c| c.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
#[path = "yaml_tests.rs"]
mod tests;
