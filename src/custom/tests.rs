use std::sync::Arc;

use serde_json::json;

use super::given::Step;
use super::subject;
use super::*;
use crate::source::{FormatId, SourceFile};

fn file(path: &str, format: FormatId, text: &str) -> Arc<SourceFile> {
    SourceFile::new(path.into(), path.into(), format, text.into())
}

fn line_of(file: &Arc<SourceFile>, steps: &[Step], missing: bool) -> (usize, String) {
    let tree = subject::file_tree(file).expect("tree");
    let all = reach::Reach {
        all: true,
        ..Default::default()
    };
    let subject = subject::of_file(file, tree, &all, u64::MAX);
    let place = subject.place(steps, missing);
    (
        place.file.position(place.span.start).line,
        place.file.slice(place.span).to_string(),
    )
}

#[test]
fn places_in_a_file_tree() {
    let f = file(
        ".cycod/tools/t.yaml",
        FormatId::CycodTool,
        "name: t\nparameters:\n  DIR:\n    description: d\n",
    );
    let key = |k: &str| Step::Key(k.to_string());
    // A value that is there: the value.
    assert_eq!(
        line_of(
            &f,
            &[key("parameters"), key("DIR"), key("description")],
            false
        ),
        (4, "d".to_string())
    );
    // A field missing under a node: the node's key.
    assert_eq!(
        line_of(&f, &[key("parameters"), key("DIR")], true),
        (3, "DIR".to_string())
    );
    // Missing from the document: its first key.
    assert_eq!(line_of(&f, &[], true), (1, "name".to_string()));
}

#[test]
fn a_skill_tree_is_its_front_matter() {
    let f = file(
        "skills/a/SKILL.md",
        FormatId::AgentSkill,
        "---\nname: a\nlicense: MIT\n---\n\nname: not this\n",
    );
    let tree = subject::file_tree(&f).expect("front matter");
    assert_eq!(tree.to_json(), json!({"name": "a", "license": "MIT"}));
    let all = reach::Reach {
        all: true,
        ..Default::default()
    };
    let skill = subject::of_skill(&f, tree, &all, u64::MAX);
    let view = skill.json().expect("a skill's view is JSON");
    assert_eq!(view["license"], "MIT");
    assert_eq!(view["parameters"]["type"], "object");
    assert_eq!(view["format"], "agent-skill");
}

#[test]
fn lookups_and_messages() {
    let node = json!({"name": "n", "risk": {"level": "LOW"}, "n": 3});
    let path = |s: &str| parts::field_path(s).expect("path");
    let node = Val::Json(&node);
    let level = lookup(node, &path("risk.level"))
        .0
        .map(|v| v.to_json().into_owned());
    assert_eq!(level, Some(json!("LOW")));
    let (missing, steps) = lookup(node, &path("risk.owner.name"));
    assert!(missing.is_none());
    assert_eq!(steps, [Step::Key("risk".into())]);
    let parts = vec![
        Part::Text("`".into()),
        Part::Field(path("name")),
        Part::Text("` at ".into()),
        Part::Field(path("risk.level")),
        Part::Text(", ".into()),
        Part::Field(path("n")),
        Part::Field(path("absent")),
    ];
    assert_eq!(render(&parts, node), "`n` at LOW, 3");
}

/// The JSON a rule with `given` and a `then` on `field` reads of `text` (a cycod tool).
fn reached(given: &str, field: Option<&str>, text: &str) -> serde_json::Value {
    let then = Then {
        field: field.and_then(parts::field_path),
        field_text: field.map(str::to_string),
        function: function::Function::Truthy,
    };
    let reach = reach::Reach::of_rule(given, false, &[then], &[]);
    let f = file(".cycod/tools/t.yaml", FormatId::CycodTool, text);
    reach.json(&subject::file_tree(&f).expect("tree"))
}

