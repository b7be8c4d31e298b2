//! The table of front matters, each with the reference validator's verdict and toolc's codes; toolc
//! gives each case its codes, and errs exactly where the reference rejects a skill or says why.

use super::*;

const DESCRIPTION: &str =
    "Extracts text and tables from PDF files. Use when the user mentions PDFs.";

/// A `SKILL.md` named `name` with the good description and `extra` front-matter lines.
fn skill(name: &str, extra: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: {DESCRIPTION}\n{extra}---\n# Steps\n\nRead the file.\n"
    )
}

fn case(
    what: &'static str,
    text: String,
    reference: Verdict,
    codes: &'static [&'static str],
) -> Case {
    Case {
        what,
        folder: "pdf-tools".into(),
        text,
        reference,
        codes,
        further: None,
    }
}

pub(super) fn cases() -> Vec<Case> {
    let mut out = vec![
        case("minimal", skill("pdf-tools", ""), Valid, &[]),
        case(
            "lines that end in a lone CR",
            skill("pdf-tools", "").replace('\n', "\r"),
            Valid,
            &[],
        ),
        case(
            "lines that end in CRLF",
            skill("pdf-tools", "").replace('\n', "\r\n"),
            Valid,
            &[],
        ),
        case(
            "every optional field",
            skill(
                "pdf-tools",
                "license: Apache-2.0\ncompatibility: Requires Python 3.12 and poppler\nmetadata:\n  author: example-org\n  version: \"1.0\"\nallowed-tools: Bash(git:*) Bash(pdftotext *) Read\n",
            ),
            Valid,
            &[],
        ),
        case(
            "quoted values, comments, a block scalar",
            format!(
                "---\n# the skill\nname: 'pdf-tools' # its folder\ndescription: |\n  {DESCRIPTION}\n  More detail.\n---\nbody\n"
            ),
            Valid,
            &[],
        ),
        case(
            "surrounding spaces in the name",
            skill("\" pdf-tools \"", ""),
            Valid,
            &["SKL020"],
        ),
        case(
            "a description of 1024 characters",
            format!(
                "---\nname: pdf-tools\ndescription: Use when {}\n---\n",
                "x".repeat(1015)
            ),
            Valid,
            &[],
        ),
        case(
            "a number as a metadata value",
            skill("pdf-tools", "metadata:\n  version: 1.10\n"),
            Valid,
            &["SKL009"],
        ),
        case(
            "a dialect key",
            skill("pdf-tools", "user-invocable: false\n"),
            Invalid,
            &["SKL007"],
        ),
        case(
            "an unknown key",
            skill("pdf-tools", "version: 1.0.0\n"),
            Invalid,
            &["SKL006"],
        ),
        case(
            "a misspelt key",
            skill("pdf-tools", "licence: MIT\n"),
            Invalid,
            &["SKL006"],
        ),
        case(
            "no name",
            format!("---\ndescription: {DESCRIPTION}\n---\n"),
            Invalid,
            &["SKL001"],
        ),
        case(
            "no description",
            "---\nname: pdf-tools\n---\n".into(),
            Invalid,
            &["SKL001"],
        ),
        case(
            "an empty name",
            format!("---\nname: \"\"\ndescription: {DESCRIPTION}\n---\n"),
            Invalid,
            &["SKL001"],
        ),
        case(
            "a blank description",
            "---\nname: pdf-tools\ndescription: \"  \"\n---\n".into(),
            Invalid,
            &["SKL001"],
        ),
        case(
            "a description of 1025 characters",
            format!(
                "---\nname: pdf-tools\ndescription: Use when {}\n---\n",
                "x".repeat(1016)
            ),
            Invalid,
            &["SKL005"],
        ),
        case(
            "a description that is a list",
            "---\nname: pdf-tools\ndescription:\n  - Use when PDFs\n---\n".into(),
            Invalid,
            &["SKL002"],
        ),
        case(
            "a compatibility list",
            skill("pdf-tools", "compatibility:\n  - python\n"),
            Invalid,
            &["SKL002"],
        ),
        case(
            "a compatibility of 501 characters",
            skill(
                "pdf-tools",
                &format!("compatibility: {}\n", "x".repeat(501)),
            ),
            Invalid,
            &["SKL005"],
        ),
        Case {
            further: Some("the spec wants 1–500 characters when `compatibility` is given"),
            ..case(
                "an empty compatibility",
                skill("pdf-tools", "compatibility: \"\"\n"),
                Valid,
                &["SKL005"],
            )
        },
        case(
            "a name that is not the folder's",
            skill("pdf-kit", ""),
            Invalid,
            &["SKL004"],
        ),
        case(
            "leading hyphen",
            skill("-pdf-tools", ""),
            Invalid,
            &["SKL003"],
        ),
        case(
            "double hyphen",
            skill("pdf--tools", ""),
            Invalid,
            &["SKL003"],
        ),
        case("underscore", skill("pdf_tools", ""), Invalid, &["SKL003"]),
        case(
            "no front matter",
            "# PDF tools\n".into(),
            Invalid,
            &["SYN010"],
        ),
        case(
            "an unclosed front matter",
            "---\nname: pdf-tools\n".into(),
            Invalid,
            &["SYN011"],
        ),
        case(
            "an empty front matter",
            "---\n---\nbody\n".into(),
            Invalid,
            &["SKL001"],
        ),
        case(
            "a list as front matter",
            "---\n- pdf-tools\n---\n".into(),
            Invalid,
            &["SKL002"],
        ),
        case(
            "invalid YAML",
            "---\nname: [pdf\n---\n".into(),
            Invalid,
            &["SYN001"],
        ),
        case(
            "a duplicate key",
            skill("pdf-tools", "name: pdf-tools\n"),
            Invalid,
            &["SYN003"],
        ),
        case(
            "a byte-order mark",
            format!("\u{feff}{}", skill("pdf-tools", "")),
            Invalid,
            &["SKL010"],
        ),
        case(
            "a flow list",
            skill("pdf-tools", "allowed-tools: [Read, Grep]\n"),
            Invalid,
            &["SKL008", "SKL010"],
        ),
        case(
            "a flow mapping",
            skill("pdf-tools", "metadata: {author: example-org}\n"),
            Invalid,
            &["SKL010"],
        ),
        case(
            "an anchor and an alias",
            format!(
                "---\nname: &n pdf-tools\ndescription: {DESCRIPTION}\nmetadata:\n  id: *n\n---\n"
            ),
            Invalid,
            &["SKL010"],
        ),
        case("a tag", skill("!!str pdf-tools", ""), Invalid, &["SKL010"]),
        case(
            "a tab after a value",
            skill("pdf-tools\t", ""),
            Invalid,
            &["SKL010"],
        ),
        case(
            "`---` in a comment",
            format!("---\n# --- skill ---\nname: pdf-tools\ndescription: {DESCRIPTION}\n---\n"),
            Invalid,
            &["SKL010"],
        ),
        Case {
            further: Some("the reference reads the description cut short at `---`"),
            ..case(
                "`---` in the description",
                "---\nname: pdf-tools\ndescription: Use when the user asks --- for PDFs.\n---\n"
                    .into(),
                Valid,
                &["SKL010"],
            )
        },
    ];
    out.push(Case {
        folder: "实时比分".into(),
        ..case(
            "a name in another script",
            "---\nname: 实时比分\ndescription: 桌面级赛事追踪助手。当用户询问比分、比赛状态、球队排名或者赛程安排时使用这个技能来回答。\n---\n".into(),
            Valid,
            &["SKL020"],
        )
    });
    out.push(Case {
        folder: "ａｂ-tools".into(),
        ..case(
            "a name equal to its folder after NFKC",
            skill("ab-tools", ""),
            Valid,
            &["SKL020"],
        )
    });
    out.push(Case {
        folder: "PDF-Tools".into(),
        ..case("uppercase", skill("PDF-Tools", ""), Invalid, &["SKL003"])
    });
    out.push(Case {
        folder: "123".into(),
        ..case("a number as the name", skill("123", ""), Valid, &["SKL009"])
    });
    let long = "a".repeat(65);
    out.push(Case {
        folder: long.clone(),
        ..case(
            "a name of 65 characters",
            skill(&long, ""),
            Invalid,
            &["SKL003"],
        )
    });
    out
}

#[test]
fn each_case_gives_its_codes() {
    for case in cases() {
        let (repo, dir) = write(&case);
        let (codes, _) = toolc(&repo.root, &dir);
        assert_eq!(codes, case.codes, "{}", case.what);
    }
}

#[test]
fn toolc_errs_exactly_where_the_reference_rejects_or_says_why() {
    for case in cases() {
        let (repo, dir) = write(&case);
        let (codes, error) = toolc(&repo.root, &dir);
        match case.reference {
            Invalid => assert!(
                error || only_dialect_keys(&codes),
                "{}: the reference rejects it, toolc has no error: {codes:?}",
                case.what
            ),
            Valid => assert_eq!(
                error,
                case.further.is_some(),
                "{}: the reference accepts it; toolc's errors {codes:?} need a `further` reason",
                case.what
            ),
        }
    }
}
