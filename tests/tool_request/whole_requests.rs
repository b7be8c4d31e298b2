//! Whole requests: the valid ERA and Monty requests are silent (with CRLF and a BOM too), a broken
//! one gives every defect in one run, a flood of findings is capped, and hostile input never
//! panics.

use super::*;

#[test]
fn valid_era_and_monty_requests_are_silent() {
    assert_eq!(check_at(ERA_PATH, ERA), Vec::<String>::new());
    assert_eq!(check_at(MONTY_PATH, MONTY), Vec::<String>::new());
    let report = common::check_dir(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tool-request/valid"
    )))
    .expect("config");
    assert_eq!(lines(&report), Vec::<String>::new());
}

#[test]
fn every_defect_in_one_run() {
    let text =
        include_str!("../fixtures/tool-request/broken/requests/TR-20250131-140500Z-broken.md");
    let found = check_at("requests/TR-20250131-140500Z-broken.md", text);
    let codes: Vec<&str> = found
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap_or_default())
        .collect();
    for code in [
        "TRQ005", "TRQ008", "TRQ012", "TRQ013", "TRQ014", "TRQ015", "TRQ016", "TRQ017", "TRQ018",
        "TRQ020", "SEC011", "SEC013",
    ] {
        assert!(codes.contains(&code), "{code} missing from {found:#?}");
    }
}

#[test]
fn crlf_and_bom_requests_are_valid() {
    let text = format!("\u{feff}{}", ERA.replace('\n', "\r\n"));
    assert_eq!(check_at(ERA_PATH, &text), Vec::<String>::new());
    assert_eq!(
        check_at(MONTY_PATH, &MONTY.replace('\n', "\r\n")),
        Vec::<String>::new()
    );
}

#[test]
fn a_flood_of_findings_is_capped_per_rule() {
    let flood = "--config /etc/x ".repeat(1000);
    let found = check_at(
        ERA_PATH,
        &edit(
            ERA,
            "--out /out/summary.json",
            &format!("--out /out/summary.json {flood}"),
        ),
    );
    assert_eq!(found.len(), 201, "{:#?}", &found[195..]);
    assert!(
        found[200]
            .ends_with("SEC011 error 800 more findings of this rule in this file are not shown")
    );
}

#[test]
fn hostile_inputs_do_not_panic() {
    for text in [
        "",
        "---\n",
        "---\n---\n",
        "---\n: : :\n---\n## Command\n",
        "---\nrequest_type: [\n---\n",
        "---\ninputs: [1, {path: 2}, {path: /in/x, sha256: [1]}]\nallowlist: 3\n---\n## Input Files\n- \n- `\n* /in/\n1. sha256:\n",
        "---\ncreated_utc: 2025-13-99T99:99:99+99:99\napproved_utc: 9999-12-31T23:59:60.5-23:59\n---\n",
        "---\nbackend: monty\n---\n## Code\n```\n## Inputs (JSON)\n```\n## Inputs (JSON)\n```json\n",
        "\u{feff}---\r\nrequest_type: tool_request\r\n---\r\n## Command\r\n`a` `b` $( ${ <<<< >>>>& |&\r\n",
        "---\na: 1\n---\n~ ~/ ~a ../ $HOME ${HOME} /é/ -----BEGIN PRIVATE KEY----- ghp_ sk- AKIA password= token:\n",
    ] {
        let repo = Repo::with(&[("TR-x.md", text)]);
        let _ = repo.check();
    }
}
