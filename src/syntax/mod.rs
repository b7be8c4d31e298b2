//! Spanned syntax trees shared by every format: YAML, JSON and Markdown front matter all
//! lower into [`Node`], so rules never care which syntax a file used.

mod body;
pub(crate) mod canonical;
pub(crate) mod front_matter;
pub(crate) mod json;
pub(crate) mod later;
pub(crate) mod map;
pub(crate) mod markdown;
mod node_at;
pub(crate) mod packed;
pub(crate) mod pieces;
pub(crate) mod repeats;
pub(crate) mod scalar;
pub(crate) mod sections;
pub(crate) mod seq;
pub(crate) mod sniff;
pub(crate) mod yaml;
mod yaml_marks;

pub(crate) use later::{Again, Later};
pub(crate) use map::{Map, MapBuilder};
pub(crate) use node_at::{Kind, NodeAt};
pub(crate) use packed::{Packed, TreeRef};
pub(crate) use repeats::{Repeats, drop_duplicate_keys};
pub(crate) use seq::{Item, MapItem, Seq, SeqBuilder};

use crate::source::Span;

/// Nodes deeper than this are rejected (by the parsers, and for YAML alias expansion).
pub(crate) const MAX_DEPTH: usize = 200;

/// One value of a spanned document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    /// Bytes of the value in its file ([`Node::span`]).
    at: Spot,
    /// What the value is.
    pub kind: NodeKind,
}

/// A span in half the room of a [`Span`]: every value of a tree holds one, and a list of
/// millions of one-byte values cost 16 bytes a value in spans alone. Files are read up to
/// 64 MiB, far within 32 bits; an offset beyond them is held at `u32::MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Spot {
    start: u32,
    end: u32,
}

impl Spot {
    fn of(span: Span) -> Spot {
        let at = |offset: usize| u32::try_from(offset).unwrap_or(u32::MAX);
        Spot {
            start: at(span.start),
            end: at(span.end),
        }
    }

    fn span(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }
}

/// The kinds of values a document can hold.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NodeKind {
    /// `null`, `~` or an empty YAML value.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, with its source text kept (JSON Schema needs exactness).
    Number(Number),
    /// A string (after escape processing).
    String(Text),
    /// A sequence.
    Seq(Seq),
    /// A mapping, in source order (duplicates already diagnosed and dropped).
    Map(Map),
}

/// A parsed number.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Number {
    /// An integer that fits in i64.
    Int(i64),
    /// Any other number.
    Float(f64),
}

/// The text of a key or a string value: 16 bytes, a text of up to 16 held in place, not in
/// an allocation of its own. A mapping of many short entries (`{a: a, b: b, …}`, six bytes an
/// entry) costs one allocation for all its entries, each entry 56 bytes.
pub(crate) type Text = lean_string::LeanStr;

/// A mapping entry: key and value, each spanned.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// The key as text.
    pub key: Text,
    /// Bytes of the key ([`Entry::key_span`]).
    key_at: Spot,
    /// The value.
    pub value: Node,
}

impl Entry {
    /// A new entry.
    pub(crate) fn new(key: impl Into<Text>, key_span: Span, value: Node) -> Entry {
        Entry {
            key: key.into(),
            key_at: Spot::of(key_span),
            value,
        }
    }

    /// Bytes of the key.
    pub(crate) fn key_span(&self) -> Span {
        self.key_at.span()
    }
}

impl Node {
    /// A new node.
    pub(crate) fn new(span: Span, kind: NodeKind) -> Node {
        Node {
            at: Spot::of(span),
            kind,
        }
    }

    /// Bytes of the value in its file.
    pub(crate) fn span(&self) -> Span {
        self.at.span()
    }

    /// The value now spans `span`.
    pub(crate) fn set_span(&mut self, span: Span) {
        self.at = Spot::of(span);
    }

