//! Tests of packed lists: what is packed, and that it reads as the nodes it stands for.
use std::borrow::Cow;

use super::PACK_FROM;
use crate::syntax::{MapItem, Node, NodeKind, Number, Packed, json, yaml};

fn parse(text: &str) -> Node {
    json::parse(text, 3).root.expect("parses")
}

/// Each item's text, read back through its span (the parse was at offset 3).
/// A YAML document whose key `k` is the block list of `items`.
fn yaml_list(items: &[&str]) -> String {
    let lines: String = items.iter().map(|l| format!("  - {l}\n")).collect();
    format!("k:\n{lines}")
}

/// The items `kinds` over and over, just enough of them to be packed, and their JSON list.
fn long_json_list<'a>(kinds: &[&'a str]) -> (Vec<&'a str>, String) {
    let items: Vec<&str> = kinds.iter().copied().cycle().take(PACK_FROM + 5).collect();
    let text = format!("[{}]", items.join(", "));
    (items, text)
}

fn texts(text: &str, items: impl Iterator<Item = Node>) -> Vec<&str> {
    items
        .map(|n| &text[n.span().start - 3..n.span().end - 3])
        .collect()
}

#[test]
fn a_long_list_of_numbers_is_packed_and_reads_as_nodes() {
    let values = [
        "1",
        "-20",
        "3.5e3",
        "true",
        "null",
        "false",
        "9007199254740993",
    ];
    let items: Vec<&str> = values.iter().copied().cycle().take(PACK_FROM * 2).collect();
    let text = format!("[{}]", items.join(" ,\n"));
    let root = parse(&text);
    let list = root.as_list().expect("a list");
    assert!(list.all_plain());
    assert_eq!(list.len(), PACK_FROM * 2);
    let scanned: Vec<Node> = list.scan().map(|n| n.into_owned()).collect();
    assert_eq!(texts(&text, scanned.iter().cloned()), items);
    assert_eq!(scanned[1].kind, NodeKind::Number(Number::Int(-20)));
    assert_eq!(scanned[2].kind, NodeKind::Number(Number::Float(3500.0)));
    assert_eq!(scanned[3].kind, NodeKind::Bool(true));
    // The slice every other reader sees holds the same nodes.
    assert_eq!(root.as_seq().expect("a list"), &scanned[..]);
    assert_eq!(list.scan().count(), PACK_FROM * 2);
    assert_eq!(root.to_json()[6], serde_json::json!(9007199254740993i64));
    // Packed for the cache and the bundles, then unpacked: the same tree.
    assert_eq!(Packed::pack(&root).unpack(), root);
}

#[test]
fn strings_are_packed_and_read_from_the_bytes() {
    let (items, text) = long_json_list(&["\"a\"", "7", "\"b\\u00e9\\n\"", "[]", "\"\""]);
    let root = parse(&text);
    let list = root.as_list().expect("a list");
    assert!(list.flat() && !list.all_plain());
    let strings: Vec<(&str, &str)> = list
        .strings()
        .map(|(s, span)| (s, &text[span.start - 3..span.end - 3]))
        .collect();
    let quoted = items.iter().filter(|i| i.starts_with('"')).count();
    assert_eq!(strings.len(), quoted);
    assert_eq!(
        strings[..3],
        [
            ("a", "\"a\""),
            ("b\u{e9}\n", "\"b\\u00e9\\n\""),
            ("", "\"\"")
        ]
    );
    assert_eq!(texts(&text, list.scan().map(|n| n.into_owned())), items);
    assert_eq!(list[2].as_str(), Some("b\u{e9}\n"));
    // Built into nodes, the list reads the same.
    assert_eq!(list.strings().count(), strings.len());
    assert_eq!(Packed::pack(&root).unpack(), root);
}

