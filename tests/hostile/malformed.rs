//! Malformed files: bytes that are not UTF-8, binary, empty and comment-only files, a 5 MB line, a
//! BOM and CRLF, tabs, duplicate keys and a second document. Each is reported at its exact place.

use super::*;

#[test]
fn invalid_utf8_points_at_the_first_bad_byte() {
    let repo = repo();
    tool(&repo, "latin1", b"spec: 1\nname: caf\xe9\n");
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN007", ".dojops/tools/latin1/tool.yaml")[0];
    assert_eq!(start(d), (2, 10));
    assert_eq!(d["span"]["start"]["offset"], 17);
}

/// Found by fuzzing: offsets after a byte that is not UTF-8 were counted in the decoded text
/// (three bytes per U+FFFD), so a bad last byte gave an end offset past the end of the file.
#[test]
fn offsets_in_a_file_that_is_not_utf8_are_offsets_of_the_stored_bytes() {
    let repo = repo();
    let manifest: &[u8] = b"spec: 1\nname: caf\xe9";
    tool(&repo, "latin1", manifest);
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN007", ".dojops/tools/latin1/tool.yaml")[0];
    assert_eq!(d["span"]["start"]["offset"], 17);
    assert_eq!(d["span"]["end"]["offset"], manifest.len());
    assert_eq!(end(d), (2, 11));
}

#[test]
fn binary_file_named_tool_yaml() {
    let repo = repo();
    tool(
        &repo,
        "png",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00",
    );
    let diags = diagnostics(&repo);
    let found = find(&diags, "SYN008", ".dojops/tools/png/tool.yaml");
    assert_eq!(
        found.len(),
        1,
        "one diagnostic for a binary file: {found:#?}"
    );
    // Binary content is not shown: the message names where the first NUL is.
    let message = found[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("offset 8"), "{message}");
}

#[test]
fn empty_manifest_and_empty_schema() {
    let repo = repo();
    tool(&repo, "empty", b"");
    tool(&repo, "blank", b"  \n\n");
    tool(
        &repo,
        "empty-schema",
        VALID_TOOL.replace("my-tool", "empty-schema").as_bytes(),
    );
    repo.write(".dojops/tools/empty-schema/input.schema.json", b"");
    let diags = diagnostics(&repo);
    find(&diags, "SYN009", ".dojops/tools/empty/tool.yaml");
    find(&diags, "SYN009", ".dojops/tools/blank/tool.yaml");
    find(
        &diags,
        "SYN009",
        ".dojops/tools/empty-schema/input.schema.json",
    );
}

#[test]
fn comment_only_manifest_is_not_silently_accepted() {
    let repo = repo();
    tool(&repo, "comment", b"# TODO: write this tool\n");
    let diags = diagnostics(&repo);
    find(&diags, "SYN009", ".dojops/tools/comment/tool.yaml");
}

#[test]
fn five_megabyte_line_is_reported_without_printing_it() {
    let repo = repo();
    let huge = "x".repeat(5 * 1024 * 1024);
    let manifest = VALID_TOOL
        .replace("my-tool", "huge")
        .replace("You write config files.", &huge);
    tool(&repo, "huge", manifest.as_bytes());
    // The same line as the value of a field with a length limit: a diagnostic on the line itself.
    let manifest = VALID_TOOL.replace("name: my-tool", &format!("name: {huge}"));
    tool(&repo, "huge-name", manifest.as_bytes());
    let diags = diagnostics(&repo);
    find(&diags, "DOJ010", ".dojops/tools/huge/tool.yaml");
    find(&diags, "DOJ010", ".dojops/tools/huge-name/tool.yaml");
    find(&diags, "DOJ006", ".dojops/tools/huge-name/tool.yaml");
    let output = run(&repo, &["check", "--no-color"]);
    assert!(
        output.stdout.len() < 20_000,
        "human output must not print the 5 MB line: {} bytes",
        output.stdout.len()
    );
}

