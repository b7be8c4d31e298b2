//! Reading values out of a syntax tree by key path: what a format's lowering into its typed
//! fields uses (the IR lowering reads those fields, never the tree).

use sha2::Digest as _;
use std::borrow::Cow;

use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Serialize, Serializer};

use crate::source::Span;
use crate::syntax::canonical::write_node;
use crate::syntax::{Entry, Item, MapItem, Node, NodeKind};

/// The string at `path` under `node`.
pub(crate) fn str_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n str> {
    node_at(node, path).and_then(Node::as_str)
}

/// The node at `path` under `node`.
pub(crate) fn node_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n Node> {
    path.iter().try_fold(node, |n, key| n.value(key))
}

/// The strings of a sequence (other items skipped) in one buffer, for a field a definition
/// keeps for the whole run (a tool's tags, an argv): a `String` each took 24 bytes and an
/// allocation, for a file of millions of them many times its size. Each string is its
/// length then its bytes: one allocation, and a list of one short word takes a few bytes (a
/// text and a list of ends were two allocations and 48 bytes in place). The length is
/// written in ASCII (six bits a byte, `0x40` set on all but the last), so the buffer is
/// UTF-8 as a whole and its strings are sliced out without validating them again at each
/// read (a tenth of a diff of millions of tiny tools, which reads each name many times).
/// Written to the cache as the list of strings it holds.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Strings {
    /// Each string's length, then the string.
    bytes: String,
}

impl Strings {
    /// No strings.
    pub(crate) const fn new() -> Strings {
        Strings {
            bytes: String::new(),
        }
    }

    /// The strings of the sequence `node` (none when it is not one), read without building
    /// a packed list's nodes.
    pub(crate) fn of(node: Option<&Node>) -> Strings {
        let items = node
            .and_then(Node::as_list)
            .into_iter()
            .flat_map(|l| l.items());
        items
            .filter_map(|item| match item {
                Item::Str(s, _) => Some(s),
                Item::Other(_) => None,
            })
            .collect()
    }

    /// The strings, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> {
        strings_of(&self.bytes)
    }

    /// How many bytes the strings take, their lengths included.
    pub(crate) fn byte_len(&self) -> usize {
        self.bytes.len()
    }

    /// The strings of `other` added at the end.
    pub(crate) fn append(&mut self, other: &Strings) {
        self.bytes.push_str(&other.bytes);
    }

    /// The buffer alone, without room to grow: for a list kept for the whole run whose
    /// 8 bytes of capacity count (read back with [`strings_of`]).
    pub(crate) fn into_boxed(self) -> Box<str> {
        self.bytes.into_boxed_str()
    }

    /// Add `s` at the end.
    pub(crate) fn push(&mut self, s: &str) {
        let mut len = s.len();
        while len >= LAST_DIGIT {
            self.bytes.push(char::from(MORE | (len % LAST_DIGIT) as u8));
            len /= LAST_DIGIT;
        }
        self.bytes.push(char::from(len as u8));
        self.bytes.push_str(s);
    }

    /// Room for `more` strings (of a byte or less each: more grow the buffer).
    pub(crate) fn reserve(&mut self, more: usize) {
        self.bytes.reserve(more.saturating_mul(2));
    }

    /// Without the spare room of the pushes: held for the whole run.
    pub(crate) fn shrink(&mut self) {
        self.bytes.shrink_to_fit();
    }

    /// The strings, each its own.
    pub(crate) fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

/// A length's digits are below this; every digit but the last has [`MORE`] set.
const LAST_DIGIT: usize = 0x40;
/// Set on a length's digit that another follows.
const MORE: u8 = 0x40;

