//! The fixable defects of cycod custom tools.

use super::*;

const CYCOD_TOOL: &str = ".cycod/tools/search.yaml";

pub(super) fn cases() -> Vec<Case> {
    let cycod = |content: String| vec![(CYCOD_TOOL, content)];
    vec![
        // cycod
        case(
            "CYC001",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "platforms:", "platfroms:")),
        ),
        case(
            "CYC003",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "name: search", "name: searcher")),
        ),
        case(
            "CYC022",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "name: search", "name: \"\"")),
        ),
        case(
            "CYC009",
            CYCOD_TOOL,
            cycod(edit(
                CYCOD,
                "type: string\n    description: Pattern",
                "type: str\n    description: Pattern",
            )),
        ),
        case(
            "CYC012",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "\"{PATTERN}\"", "\"{PATTRN}\"")),
        ),
        case(
            "CYC014",
            CYCOD_TOOL,
            cycod(edit(STEPS, "{fetch.output}", "{fetc.output}")),
        ),
        case(
            "CYC016",
            CYCOD_TOOL,
            cycod(edit(STEPS, "{fetch.output}", "{fetch.outptu}")),
        ),
        case(
            "CYC017",
            CYCOD_TOOL,
            cycod(edit(
                CYCOD,
                "[windows, linux, macos]",
                "[windows, linux, macox]",
            )),
        ),
        case(
            "SEC020",
            CYCOD_TOOL,
            cycod(edit(CYCOD, "{DIRECTORY}", "{RAW:DIRECTORY}")),
        ),
        case(
            "REF010",
            ".cycod/tools/caller.yaml",
            vec![
                (CYCOD_TOOL, CYCOD.to_string()),
                (
                    ".cycod/tools/caller.yaml",
                    "steps:\n  - bash: ls\n  - tool: serch\ntags: [read]\n".to_string(),
                ),
            ],
        ),
        case(
            "REF012",
            CYCOD_TOOL,
            vec![
                (
                    CYCOD_TOOL,
                    format!("{CYCOD}uses:\n  mcps: [github, githbu]\n"),
                ),
                (
                    ".cycod/mcp/mcp.json",
                    r#"{"mcpServers": {"github": {"command": "npx"}}}"#.to_string(),
                ),
            ],
        ),
    ]
}
