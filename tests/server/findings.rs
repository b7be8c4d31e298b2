//! Findings as the editor shows them: a broken buffer at UTF-16 positions, hovered and fixed by its
//! code action; findings on disk published at start and fixed all at once; no credential shown in
//! full.

use super::*;

/// `text` with protocol text edits applied.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(text, &e["range"]["start"]),
                offset(text, &e["range"]["end"]),
                e["newText"].as_str().expect("newText"),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, new) in edits {
        out.replace_range(start..end, new);
    }
    out
}

#[test]
fn a_broken_buffer_is_reported_at_utf16_positions_hovered_and_fixed_by_its_code_action() {
    let repo = Repo::with(&[("tools/search-docs.tool.md", TOOL)]);
    let path = repo.root.join("tools/search-docs.tool.md");
    let doc = uri(&path);
    let mut client = Client::start(&repo.root);

    // A misspelt key after non-ASCII text on its line, and a suppressed finding.
    let broken = TOOL
        .replace(
            "meta:\n  name: \"Search Docs\"\n  description: \"Search the product documentation. Use it for product questions.\"\n  owner: \"docs-team\"\n  last_updated: \"2025-04-01\"\n",
            "meta: {name: \"Søk 🔧 Docs\", descriptoin: \"Search the product documentation. Use it for product questions.\", owner: \"docs-team\"}\n",
        )
        .replace(
            "type: \"retrieval\"",
            "type: \"retreival\" # toolc: ignore TMD006 -- renamed upstream",
        );
    assert!(broken.contains("descriptoin"), "{broken}");
    client.open(&doc, &broken);
    let found = client.diagnostics_of_version(&doc, 1);
    let misspelt = found
        .iter()
        .find(|d| d["code"] == "TMD003")
        .unwrap_or_else(|| panic!("no TMD003 in {found:#?}"));
    let at = broken.find("descriptoin").expect("key");
    assert_eq!(misspelt["range"]["start"], position(&broken, at));
    assert_eq!(
        misspelt["range"]["end"],
        position(&broken, at + "descriptoin".len())
    );
    // 28 UTF-16 units: 27 characters (the emoji is two units) and 31 bytes.
    assert_eq!(misspelt["range"]["start"]["character"], 28);
    assert_eq!(misspelt["source"], "toolc");
    assert!(
        misspelt["codeDescription"]["href"]
            .as_str()
            .is_some_and(|h| h.ends_with("rules/TMD003.md")),
        "{misspelt}"
    );
    assert!(!codes(&found).contains(&"TMD006"), "suppressed: {found:#?}");

    // Hover on the flagged key: the finding, then its rule's page.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": position(&broken, at + 2)}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("[TMD003]"), "{text}");
    assert!(text.contains("## What it does"), "{text}");
    assert_eq!(hover["range"], misspelt["range"]);

    // Hover on the code in the suppression comment: that rule's page.
    let code_at = broken.find("TMD006").expect("code");
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": position(&broken, code_at + 1)}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("invalid-tool-type (TMD006)"), "{text}");

    // The quick fix of the misspelt key, applied as the editor would, fixes the file.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": doc},
            "range": misspelt["range"],
            "context": {"diagnostics": [misspelt]},
        }),
    );
    let action = actions
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|a| a["kind"] == "quickfix" && a["diagnostics"][0]["code"] == "TMD003")
        })
        .unwrap_or_else(|| panic!("no quick fix for TMD003 in {actions:#?}"));
    assert_eq!(action["isPreferred"], true, "a safe fix: {action}");
    let edits = action["edit"]["changes"][&doc]
        .as_array()
        .expect("edits of the document");
    let fixed = apply(&broken, edits);
    assert!(fixed.contains("Søk 🔧 Docs\", description:"), "{fixed}");
    client.change(&doc, 2, &fixed);
    let after = client.diagnostics_of_version(&doc, 2);
    assert_eq!(codes(&after), Vec::<&str>::new(), "{after:#?}");

    client.shutdown();
}

#[test]
fn findings_on_disk_are_published_at_start_and_a_fix_all_action_applies_the_safe_fixes() {
    let broken = TOOL
        .replace("type: \"retrieval\"", "type: \"retreival\"")
        .replace("  endpoint:", "  endpont:");
    let repo = Repo::with(&[("tools/search-docs.tool.md", &broken)]);
    let doc = uri(&repo.root.join("tools/search-docs.tool.md"));
    let mut client = Client::start(&repo.root);
    // Published for the file on disk before any document is opened.
    let found = client.diagnostics(&doc, |d| !d.is_empty());
    assert!(codes(&found).contains(&"TMD006"), "{found:#?}");

    client.open(&doc, &broken);
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": doc},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        }),
    );
    let all = actions
        .as_array()
        .and_then(|a| a.first())
        .unwrap_or_else(|| panic!("no fix-all action: {actions}"));
    assert_eq!(all["kind"], "source.fixAll.toolc");
    let fixed = apply(
        &broken,
        all["edit"]["changes"][&doc].as_array().expect("edits"),
    );
    client.change(&doc, 2, &fixed);
    let after = client.diagnostics_of_version(&doc, 2);
    assert_eq!(codes(&after), Vec::<&str>::new(), "{after:#?}\n{fixed}");

    client.shutdown();
}

#[test]
fn published_findings_never_show_a_credential_in_full() {
    let token = "ghp_Q7d3WmX9pL2vN8rT4yB6kH1sJ5fG0aE3cZ2u";
    let text = format!("{CYCOD}{token}: 1\n");
    let repo = Repo::with(&[(".cycod/tools/search.yaml", &text)]);
    let doc = uri(&repo.root.join(".cycod/tools/search.yaml"));
    let mut client = Client::start(&repo.root);
    client.open(&doc, &text);
    let found = client.diagnostics(&doc, |d| !d.is_empty());
    let shown = serde_json::to_string(&found).expect("json");
    assert!(
        shown.contains("ghp_Q7"),
        "the finding quotes the key: {shown}"
    );
    assert!(!shown.contains(token), "{shown}");
    client.shutdown();
}
