//! A broken rule is a configuration error at its place.

use super::*;

/// The configuration errors of a `toolc.toml` holding `rule` (after a valid rule), as
/// `line:col message`.
fn config_errors(rule: &str) -> Vec<String> {
    let valid = "[[custom-rules]]\ncode = \"ORG001\"\nname = \"ok\"\nseverity = \"info\"\nmessage = \"m\"\nthen = { function = \"truthy\" }\n\n";
    let repo = Repo::with(&[("toolc.toml", &format!("{valid}{rule}"))]);
    let Err(diags) = repo.check() else {
        panic!("accepted: {rule}");
    };
    diags
        .iter()
        .map(|d| {
            let p = d.file.position(d.span.start);
            assert_eq!(d.rule.code, "TLC003");
            format!("{}:{} {}", p.line, p.column, d.message)
        })
        .collect()
}

#[test]
fn a_broken_rule_is_a_configuration_error_at_its_place() {
    let head = "[[custom-rules]]\ncode = \"ORG002\"\nname = \"broken\"\nseverity = \"warning\"\nmessage = \"m\"\n";
    let cases: &[(&str, &str)] = &[
        (
            "given = \"$.[\"\nthen = { function = \"truthy\" }\n",
            "13:9 `$.[` is not a JSONPath",
        ),
        (
            "then = { function = \"exists\" }\n",
            "13:21 `exists` is not a function",
        ),
        (
            "then = { field = \"a\", function = \"pattern\", options = { pattern = \"(\" } }\n",
            "13:55 `options.pattern` does not compile as a regular expression: unclosed group",
        ),
        (
            "then = { field = \"a\", function = \"casing\", options = { type = \"train\" } }\n",
            "13:54 `options.type` of `casing` is one of",
        ),
        (
            "then = { field = \"a\", function = \"schema\", options = { schema = { type = 5 } } }\n",
            "13:54 `options.schema` is not a usable JSON Schema",
        ),
        (
            "then = { function = \"pattern\" }\n",
            "13:8 function `pattern` needs `options.pattern`",
        ),
        (
            "subject = \"server\"\nthen = { function = \"truthy\" }\n",
            "13:11 `server` is not a subject",
        ),
        (
            "formats = [\"cycod\"]\nthen = { function = \"truthy\" }\n",
            "13:12 `cycod` is not a format",
        ),
    ];
    for (rest, want) in cases {
        let got = config_errors(&format!("{head}{rest}"));
        assert!(
            got.len() == 1 && got[0].starts_with(want),
            "{rest}: {got:?}, want {want}"
        );
    }
    // The code and the name, each checked at its own place.
    let named = |code: &str, name: &str| {
        config_errors(&format!(
            "[[custom-rules]]\ncode = \"{code}\"\nname = \"{name}\"\nseverity = \"warning\"\nmessage = \"m\"\nthen = {{ function = \"truthy\" }}\n"
        ))
    };
    assert_eq!(
        named("SEC101", "mine"),
        [
            "9:8 `SEC101` collides with toolc's own `SEC` rules: choose a family of your own, e.g. `ORG`"
        ]
    );
    assert_eq!(
        named("DOJX001", "mine")[0],
        "9:8 `DOJX001` collides with toolc's own `DOJ` rules: choose a family of your own, e.g. `ORG`"
    );
    assert!(named("ORG1", "mine")[0].starts_with("9:8 `ORG1` is not a custom rule code"));
    assert_eq!(
        named("ORG001", "mine"),
        ["9:8 custom rule `ORG001` is declared twice"]
    );
    assert_eq!(
        named("ORG009", "ok"),
        ["10:8 custom rule ORG001 is already named `ok`"]
    );
    assert!(named("ORG009", "Not_Kebab")[0].starts_with("10:8 `Not_Kebab` is not a kebab-case"));
    assert!(
        named("ORG009", "unknown-key")[0]
            .starts_with("10:8 `unknown-key` is the name of toolc's own rule")
    );
}
