//! Tests of the JSON parser: spans, errors, duplicates and the room each container gets.
use super::*;

#[test]
fn spans_and_duplicates() {
    let parsed = parse(r#"{"a": 1, "b": [true, null], "a": 2}"#, 5);
    assert_eq!(parsed.errors.len(), 1);
    assert_eq!(parsed.errors[0].span, Span::new(5 + 28, 5 + 31));
    let root = parsed.root.unwrap();
    assert_eq!(
        root.get("b").unwrap().value.span(),
        Span::new(5 + 14, 5 + 26)
    );
}

#[test]
fn every_repeat_of_a_key_points_at_its_first_and_only_the_first_is_kept() {
    let mut text = String::from("{");
    for i in 0..40 {
        text.push_str(&format!("\"k{}\": {i}, ", i % 17));
    }
    text.push_str("\"last\": [1, 2, {}]}");
    let parsed = parse(&text, 0);
    let root = parsed.root.expect("parses");
    let entries = root.as_map().expect("an object");
    assert_eq!(entries.len(), 18);
    let at = text.find("\"k3\": 3,").expect("k3") + 6;
    let k3 = Node::new(Span::new(at, at + 1), NodeKind::Number(Number::Int(3)));
    assert_eq!(root.value("k3"), Some(&k3));
    assert_eq!(parsed.errors.len(), 40 - 17);
    for e in &parsed.errors {
        assert_eq!(e.kind, SyntaxErrorKind::DuplicateKey);
        let key = &text[e.span.start..e.span.end];
        let (first, _) = e.related.as_ref().expect("the first");
        assert_eq!(&text[first.start..first.end], key);
        assert_eq!(text.find(key), Some(first.start), "{key}");
    }
    assert!(
        parsed
            .errors
            .windows(2)
            .all(|w| w[0].span.start < w[1].span.start)
    );
}

#[test]
fn each_container_is_given_the_room_it_needs() {
    let text = "[[1, 2, 3], {\"a\": [], \"b\": {}}, [], [1,],\n// c\n 5]";
    let sizes = container_sizes(text, &ScannerOptions::default());
    assert_eq!(sizes, vec![5, 3, 2, 0, 0, 0, 2]);
    let root = parse_jsonc(text, 0).root.expect("parses");
    assert_eq!(root.as_seq().map(<[Node]>::len), Some(5));
    // Exact room, never a doubling's worth: a list of millions of values is held once.
    let dense = format!("[{}1]", "1,".repeat(100_000));
    let root = parse(&dense, 0).root.expect("parses");
    let NodeKind::Seq(items) = &root.kind else {
        panic!("a list")
    };
    assert_eq!(items.len(), 100_001);
    assert_eq!(
        container_sizes(&dense, &ScannerOptions::default()),
        vec![100_001]
    );
    let object = format!("{{{}\"k\": 0}}", "\"k\": 0, ".repeat(1000));
    let parsed = parse(&object, 0);
    let NodeKind::Map(entries) = &parsed.root.expect("parses").kind else {
        panic!("a mapping")
    };
    assert_eq!(entries.len(), 1);
    // The first 200 repeats are built, the rest counted.
    assert_eq!(parsed.errors.len(), 200);
    assert_eq!(parsed.repeats_left_out.map(|(_, n)| n), Some(800));
}

/// What one value of a parsed file costs at least: the figures of docs/performance.md
/// (a dense list takes about 16 times its text) follow from these sizes.
#[test]
fn a_value_costs_at_most_32_bytes_and_a_member_56() {
    assert!(std::mem::size_of::<Node>() <= 32);
    assert!(std::mem::size_of::<Entry>() <= 56);
}

/// Keys and string values of up to 16 bytes are held in place: a mapping of short entries
/// (`{a: a, b: b}`) is one allocation, not one an entry besides.
#[test]
fn short_keys_and_string_values_are_held_in_place() {
    let root = parse(
        r#"{"a": "b", "sixteen_bytes_ok": "0123456789abcdef", "k": "a longer text than sixteen"}"#,
        0,
    )
    .root
    .expect("parses");
    let entries = root.as_map().expect("a mapping");
    let text = |n: &Node| match &n.kind {
        NodeKind::String(s) => s.clone(),
        _ => panic!("a string"),
    };
    assert!(!entries[0].key.is_heap_allocated());
    assert!(!text(&entries[0].value).is_heap_allocated());
    assert!(!entries[1].key.is_heap_allocated());
    assert!(!text(&entries[1].value).is_heap_allocated());
    assert!(text(&entries[2].value).is_heap_allocated());
    assert_eq!(
        text(&entries[2].value).as_str(),
        "a longer text than sixteen"
    );
}

/// Spans past 4 GiB (never read: files are capped far below) are held at the last offset
/// rather than wrapped.
#[cfg(target_pointer_width = "64")]
#[test]
fn a_span_beyond_32_bits_is_held_not_wrapped() {
    use crate::source::Span;
    let node = Node::new(Span::new(7, 1 << 33), NodeKind::Null);
    assert_eq!(node.span(), Span::new(7, u32::MAX as usize));
    let entry = Entry::new("k", Span::new(3, 4), node);
    assert_eq!(entry.key_span(), Span::new(3, 4));
}

#[test]
fn syntax_error_position() {
    let parsed = parse("{\n  \"a\": 1,\n}", 0);
    assert!(parsed.root.is_none());
    assert_eq!(parsed.errors[0].kind, SyntaxErrorKind::Json);
    assert!(parsed.errors[0].span.start >= 10, "{:?}", parsed.errors[0]);
}

#[test]
fn a_file_ending_inside_an_object_or_array_points_at_its_end_and_its_opener() {
    for (text, open, close) in [
        ("{\n  \"a\": {\"b\": 1}\n\n", 0, '}'),
        ("[1, [2, 3]\n", 0, ']'),
        ("{\"a\": [1, 2", 6, ']'),
    ] {
        let parsed = parse(text, 10);
        let e = &parsed.errors[0];
        assert_eq!(e.kind, SyntaxErrorKind::Json, "{text:?}");
        assert_eq!(e.span, Span::point(10 + text.trim_end().len()), "{text:?}");
        let (at, message) = e.related.as_ref().expect("the opener");
        assert_eq!(*at, Span::new(10 + open, 10 + open + 1), "{text:?}");
        assert!(message.contains("never closed"), "{message}");
        let explain = e.explain.expect("a label and a help");
        assert!(explain.label.contains(close), "{text:?}");
        assert!(e.message.contains(close), "{}", e.message);
    }
}

#[test]
fn raw_control_characters_in_strings_are_errors() {
    let parsed = parse("{\"a\tb\": \"x\ny\", \"ok\": \"\\t\"}", 0);
    let found: Vec<(usize, &str)> = parsed
        .errors
        .iter()
        .map(|e| (e.span.start, e.message.as_str()))
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, 3);
    assert!(found[0].1.contains("U+0009"), "{found:?}");
    assert_eq!(found[1].0, 10);
    assert!(found[1].1.contains("`\\n`"), "{found:?}");
    // The values are still read, so the rest of the file is checked.
    assert!(parsed.root.is_some());
}

#[test]
fn deep_nesting_is_an_error() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let parsed = parse(&deep, 0);
    assert!(parsed.root.is_none());
    assert_eq!(parsed.errors[0].kind, SyntaxErrorKind::TooDeep);
}
