#!/usr/bin/env python3
"""Write Markdown bodies dense with code blocks (docs/performance.md, "Dense files, sixth pass:
code blocks", issue 29, row 10), each in a folder of its own under OUT, for measuring peak
memory and time:

    python3 scripts/dense-blocks.py /tmp/blocks [SCALE]
    /usr/bin/time -v target/release/toolc check --no-cache -q /tmp/blocks/skill-bash

skill-bash/skills/big/SKILL.md     1.05 million ```bash blocks of `curl … | jq .items` (60 MB,
                                   under the 64 MiB toolc reads)
skill-python/skills/big/SKILL.md   the same count of ```python blocks
skill-plain/skills/big/SKILL.md    the same count of ``` blocks (no language) of that command
skill-indented/skills/big/SKILL.md the same count of indented (four-space) blocks of it
request/requests/TR-*.md           a request whose sections are followed by a section of as
                                   many ```bash blocks
tool-md/tools/big.tool.md          a `*.tool.md` whose body is as many ```bash blocks

SCALE (default 1) multiplies every count; docs/performance.md measured "a tenth" as 120,000
blocks (SCALE 0.1143), a tenth of the 1.2 million blocks of the first report.
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


def blocks(language, count):
    return ("```" + language + "\n" + COMMAND + "\n```\n\n") * count


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
    n = int(1_050_000 * scale)
    skill = "skills/big/SKILL.md"
    write(root, "skill-bash/" + skill, SKILL + blocks("bash", n))
    write(root, "skill-python/" + skill, SKILL + blocks("python", n))
    write(root, "skill-plain/" + skill, SKILL + blocks("", n))
    write(root, "skill-indented/" + skill, SKILL + ("    " + COMMAND + "\n\n") * n)
    write(root, "request/requests/TR-20250131-140500Z-big.md", REQUEST + blocks("bash", n))
    write(root, "tool-md/tools/big.tool.md", TOOL_MD + blocks("bash", n))


main()