/// The strings of a buffer a [`Strings`] wrote (a buffer that is not one read as far as it
/// goes).
pub(crate) fn strings_of(buffer: &str) -> impl Iterator<Item = &str> {
    let mut rest = buffer;
    std::iter::from_fn(move || {
        let mut len = 0usize;
        let mut digits = 0;
        for (i, byte) in rest.bytes().enumerate() {
            len = len.saturating_add(usize::from(byte & !MORE) << (6 * i).min(60));
            digits = i + 1;
            if byte & MORE == 0 || digits > 10 {
                break;
            }
        }
        if digits == 0 {
            return None;
        }
        // Only whole `&str`s are pushed, so a string ends on a character's boundary.
        let string = rest.get(digits..digits.saturating_add(len));
        rest = string.map_or("", |s| &rest[digits + s.len()..]);
        Some(string.unwrap_or_default())
    })
}

impl<'s> FromIterator<&'s str> for Strings {
    fn from_iter<I: IntoIterator<Item = &'s str>>(strings: I) -> Strings {
        let mut out = Strings::default();
        strings.into_iter().for_each(|s| out.push(s));
        out.shrink();
        out
    }
}

impl Serialize for Strings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // With its length first: the cache's encoding writes it before the items.
        let mut seq = serializer.serialize_seq(Some(self.iter().count()))?;
        for s in self.iter() {
            seq.serialize_element(s)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Strings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strings, D::Error> {
        struct List;
        impl<'de> Visitor<'de> for List {
            type Value = Strings;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of strings")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strings, A::Error> {
                let mut out = Strings::default();
                while let Some(s) = seq.next_element::<String>()? {
                    out.push(&s);
                }
                out.shrink();
                Ok(out)
            }
        }
        deserializer.deserialize_seq(List)
    }
}

/// [`Strings`] with the place each is written, for a list whose items are pointed at (an
/// agent's confirmations, which its outline links): a `String` and a span each took 40
/// bytes and an allocation, 40 times the list for one-letter items.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SpannedStrings {
    strings: Strings,
    /// Where each is written (files are read up to 64 MiB).
    spans: Vec<[u32; 2]>,
}

impl SpannedStrings {
    /// Add `s`, written at `span`.
    pub(crate) fn push(&mut self, s: &str, span: Span) {
        self.strings.push(s);
        let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.spans.push([at(span.start), at(span.end)]);
    }

    /// Each string and where it is written, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, Span)> {
        self.strings
            .iter()
            .zip(&self.spans)
            .map(|(s, &[start, end])| (s, Span::new(start as usize, end as usize)))
    }

    /// The strings, in order.
    pub(crate) fn strs(&self) -> impl Iterator<Item = &str> {
        self.strings.iter()
    }

    /// Without the spare room of the pushes: held for the whole run.
    pub(crate) fn shrink(&mut self) {
        self.strings.shrink();
        self.spans.shrink_to_fit();
    }
}

/// Where the value at `path` under `node` is written, for pointing at it: a scalar's own
/// bytes, or the key of a mapping or list (whose value spans many lines).
pub(crate) fn site_at(node: &Node, path: &[&str]) -> Option<crate::source::Span> {
    let (last, parents) = path.split_last()?;
    let entry = node_at(node, parents)?.get(last)?;
    Some(match entry.value.kind {
        crate::syntax::NodeKind::Map(_) | crate::syntax::NodeKind::Seq(_) => entry.key_span(),
        _ => entry.value.span(),
    })
}

/// The first of `paths` that is written under `node`, as [`site_at`] points at it.
pub(crate) fn first_site(node: &Node, paths: &[&[&str]]) -> Option<crate::source::Span> {
    paths.iter().find_map(|p| site_at(node, p))
}

/// Members of a hashed setting spelled out at most, each with a hash of its value; a longer
/// one (an environment of a million variables) is kept as their count and one digest of
/// them all, which a lock or a diff compares as well.
const SPELLED_OUT_MAX: usize = 256;