/// A string below a list item, or a mapping below an item's values, makes the list hold
/// more text than [`super::Seq::strings`] (not flat); such an item is packed whatever its
/// size (a tool and its schema, settings nested deeper than a parser's list is long). A
/// mapping of scalars and lists of them is packed too, its texts read from the bytes.
#[test]
fn a_string_below_an_item_makes_the_list_not_flat_whatever_its_size() {
    let large = format!("[{}, \"x\"]", ["1"; 40].join(", "));
    let deep = (0..40).fold("\"x\"".to_string(), |inner, i| {
        format!("{{\"k{i}\": {inner}}}")
    });
    for odd in [
        "[1, \"x\"]",
        "[{\"a\": 1}]",
        "{\"a\": {\"b\": \"x\"}}",
        "{\"a\": [{\"b\": 1}]}",
        "{\"a\": [\"x\", 2]}",
        "{\"a\": 1}",
        "{\"a\": \"x\", \"b\": [1]}",
        large.as_str(),
        deep.as_str(),
    ] {
        let mut items = vec!["7"; PACK_FROM + 10];
        items[PACK_FROM + 3] = odd;
        let text = format!("[{}]", items.join(","));
        let root = parse(&text);
        let list = root.as_list().expect("a list");
        assert!(list.packed(), "{odd}");
        assert!(!list.all_plain() && !list.flat(), "{odd}");
        assert_eq!(list.len(), items.len());
        let unbuilt: Vec<Node> = list.scan().map(Cow::into_owned).collect();
        // Readers of a mapping's texts are handed its node where it holds more than
        // `MapItem::str` and `MapItem::list` read (before the nodes are built below).
        let held = list
            .maps()
            .nth(PACK_FROM + 3)
            .and_then(|m| m.held().cloned());
        let small_map = matches!(
            odd,
            "{\"a\": [\"x\", 2]}" | "{\"a\": 1}" | "{\"a\": \"x\", \"b\": [1]}"
        );
        assert_eq!(held.is_none(), small_map, "{odd}");
        assert_eq!(texts(&text, list.iter().cloned()), items);
        assert_eq!(unbuilt, list.to_vec(), "{odd}");
    }
}

/// A long list of trees (`- [a]`, `- {a: {b: c}}`) is packed, and reads as its nodes.
#[test]
fn a_long_list_of_small_trees_is_packed_and_reads_as_its_nodes() {
    for item in ["[a]", "[[a]]", "{a: {b: c}}", "[{a: b}, c]"] {
        let lines = vec![item; PACK_FROM * 2];
        let text = yaml_list(&lines);
        let root = yaml::parse(&text, 0).root.expect("parses");
        let list = root.value("k").and_then(Node::as_list).expect("a list");
        assert!(list.packed() && !list.flat() && !list.all_plain(), "{item}");
        let scanned: Vec<Node> = list.scan().map(|n| n.into_owned()).collect();
        assert_eq!(scanned, list.to_vec(), "{item}");
        let spans: Vec<&str> = list
            .iter()
            .map(|n| &text[n.span().start..n.span().end])
            .collect();
        assert_eq!(spans, lines, "{item}");
        assert!(list.maps().all(|m| m.held().is_some()), "{item}");
        assert_eq!(Packed::pack(&root).unpack(), root, "{item}");
    }
}

/// Read a mapping at a time where they are packed, trees' values are built for each
/// item alone, as they are asked for: the list's nodes are never built.
#[test]
fn a_long_list_of_small_trees_is_read_unbuilt() {
    let item = "{name: t, schema: {type: object}}";
    let text = yaml_list(&vec![item; PACK_FROM * 2]);
    let root = yaml::parse(&text, 0).root.expect("parses");
    let list = root.value("k").and_then(Node::as_list).expect("a list");
    assert!(list.packed() && !list.flat(), "packed as trees");
    let mut read = 0;
    for m in list.maps_unbuilt() {
        assert!(
            m.held().is_none(),
            "a packed item is not a node of the tree"
        );
        assert_eq!(m.str("name").map(|(s, _)| s), Some("t"));
        let schema = m.value("schema").expect("a schema");
        let kind = schema.value("type").and_then(Node::as_str);
        assert_eq!(kind, Some("object"));
        read += 1;
    }
    assert_eq!(read, PACK_FROM * 2);
    assert!(
        list.scan().all(|n| matches!(n, Cow::Owned(_))),
        "still unbuilt"
    );
}

