//! The file's shape: the front matter's syntax, the body sections (DOJ020), exact positions through
//! a BOM and CRLF, and hostile input.

use super::*;

// ── DOJ020 missing-dops-section ────────────────────────────────────────────────────────

#[test]
fn missing_sections_point_at_the_end_of_the_front_matter() {
    let skill = BASE.replace("## Keywords\n\nnginx, reverse proxy\n", "");
    let d = expect_one(
        &skill,
        "16:1 DOJ020 error the body has no `## Keywords` section",
    );
    assert!(help(&d).starts_with("add a `## Keywords` heading"), "{d:?}");
}

#[test]
fn empty_sections_and_near_miss_headings() {
    expect_one(
        &BASE.replace("You are an nginx expert.\n", ""),
        "17:1 DOJ020 error the `## Prompt` section is empty",
    );
    let d = expect_one(
        &BASE.replace("## Prompt", "# Prompt"),
        "17:1 DOJ020 error the body has no `## Prompt` section",
    );
    assert_eq!(help(&d), "make this heading exactly `## Prompt`");
    expect_one(
        &BASE.replace("## Keywords", "## Keyword"),
        "21:1 DOJ020 error the body has no `## Keywords` section",
    );
    // An optional section is not a near miss: the report stays at the fence.
    expect_one(
        &BASE.replace("## Prompt", "## Update Prompt"),
        "16:1 DOJ020 error the body has no `## Prompt` section",
    );
}

#[test]
fn missing_and_unclosed_front_matter() {
    expect_one(
        "## Prompt\n\nx\n\n## Keywords\n\ny\n",
        "1:1 SYN010 error a `.dops` file must start with a `---` front-matter line",
    );
    expect_one(
        "---\ndops: v2\n## Prompt\n",
        "1:1 SYN011 error the front matter is opened but never closed",
    );
}

#[test]
fn yaml_errors_are_at_whole_file_positions() {
    let report = report_for(&[(
        P,
        &BASE.replace("  technology: nginx", "  technology: [nginx"),
    )]);
    let found = lines(&report);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].contains(" SYN001 error"), "{found:#?}");
    assert!(
        report.diagnostics[0]
            .notes
            .iter()
            .any(|n| n.contains("refuses to load"))
    );
    let line: usize = found[0]
        .split(':')
        .nth(1)
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    assert!((9..=11).contains(&line), "{found:#?}");
}

#[test]
fn bom_and_crlf_give_exact_positions_and_whole_file_offsets() {
    let text = format!(
        "\u{feff}{}",
        BASE.replace("name: nginx", "name: Bad_Name")
            .replace('\n', "\r\n")
    );
    let report = report_for(&[(P, &text)]);
    assert_eq!(
        lines(&report),
        [format!(
            "{P}:5:9 DOJ003 error skill name `Bad_Name` is not lowercase kebab-case"
        )]
    );
    let d = &report.diagnostics[0];
    let offset = text.find("Bad_Name").expect("in text");
    assert_eq!(d.span, Span::new(offset, offset + "Bad_Name".len()));
    // The body sections are found through CRLF too.
    let valid = format!("\u{feff}{}", BASE.replace('\n', "\r\n"));
    assert_eq!(lines(&report_for(&[(P, &valid)])), Vec::<String>::new());
    let no_keywords = format!(
        "\u{feff}{}",
        BASE.replace("nginx, reverse proxy\n", "")
            .replace('\n', "\r\n")
    );
    let report = report_for(&[(P, &no_keywords)]);
    assert_eq!(
        lines(&report),
        [format!(
            "{P}:21:1 DOJ020 error the `## Keywords` section is empty"
        )]
    );
}

#[test]
fn hostile_input_never_panics() {
    let cases = [
        "---",
        "---\n",
        "---\n---",
        "---\r\n---\r\n",
        "\u{feff}---\n\u{feff}\n---\n",
        "---\n: :\n---\n##",
        "---\ndops: v2\nmeta: [\n---\n## Prompt\n",
        "---\ndops: v2\nfiles: [{}, 1, null, [x]]\ndependencies: [1, {skill: []}, {skill: a, optional: yes}]\nscope: {write: [1, '..', '']}\n---\n",
        "---\ndops: [v1]\ninput: 1\n---\n",
        "---\ndops: v1\nfiles: 3\n---\n",
        "---\nverification: {binary: {parser: 1, timeout: 1.5}, structural: [{minItems: x}]}\n---\n",
        "---\nmeta: {name: é, icon: 'https://'}\n---\n# é\n## é\n",
    ];
    for case in cases {
        let _ = check(case);
    }
}