/// The run settings `keys` of `node` into `out` under `prefix` (`steps/0/`), each as compact
/// JSON with sorted keys; the values of `hashed` keys (an environment, which may hold
/// secrets) are kept only as a short hash of each value (or, past [`SPELLED_OUT_MAX`], one
/// digest of the whole). Written from the tree as it is read:
/// a `serde_json::Value` of an environment of a million members took more memory than the
/// tree.
pub(crate) fn settings(
    node: &MapItem<'_>,
    keys: &[&str],
    hashed: &[&str],
    prefix: &str,
    out: &mut crate::ir::Settings,
) {
    for key in keys {
        let Some(value) = node.value(key) else {
            continue;
        };
        let mut json = Vec::new();
        match &value.kind {
            NodeKind::Map(entries) if hashed.contains(key) => {
                let mut one = Vec::new();
                let hash_value = |v: &Node, out: &mut Vec<u8>| {
                    one.clear();
                    write_node(v, &mut one);
                    let digest = crate::text::sha256_hex(&one);
                    write(out, &format!("sha256:{}", &digest[..16]));
                };
                // Read in key order an entry at a time: a long mapping is held packed.
                if entries.len() <= SPELLED_OUT_MAX {
                    write_sorted(entries.sorted(), |b| json.extend_from_slice(b), hash_value);
                } else {
                    let mut whole = sha2::Sha256::new();
                    write_sorted(entries.sorted(), |b| whole.update(b), hash_value);
                    let digest = crate::text::hex(&whole.finalize());
                    write(
                        &mut json,
                        &format!("{} members, sha256:{digest}", entries.len()),
                    );
                }
            }
            _ => write_node(&value, &mut json),
        }
        // serde_json writes UTF-8.
        let json = String::from_utf8(json)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        out.insert(format!("{prefix}{key}"), json);
    }
}

/// Entries (in key order) as a JSON object, each value written by `value`, handed to `out` a
/// piece at a time.
fn write_sorted<'e>(
    sorted: impl Iterator<Item = Cow<'e, Entry>>,
    mut out: impl FnMut(&[u8]),
    mut value: impl FnMut(&Node, &mut Vec<u8>),
) {
    let mut one = Vec::new();
    out(b"{");
    for (i, e) in sorted.enumerate() {
        one.clear();
        if i > 0 {
            one.push(b',');
        }
        write(&mut one, e.key.as_str());
        one.push(b':');
        value(&e.value, &mut one);
        out(&one);
    }
    out(b"}");
}

