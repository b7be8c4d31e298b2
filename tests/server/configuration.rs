//! The configuration changing under the server: an edit of `toolc.toml`, a custom rule taken out,
//! and the files a configuration extends.

use super::*;

#[test]
fn an_edit_of_the_configuration_applies_at_once() {
    let broken = TOOL.replace("type: \"retrieval\"", "type: \"retreival\"");
    let repo = Repo::with(&[("toolc.toml", ""), ("tools/search-docs.tool.md", &broken)]);
    let tool = uri(&repo.root.join("tools/search-docs.tool.md"));
    let config = uri(&repo.root.join("toolc.toml"));
    let mut client = Client::start(&repo.root);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["TMD006"]);

    // An unsaved buffer of toolc.toml that turns the rule off clears the tool's finding.
    client.open(&config, "");
    client.change(&config, 2, "[rules]\ninvalid-tool-type = \"off\"\n");
    client.diagnostics(&tool, <[Value]>::is_empty);

    // An invalid configuration is reported on itself; the defaults apply meanwhile.
    client.change(&config, 3, "[rules]\nno-such-rule = \"off\"\n");
    let invalid = client.diagnostics(&config, |d| !d.is_empty());
    assert_eq!(codes(&invalid), ["TLC003"]);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["TMD006"]);
    client.shutdown();
}

#[test]
fn a_custom_rule_taken_out_of_the_configuration_is_known_no_more() {
    let rule = "[[custom-rules]]\ncode = \"ORG001\"\nname = \"description-too-short\"\nseverity = \"warning\"\nmessage = \"describe `{name}` in at least 40 characters\"\nformats = [\"cycod-tool\"]\nthen = { field = \"description\", function = \"length\", options = { min = 40 } }\n";
    let tool_text = "name: list\ndescription: Lists files\nbash: ls -1\ntags: [read]\n";
    let repo = Repo::with(&[("toolc.toml", rule), (".cycod/tools/list.yaml", tool_text)]);
    let tool = uri(&repo.root.join(".cycod/tools/list.yaml"));
    let config = uri(&repo.root.join("toolc.toml"));
    let mut client = Client::start(&repo.root);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);

    // Taken out: its finding goes, and a setting that names it names no rule, as in a new
    // process.
    client.open(&config, rule);
    client.change(&config, 2, "[rules]\nORG001 = \"off\"\n");
    let invalid = client.diagnostics(&config, |d| !d.is_empty());
    assert_eq!(codes(&invalid), ["TLC003"]);
    client.diagnostics(&tool, <[Value]>::is_empty);

    // Declared again in a nested configuration: the server re-reads it on its own.
    client.change(&config, 3, "");
    client.diagnostics(&config, <[Value]>::is_empty);
    let nested = uri(&repo.root.join(".cycod/toolc.toml"));
    client.open(&nested, rule);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);
    client.shutdown();
}

/// A custom rule asking cycod tools for descriptions of at least `min` characters.
fn description_rule(min: u32) -> String {
    format!(
        "[[custom-rules]]\ncode = \"ORG001\"\nname = \"description-too-short\"\nseverity = \"warning\"\nmessage = \"describe `{{name}}` in at least {min} characters\"\nformats = [\"cycod-tool\"]\nthen = {{ field = \"description\", function = \"length\", options = {{ min = {min} }} }}\n"
    )
}

#[test]
fn a_change_to_a_file_the_configuration_extends_applies_at_once() {
    let tool_text = "name: list\ndescription: Lists files\nbash: ls -1\ntags: [read]\n";
    let shared = description_rule(40);
    let repo = Repo::with(&[
        ("toolc.toml", "extend = \"policy/shared.toml\"\n"),
        ("policy/shared.toml", &shared),
        (".cycod/tools/list.yaml", tool_text),
    ]);
    let tool = uri(&repo.root.join(".cycod/tools/list.yaml"));
    let mut client = Client::start(&repo.root);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);

    // The shared file, edited in the editor: its rule now asks for 5 characters.
    let policy = uri(&repo.root.join("policy/shared.toml"));
    client.open(&policy, &shared);
    client.change(&policy, 2, &description_rule(5));
    client.diagnostics(&tool, <[Value]>::is_empty);

    // And back: the finding returns, with the toolc.toml that extends it open too.
    let config = uri(&repo.root.join("toolc.toml"));
    client.open(&config, "extend = \"policy/shared.toml\"\n");
    client.change(&policy, 3, &shared);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);
    client.shutdown();
}

#[test]
fn a_change_to_a_file_a_nested_configuration_extends_applies_at_once() {
    let shared = description_rule(40);
    let repo = Repo::with(&[
        ("toolc.toml", ""),
        (".cycod/toolc.toml", "extend = \"../policy/team.toml\"\n"),
        ("policy/team.toml", &shared),
        (
            ".cycod/tools/list.yaml",
            "name: list\ndescription: Lists files\nbash: ls -1\ntags: [read]\n",
        ),
    ]);
    let tool = uri(&repo.root.join(".cycod/tools/list.yaml"));
    let mut client = Client::start(&repo.root);
    let found = client.diagnostics(&tool, |d| !d.is_empty());
    assert_eq!(codes(&found), ["ORG001"]);

    // The team's file, edited in the editor: its rule now asks for 5 characters.
    let policy = uri(&repo.root.join("policy/team.toml"));
    client.open(&policy, &shared);
    client.change(&policy, 2, &description_rule(5));
    client.diagnostics(&tool, <[Value]>::is_empty);
    client.shutdown();
}
