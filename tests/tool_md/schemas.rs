//! Interface schemas: the JSON Schema subset the spec allows (TMD020 to TMD022), and the shared
//! schema rules.

use super::*;

// ── interface schemas ──────────────────────────────────────────────────────────────────

#[test]
fn tmd020_unsupported_schema_keyword() {
    expect_one(
        with(
            TOOL,
            &tool_with(
                "        description: \"What to look for.\"",
                "        description: \"What to look for.\"\n        title: \"Query\"",
            ),
        ),
        TOOL,
        "19:9 TMD020 error",
        "`title` is not in the tool.md schema subset",
    );
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        minLenght: 1\n",
        ),
    );
    expect_one(found, TOOL, "18:9 TMD020 error", "`minLenght`");
    // A property *named* like a keyword is fine.
    let named = tool_with(
        "      query:\n",
        "      title:\n        type: string\n      query:\n",
    );
    assert_eq!(with(TOOL, &named), Vec::<String>::new());
}

#[test]
fn tmd021_unsupported_schema_reference() {
    let found = with(
        TOOL,
        &tool_with(
            "        items: {type: string}",
            "        items: {$ref: \"#/definitions/hit\"}",
        ),
    );
    expect_one(found, TOOL, "25:17 TMD021 error", "`$ref` is not supported");
    let found = with(
        TOOL,
        &tool_with(
            "    required: [\"hits\"]",
            "    required: [\"hits\"]\n    definitions:\n      hit: {type: string}",
        ),
    );
    expect_one(
        found,
        TOOL,
        "27:5 TMD021 error",
        "`definitions` is not supported",
    );
}

#[test]
fn tmd022_unknown_schema_format() {
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        format: \"hostname\"\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "18:17 TMD022 warning",
        "`hostname` is a JSON Schema format, but not one tool.md supports",
    );
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        format: \"datetime\"\n",
        ),
    );
    assert!(
        found[0].contains("TMD022") && found.len() == 1,
        "{found:#?}"
    );
    let ok = tool_with(
        "        type: string\n",
        "        type: string\n        format: \"date-time\"\n",
    );
    assert_eq!(with(TOOL, &ok), Vec::<String>::new());
}

#[test]
fn shared_schema_rules_apply_to_interfaces() {
    expect_one(
        with(
            TOOL,
            &tool_with("required: [\"query\"]", "required: [\"qury\"]"),
        ),
        TOOL,
        "19:16 SCH002 warning",
        "`qury` is required but not defined",
    );
    expect_one(
        with(
            TOOL,
            &tool_with("        type: string\n", "        type: strng\n"),
        ),
        TOOL,
        "17:15 SCH001 error",
        "`type` must be one of the JSON Schema types",
    );
    // Beyond type and enum: a default above its maximum, a const of the wrong type.
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        maxLength: 3\n        default: \"four\"\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "19:18 SCH003 warning",
        "`default` `\"four\"` does not satisfy its own schema",
    );
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        const: 5\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "18:16 SCH003 warning",
        "`const` `5` does not satisfy its own schema",
    );
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        pattern: \"^[a-z]+$\"\n        enum: [\"ok\", \"Not OK\"]\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "19:22 SCH003 warning",
        "`enum` value `\"Not OK\"`",
    );
    // The type mismatch is the shared rule's: reported once, not twice.
    let found = with(
        TOOL,
        &tool_with(
            "        type: string\n",
            "        type: string\n        default: 5\n",
        ),
    );
    expect_one(
        found,
        TOOL,
        "18:18 SCH003 warning",
        "`default` is an integer",
    );
}
