//! Reading values out of a syntax tree by key path: what a format's lowering into its typed
//! fields uses (the IR lowering reads those fields, never the tree).

use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::syntax::{Item, MapItem, Node};

/// The string at `path` under `node`.
pub(crate) fn str_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n str> {
    node_at(node, path).and_then(Node::as_str)
}

/// The node at `path` under `node`.
pub(crate) fn node_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n Node> {
    path.iter().try_fold(node, |n, key| n.value(key))
}

/// The strings of a sequence (other items skipped); empty when `node` is not a sequence.
pub(crate) fn strings(node: Option<&Node>) -> Vec<String> {
    node.and_then(Node::as_seq)
        .map(|items| {
            items
                .iter()
                .filter_map(Node::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The strings of a sequence (other items skipped) in one buffer, for a field a definition
/// keeps for the whole run (a tool's tags): a `String` each took 24 bytes and an allocation,
/// for a file of millions of them many times its size. Written to the cache as the list of
/// strings it holds.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Strings {
    /// The strings, one after the other.
    text: String,
    /// Where each ends in `text` (files are read up to 64 MiB).
    ends: Vec<u32>,
}

impl Strings {
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
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, end)| self.text.get(start as usize..*end as usize).unwrap_or(""))
    }

    /// Add `s` at the end.
    pub(crate) fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.ends
            .push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
    }

    /// Room for `more` strings.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.ends.reserve_exact(more);
    }

    /// Without the spare room of the pushes: held for the whole run.
    pub(crate) fn shrink(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }

    /// The strings, each its own.
    pub(crate) fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
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
        serializer.collect_seq(self.iter())
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

/// The run settings `keys` of `node` into `out` under `prefix` (`steps/0/`), each as compact
/// JSON with sorted keys; the values of `hashed` keys (an environment, which may hold
/// secrets) are kept only as a short hash of each value.
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
        let mut json = value.to_json();
        sort_keys(&mut json);
        if hashed.contains(key)
            && let serde_json::Value::Object(map) = &mut json
        {
            for v in map.values_mut() {
                let digest = crate::text::sha256_hex(v.to_string().as_bytes());
                *v = serde_json::Value::String(format!("sha256:{}", &digest[..16]));
            }
        }
        out.insert(format!("{prefix}{key}"), json.to_string());
    }
}

/// Put the keys of every object of `value` in sorted order, in place. serde_json's map keeps
/// them sorted already unless its `preserve_order` feature is on; only then is a map built
/// again (it was built again for every map: a cycod `environment` of a million members
/// held twice).
fn sort_keys(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            if !map.keys().is_sorted() {
                let mut entries: Vec<(String, serde_json::Value)> =
                    std::mem::take(map).into_iter().collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                *map = entries.into_iter().collect();
            }
            map.values_mut().for_each(sort_keys);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(sort_keys),
        _ => {}
    }
}
