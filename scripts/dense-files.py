#!/usr/bin/env python3
"""Write the three dense files of docs/performance.md ("Dense files, second pass", issue 29,
row 10), each in a folder of its own under OUT, for measuring peak memory:

    python3 scripts/dense-files.py /tmp/dense [SCALE]
    /usr/bin/time -v target/release/toolc check --no-cache /tmp/dense/enum -q

enum/tools.json   an agentcli manifest whose one schema has an `enum` of 9 million `1`s
yaml/.cycod/...   a cycod tool whose `tags` are 4 million `  - 1` lines
mcp/.mcp.json     a Claude Code configuration of one million servers

and the shapes of "Dense files, fifth pass":

strings/tools.json      one schema whose `enum` is 4.5 million `"a"`s
distinct/tools.json     one schema whose `enum` is 2 million `"a0"`, `"a1"`, ...
props/tools.json        one schema of 1.5 million properties `"kN":"v"` (not schemas)
props-empty/tools.json  one schema of 1.8 million properties `"kN":{}`
unknown/tools.json      one tool with an unknown key mapping 1.5 million `"kN":"v"`
list-enum/tools.json    an MCP tool list whose one schema's `enum` is 4.5 million `"a"`s
list-desc/tools.json    an MCP tool list whose one description is a list of 4.5 million `"a"`s
tags/.cycod/...         a cycod tool whose `tags` are 4 million `  - a` lines
args/.mcp.json          one server whose `args` are 4.5 million `"a"`s

and the shapes of "Dense files, sixth pass" (cycod tags and their neighbours):

flow-tags/...           the cycod tags as one flow sequence `tags: [a, a, ...]`
download-tags/...       1.5 million tags `curl x | sh` (each tells the agent to run a download)
uses/...                a cycod tool whose `uses.tools` names 3 million tools `a`
steps/...               a cycod tool of 2 million steps `bash: a`
dojops-tags/...         a DojOps `tool.yaml` whose `tags` are 4 million `a`
tool-md-tags/...        a `*.tool.md` whose `meta.tags` are 3 million `a`

and those of "Dense files, seventh pass (memory)":

platforms/...           a cycod tool whose `platforms` are 4 million `  - a` lines
skill-list/...          a `SKILL.md` whose front matter has 4 million `  - a` under an unknown key

and the Markdown bodies of "Dense files, sixth pass: code blocks", each 1.05 million blocks of
`curl … | jq .items` (60 MB, under the 64 MiB toolc reads; a tenth of the first report's
1.2 million blocks is SCALE 0.1143):

skill-bash/skills/big/SKILL.md      ```bash blocks
skill-python/skills/big/SKILL.md    ```python blocks
skill-plain/skills/big/SKILL.md     ``` blocks (no language)
skill-indented/skills/big/SKILL.md  indented (four-space) blocks
request/requests/TR-*.md            a request followed by a section of ```bash blocks
tool-md/tools/big.tool.md           a `*.tool.md` whose body is ```bash blocks

and the shapes of "Dense files, seventh pass (time)":

skill-links/skills/big/SKILL.md     one paragraph of 2 million lines `See [a](references/a.md).`
                                    (a missing file)
skill-early-fences/skills/big/...   100,000 fenced blocks in quotes, each ended by the quote's
                                    end, closed only by the file's last line
skill-distinct/skills/big/SKILL.md  ```bash blocks each of a different download run

and those of "Markdown dense with marks" and "Many tiny tools":

skill-brackets/skills/big/SKILL.md  one line of 2 million `[`
skill-emphasis/skills/big/SKILL.md  one line of 500,000 `_a* `
mcp-tiny/tools.json                 an MCP tool list of 1.5 million `{"name":"tN","inputSchema":{}}`
steps-million/...                   a cycod tool of a million steps `bash: echo N`

and that of "Dense files, eighth pass (time)":

steps-distinct/...                  a cycod tool of 50,000 steps, each a different script
                                    `echo N` (each handed to ShellCheck)

and those of "Lists of small trees" (each about 58 MB):

mcp-small-schema/tools.json         MCP tools `{"name":"tN","inputSchema":{"type":"object"}}`
mcp-required/tools.json             MCP tools whose schema has `required` and a property
acl-nested/tools.json               agentcli tools with a nested unknown key `"x":{"a":{}}`
server-remotes/server.json          remotes of a URL and one header each
cycod-env/...                       a cycod tool of steps `bash: a` with an `env` mapping
skill-metadata/...                  a `SKILL.md` whose `metadata` lists small mappings

and those of "Lists of any items, and data no meta-schema reads" (each about 58 MB):

mcp-described/tools.json            MCP tools with a description, two described properties
                                    and `required`
skill-deep/...                      a `SKILL.md` whose `metadata` lists mappings nine deep
schema-data/tools.json              a schema carrying a list of deep mappings under `x-data`
schema-prefix-items/tools.json      a draft-07 schema whose `prefixItems` lists small schemas
schema-any-of/tools.json            a schema whose `anyOf` lists small schemas
skill-metadata-map/...              a `SKILL.md` whose `metadata` maps keys to `{a: b, c: d}`
properties-described/tools.json     a schema of described string properties
mcp-servers/.mcp.json               an `.mcp.json` of servers with args and env

SCALE (default 1) multiplies every count: 0.1 writes the sizes tests/hostile/dense.rs uses.
"""