#[test]
fn bom_and_crlf_keep_positions_exact() {
    let repo = repo();
    repo.write(DOJOPS_1_0.0, DOJOPS_1_0.1.as_bytes());
    let manifest = format!(
        "\u{feff}{}",
        VALID_TOOL
            .replace("name: my-tool", "name: Bad_Name")
            .replace('\n', "\r\n")
    );
    tool(&repo, "bom", manifest.as_bytes());
    tool(
        &repo,
        "bom-syntax",
        b"\xef\xbb\xbfspec: 1\r\nname: bom-syntax\r\nversion: [1\r\n",
    );
    let diags = diagnostics(&repo);
    let bom: Vec<_> = diags
        .iter()
        .filter(|d| d["path"] == ".dojops/tools/bom/tool.yaml")
        .collect();
    assert_eq!(bom.len(), 1, "only the bad name: {bom:#?}");
    assert_eq!(bom[0]["code"], "DOJ003");
    assert_eq!(start(bom[0]), (2, 7));
    assert_eq!(end(bom[0]), (2, 15));
    // BOM (3 bytes) + "spec: 1\r\n" (9) + "name: " (6).
    assert_eq!(bom[0]["span"]["start"]["offset"], 18);
    let d = find(&diags, "SYN001", ".dojops/tools/bom-syntax/tool.yaml")[0];
    assert_eq!(start(d), (3, 10));
}

#[test]
fn bom_crlf_error_on_line_three() {
    let repo = repo();
    let manifest = format!(
        "\u{feff}{}",
        VALID_TOOL
            .replace("version: \"1.0.0\"", "version: 1.0")
            .replace('\n', "\r\n")
    );
    tool(&repo, "crlf", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let d = find(&diags, "DOJ002", ".dojops/tools/crlf/tool.yaml")[0];
    assert_eq!(start(d), (3, 10));
    assert_eq!(end(d), (3, 13), "the span stops before the `\\r`");
}

#[test]
fn tab_indentation_points_at_the_tab() {
    let repo = repo();
    let manifest = VALID_TOOL.replace("\n  strategy: llm", "\n\tstrategy: llm");
    tool(&repo, "tabs", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN001", ".dojops/tools/tabs/tool.yaml")[0];
    assert_eq!(start(d), (8, 1));
    assert_eq!(end(d), (8, 2));
}

#[test]
fn duplicate_keys_point_at_both() {
    let repo = repo();
    let manifest = VALID_TOOL.replace("type: tool\n", "type: tool\nname: other\n");
    tool(&repo, "dup", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN003", ".dojops/tools/dup/tool.yaml")[0];
    assert_eq!(start(d), (5, 1));
    let related = &d["related"][0];
    assert_eq!(related["path"], ".dojops/tools/dup/tool.yaml");
    assert_eq!(start(related), (2, 1));
    assert_eq!(end(related), (2, 5));
    assert_eq!(related["message"], "first defined here");
}

#[test]
fn second_yaml_document() {
    let repo = repo();
    let manifest = format!("{VALID_TOOL}---\nspec: 2\n");
    tool(&repo, "two-docs", manifest.as_bytes());
    let diags = diagnostics(&repo);
    let d = find(&diags, "SYN006", ".dojops/tools/two-docs/tool.yaml");
    assert_eq!(start(d[0]), (13, 1));
    assert!(
        !diags
            .iter()
            .any(|d| d["path"] == ".dojops/tools/two-docs/tool.yaml" && d["code"] == "DOJ004"),
        "only the first document is read: {diags:#?}"
    );
}

/// A `SKILL.md` of 4 MB of bytes that are not UTF-8 after a valid head: each became a U+FFFD
/// and an entry of 16 bytes saying what it replaced (release build: 22x the file at 14 MB).
/// Runs of them are held once; a file where they alternate with ASCII stays within the bound
/// too.
#[test]
fn megabytes_of_bytes_that_are_not_utf8_are_held_as_runs() {
    let head = "---\nname: s\ndescription: Does things when asked to do things with files.\n---\n\n# S\n\n";
    let small = format!("{head}ok\n");
    for filler in [vec![0xffu8; 4_000_000], b"\xffa".repeat(2_000_000)] {
        let mut dense = head.as_bytes().to_vec();
        dense.extend_from_slice(&filler);
        let base = Repo::new();
        base.write("skills/s/SKILL.md", small.as_bytes());
        let Some(fixed) = super::dense::peak_memory(&base) else {
            return;
        };
        let repo = Repo::new();
        repo.write("skills/s/SKILL.md", &dense);
        let peak = super::dense::peak_memory(&repo).expect("measured before");
        let ratio = (peak - fixed) / dense.len() as f64;
        assert!(ratio <= 10.0, "{ratio:.1}x the file");
    }
}
