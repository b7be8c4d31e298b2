//! Tests of packed mappings: what is packed, that it reads as the entries it stands for,
//! and that its repeated keys are reported and dropped as a short mapping's are.
use super::Map;
use crate::syntax::seq::PACK_FROM;
use crate::syntax::{Node, NodeKind, Packed, SyntaxErrorKind, json, yaml};

const BASE: usize = 3;

impl Map {
    fn is_packed(&self) -> bool {
        matches!(self.0, super::Repr::Packed(_))
    }

    /// Whether a packed mapping's entries were built for a reader of the slice.
    fn built(&self) -> bool {
        matches!(&self.0, super::Repr::Packed(plain) if plain.built().is_some())
    }
}

/// `n` entries `kI: VALUE` whose values cycle through JSON values of every kind, lists of
/// one-digit numbers between them: dense enough to be packed.
fn entries(n: usize) -> Vec<(String, &'static str)> {
    let dense = "[1,2,3,4,5,6,7,8,9]";
    let values = [
        "1",
        dense,
        "\"é\"",
        dense,
        "null",
        dense,
        "[1, \"a\"]",
        dense,
        "{\"b\": {\"c\": 2.5}}",
        dense,
        "true",
        dense,
        "{}",
        dense,
    ];
    (0..n)
        .map(|i| (format!("k{i}"), values[i % values.len()]))
        .collect()
}

fn json_text(entries: &[(String, &str)]) -> String {
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", body.join(", "))
}

fn yaml_text(entries: &[(String, &str)]) -> String {
    entries.iter().map(|(k, v)| format!("{k}: {v}\n")).collect()
}

/// Each entry's key and value read back through their spans.
fn spelt<'t>(text: &'t str, map: &Map) -> Vec<(&'t str, &'t str)> {
    let at = |s: crate::source::Span| &text[s.start - BASE..s.end - BASE];
    map.scan()
        .map(|e| (at(e.key_span()), at(e.value.span())))
        .collect()
}

fn map_of(node: &Node) -> &Map {
    node.entries().expect("a mapping")
}

#[test]
fn a_long_mapping_is_packed_and_reads_as_its_entries() {
    let long = entries(PACK_FROM * 3 + 7);
    for (text, yaml) in [(json_text(&long), false), (yaml_text(&long), true)] {
        let parsed = if yaml {
            yaml::parse(&text, BASE)
        } else {
            json::parse(&text, BASE)
        };
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let root = parsed.root.expect("parses");
        let map = map_of(&root);
        assert!(map.is_packed(), "yaml: {yaml}");
        assert_eq!(map.len(), long.len());
        // Keys, values and spans as the text has them.
        let expected: serde_json::Value = serde_json::from_str(&json_text(&long)).expect("JSON");
        assert_eq!(root.to_json(), expected, "yaml: {yaml}");
        let read = spelt(&text, map);
        for ((key, value), (k, v)) in read.iter().zip(&long) {
            assert_eq!(key.trim_matches('"'), k);
            assert_eq!(value, v);
        }
        assert!(!map.built(), "read without building its entries");
        // The slice readers see is the same entries, and a packed tree holds them.
        let built: Vec<_> = map.iter().cloned().collect();
        let scanned: Vec<_> = map.scan().map(|e| e.into_owned()).collect();
        assert_eq!(built, scanned);
        assert_eq!(Packed::pack(&root).unpack(), root);
        let copy = root.clone();
        assert_eq!(copy, root);
        // The parser's span of the whole mapping ends where its last entry does.
        assert_eq!(root.span().start, BASE);
    }
}

/// In key order, a packed mapping reads as its entries sorted, spans and all, without
/// building them; a held one as its own.
#[test]
fn a_mapping_reads_in_key_order_as_its_entries_sorted() {
    for n in [PACK_FROM - 1, PACK_FROM * 3 + 7] {
        // Keys out of order in the text.
        let mut keyed = entries(n);
        keyed.reverse();
        let root = yaml::parse(&yaml_text(&keyed), BASE).root.expect("parses");
        let map = map_of(&root);
        let sorted: Vec<_> = map.sorted().map(|e| e.into_owned()).collect();
        assert_eq!(map.is_packed(), n > PACK_FROM);
        assert!(!map.built(), "n = {n}");
        let mut expected: Vec<_> = map.scan().map(|e| e.into_owned()).collect();
        expected.sort_by(|a, b| a.key.as_str().cmp(b.key.as_str()));
        assert_eq!(sorted.len(), n);
        assert_eq!(sorted, expected, "n = {n}");
        let spans = |entries: &[crate::syntax::Entry]| -> Vec<_> {
            entries
                .iter()
                .map(|e| (e.key_span(), e.value.span()))
                .collect()
        };
        assert_eq!(spans(&sorted), spans(&expected));
    }
}

#[test]
fn a_short_mapping_is_held_as_entries() {
    let short = entries(PACK_FROM - 1);
    let root = json::parse(&json_text(&short), BASE).root.expect("parses");
    assert!(!map_of(&root).is_packed());
}