#[test]
fn a_rule_reads_only_the_keys_it_can_reach() {
    let text = "name: t\ntimeout: 5\nparameters:\n  DIR:\n    description: d\n    type: string\n  N:\n    type: int\nsteps:\n  - name: a\n  - bash: ls\n    description: e\n";
    // `$` with a field: that key only.
    assert_eq!(reached("$", Some("timeout"), text), json!({"timeout": 5}));
    // A key first: that key, whole.
    assert_eq!(
        reached("$['parameters'].*", Some("type"), text),
        json!({"parameters": {"DIR": {"description": "d", "type": "string"}, "N": {"type": "int"}}})
    );
    // A descendant name: the parts holding it; list items keep their indexes.
    assert_eq!(
        reached("$..description", None, text),
        json!({"parameters": {"DIR": {"description": "d"}}, "steps": [null, {"description": "e"}]})
    );
    // A union of names: those keys, whole; of descendant names, the parts holding them.
    assert_eq!(
        reached("$['timeout', 'name']", None, text),
        json!({"timeout": 5, "name": "t"})
    );
    assert_eq!(
        reached("$..[\"type\",'timeout']", None, text),
        json!({"timeout": 5, "parameters": {"DIR": {"type": "string"}, "N": {"type": "int"}}})
    );
    // A union that is not only names: everything.
    assert_eq!(
        reached("$['name', 0]", None, text)["steps"][1]["bash"],
        json!("ls")
    );
    // The whole node, a wildcard, a filter: everything.
    for given in ["$", "$.*", "$[?@.name]"] {
        assert_eq!(reached(given, None, text)["timeout"], json!(5), "{given}");
    }
}

/// What the custom rules of `toml` find in `skill` (a `SKILL.md`), each finding as
/// `CODE message`.
fn checked_skill(toml: &str, skill: &str) -> (Vec<Diagnostic>, Vec<&'static str>) {
    let config_file = file("toolc.toml", FormatId::Config, toml);
    let config =
        crate::config::Config::parse(config_file, "/repo".into()).expect("the rules compile");
    let configs = ConfigTree::single(&config);
    let f = file(".claude/skills/s/SKILL.md", FormatId::AgentSkill, skill);
    let checked = check_one(&configs, &f, None, &|_| {});
    (checked.found.into_vec(), checked.matched)
}

/// A skill whose front matter holds a list of fifty `1`s nested `depth` deep.
fn nested_skill(depth: usize) -> String {
    format!(
        "---\nname: s\ndescription: A skill that does a thing. Use when asked.\nmetadata:\n  x: {}{}{}\n---\nbody\n",
        "[".repeat(depth),
        vec!["1"; 50].join(","),
        "]".repeat(depth)
    )
}

fn rule_toml(code: &str, name: &str, given: &str, function: &str) -> String {
    format!(
        "[[custom-rules]]\ncode = \"{code}\"\nname = \"{name}\"\nseverity = \"warning\"\nmessage = \"x\"\nsubject = \"file\"\ngiven = \"{given}\"\nthen = {{ function = \"{function}\" }}\n"
    )
}

/// The red team's rule (repro 5): each node selected once for every pair of nodes above
/// it. The walk stops at the budget, the findings are capped, and one finding says the rule
/// was not fully checked, and why.
#[test]
fn a_rule_past_its_budget_stops_and_says_so() {
    let toml = rule_toml("BGTA001", "budget-bomb", "$..*..*..*", "falsy");
    let (found, matched) = checked_skill(&toml, &nested_skill(150));
    let of = |code: &str| {
        found
            .iter()
            .filter(|d| d.rule.code == code)
            .collect::<Vec<_>>()
    };
    let bomb = of("BGTA001");
    assert_eq!(bomb.len(), crate::diagnostics::cap::MAX_PER_RULE + 1);
    let rest = bomb.last().map_or(0, |d| d.omitted);
    // The rules of a file read 10,000 nodes of it together, and 2 more per byte: the
    // walk enters about two nodes for each it selects, and the function reads one.
    assert!(rest > 3_000, "counted past the cap: {rest}");
    let stopped = of("TLC008");
    assert_eq!(stopped.len(), 1, "{stopped:#?}");
    let message = &stopped[0].message;
    assert!(
        message.starts_with(
            "custom rule BGTA001 was not fully checked in this file: the custom rules read the"
        ),
        "{message}"
    );
    assert_eq!(matched, ["BGTA001"]);
    // Within its budget, the same rule counts every finding and says nothing more.
    let (found, _) = checked_skill(&toml, &nested_skill(6));
    assert!(!found.iter().any(|d| d.rule.code == "TLC008"));
    let total: usize = found.iter().map(|d| d.omitted.max(1)).sum();
    // Every node is truthy: each the engine selects is a finding, kept or counted.
    let small = file(
        ".claude/skills/s/SKILL.md",
        FormatId::AgentSkill,
        &nested_skill(6),
    );
    let front = subject::file_tree(&small).expect("front matter").to_json();
    let path = serde_json_path::JsonPath::parse("$..*..*..*").expect("parses");
    assert_eq!(total, path.query(&front).len());
}