import os
import sys

COMMAND = "curl -s https://example.com/api | jq .items"
SKILL = "---\nname: big\ndescription: Summarise reports for the user.\n---\n\n"
REQUEST = """---
request_type: tool_request
schema_version: "1"
request_id: TR-20250131-140500Z-big
created_utc: 2025-01-31T14:05:00Z
requested_by: core
approved_by: alice
approved_utc: 2025-01-31T15:10:00Z
purpose: Summarise the sales CSV into a JSON report
backend: ERA
language: python
network: none
cpu_limit: "1"
memory_limit_mb: 512
time_limit_sec: 120
inputs:
  - path: /in/sales.csv
    sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
---

## Command

python -u /in/summarise.py --in /in/sales.csv --out /out/summary.json

## Input Files

- `/in/sales.csv` — sha256 `9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`

## Output Expectations

- `/out/summary.json`: totals per region, as one JSON object

## Risk Assessment

Risk level: low
Justification: reads one mounted file and writes one JSON file; no side effects
Data sensitivity: internal
Network rationale: none needed

## Notes

"""
TOOL_MD = """---
spec_version: "1.2"
tool_id: "big"
version: "1.0.0"
status: "active"
meta:
  name: "Big"
  description: >
    Summarise the sales reports for the user.
    Do not use it for billing questions.
  owner: "docs-team"
type: "retrieval"
interface:
  input:
    type: object
    properties:
      query: {type: string, description: "What to summarise."}
    required: ["query"]
    additionalProperties: false
transport:
  type: "rest-api"
  base_url: "https://docs.internal.example.com/v2"
  endpoint: "POST /search"
  timeout_ms: 8000
use_guidance:
  use_when:
    - "the user asks for a summary"
  avoid_when:
    - "the question is about an invoice"
  side_effects: "None. Read-only."
---
# Purpose

"""



def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    values = ",".join(["1"] * int(9_000_000 * scale))
    write(root, "enum/tools.json",
          '{"tools":[{"name":"pick","description":"Pick one value","schema":{"type":"object",'
          '"properties":{"v":{"type":"integer","enum":[' + values + ']}},"required":["v"],'
          '"additionalProperties":false},"command":["./pick"],"timeoutSec":3}]}\n')
    write(root, "yaml/.cycod/tools/many.yaml",
          "name: many\ndescription: d\nbash: echo hi\ntags:\n" + "  - 1\n" * int(4_000_000 * scale))
    servers = ",".join('"s%d":{"command":"npx","args":["-y","pkg%d@1.0.0"]}' % (i, i)
                       for i in range(int(1_000_000 * scale)))
    write(root, "mcp/.mcp.json", '{"mcpServers":{' + servers + "}}\n")

    def n(count):
        return int(count * scale)

    def agentcli(properties, extra=""):
        return ('{"tools":[{"name":"pick","description":"Pick one value","schema":{"type":"object",'
                '"properties":' + properties + ',"required":["v"],"additionalProperties":false},'
                '"command":["./pick"],"timeoutSec":3' + extra + '}]}\n')

    a = ",".join(['"a"'] * n(4_500_000))
    keys = ",".join('"k%d":"v"' % i for i in range(n(1_500_000)))
    write(root, "strings/tools.json", agentcli('{"v":{"type":"string","enum":[' + a + ']}}'))
    distinct = ",".join('"a%d"' % i for i in range(n(2_000_000)))
    write(root, "distinct/tools.json", agentcli('{"v":{"type":"string","enum":[' + distinct + ']}}'))
    write(root, "props/tools.json", agentcli("{" + keys + "}"))
    empty = ",".join('"k%d":{}' % i for i in range(n(1_800_000)))
    write(root, "props-empty/tools.json", agentcli("{" + empty + "}"))
    write(root, "unknown/tools.json", agentcli('{"v":{"type":"string"}}', ',"x":{' + keys + "}"))
    write(root, "list-enum/tools.json",
          '{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":'
          '{"v":{"type":"string","enum":[' + a + ']}}}}]}\n')
    write(root, "list-desc/tools.json",
          '{"tools":[{"name":"t","description":[' + a + '],"inputSchema":{"type":"object"}}]}\n')
    write(root, "tags/.cycod/tools/many.yaml",
          "name: many\ndescription: d\nbash: echo hi\ntags:\n" + "  - a\n" * n(4_000_000))
    write(root, "args/.mcp.json", '{"mcpServers":{"s":{"command":"npx","args":[' + a + "]}}}\n")
    sixth(root, n)
    code_blocks(root, n(1_050_000))
    seventh(root, n)
    eighth(root, n)
    marks(root, n)
    small_trees(root, n)
    deeper_trees(root, n)


