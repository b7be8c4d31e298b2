//! Robustness: no input makes the AML checks panic.

use super::*;

// ── robustness ────────────────────────────────────────────────────────────────────────

#[test]
fn no_input_makes_it_panic() {
    let mut inputs: Vec<(String, bool)> = Vec::new();
    for (text, format) in [(BASE_TOOL, false), (ACTION_TOOL, false), (BASE_AGENT, true)] {
        // Every prefix (on a char boundary) and every file with one line removed.
        for (i, _) in text.char_indices() {
            inputs.push((text[..i].to_string(), format));
        }
        let all: Vec<&str> = text.split_inclusive('\n').collect();
        for skip in 0..all.len() {
            let without: String = all
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| *l)
                .collect();
            inputs.push((without, format));
        }
    }
    for odd in [
        "---\n---\n",
        "---\n- a\n- b\n---\n",
        "---\nmeta: 5\ninterface: \"x\"\ntransport: []\nuse_guidance: 7\nerror_codes: [1]\ntool_id: 5\nstatus: null\ntype: [a]\n---\n",
        "---\ninterface:\n  input: {type: object, properties: {a: {items: [{$ref: 1}], default: {x: 1}}}}\n  output: true\n---\n",
        "---\ninterface:\n  input: {type: object, properties: {a: {type: string, pattern: \"(\", default: \"x\", const: 1}}}\n---\n",
        "---\ntransport: {type: rest-api, endpoint: \"POST\", base_url: \"https://\", timeout_ms: -1, retry_policy: {max_attempts: x, on_status: [x, 9999]}, credentials: {scheme: oauth2, source: env}}\n---\n",
        "\u{feff}---\r\ntool_id: \"ünïcödé\"\r\nmeta: {description: \"Ünï. Cödé.\"}\r\n---\r\n",
        "---\ntools: {refs: [1, [2], {ref: 3}, {ref: \"x\", max_calls_per_run: .inf}]}\nguardrails: {tool_calls: {require_user_confirmation_for: [null, 1]}}\npolicies: 1\n---\n",
        "---\ntools: [a]\nagent_id: []\n---\n",
    ] {
        inputs.push((odd.to_string(), false));
        inputs.push((odd.to_string(), true));
    }
    // Every variant is a file of one repository, so resolving each against every other
    // runs too.
    let repo = Repo::new();
    for (i, (text, agent)) in inputs.iter().enumerate() {
        let path = if *agent {
            format!("agents/a{i}.agent.md")
        } else {
            format!("tools/t{i}.tool.md")
        };
        repo.write(&path, text.as_bytes());
    }
    repo.check().expect("no configuration in this repository");
}
