//! AML agents' references to knowledge bases, models and guardrails (REF024–REF026): checked
//! against the `*.kb.md`, `*.model.md` and `*.guardrail.md` definitions of the repository,
//! for each kind the repository defines.

mod common;

use common::{BASE_TOOL, Repo, lines};

const AGENT: &str = "agents/helper.agent.md";

/// An agent that names a model, a fallback model, two knowledge bases and two guardrails.
const HELPER: &str = r#"---
spec_version: "1.2"
agent_id: "helper"
runtime:
  model: "fast-chat"
  fallback_model: "small-chat"
tools:
  tool_choice: "auto"
  refs:
    - ref: "search-docs"
knowledge:
  refs:
    - ref: "product-docs"
    - ref: "style-guide"
      required: true
guardrails:
  input:
    - ref: "secret-scan"
      on_fail: "refuse"
  output:
    - ref: "toxicity-check"
      on_fail: "refuse"
---
# Purpose
Answers product questions.
"#;

fn definition(kind: &str, id_key: &str, id: &str, status: &str) -> String {
    format!(
        "---\nspec_version: \"1.2\"\n{id_key}: \"{id}\"\nstatus: \"{status}\"\n---\n# {kind} {id}\n"
    )
}

/// Every definition the agent names, as (path, content).
fn definitions() -> Vec<(String, String)> {
    vec![
        (
            "models/fast-chat.model.md".into(),
            definition("Model", "model_id", "fast-chat", "active"),
        ),
        (
            "models/small-chat.model.md".into(),
            definition("Model", "model_id", "small-chat", "active"),
        ),
        (
            "knowledge/product-docs.kb.md".into(),
            definition("KB", "kb_id", "product-docs", "active"),
        ),
        (
            "knowledge/style-guide.kb.md".into(),
            definition("KB", "kb_id", "style-guide", "active"),
        ),
        (
            "guardrails/secret-scan.guardrail.md".into(),
            definition("Guardrail", "guardrail_id", "secret-scan", "active"),
        ),
        (
            "guardrails/toxicity-check.guardrail.md".into(),
            definition("Guardrail", "guardrail_id", "toxicity-check", "active"),
        ),
    ]
}

/// The diagnostics of a repository with the tool, `agent` and `defs`.
fn run(agent: &str, defs: &[(String, String)]) -> Vec<String> {
    let repo = Repo::with(&[("tools/search-docs.tool.md", BASE_TOOL), (AGENT, agent)]);
    for (path, text) in defs {
        repo.write(path, text.as_bytes());
    }
    lines(&repo.check().expect("config"))
}

#[test]
fn references_that_resolve_are_silent() {
    assert_eq!(run(HELPER, &definitions()), Vec::<String>::new());
}

#[test]
fn ref024_a_name_no_definition_of_its_kind_defines() {
    let agent = HELPER
        .replace("\"small-chat\"", "\"smal-chat\"")
        .replace("\"style-guide\"", "\"brand-voice\"")
        .replace("\"toxicity-check\"", "\"toxicity-checks\"");
    assert_eq!(
        run(&agent, &definitions()),
        [
            format!(
                "{AGENT}:6:19 REF024 error no model definition defines `smal-chat` (`runtime.fallback_model`)"
            ),
            format!(
                "{AGENT}:14:12 REF024 error no knowledge base definition defines `brand-voice` (`knowledge.refs[1].ref`)"
            ),
            format!(
                "{AGENT}:21:12 REF024 error no guardrail definition defines `toxicity-checks` (`guardrails.output[0].ref`)"
            ),
        ]
    );
}

#[test]
fn ref024_checks_only_the_kinds_the_repository_defines() {
    // No guardrail or knowledge base definition at all: the platform's registry holds them.
    let models: Vec<(String, String)> = definitions()
        .into_iter()
        .filter(|(p, _)| p.starts_with("models/"))
        .collect();
    assert_eq!(run(HELPER, &models), Vec::<String>::new());
    assert_eq!(run(HELPER, &[]), Vec::<String>::new());
    // A definition id of another kind does not resolve a reference.
    let mut defs = definitions();
    defs.retain(|(p, _)| !p.ends_with("style-guide.kb.md"));
    defs.push((
        "models/style-guide.model.md".into(),
        definition("Model", "model_id", "style-guide", "active"),
    ));
    let found = run(HELPER, &defs);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains("REF024 error no knowledge base definition defines `style-guide`"),
        "{found:#?}"
    );
}

#[test]
fn ref025_and_ref026_disabled_and_deprecated_definitions() {
    let mut defs = definitions();
    defs[0].1 = definition("Model", "model_id", "fast-chat", "disabled");
    defs[4].1 = definition("Guardrail", "guardrail_id", "secret-scan", "deprecated");
    assert_eq!(
        run(HELPER, &defs),
        [
            format!(
                "{AGENT}:5:10 REF025 error the model `fast-chat` is disabled, and this agent still uses it"
            ),
            format!("{AGENT}:18:12 REF026 warning the guardrail `secret-scan` is deprecated"),
        ]
    );
}

#[test]
fn documentation_pages_named_like_definitions_are_not_read() {
    // A page about a definition, without front matter of its own, defines nothing.
    let mut defs = definitions();
    defs.push((
        "docs/other.kb.md".into(),
        "# Example — a knowledge base\n\n```markdown\n---\nkb_id: \"other\"\n---\n```\n".into(),
    ));
    assert_eq!(run(HELPER, &defs), Vec::<String>::new());
}

#[test]
fn a_project_on_aml_1_0_names_no_definitions() {
    let agent = HELPER.replace("\"small-chat\"", "\"smal-chat\"");
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", BASE_TOOL),
        (AGENT, &agent),
        ("toolc.toml", "[runtimes]\naml = \"1.0\"\n"),
    ]);
    for (path, text) in definitions() {
        repo.write(&path, text.as_bytes());
    }
    assert_eq!(lines(&repo.check().expect("config")), Vec::<String>::new());
}

/// Past 200 findings of a rule in a file, the rest are counted on one line: an agent of 250
/// refs to unknown knowledge bases is 200 findings and a line for the other 50.
#[test]
fn refs_to_unknown_definitions_past_the_cap_are_counted() {
    let refs: String = (0..250)
        .map(|i| format!("    - ref: \"missing-{i}\"\n"))
        .collect();
    let agent = HELPER.replace(
        "    - ref: \"product-docs\"\n",
        &format!("    - ref: \"product-docs\"\n{refs}"),
    );
    let mut files: Vec<(String, String)> = definitions();
    files.push((AGENT.to_string(), agent));
    files.push((
        "tools/search-docs.tool.md".to_string(),
        BASE_TOOL.to_string(),
    ));
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let report = Repo::with(&borrowed).check().expect("config");
    let found: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.code == "REF024")
        .collect();
    let shown = found.iter().filter(|d| d.omitted == 0).count();
    let more: usize = found.iter().map(|d| d.omitted).sum();
    assert_eq!((shown, more), (200, 50));
}
