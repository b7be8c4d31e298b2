//! Keys, types and names: unknown keys, wrong types, names that differ from the file or repeat,
//! empty names (CYC001 to CYC004, CYC022).

use super::*;

// CYC001 unknown-key

#[test]
fn unknown_keys_are_errors_with_did_you_mean() {
    expect(
        &BASE.replace("description: Search", "descripton: Search"),
        &["2:1 CYC001 error unknown key `descripton`"],
    );
    expect(
        &BASE.replace(
            "    required: true\n",
            "    required: true\n    detailed-help: x\n",
        ),
        &["9:5 CYC001 error unknown key `parameters.PATTERN.detailed-help`"],
    );
    expect(
        "steps:\n  - bash: ls\n    continue-on-error: true\ntags: [read]\n",
        &["3:5 CYC001 error unknown key `steps[0].continue-on-error`"],
    );
}

// CYC002 wrong-field-type

#[test]
fn wrong_types_are_errors() {
    expect(
        &BASE.replace("tags: [search, read]", "tags: read"),
        &[
            "13:7 CYC002 error `tags` must be a list of strings, found a string",
            "13:7 SEC021 warning this tool has no `read`, `write` or `run` tag",
        ],
    );
    expect(
        &format!("{BASE}environment:\n  variables:\n    GH_REPO: \"{{PATTERN}}\"\n"),
        &[
            "17:3 CYC002 error environment variable `environment.variables` must be a string, found a mapping",
        ],
    );
}

#[test]
fn scalars_cycod_reads_as_strings_are_fine() {
    silent(&format!(
        "{BASE}environment:\n  DEBUG: true\n  RETRIES: 3\n  EMPTY:\n"
    ));
}

// CYC003 name-differs-from-file

#[test]
fn name_differs_from_file_stem() {
    expect(
        &BASE.replace("name: search", "name: grep-code"),
        &["1:7 CYC003 warning tool name `grep-code` differs from its file name `search`"],
    );
    silent(&BASE.replace("name: search\n", ""));
}

// CYC004 duplicate-tool-name

#[test]
fn duplicate_names_in_one_folder() {
    let other = BASE.replace("name: search", "name: search\n# a copy");
    let found = check_files(&[(T, BASE), (".cycod/tools/search-copy.yaml", &other)]);
    assert_eq!(
        found,
        [
            ".cycod/tools/search-copy.yaml:1:7 CYC003 warning tool name `search` differs from its file name `search-copy`",
            ".cycod/tools/search.yaml:1:7 CYC004 error a tool named `search` is already defined in this folder",
        ]
    );
    // The same name in two scope folders is two tools.
    let found = check_files(&[(&format!("a/{T}"), BASE), (&format!("b/{T}"), BASE)]);
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn duplicate_inline_tools() {
    expect(
        &format!(
            "{BASE}with:\n  tools:\n    - name: h\n      bash: ls\n    - name: h\n      bash: ls\n"
        ),
        &["20:13 CYC004 error an inline tool named `h` is already defined above"],
    );
}

// CYC022 missing-tool-name

#[test]
fn names_must_not_be_empty() {
    expect(
        &BASE.replace("name: search", "name: \"\""),
        &["1:1 CYC022 error `name` is empty"],
    );
    expect(
        &format!("{BASE}with:\n  tools:\n    - bash: ls\n"),
        &["18:7 CYC022 error inline tool `with.tools[0]` has no `name`"],
    );
}
