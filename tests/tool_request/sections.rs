//! The body's sections: missing, empty, misordered, duplicate and unexpected ones, and inputs JSON
//! that must parse.

use super::*;

#[test]
fn missing_and_empty_sections() {
    era(
        "## Output Expectations\n\n- `/out/summary.json`: totals per region, as one JSON object\n\n",
        "",
        &["21:1 TRQ007 error the body has no `## Output Expectations` section"],
    );
    era(
        "## Command\n",
        "### Command\n",
        &["23:1 TRQ007 error the body has no `## Command` section"],
    );
    era(
        "\n- `/out/summary.json`: totals per region, as one JSON object\n",
        "\n",
        &["32:1 TRQ007 error the `## Output Expectations` section is empty"],
    );
    monty(
        "## Code\n",
        "## code\n",
        &["18:1 TRQ007 error the body has no `## Code` section"],
    );
}

#[test]
fn misordered_and_duplicate_sections() {
    // `## Command` moved after `## Input Files`.
    let command =
        "## Command\n\npython -u /in/summarise.py --in /in/sales.csv --out /out/summary.json\n\n";
    let moved = edit(
        &edit(ERA, command, ""),
        "## Output Expectations",
        &format!("{command}## Output Expectations"),
    );
    expect(
        ERA_PATH,
        &moved,
        &["28:1 TRQ008 error `## Command` must come before `## Input Files`"],
    );
    era(
        "## Risk Assessment\n",
        "## Output Expectations\n\n- `/out/extra.json`\n\n## Risk Assessment\n",
        &["36:1 TRQ009 error `## Output Expectations` appears twice"],
    );
}

#[test]
fn unexpected_sections() {
    era(
        "## Risk Assessment\n",
        "## Notes\n\nrun it on Friday\n\n## Risk Assessment\n",
        &["36:1 TRQ010 warning `## Notes` is not a section of ERA requests"],
    );
    // A near miss of an optional section, or of one that exists, is not taken for it.
    monty(
        "## Inputs (JSON)\n",
        "## Inputs\n",
        &["26:1 TRQ010 warning `## Inputs` is not a section of monty requests"],
    );
    era(
        "## Risk Assessment\n",
        "## command\n\nsee above\n\n## Risk Assessment\n",
        &["36:1 TRQ010 warning `## command` is not a section of ERA requests"],
    );
    monty(
        "## Output Expectations\n",
        "## Command\n\npython x.py\n\n## Output Expectations\n",
        &[
            "32:1 TRQ010 warning `## Command` is a section of ERA requests, but this request's backend is `monty`",
        ],
    );
}

#[test]
fn inputs_json_must_parse() {
    monty(
        "{\"values\": [1, 2, 3, 4]}",
        "{\"values\": [1, 2, 3, 4],}",
        &[
            "29:24 TRQ011 error `## Inputs (JSON)` is not valid JSON: trailing commas are not allowed",
        ],
    );
    monty(
        "## Inputs (JSON)\n\n```json\n{\"values\": [1, 2, 3, 4]}\n```\n",
        "## Inputs (JSON)\n\n",
        &["26:1 TRQ011 error the `## Inputs (JSON)` section holds no JSON"],
    );
}

/// The help of a missing section names the backend that needs it, in a sentence that reads
/// for any backend's name ("a ERA request" before).
#[test]
fn a_missing_section_s_help_names_the_backend() {
    let text = edit(
        ERA,
        "## Output Expectations\n\n- `/out/summary.json`: totals per region, as one JSON object\n\n",
        "",
    );
    let repo = Repo::with(&[(ERA_PATH, &text)]);
    let report = repo.check().expect("config");
    let help = report
        .diagnostics
        .iter()
        .find(|d| d.rule.code == "TRQ007")
        .and_then(|d| d.help.as_deref())
        .unwrap_or_default()
        .to_string();
    assert!(
        help.starts_with("add `## Output Expectations`: a request to the ERA backend needs `## "),
        "{help}"
    );
}
