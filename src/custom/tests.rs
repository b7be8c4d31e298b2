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
    let subject = subject::of_file(file, tree, &all);
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
    let skill = subject::of_skill(&f, tree, &all);
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
    // The whole node, a wildcard, a filter: everything.
    for given in ["$", "$.*", "$[?@.name]"] {
        assert_eq!(reached(given, None, text)["timeout"], json!(5), "{given}");
    }
}
