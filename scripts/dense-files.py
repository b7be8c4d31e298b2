#!/usr/bin/env python3
"""Write the three dense files of docs/performance.md ("Dense files, second pass", issue 29,
row 10), each in a folder of its own under OUT, for measuring peak memory:

    python3 scripts/dense-files.py /tmp/dense [SCALE]
    /usr/bin/time -v target/release/toolc check --no-cache /tmp/dense/enum -q

enum/tools.json   an agentcli manifest whose one schema has an `enum` of 9 million `1`s
yaml/.cycod/...   a cycod tool whose `tags` are 4 million `  - 1` lines
mcp/.mcp.json     a Claude Code configuration of one million servers

SCALE (default 1) multiplies every count: 0.1 writes the sizes tests/hostile/dense.rs uses.
"""

import os
import sys


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


if __name__ == "__main__":
    main()