    /// The mapping entries, if this is a mapping.
    pub(crate) fn as_map(&self) -> Option<&[Entry]> {
        match &self.kind {
            NodeKind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The entries as a [`Map`], if this is a mapping: read through [`Map::scan`], a long
    /// mapping is not built into entries.
    pub(crate) fn entries(&self) -> Option<&Map> {
        match &self.kind {
            NodeKind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items, if this is a sequence: a packed list's nodes are built and kept for it
    /// ([`Node::as_list`] tells a list apart without building them).
    pub(crate) fn as_seq(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The items as a [`Seq`], if this is a sequence: read through [`Seq::scan`], a long
    /// list of numbers is not built into nodes.
    pub(crate) fn as_list(&self) -> Option<&Seq> {
        match &self.kind {
            NodeKind::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The string, if this is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The entry for `key`, if this is a mapping that has it.
    pub(crate) fn get(&self, key: &str) -> Option<&Entry> {
        self.as_map()?.iter().find(|e| e.key == key)
    }

    /// The value for `key`, if this is a mapping that has it.
    pub(crate) fn value(&self, key: &str) -> Option<&Node> {
        self.get(key).map(|e| &e.value)
    }

    /// A short description of the value's type for messages ("a string", "a mapping").
    pub(crate) fn type_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::Null => "null",
            NodeKind::Bool(_) => "a boolean",
            NodeKind::Number(Number::Int(_)) => "an integer",
            NodeKind::Number(Number::Float(_)) => "a number",
            NodeKind::String(_) => "a string",
            NodeKind::Seq(_) => "a list",
            NodeKind::Map(_) => "a mapping",
        }
    }

    /// The JSON value of this node (for JSON Schema validation).
    pub(crate) fn to_json(&self) -> serde_json::Value {
        NodeAt::from(self).to_json()
    }

    /// The node at a JSON pointer (`/properties/a/0`), for mapping validator errors to spans.
    /// Returns the deepest node reached and whether the key of the last step is meant.
    pub(crate) fn at_pointer(&self, pointer: &str) -> &Node {
        let mut node = self;
        for raw in pointer.split('/').skip(1) {
            let token = raw.replace("~1", "/").replace("~0", "~");
            let next = match &node.kind {
                NodeKind::Map(entries) => entries.iter().find(|e| e.key == token).map(|e| &e.value),
                NodeKind::Seq(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        node
    }

    /// Number of nodes in this subtree (used as an alias-expansion budget).
    pub(crate) fn size(&self) -> usize {
        match &self.kind {
            NodeKind::Seq(items) => 1 + items.scan().map(|n| n.size()).sum::<usize>(),
            NodeKind::Map(entries) => 1 + entries.scan().map(|e| 1 + e.value.size()).sum::<usize>(),
            _ => 1,
        }
    }

    /// Bytes of text in this subtree (strings and keys): what a copy of it holds beyond its
    /// nodes.
    pub(crate) fn text_len(&self) -> usize {
        match &self.kind {
            NodeKind::String(s) => s.len(),
            NodeKind::Seq(items) => items.scan().map(|n| n.text_len()).sum(),
            NodeKind::Map(entries) => entries
                .scan()
                .map(|e| e.key.len() + e.value.text_len())
                .sum(),
            _ => 0,
        }
    }

    /// Height of this subtree (1 for a scalar).
    pub(crate) fn height(&self) -> usize {
        match &self.kind {
            NodeKind::Seq(items) => 1 + items.scan().map(|n| n.height()).max().unwrap_or(0),
            NodeKind::Map(entries) => {
                1 + entries.scan().map(|e| e.value.height()).max().unwrap_or(0)
            }
            _ => 1,
        }
    }
}

/// A syntax problem found while parsing, before any format rule runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SyntaxError {
    /// Which syntax rule this is.
    pub kind: SyntaxErrorKind,
    /// What went wrong.
    pub message: String,
    /// Where.
    pub span: Span,
    /// A related place (e.g. the first of two duplicate keys).
    pub related: Option<(Span, String)>,
    /// What to say at the span and what to do, when the parser's words do not say it.
    pub explain: Option<Explain>,
}

/// A label for a syntax error's span, and its help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Explain {
    /// Said at the span.
    pub label: &'static str,
    /// What to do.
    pub help: &'static str,
}

/// The kinds of syntax problems, each its own rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SyntaxErrorKind {
    /// Malformed YAML.
    Yaml,
    /// Malformed JSON.
    Json,
    /// A key appears twice in one mapping.
    DuplicateKey,
    /// YAML aliases expand beyond the budget.
    AliasLimit,
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep,
    /// More than one YAML document where one is expected.
    MultipleDocuments,
}

/// The outcome of parsing one document: a tree (when one could be built) and the problems.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    /// The root node; `None` when the text could not be parsed at all.
    pub root: Option<Node>,
    /// Problems found.
    pub errors: Vec<SyntaxError>,
    /// The repeated keys past the first [`repeats::REPEATS_KEPT`] of the document: where the first
    /// of them is, and how many they are (counted, never built).
    pub repeats_left_out: Option<(Span, usize)>,
}

#[cfg(test)]
mod robustness {
    //! Any text in, a tree or errors out: never a panic, whatever the bytes.

    use super::{json, yaml};

    /// Pieces that mean something to YAML or JSON, spliced into valid documents.
    const FRAGMENTS: &[&str] = &[
        ":",
        ": ",
        "- ",
        "[",
        "]",
        "{",
        "}",
        ",",
        "\"",
        "'",
        "\\",
        "#",
        "&a ",
        "*a",
        "!!str ",
        "!!binary ",
        "? ",
        "|",
        ">-",
        "---\n",
        "...\n",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\u{feff}",
        "é",
        "𝄞",
        "1e999",
        "-.inf",
        "%YAML 1.2\n",
        "%TAG ! tag:x,2000:\n",
        "<<: *a\n",
    ];
    const YAML: &str = "name: my-tool\nfiles:\n  - path: \"a/{x}.tf\"\n    description: |\n      text\nanchor: &a {k: [1, 2]}\nref: *a\n";
    const JSON: &str = r#"{"type": "object", "properties": {"a": {"type": ["string", "null"], "enum": ["x", 1.5e3]}}, "required": ["a"]}"#;

    /// xorshift64*: deterministic, so a failure reproduces.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1) as u64) as usize
        }
    }

    fn parse_both(text: &str, base: usize) {
        let _ = yaml::parse(text, base);
        let _ = json::parse(text, base);
    }

    #[test]
    fn parsers_survive_random_bytes_and_mutations() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..400 {
            let bytes: Vec<u8> = (0..rng.below(300)).map(|_| rng.below(256) as u8).collect();
            parse_both(&String::from_utf8_lossy(&bytes), rng.below(10));
        }
        for seed in [YAML, JSON].into_iter().cycle().take(2000) {
            let mut text = seed.to_string();
            for _ in 0..1 + rng.below(6) {
                let mut at = rng.below(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                match rng.below(3) {
                    0 => text.insert_str(at, FRAGMENTS[rng.below(FRAGMENTS.len())]),
                    1 => {
                        let mut end = (at + rng.below(8)).min(text.len());
                        while !text.is_char_boundary(end) {
                            end -= 1;
                        }
                        text.replace_range(at..end.max(at), "");
                    }
                    _ => {
                        let mut end = (at + rng.below(40)).min(text.len());
                        while !text.is_char_boundary(end) {
                            end -= 1;
                        }
                        let copy = text[at..end.max(at)].to_string();
                        text.insert_str(at, &copy);
                    }
                }
            }
            parse_both(&text, rng.below(4));
        }
    }
}
