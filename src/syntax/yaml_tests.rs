//! Unit tests of the YAML tree builder.

use super::*;

fn root(text: &str) -> Node {
    let parsed = parse(text, 0);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    parsed.root.expect("root")
}

#[test]
fn scalars_resolve_by_core_schema() {
    let r = root("a: 1\nb: 1.5\nc: true\nd: ~\ne: '1'\nf: 1.2.0\ng: yes\n");
    assert_eq!(r.value("a").unwrap().kind, NodeKind::Number(Number::Int(1)));
    assert_eq!(
        r.value("b").unwrap().kind,
        NodeKind::Number(Number::Float(1.5))
    );
    assert_eq!(r.value("c").unwrap().kind, NodeKind::Bool(true));
    assert_eq!(r.value("d").unwrap().kind, NodeKind::Null);
    assert_eq!(r.value("e").unwrap().as_str(), Some("1"));
    assert_eq!(r.value("f").unwrap().as_str(), Some("1.2.0"));
    assert_eq!(r.value("g").unwrap().as_str(), Some("yes"));
}

#[test]
fn spans_are_byte_offsets_with_base() {
    let text = "é: ü\nname: x\n";
    let parsed = parse(text, 10);
    let r = parsed.root.unwrap();
    let e = r.get("name").unwrap();
    assert_eq!(e.key_span(), Span::new(10 + 7, 10 + 11));
    assert_eq!(e.value.span(), Span::new(10 + 13, 10 + 14));
}

#[test]
fn duplicate_keys_are_reported_with_the_first() {
    let parsed = parse("a: 1\nb: 2\na: 3\n", 0);
    assert_eq!(parsed.errors.len(), 1);
    let err = &parsed.errors[0];
    assert_eq!(err.kind, SyntaxErrorKind::DuplicateKey);
    assert_eq!(err.span, Span::new(10, 11));
    assert_eq!(err.related.as_ref().unwrap().0, Span::new(0, 1));
}

/// A parse that stops inside a mapping still reports the mapping's repeated keys.
#[test]
fn repeats_in_a_mapping_left_open_are_reported() {
    let parsed = parse("name: x\nname: y\nfoo: [unclosed\n", 0);
    let kinds: Vec<SyntaxErrorKind> = parsed.errors.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&SyntaxErrorKind::DuplicateKey), "{kinds:?}");
    assert!(kinds.len() > 1, "{kinds:?}");
    let starts: Vec<usize> = parsed.errors.iter().map(|e| e.span.start).collect();
    assert!(starts.is_sorted(), "{starts:?}");
}

/// Every repeat points at the first of its key and is dropped, the first value kept,
/// in a nested mapping as at the top.
#[test]
fn every_repeat_of_a_key_is_reported_with_the_first_and_dropped() {
    let text = "a: 1\nm: {x: 1, y: 2, x: 3}\na: 2\nb: 3\na: 4\n";
    let parsed = parse(text, 0);
    let at = |needle: &str, nth: usize| {
        let start = text.match_indices(needle).nth(nth).expect("present").0;
        Span::new(start, start + 1)
    };
    let found: Vec<(Span, Span)> = parsed
        .errors
        .iter()
        .map(|e| (e.span, e.related.as_ref().expect("first").0))
        .collect();
    assert_eq!(
        found,
        [
            (at("x:", 1), at("x:", 0)),
            (at("a:", 1), at("a:", 0)),
            (at("a:", 2), at("a:", 0))
        ]
    );
    let root = parsed.root.expect("parsed");
    let keys: Vec<&str> = root
        .as_map()
        .unwrap()
        .iter()
        .map(|e| e.key.as_str())
        .collect();
    assert_eq!(keys, ["a", "m", "b"]);
    assert_eq!(
        root.value("a"),
        Some(&Node::new(at("1", 0), NodeKind::Number(Number::Int(1))))
    );
    assert_eq!(root.value("m").unwrap().as_map().unwrap().len(), 2);
}

#[test]
fn aliases_expand_and_bombs_stop() {
    let r = root("a: &x [1, 2]\nb: *x\n");
    assert_eq!(r.value("b").unwrap().as_seq().unwrap().len(), 2);
    let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        bomb.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let parsed = parse(&bomb, 0);
    assert!(
        parsed
            .errors
            .iter()
            .any(|e| e.kind == SyntaxErrorKind::AliasLimit)
    );
}

#[test]
fn a_document_of_more_anchors_than_it_may_keep_stops() {
    let many = |n: usize| format!("x: [{}]\n", vec!["&a x"; n].join(", "));
    assert!(parse(&many(MIN_ANCHORS), 0).errors.is_empty());
    let parsed = parse(&many(MIN_ANCHORS + 1), 0);
    assert!(parsed.root.is_none());
    assert_eq!(parsed.errors[0].kind, SyntaxErrorKind::AliasLimit);
}

#[test]
fn aliases_of_a_long_string_share_a_budget_of_text() {
    let long = "w".repeat(400_000);
    let within = format!("a: &a {long}\nb: [*a, *a]\n");
    assert!(parse(&within, 0).errors.is_empty());
    let past = format!("a: &a {long}\nb: [*a, *a, *a]\n");
    let parsed = parse(&past, 0);
    assert!(parsed.root.is_none());
    assert_eq!(parsed.errors[0].kind, SyntaxErrorKind::AliasLimit);
    assert!(
        parsed.errors[0].message.contains("1048576 bytes"),
        "{:?}",
        parsed.errors
    );
}

#[test]
fn many_aliases_of_one_large_anchor_share_the_budget() {
    let mut text = format!("a: &a [{}]\n", vec!["x"; 50_000].join(", "));
    for i in 0..10 {
        text.push_str(&format!("b{i}: *a\n"));
    }
    let parsed = parse(&text, 0);
    assert!(parsed.root.is_none());
    assert_eq!(parsed.errors[0].kind, SyntaxErrorKind::AliasLimit);
    assert!(root("a: &a [1, 2]\nb: *a\nc: *a\n").value("c").is_some());
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = "[".repeat(100_000);
    let parsed = parse(&deep, 0);
    assert!(parsed.root.is_none());
    assert!(!parsed.errors.is_empty());
    let deep_block: String = (0..300).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
    assert!(!parse(&deep_block, 0).errors.is_empty());
}

#[test]
fn unknown_escapes_point_at_the_escape() {
    let text = "a: \"ok \\n then \\` bad\"\n";
    let parsed = parse(text, 0);
    assert_eq!(parsed.errors.len(), 1, "{:?}", parsed.errors);
    let span = parsed.errors[0].span;
    assert_eq!(&text[span.start..span.end], "\\`");
}

#[test]
fn syntax_errors_have_positions() {
    let parsed = parse("a: [1, 2\nb: 3\n", 0);
    assert_eq!(parsed.errors.len(), 1);
    assert_eq!(parsed.errors[0].kind, SyntaxErrorKind::Yaml);
}