/// The repeated keys of a long mapping are each reported with the first of theirs, and
/// only the first entry of each key is kept, as in a short one.
#[test]
fn repeats_in_a_long_mapping_are_reported_and_dropped_as_in_a_short_one() {
    for len in [40, PACK_FROM * 2] {
        let mut long = entries(len);
        // Repeats of an early key, late and last; and of a key repeated twice.
        long.insert(len / 2, ("k3".to_string(), "7"));
        long.insert(len / 3, ("k1".to_string(), "8"));
        long.push(("k1".to_string(), "9"));
        for (text, yaml) in [(json_text(&long), false), (yaml_text(&long), true)] {
            let parsed = if yaml {
                yaml::parse(&text, BASE)
            } else {
                json::parse(&text, BASE)
            };
            let root = parsed.root.expect("parses");
            let map = map_of(&root);
            assert_eq!(map.len(), len, "len {len}, yaml: {yaml}");
            let read = spelt(&text, map);
            let keys: Vec<&str> = read.iter().map(|(k, _)| k.trim_matches('"')).collect();
            let expected: Vec<String> = (0..len).map(|i| format!("k{i}")).collect();
            assert_eq!(keys, expected, "the first of each key is kept");
            let repeats: Vec<(&str, &str)> = parsed
                .errors
                .iter()
                .filter(|e| e.kind == SyntaxErrorKind::DuplicateKey)
                .map(|e| {
                    let (first, _) = e.related.as_ref().expect("the first");
                    let line = |s: crate::source::Span| &text[s.start - BASE..s.end - BASE];
                    (line(e.span), line(*first))
                })
                .collect();
            assert_eq!(
                repeats.len(),
                3,
                "len {len}, yaml: {yaml}: {:?}",
                parsed.errors
            );
            for (repeat, first) in repeats {
                assert_eq!(repeat, first);
            }
            // A block mapping ends where its last kept entry does, short or long.
            if yaml {
                let last = map.scan().last().expect("entries").value.span().end;
                assert_eq!(root.span().end, last, "len {len}");
            }
        }
    }
}

#[test]
fn a_packed_mapping_in_a_packed_tree_is_kept_as_its_bytes() {
    let long = entries(PACK_FROM + 1);
    let text = format!("{{\"outer\": {}}}", json_text(&long));
    let root = json::parse(&text, BASE).root.expect("parses");
    let packed = Packed::pack(&root);
    let inner = root.value("outer").expect("the mapping");
    assert!(map_of(inner).is_packed());
    // Packing copied the mapping's bytes: nothing was built for it.
    assert!(!map_of(inner).built());
    assert_eq!(packed.unpack(), root);
    assert!(matches!(
        packed.unpack().value("outer").map(|v| &v.kind),
        Some(NodeKind::Map(_))
    ));
}

/// Entries of some text each (a client's `env`): held as entries, which their readers read
/// as a slice.
#[test]
fn a_long_mapping_of_entries_of_some_text_is_held_as_entries() {
    let scalars: Vec<(String, &str)> = (0..PACK_FROM * 2)
        .map(|i| (format!("k{i}"), "\"a value\""))
        .collect();
    for parsed in [
        json::parse(&json_text(&scalars), BASE),
        yaml::parse(&yaml_text(&scalars), BASE),
    ] {
        let root = parsed.root.expect("parses");
        assert!(!map_of(&root).is_packed());
        assert_eq!(map_of(&root).len(), scalars.len());
    }
}

/// A tree its reader reads one entry at a time packs a long mapping of entries of some
/// text too, and finds a key in it without building its entries.
#[test]
fn a_scanned_parse_packs_every_long_mapping() {
    let scalars: Vec<(String, &str)> = (0..PACK_FROM * 2)
        .map(|i| (format!("k{i}"), "\"a value\""))
        .collect();
    let text = json_text(&scalars);
    let root = json::parse_jsonc_scanned(&text, BASE).root.expect("parses");
    let map = map_of(&root);
    assert!(map.is_packed());
    let found = map.find("k300").expect("found");
    assert_eq!(found.value.as_str(), Some("a value"));
    assert!(map.find("k").is_none());
    assert!(!map.built(), "found without building the entries");
    let plain = json::parse_jsonc(&text, BASE).root.expect("parses");
    assert_eq!(spelt(&text, map), spelt(&text, map_of(&plain)));
}

/// Repeats of a mapping still open are dropped as it grows, packed or not: three keys are
/// left of 70,000 entries, and every repeat is reported or counted.
#[test]
fn repeats_of_a_long_mapping_are_dropped_as_it_grows() {
    let n = super::FIRST_DROP + 4_000;
    for (value, packed) in [("[1]", true), ("\"a value of some length\"", false)] {
        let long: Vec<(String, &str)> = (0..n).map(|i| (format!("k{}", i % 3), value)).collect();
        for parsed in [
            json::parse(&json_text(&long), BASE),
            yaml::parse(&yaml_text(&long), BASE),
        ] {
            let root = parsed.root.expect("parses");
            assert_eq!(map_of(&root).is_packed(), packed, "value {value}");
            let keys: Vec<String> = map_of(&root).scan().map(|e| e.key.to_string()).collect();
            assert_eq!(keys, ["k0", "k1", "k2"], "value {value}");
            let kept = parsed.errors.len();
            let (_, left_out) = parsed.repeats_left_out.expect("repeats past the cap");
            assert_eq!(kept + left_out, n - 3, "value {value}");
        }
    }
}