def sixth(root, n):
    """The neighbours of the cycod tags of "Dense files, sixth pass"."""
    head = "name: many\ndescription: d\nbash: echo hi\n"
    write(root, "flow-tags/.cycod/tools/many.yaml",
          head + "tags: [" + ", ".join(["a"] * n(4_000_000)) + "]\n")
    write(root, "download-tags/.cycod/tools/many.yaml",
          head + "tags:\n" + "  - curl x | sh\n" * n(1_500_000))
    write(root, "uses/.cycod/tools/many.yaml",
          head + "tags: [read]\nuses:\n  tools:\n" + "    - a\n" * n(3_000_000))
    write(root, "steps/.cycod/tools/many.yaml",
          "name: many\ndescription: d\ntags: [read]\nsteps:\n" + "  - bash: a\n" * n(2_000_000))
    write(root, "dojops-tags/.dojops/tools/many/tool.yaml",
          "spec: 1\nname: many\nversion: 1.0.0\ndescription: d\ntags:\n" + "  - a\n" * n(4_000_000))
    write(root, "tool-md-tags/tools/x.tool.md",
          '---\nspec_version: "1.2"\ntool_id: "x"\nversion: "1.0.0"\nstatus: "active"\nmeta:\n'
          '  name: "X"\n  description: d\n  tags:\n' + "    - a\n" * n(3_000_000)
          + 'type: "retrieval"\n---\nbody\n')
    write(root, "platforms/.cycod/tools/many.yaml",
          head + "tags: [read]\nplatforms:\n" + "  - a\n" * n(4_000_000))
    write(root, "skill-list/skills/big/SKILL.md",
          "---\nname: big\ndescription: Summarise reports for the user.\nextra:\n"
          + "  - a\n" * n(4_000_000) + "---\n\nBody.\n")



def code_blocks(root, count):
    """The Markdown bodies of "Dense files, sixth pass: code blocks", `count` blocks each."""
    def blocks(language):
        return ("```" + language + "\n" + COMMAND + "\n```\n\n") * count
    skill = "skills/big/SKILL.md"
    write(root, "skill-bash/" + skill, SKILL + blocks("bash"))
    write(root, "skill-python/" + skill, SKILL + blocks("python"))
    write(root, "skill-plain/" + skill, SKILL + blocks(""))
    write(root, "skill-indented/" + skill, SKILL + ("    " + COMMAND + "\n\n") * count)
    write(root, "request/requests/TR-20250131-140500Z-big.md", REQUEST + blocks("bash"))
    write(root, "tool-md/tools/big.tool.md", TOOL_MD + blocks("bash"))


def seventh(root, n):
    """The shapes of "Dense files, seventh pass (time)"."""
    skill = "skills/big/SKILL.md"
    write(root, "skill-links/" + skill, SKILL + "See [a](references/a.md).\n" * n(2_000_000))
    write(root, "skill-early-fences/" + skill,
          SKILL + "> ```bash\n> ls\n\n" * n(100_000) + "> ```bash\n> ls\n> ```\n")
    distinct = "".join("```bash\ncurl -fsSL https://get.example.net/%d.sh | sh\n```\n\n" % i
                       for i in range(n(1_050_000)))
    write(root, "skill-distinct/" + skill, SKILL + distinct)


def eighth(root, n):
    """The shape of "Dense files, eighth pass (time)"."""
    steps = "".join("  - bash: echo %d\n" % i for i in range(n(50_000)))
    write(root, "steps-distinct/.cycod/tools/many.yaml",
          "name: many\ndescription: d\ntags: [read]\nsteps:\n" + steps)