/// A cycod tool's steps: a long list of mappings of scalars is packed, and each step's
/// strings are read from the bytes (borrowed, with their spans) as from its nodes.
#[test]
fn a_long_list_of_small_mappings_is_packed_and_read_a_mapping_at_a_time() {
    let steps = [
        "bash: a",
        "{name: s, run: 'x y', timeout: 5}",
        "script: \"p\\nq\"\n    shell: pwsh",
        "7",
        "tool: t\n    arguments: ~",
    ];
    let lines: Vec<&str> = steps.iter().copied().cycle().take(PACK_FROM + 3).collect();
    let text = yaml_list(&lines);
    let root = yaml::parse(&text, 0).root.expect("parses");
    let list = root.value("k").and_then(Node::as_list).expect("a list");
    assert!(list.packed() && !list.flat() && !list.all_plain());
    let read = |key: &str| -> Vec<Option<(String, &str)>> {
        list.maps()
            .map(|m| {
                m.str(key)
                    .map(|(s, span)| (s.to_string(), &text[span.start..span.end]))
            })
            .collect()
    };
    let bash = read("bash");
    assert_eq!(bash[0], Some(("a".to_string(), "a")));
    assert_eq!(bash[1], None);
    assert_eq!(read("run")[1], Some(("x y".to_string(), "'x y'")));
    assert_eq!(read("script")[2], Some(("p\nq".to_string(), "\"p\\nq\"")));
    assert_eq!(read("shell")[2], Some(("pwsh".to_string(), "pwsh")));
    assert_eq!(read("timeout")[1], None, "a number is not a string");
    assert!(read("bash")[3].is_none());
    let timeout = list.maps().nth(1).and_then(|m| m.value("timeout"));
    assert_eq!(
        timeout.map(|t| t.kind.clone()),
        Some(NodeKind::Number(Number::Int(5)))
    );
    // Read as nodes, every step's strings are the same.
    let nodes: Vec<Node> = list.scan().map(|n| n.into_owned()).collect();
    for (m, node) in list.maps().zip(&nodes) {
        for key in ["bash", "run", "script", "shell", "tool", "name"] {
            let from_node = node.value(key).and_then(|v| Some((v.as_str()?, v.span())));
            assert_eq!(m.str(key), from_node, "{key}");
            assert_eq!(m.value(key).as_deref(), node.value(key), "{key}");
        }
    }
    assert_eq!(list.maps().count(), lines.len());
    assert_eq!(root.as_map().map(<[_]>::len), Some(1));
    assert_eq!(&**list, &nodes[..]);
    assert_eq!(Packed::pack(&root).unpack(), root);
}

#[test]
fn a_short_list_is_nodes() {
    let root = parse("[1, 2, 3]");
    assert!(!root.as_list().expect("a list").all_plain());
    assert_eq!(root.as_seq().map(<[Node]>::len), Some(3));
    assert!(parse("[]").as_list().is_some_and(|l| l.is_empty()));
}

#[test]
fn lists_and_empty_mappings_without_text_are_packed() {
    let (items, text) = long_json_list(&["[]", "{}", "[1, [true, null]]", "[{}]", "-0.5"]);
    let root = parse(&text);
    let list = root.as_list().expect("a list");
    assert!(list.all_plain());
    assert_eq!(texts(&text, list.scan().map(|n| n.into_owned())), items);
    let inner = list.scan().nth(2).expect("an item");
    assert_eq!(inner.as_seq().map(<[Node]>::len), Some(2));
    assert_eq!(Packed::pack(&root).unpack(), root);
    assert_eq!(root.to_json()[1], serde_json::json!({}));
}

/// A YAML list (its length unknown until it ends) is packed from its 256th item when
/// all so far are plain, and turns back into nodes at the first item that is not.
#[test]
fn a_long_yaml_list_is_packed_once_long_and_reads_the_same() {
    let items = ["a", "1", "'q'", "[1, 2]", "~", "true", "\"b\\n\""];
    let lines: Vec<&str> = items.iter().copied().cycle().take(PACK_FROM + 9).collect();
    let text = yaml_list(&lines);
    let root = yaml::parse(&text, 0).root.expect("parses");
    let list = root.value("k").and_then(Node::as_list).expect("a list");
    assert!(list.flat() && !list.all_plain());
    let spans: Vec<&str> = list
        .scan()
        .map(|n| &text[n.span().start..n.span().end])
        .collect();
    assert_eq!(spans, lines);
    let strings: Vec<&str> = list.strings().map(|(s, _)| s).collect();
    assert_eq!(strings[..3], ["a", "q", "b\n"]);
    assert_eq!(Packed::pack(&root).unpack(), root);
    for odd in ["{x: 1}", "[y]", "z: 1"] {
        let mut with_key = lines.clone();
        with_key[PACK_FROM + 4] = odd;
        let text = yaml_list(&with_key);
        let root = yaml::parse(&text, 0).root.expect("parses");
        let list = root.value("k").and_then(Node::as_list).expect("a list");
        assert!(!list.flat(), "{odd}");
        let spans: Vec<&str> = list
            .iter()
            .map(|n| &text[n.span().start..n.span().end])
            .collect();
        assert_eq!(spans, with_key);
    }
}

