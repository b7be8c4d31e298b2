//! The fixable defects of DojOps: `tool.yaml` manifests, their input schemas, and `.dops`
//! skills.

use super::*;

const TOOL_YAML: &str = ".dojops/tools/my-tool/tool.yaml";
const SKILL: &str = ".dojops/skills/nginx.dops";

fn dojops_tool(content: String) -> Vec<(&'static str, String)> {
    vec![
        (TOOL_YAML, content),
        (
            ".dojops/tools/my-tool/input.schema.json",
            VALID_SCHEMA.to_string(),
        ),
    ]
}

pub(super) fn cases() -> Vec<Case> {
    vec![
        // DojOps tool.yaml
        case(
            "DOJ001",
            TOOL_YAML,
            dojops_tool(edit(VALID_TOOL, "version:", "verison:")),
        ),
        case(
            "SEC031",
            TOOL_YAML,
            dojops_tool(edit(
                VALID_TOOL,
                "    serializer: yaml\n",
                "    serializer: yaml\npermisions:\n  network: none\n",
            )),
        ),
        case(
            "DOJ002",
            TOOL_YAML,
            dojops_tool(edit(
                VALID_TOOL,
                "  strategy: llm\n",
                "  strategy: llm\n  updateMode: yes\n",
            )),
        ),
        case(
            "DOJ003",
            TOOL_YAML,
            dojops_tool(edit(VALID_TOOL, "name: my-tool", "name: My_Tool")),
        ),
        case(
            "DOJ005",
            TOOL_YAML,
            dojops_tool(edit(VALID_TOOL, "serializer: yaml", "serializer: yml")),
        ),
        case(
            "DOJ007",
            TOOL_YAML,
            dojops_tool(edit(VALID_TOOL, "version:", "verison:")),
        ),
        // DojOps .dops
        case(
            "DOJ003",
            SKILL,
            vec![(SKILL, edit(DOPS, "name: nginx", "name: Nginx_Proxy"))],
        ),
        case(
            "DOJ021",
            SKILL,
            vec![(
                SKILL,
                edit(
                    DOPS,
                    "files:",
                    "verification:\n  binary:\n    command: terraform validate -json\n    parser: terraform-jsn\nfiles:",
                ),
            )],
        ),
        case(
            "REF001",
            ".dojops/skills/proxy.dops",
            vec![
                (SKILL, DOPS.to_string()),
                (
                    ".dojops/skills/proxy.dops",
                    edit(
                        &edit(DOPS, "name: nginx", "name: proxy"),
                        "files:",
                        "dependencies:\n  - skill: ngnix\nfiles:",
                    ),
                ),
            ],
        ),
        // A placeholder the input schema does not define, one letter off.
        case(
            "DOJ012",
            TOOL_YAML,
            vec![
                (TOOL_YAML, edit(VALID_TOOL, "out/config.yaml", "out/{modul}/config.yaml")),
                (
                    ".dojops/tools/my-tool/input.schema.json",
                    r#"{"type": "object", "properties": {"module": {"type": "string"}}}"#
                        .to_string(),
                ),
            ],
        ),
        // A schema's `default` one letter off an `enum` value.
        case(
            "SCH003",
            ".dojops/tools/my-tool/input.schema.json",
            vec![
                (TOOL_YAML, VALID_TOOL.to_string()),
                (
                    ".dojops/tools/my-tool/input.schema.json",
                    r#"{"type": "object", "properties": {"region": {"type": "string", "enum": ["eu-west-1", "us-east-1"], "default": "eu-wset-1"}}}"#
                        .to_string(),
                ),
            ],
        ),
    ]
}
