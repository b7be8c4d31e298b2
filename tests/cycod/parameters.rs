//! Parameters: types, defaults and references to them (CYC009 to CYC013, SEC020, CYC023).

use super::*;

// CYC009 invalid-parameter-type, CYC010 invalid-parameter-default, CYC011 required-with-default

#[test]
fn parameter_types() {
    expect(
        &BASE.replace(
            "    type: string\n    description: Where",
            "    type: integer\n    description: Where",
        ),
        &[
            "10:11 CYC009 error `parameters.DIRECTORY.type` must be `string`, `number`, `boolean` or `array`, found `integer`",
        ],
    );
    // cycod compares the type case-insensitively.
    silent(&BASE.replace(
        "    type: string\n    description: Where",
        "    type: String\n    description: Where",
    ));
}

#[test]
fn defaults_must_fit_their_type() {
    let tool = |ty: &str, default: &str| {
        BASE.replace(
            "    type: string\n    description: Where to search\n    default: \".\"",
            &format!("    type: {ty}\n    description: Where to search\n    default: {default}"),
        )
    };
    expect(
        &tool("number", "ten"),
        &[
            "12:14 CYC010 error the default of `DIRECTORY` must be a number for `type: number`, found `ten`",
        ],
    );
    expect(
        &tool("boolean", "maybe"),
        &[
            "12:14 CYC010 error the default of `DIRECTORY` must be `true` or `false` for `type: boolean`, found `maybe`",
        ],
    );
    expect(
        &tool("array", "\"a,b\""),
        &[
            "12:14 CYC010 error the default of `DIRECTORY` must be a list (`[a, b]`) for `type: array`, found `\"a,b\"`",
        ],
    );
    expect(
        &tool("string", "[a, b]"),
        &[
            "12:14 CYC010 error the default of `DIRECTORY` must be a single value for `type: string`, found a list",
        ],
    );
    for (ty, default) in [
        ("number", "5"),
        ("number", "\"2.5\""),
        ("boolean", "false"),
        ("boolean", "\"yes\""),
        ("array", "[a, b]"),
        ("string", "3"),
    ] {
        silent(&tool(ty, default));
    }
}

#[test]
fn required_parameter_with_default_is_info() {
    expect(
        &BASE.replace(
            "    required: true\n",
            "    required: true\n    default: TODO\n",
        ),
        &["9:5 CYC011 info parameter `PATTERN` is required, so its default `TODO` is never used"],
    );
    silent(&BASE.replace(
        "    default: \".\"",
        "    required: false\n    default: \".\"",
    ));
}

// CYC012 unknown-parameter-reference, CYC013 unused-parameter, SEC020 raw-parameter-reference

#[test]
fn unknown_parameter_is_reported_on_the_reference() {
    expect(
        &BASE.replace("\"{PATTERN}\"", "\"{PATERN}\""),
        &[
            "3:16 CYC012 error `{PATERN}` is not a parameter of this tool",
            "5:3 CYC013 warning parameter `PATTERN` is never referenced",
        ],
    );
    expect(
        &format!("{BASE}working-directory: \"{{REPO_DIR}}\"\n"),
        &["16:21 CYC012 error `{REPO_DIR}` is not a parameter of this tool"],
    );
}

#[test]
fn references_inside_block_scalars_point_at_the_reference() {
    expect(
        &BASE.replace(
            "bash: grep -r \"{PATTERN}\" {DIRECTORY}",
            "bash: |\n  cd {DIRECTORY}\n  grep -r \"{PATERN}\" .\n  grep -r \"{PATTERN}\" .",
        ),
        &["5:12 CYC012 error `{PATERN}` is not a parameter of this tool"],
    );
}

#[test]
fn other_braces_are_not_references() {
    // jq programs, JSON in heredocs, `${VAR}`, positional templates and jq shorthands.
    silent(&BASE.replace(
        "bash: grep -r \"{PATTERN}\" {DIRECTORY}",
        r#"bash: |
  cat << EOF > /dev/null
  {"pattern": "{PATTERN}", "dir": {"path": "${HOME}/{DIRECTORY}"}}
  EOF
  grep -r "{PATTERN}" {DIRECTORY} | jq -R '{line: ., n: 1}' | jq '{line}' | xargs printf '{0} {1}'"#,
    ));
}

#[test]
fn parameters_used_anywhere_count_as_used() {
    silent(
        r#"bash: grep -r "{A}" .
arguments:
  b: "{B}"
input: "{C}"
working-directory: "{D}"
environment:
  E: "{E}"
parameters:
  A: {description: a}
  B: {description: b}
  C: {description: c}
  D: {description: d}
  E: {description: e}
tags: [read]
"#,
    );
}

#[test]
fn raw_references_are_a_security_warning() {
    expect(
        &BASE.replace("{DIRECTORY}", "{RAW:DIRECTORY}"),
        &[
            "3:27 SEC020 warning `{RAW:DIRECTORY}` inserts `DIRECTORY` into the command without escaping",
        ],
    );
    expect(
        &BASE.replace("{DIRECTORY}", "{RAW:DIRECTORY} {RAW:DIR}"),
        &[
            "3:27 SEC020 warning `{RAW:DIRECTORY}` inserts `DIRECTORY` into the command without escaping",
            "3:43 CYC012 error `{RAW:DIR}` is not a parameter of this tool",
        ],
    );
}

// ── CYC023 ───────────────────────────────────────────────────────────────────────────

/// A tool that downloads a release archive into a folder whose default names a parameter.
fn fetch_tool(order: &str) -> String {
    let tag =
        "  TAG:\n    type: string\n    description: The release to fetch\n    required: true\n";
    let dest = "  DEST:\n    type: string\n    description: Where to put the archive\n    default: \"downloads/{TAG}\"\n";
    let params = if order == "tag first" {
        format!("{tag}{dest}")
    } else {
        format!("{dest}{tag}")
    };
    format!(
        "name: search\ndescription: Fetch a release archive\nbash: mkdir -p {{DEST}} && curl -fsSLo {{DEST}}/app.tgz https://example.com/{{TAG}}.tgz\nparameters:\n{params}tags: [write]\n"
    )
}

#[test]
fn cyc023_a_default_naming_an_earlier_parameter_is_not_substituted() {
    expect(
        &fetch_tool("tag first"),
        &[
            "12:25 CYC023 warning the default of `DEST` names `{TAG}`, which cycod has already replaced when it puts this default in: the braces reach the command as written",
        ],
    );
    // A default naming itself is inserted by its own replacement, and not read again either.
    expect(
        "name: search\ndescription: Echo a label\nbash: echo {LABEL}\nparameters:\n  LABEL:\n    type: string\n    description: The label\n    default: '[{LABEL}]'\ntags: [read]\n",
        &[
            "8:16 CYC023 warning the default of `LABEL` names `{LABEL}`, which cycod has already replaced when it puts this default in: the braces reach the command as written",
        ],
    );
}

#[test]
fn cyc023_is_silent_on_defaults_cycod_substitutes_or_that_name_no_parameter() {
    // Declared before the parameter it names: that replacement comes after the default is in.
    silent(&fetch_tool("dest first"));
    // Braces that are not a reference, or name no parameter (CYC012's business in a command,
    // a literal in a default), and shell expansions.
    silent(
        "name: search\ndescription: Format a report\nbash: jq {QUERY} {FILE}\nparameters:\n  FILE:\n    type: string\n    description: The input\n    required: true\n  QUERY:\n    type: string\n    description: The jq program\n    default: '{name: .title} | ${HOME} | {OTHER}'\ntags: [read]\n",
    );
}