/// A packed list's bytes are copied into a packed tree as they are: the same bytes as
/// the list's nodes packed one by one.
#[test]
fn a_packed_list_packs_into_a_tree_as_its_nodes_do() {
    let values = vec!["12"; PACK_FROM + 1].join(", ");
    let text = format!("{{\"a\": \"x\", \"enum\": [{values}], \"b\": [3, 4]}}");
    let root = parse(&text);
    let list = root.value("enum").expect("a list");
    assert!(list.as_list().is_some_and(|l| l.all_plain()));
    let nodes: Vec<Node> = list.as_seq().expect("a list").to_vec();
    let as_nodes = crate::syntax::Node::new(
        root.span(),
        NodeKind::Map(
            root.as_map()
                .expect("a mapping")
                .iter()
                .map(|e| {
                    let value = match e.key.as_str() {
                        "enum" => Node::new(list.span(), NodeKind::Seq(nodes.clone().into())),
                        _ => e.value.clone(),
                    };
                    crate::syntax::Entry::new(e.key.clone(), e.key_span(), value)
                })
                .collect::<Vec<_>>()
                .into(),
        ),
    );
    assert!(
        as_nodes
            .value("enum")
            .and_then(Node::as_list)
            .is_some_and(|l| !l.all_plain())
    );
    assert!(Packed::pack(&root) == Packed::pack(&as_nodes));
    assert_eq!(Packed::pack(&root).unpack(), root);
}

/// agentcli tools `{"name": …, "command": […]}`: a long list of mappings whose values are
/// lists of strings is packed, and each list's items are read from the bytes as from nodes.
#[test]
fn a_list_below_a_packed_mapping_is_read_item_by_item() {
    let tools = [
        r#"{"name": "a", "command": ["sh", "-c", "echo \u00e9"]}"#,
        r#"{"name": "b", "command": [1, "x", null]}"#,
        r#"{"name": "c", "command": "x"}"#,
        r#"{"name": "d"}"#,
    ];
    let lines: Vec<&str> = tools.iter().copied().cycle().take(PACK_FROM + 3).collect();
    let text = format!("[{}]", lines.join(",\n"));
    let root = parse(&text);
    let list = root.as_list().expect("a list");
    assert!(list.packed() && !list.flat());
    let read = |m: &MapItem<'_>| -> Option<Vec<Option<(String, String)>>> {
        Some(
            m.list("command")?
                .map(|i| {
                    i.map(|(s, span)| {
                        (
                            s.to_string(),
                            text[span.start - 3..span.end - 3].to_string(),
                        )
                    })
                })
                .collect(),
        )
    };
    let packed: Vec<_> = list.maps().map(|m| read(&m)).collect();
    let nodes: Vec<Node> = list.scan().map(|n| n.into_owned()).collect();
    let held: Vec<_> = nodes.iter().map(|n| read(&MapItem::of(n))).collect();
    assert_eq!(packed, held);
    let s = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
    assert_eq!(
        packed[0],
        Some(vec![
            s("sh", "\"sh\""),
            s("-c", "\"-c\""),
            s("echo é", "\"echo \\u00e9\"")
        ])
    );
    assert_eq!(packed[1], Some(vec![None, s("x", "\"x\""), None]));
    assert_eq!((packed[2].clone(), packed[3].clone()), (None, None));
}

/// A long list inside a packed item stays packed when the item is built for its reader (a
/// tool's `enum`), says what it holds, and reads as the list the parser made.
#[test]
fn a_long_list_inside_a_packed_item_stays_packed_when_the_item_is_built() {
    let strings = vec!["\"a\""; PACK_FROM + 1].join(",");
    let maps = vec!["{\"k\": \"v\"}"; PACK_FROM].join(",");
    let item = format!("{{\"enum\": [{strings}], \"maps\": [{maps}], \"few\": [[1], \"b\"]}}");
    let text = format!("[{}]", vec![item.as_str(); PACK_FROM].join(","));
    let root = parse(&text);
    let list = root.as_list().expect("a list");
    let built = list.scan().next().expect("an item").into_owned();
    let as_parsed = json::parse(&item, 4).root.expect("parses");
    assert_eq!(built, as_parsed);
    let listed = |key: &str| built.value(key).and_then(Node::as_list).expect("a list");
    let (values, nested) = (listed("enum"), listed("maps"));
    assert!(values.packed() && values.flat() && !values.all_plain());
    assert_eq!(values.strings().count(), PACK_FROM + 1);
    assert!(nested.packed() && !nested.flat());
    assert!(nested.maps().all(|m| m.held().is_some()));
    assert!(!listed("few").packed());
    assert_eq!(Packed::pack(&built).unpack(), built);
}
