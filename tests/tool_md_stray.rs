//! A `*.tool.md` that is not an AML tool, found beside AML tools (TMD042), and silence for
//! such files anywhere else.

mod common;

use common::{BASE_TOOL, Repo, lines};

const STRAY_NO_FRONT_MATTER: &str =
    "# Lookup order\n\nFinds an order by its number and returns its status.\n";
const STRAY_OTHER_KEYS: &str =
    "---\nname: lookup-order\ndescription: Finds an order\n---\n# Lookup order\n";

#[test]
fn a_tool_file_without_front_matter_beside_aml_tools_is_reported() {
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", BASE_TOOL),
        ("tools/lookup-order.tool.md", STRAY_NO_FRONT_MATTER),
        ("tools/cancel-order.tool.md", STRAY_OTHER_KEYS),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        [
            "tools/cancel-order.tool.md:1:1 TMD042 warning this file's front matter has none of the keys of an AML tool, though the files beside it are AML tools",
            "tools/lookup-order.tool.md:1:1 TMD042 warning this file has no front matter, though the files beside it are AML tools",
        ]
    );
    assert!(
        report.diagnostics[1]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("tool_id: \"lookup-order\"")),
        "{:?}",
        report.diagnostics[1].help
    );
}

#[test]
fn tool_files_of_other_kinds_elsewhere_are_left_alone() {
    // Another folder than the AML tools', and a repository without AML tools at all.
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", BASE_TOOL),
        ("docs/tools/lookup-order.tool.md", STRAY_NO_FRONT_MATTER),
    ]);
    assert_eq!(lines(&repo.check().expect("config")), Vec::<String>::new());
    let repo = Repo::with(&[
        ("tools/lookup-order.tool.md", STRAY_NO_FRONT_MATTER),
        ("tools/cancel-order.tool.md", STRAY_OTHER_KEYS),
    ]);
    let report = repo.check();
    // Nothing to check at all is an error of its own kind (no files); never a TMD042.
    let found = report.map(|r| lines(&r)).unwrap_or_default();
    assert!(found.iter().all(|l| !l.contains("TMD042")), "{found:#?}");
    // Excluded files are never read.
    let repo = Repo::with(&[
        ("tools/search-docs.tool.md", BASE_TOOL),
        ("tools/lookup-order.tool.md", STRAY_NO_FRONT_MATTER),
        (
            "toolc.toml",
            "[discovery]\nexclude = [\"tools/lookup-order.tool.md\"]\n",
        ),
    ]);
    assert_eq!(lines(&repo.check().expect("config")), Vec::<String>::new());
}