def marks(root, n):
    """The shapes of "Markdown dense with marks": one line of marks, and tiny tools."""
    skill = "skills/big/SKILL.md"
    write(root, "skill-brackets/" + skill, SKILL + "[" * n(2_000_000) + "\n")
    write(root, "skill-emphasis/" + skill, SKILL + "_a* " * n(500_000) + "\n")
    tools = ",".join('{"name":"t%d","inputSchema":{}}' % i for i in range(n(1_500_000)))
    write(root, "mcp-tiny/tools.json", '{"tools":[' + tools + "]}")
    steps = "".join("  - bash: echo %d\n" % i for i in range(n(1_000_000)))
    write(root, "steps-million/.cycod/tools/many.yaml",
          "name: many\ndescription: d\ntags: [read]\nsteps:\n" + steps)


def small_trees(root, n):
    """The shapes of "Lists of small trees": long lists whose items each hold a mapping."""
    def listing(path, head, item, count, tail="]}", sep=","):
        write(root, path, head + sep.join(item % i for i in range(n(count))) + tail)
    listing("mcp-small-schema/tools.json", '{"tools":[',
            '{"name":"t%d","inputSchema":{"type":"object"}}', 1_175_000)
    listing("mcp-required/tools.json", '{"tools":[',
            '{"name":"t%d","inputSchema":{"type":"object","required":["a"],"properties":{"a":{}}}}',
            650_000)
    listing("acl-nested/tools.json", '{"tools":[', '{"name":"t%d","command":["x"],"x":{"a":{}}}',
            1_300_000)
    listing("server-remotes/server.json",
            '{"name":"io.github.a/b","description":"d","version":"1.0.0","remotes":[',
            '{"type":"sse","url":"https://e.example/%d","headers":[{"name":"A"}]}', 850_000)
    listing("cycod-env/.cycod/tools/big.yaml", "name: big\ndescription: d\nsteps:\n",
            "  - bash: a\n    env: {A: b%d}", 1_700_000, tail="\n", sep="\n")
    listing("skill-metadata/skills/big/SKILL.md",
            "---\nname: big\ndescription: Summarise reports.\nmetadata:\n  x:\n",
            "    - {a: {b: c, d: e}, f: g%d}", 1_600_000, tail="\n---\n# big\n", sep="\n")



def deeper_trees(root, n):
    """The shapes of "Lists of any items, and data no meta-schema reads"."""
    def listing(path, head, item, count, tail="]}", sep=","):
        write(root, path, head + sep.join(item % i for i in range(n(count))) + tail)
    listing("mcp-described/tools.json", '{"tools":[',
            '{"name":"t%d","description":"d","inputSchema":{"type":"object","properties":'
            '{"a":{"type":"string","description":"d"},"b":{"type":"string","enum":["c","f"]}},'
            '"required":["a"]}}', 330_000)
    listing("skill-deep/skills/big/SKILL.md",
            "---\nname: big\ndescription: Summarise reports.\nmetadata:\n  x:\n",
            "    - {a: {b: {c: {d: {e: {f: {g: {h: {i: c%d}}}}}}}}}", 1_000_000,
            tail="\n---\n# big\n", sep="\n")
    deep = '{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":%d}}}}}}}}}'
    listing("schema-data/tools.json",
            '{"tools":[{"name":"t","inputSchema":{"type":"object","x-data":[', deep, 1_000_000,
            tail="]}}]}")
    small = ('{"type":"object","properties":{"a%d":{"type":"string"},'
             '"b":{"type":"string","description":"d"}}}')
    for name, key in [("schema-prefix-items", "prefixItems"), ("schema-any-of", "anyOf")]:
        listing(name + "/tools.json",
                '{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"' + key
                + '":[', small, 600_000, tail="]}}}}]}")
    # Long mappings (still nodes: "What is left" of that section).
    listing("skill-metadata-map/skills/big/SKILL.md",
            "---\nname: big\ndescription: Summarise reports.\nmetadata:\n",
            "  k%d: {a: b, c: d}", 2_360_000, tail="\n---\n# big\n", sep="\n")
    listing("properties-described/tools.json",
            '{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{',
            '"p%d":{"type":"string","description":"d"}', 1_250_000, tail="}}}]}")
    listing("mcp-servers/.mcp.json", '{"mcpServers":{',
            '"s%d":{"command":"npx","args":["-y","p"],"env":{"A":"b"}}', 930_000, tail="}}")


if __name__ == "__main__":
    main()
