#!/usr/bin/env python3
"""Write each rule page's measured precision (`precision:` in its front matter) from the
scores of scripts/wild-score.sh: how many of the rule's findings on the reviewed corpus of
public repositories were judged true. Run from the repository root after a build."""
import pathlib, re, subprocess, sys

out = subprocess.run(["bash", "scripts/wild-score.sh", "--show", "none"],
                     capture_output=True, text=True).stdout
if "skipped" in out:
    sys.exit("rule-precision: the reviewed corpus is not beside the checkout")
rows = {}
for line in out.splitlines():
    m = re.match(r"^([A-Z]{3}\d{3})\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", line)
    if m:
        code, true, false, debatable, new, _missed = m.groups()
        rows[code] = tuple(int(x) for x in (true, false, debatable, new))
for page in sorted(pathlib.Path("rules").glob("*.md")):
    code = page.stem
    true, false, debatable, new = rows.get(code, (0, 0, 0, 0))
    judged = true + false
    if judged == 0 and debatable == 0:
        text = "no finding on the reviewed corpus"
    elif judged == 0:
        text = f"{debatable} finding(s) on the reviewed corpus, all judged debatable"
    else:
        text = f"{true} of {judged} finding(s) judged true on the reviewed corpus"
        if debatable:
            text += f", {debatable} more judged debatable"
    body = page.read_text()
    front, sep, rest = body[4:].partition("\n---\n")
    lines = [l for l in front.splitlines() if not l.startswith("precision:")]
    lines.append(f"precision: {text}")
    page.write_text("---\n" + "\n".join(lines) + sep + rest)