/// A path left to the JSONPath engine runs only when the estimate of its cost fits.
#[test]
fn a_path_too_costly_for_the_engine_is_not_run_and_says_so() {
    let toml = rule_toml("BGTB001", "engine-bomb", "$..*..*..[0:1]", "falsy");
    let (found, _) = checked_skill(&toml, &nested_skill(100));
    let codes: Vec<&str> = found.iter().map(|d| d.rule.code).collect();
    assert_eq!(codes, ["TLC008"], "{found:#?}");
    assert!(
        found[0]
            .message
            .contains("would have the JSONPath engine read about"),
        "{}",
        found[0].message
    );
    // An honest filter on the same file runs.
    let toml = rule_toml("BGTB002", "engine-honest", "$..[?@ == 1]", "falsy");
    let (found, _) = checked_skill(&toml, &nested_skill(100));
    assert!(found.iter().all(|d| d.rule.code == "BGTB002"));
    assert_eq!(found.len(), 50);
}

#[test]
fn numbers_and_long_texts() {
    assert_eq!(crate::text::grouped(0), "0");
    assert_eq!(crate::text::grouped(999), "999");
    assert_eq!(crate::text::grouped(1_000), "1,000");
    assert_eq!(crate::text::grouped(1_001_568), "1,001,568");
    let long = json!({"d": "é".repeat(5_000), "n": {"list": vec![1; 5_000]}});
    let parts = |field: &str| {
        vec![
            Part::Text("value: ".into()),
            Part::Field(parts::field_path(field).expect("path")),
        ]
    };
    for field in ["d", "n"] {
        let text = render(&parts(field), Val::Json(&long));
        assert!(text.len() <= TEXT_MAX + '…'.len_utf8(), "{}", text.len());
        assert!(text.ends_with('…'), "{field}");
    }
    assert_eq!(
        render(&parts("n.list"), Val::Json(&json!({"n": {"list": [1, 2]}}))),
        "value: [1,2]"
    );
}

/// A subject whose JSON would take more than a rule may make at once is not made JSON: the
/// rules the engine runs on a file stop, the walked ones read its tree; a skill's view,
/// which every rule on it reads, stops them all.
#[test]
fn json_past_the_cap_is_not_made() {
    let f = file(
        "skills/a/SKILL.md",
        FormatId::AgentSkill,
        "---\nname: a\nmetadata:\n  tags: [x, y, z]\n---\n\nBody.\n",
    );
    let tree = subject::file_tree(&f).expect("front matter");
    let engine = reach::Reach {
        all: true,
        engine: true,
        ..Default::default()
    };
    let whole = tree.clone();
    let estimate = Val::Tree(crate::syntax::NodeAt::from(&whole)).json_bytes_within(u64::MAX);
    // Two maps, each its first node, and the values in them.
    assert!(estimate >= 2 * val::JSON_MAP, "{estimate}");
    let small = subject::of_file(&f, tree.clone(), &engine, estimate - 1);
    assert!(small.too_large(true));
    assert!(!small.too_large(false));
    assert!(small.json().is_none());
    let fits = subject::of_file(&f, tree.clone(), &engine, estimate);
    assert!(!fits.too_large(true));
    assert_eq!(fits.json(), Some(&whole.to_json()));
    let skill = subject::of_skill(&f, tree, &engine, estimate - 1);
    assert!(skill.too_large(false));
}