/// A scalar as serde_json writes it (writing into a `Vec` cannot fail).
fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    let _ = serde_json::to_writer(out, value);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings of every length class of their prefix come back as pushed, in order, and
    /// through JSON and the cache's encoding.
    #[test]
    fn strings_come_back_as_pushed() {
        let long = "é".repeat(70);
        let longer = "x".repeat(20_000);
        let (edge, past) = ("y".repeat(63), "z".repeat(64));
        let pushed = [
            "",
            "a",
            long.as_str(),
            "",
            longer.as_str(),
            "日本",
            &edge,
            &past,
        ];
        let strings: Strings = pushed.iter().copied().collect();
        assert_eq!(strings.iter().collect::<Vec<_>>(), pushed);
        assert_eq!(strings.to_vec().len(), pushed.len());
        // Appended after a name and boxed, as a tool keeps its name and argv: read back whole.
        let mut words: Strings = ["name"].into_iter().collect();
        words.append(&strings);
        let boxed = words.into_boxed();
        assert_eq!(strings_of(&boxed).skip(1).collect::<Vec<_>>(), pushed);
        assert_eq!(strings_of(&boxed).next(), Some("name"));
        assert_eq!(Strings::new().iter().count(), 0);
        let json = serde_json::to_string(&strings).expect("serialized");
        let back: Strings = serde_json::from_str(&json).expect("read back");
        assert_eq!(back, strings);
        // The cache's encoding writes a list's length before its items.
        let stored = postcard::to_stdvec(&strings).expect("stored");
        let back: Strings = postcard::from_bytes(&stored).expect("read back");
        assert_eq!(back, strings);
        // One word takes its length and its bytes.
        assert_eq!(std::iter::once("x").collect::<Strings>().bytes.len(), 2);
        // A buffer that no `Strings` wrote is read as far as it goes, never past a character.
        for odd in [
            "\u{7f}\u{7f}",
            "\u{5}ab",
            "\u{3}日本",
            "\u{41}",
            "@@@@@@@@@@@@x",
        ] {
            let read: String = strings_of(odd).collect();
            assert!(read.len() <= odd.len(), "{odd:?}");
        }
    }

    /// Settings are written as serde_json writes the value with its keys sorted, and an
    /// environment's values only as short hashes of that JSON.
    #[test]
    fn settings_are_the_sorted_json_serde_writes() {
        let text = "environment:\n  ZED: z\n  Ä: \"umlaut \\\" quote\\n\"\n  AA: 1.5\n  B: [1, 2.0, x, {q: 1, a: [true, null]}]\ninput: {b: \"é\\u0001\", a: [3, 1e300, -0.0], \"\": 7}\ntimeout: 30\n";
        let root = crate::syntax::yaml::parse(text, 0).root.expect("yaml");
        let mut out = crate::ir::Settings::new();
        settings(
            &MapItem::of(&root),
            &["timeout", "environment", "input", "absent"],
            &["environment"],
            "p/",
            &mut out,
        );
        let json = |key: &str| root.value(key).expect("key").to_json();
        assert_eq!(out.get("p/timeout").map(String::as_str), Some("30"));
        assert_eq!(out.get("p/input"), Some(&json("input").to_string()));
        assert_eq!(
            out.get("p/input").map(String::as_str),
            Some(r#"{"":7,"a":[3,1e+300,-0.0],"b":"é\u0001"}"#)
        );
        let serde_json::Value::Object(env) = json("environment") else {
            panic!("a mapping");
        };
        let hashed: serde_json::Map<String, serde_json::Value> = env
            .iter()
            .map(|(k, v)| {
                let digest = crate::text::sha256_hex(v.to_string().as_bytes());
                (k.clone(), format!("sha256:{}", &digest[..16]).into())
            })
            .collect();
        let expected = serde_json::Value::Object(hashed).to_string();
        assert_eq!(out.get("p/environment"), Some(&expected));
        assert!(expected.starts_with(r#"{"AA":"sha256:"#), "{expected}");
        assert!(out.get("p/absent").is_none());
    }

    /// A long environment is kept as its count and one digest: the same in any order, another
    /// for any value changed.
    #[test]
    fn a_long_environment_is_kept_as_one_digest_of_its_members() {
        let of = |members: &[(String, String)]| {
            let body: String = members
                .iter()
                .map(|(k, v)| format!("  {k}: {v}\n"))
                .collect();
            let root = crate::syntax::yaml::parse(&format!("environment:\n{body}"), 0)
                .root
                .expect("yaml");
            let mut out = crate::ir::Settings::new();
            settings(
                &MapItem::of(&root),
                &["environment"],
                &["environment"],
                "",
                &mut out,
            );
            out.get("environment").cloned().expect("written")
        };
        let n = SPELLED_OUT_MAX * 4;
        let mut members: Vec<(String, String)> =
            (0..n).map(|i| (format!("K{i}"), "v".to_string())).collect();
        let whole = of(&members);
        assert!(
            whole.starts_with(&format!("\"{n} members, sha256:")) && whole.len() < 100,
            "{whole}"
        );
        members.reverse();
        assert_eq!(of(&members), whole);
        members[7].1 = "w".to_string();
        assert_ne!(of(&members), whole);
        // Spelled out up to the limit.
        members.truncate(SPELLED_OUT_MAX);
        assert!(of(&members).starts_with(r#"{"K"#));
    }
}
