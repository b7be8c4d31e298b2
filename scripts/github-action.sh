#!/usr/bin/env bash
# The toolc GitHub Action's work (action.yml installs toolc, then runs this).
#
# One `toolc check` run prints annotations (`--format github`, which the runner turns into
# annotations on the pull request), writes JSON for the job summary and, when asked, SARIF for
# code scanning. The exit code follows `fail-on`, not toolc's own, so `fail-on: never` can
# report without gating; toolc failing to run (exit 2) fails the step whatever `fail-on` says.
#
# Inputs come from the environment, as action.yml passes them:
#   INPUT_PATH        paths to check, whitespace-separated (default `.`)
#   INPUT_ARGS        more `toolc check` arguments (shell-like quoting: `--select "DOJ,SEC"`)
#   INPUT_CONFIG      a toolc.toml to use instead of the discovered one
#   INPUT_BASELINE    a baseline file: the findings it records are not reported
#   INPUT_FAIL_ON     error (default) | warning | never
#   INPUT_SARIF_FILE  write SARIF 2.1.0 here
#   INPUT_DIFF        also run `toolc diff`: `true` against the pull request's base (the merge
#                     base with origin/$GITHUB_BASE_REF; off a pull request, toolc's default),
#                     or a git revision to compare with; empty or `false`: no diff
#   TOOLC             the toolc binary (default `toolc` on PATH)
# and GitHub's: GITHUB_STEP_SUMMARY (the job summary), GITHUB_OUTPUT (step outputs),
# GITHUB_BASE_REF (a pull request's base branch).
# Needs bash and python3 (both on every GitHub-hosted runner).
set -euo pipefail

toolc="${TOOLC:-toolc}"
fail_on="${INPUT_FAIL_ON:-error}"
case "$fail_on" in
    error | warning | never) ;;
    *)
        echo "::error title=toolc action::fail-on must be error, warning or never, not '$fail_on'"
        exit 2
        ;;
esac

# split TEXT: the words of TEXT, NUL-separated, honouring quotes like a shell (via xargs, so
# nothing is evaluated). Empty text gives no words.
split() {
    if [[ -n "${1//[[:space:]]/}" ]]; then
        printf '%s' "$1" | xargs printf '%s\0'
    fi
}

# A job's checkout is new and no later job reads a cache this one would write (a cache is
# trusted only by the executable file that wrote it): writing one is time for nothing.
args=(check --format github --no-cache)
if [[ -n "${INPUT_CONFIG:-}" ]]; then
    args+=(--config "$INPUT_CONFIG")
fi
if [[ -n "${INPUT_BASELINE:-}" ]]; then
    args+=(--baseline "$INPUT_BASELINE")
fi
if [[ -n "${INPUT_SARIF_FILE:-}" ]]; then
    mkdir -p "$(dirname "$INPUT_SARIF_FILE")"
    args+=(--output-format "sarif:$INPUT_SARIF_FILE")
fi
scratch="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/toolc-action.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
report="$scratch/report.json"
args+=(--output-format "json:$report")
mapfile -d '' -t extra < <(split "${INPUT_ARGS:-}")
mapfile -d '' -t paths < <(split "${INPUT_PATH:-.}")
args+=("${extra[@]}" "${paths[@]}")

set +e
"$toolc" "${args[@]}"
code=$?
set -e
if [[ $code -ne 0 && $code -ne 1 ]] || [[ ! -s "$report" ]]; then
    echo "::error title=toolc action::toolc could not run (exit $code): see the log above"
    exit 2
fi

# Breaking changes: `toolc diff` annotates them too, and its `--stat` table joins the summary.
diff_report=""
diff_table=""
if [[ -n "${INPUT_DIFF:-}" && "${INPUT_DIFF}" != "false" ]]; then
    against="$INPUT_DIFF"
    if [[ "$against" == "true" ]]; then
        against=""
        if [[ -n "${GITHUB_BASE_REF:-}" ]]; then
            against="origin/${GITHUB_BASE_REF}..."
        fi
    fi
    diff_report="$scratch/diff.json"
    diff_table="$scratch/diff.md"
    diff_args=(diff --format github --output-format "json:$diff_report" --output-format "markdown:$diff_table")
    if [[ -n "${INPUT_CONFIG:-}" ]]; then
        diff_args+=(--config "$INPUT_CONFIG")
    fi
    if [[ -n "$against" ]]; then
        # The input names a revision, never a folder: where git does not know it (a shallow
        # checkout), `toolc diff` would read a folder the pull request committed under its name.
        if ! git rev-parse --verify --quiet --end-of-options "${against%...}^{commit}" >/dev/null; then
            echo "::error title=toolc action::the diff input names a revision git does not know here; fetch it (actions/checkout with fetch-depth: 0)"
            exit 2
        fi
        diff_args+=(--against "$against")
    fi
    diff_args+=("${paths[@]}")
    set +e
    "$toolc" "${diff_args[@]}"
    code=$?
    set -e
    if [[ $code -ne 0 && $code -ne 1 ]] || [[ ! -s "$diff_report" ]]; then
        echo "::error title=toolc action::toolc diff could not run (exit $code): see the log above"
        exit 2
    fi
fi

# The summary (Markdown) and the counts, from the JSON reports; the verdict is decided below.
counts="$(
    python3 - "$report" "$fail_on" "${INPUT_SARIF_FILE:-}" "${GITHUB_STEP_SUMMARY:-}" "$diff_report" "$diff_table" <<'PY'
import json, re, sys
from collections import Counter, defaultdict

report_path, fail_on, sarif, summary_path, diff_path, diff_table = sys.argv[1:7]
with open(report_path, encoding="utf-8") as f:
    report = json.load(f)
summary = report.get("summary", {})
diags = report.get("diagnostics", [])
if diff_path:
    with open(diff_path, encoding="utf-8") as f:
        diags = diags + json.load(f).get("diagnostics", [])
errors = sum(d.get("severity") == "error" for d in diags)
warnings = sum(d.get("severity") == "warning" for d in diags)
infos = sum(d.get("severity") == "info" for d in diags)
failing = {"error": errors, "warning": errors + warnings, "never": 0}[fail_on] > 0


# A word GitHub links by itself, as toolc's own Markdown finds it: a URL, an e-mail address
# or an `@user` (which notifies that user), an issue (`#12`, `owner/repo#12`, `GH-12`) or a
# commit (seven hex digits and more). GitHub finds those in the rendered text, where no
# escape is left, and skips code: such a word is a code span.
LINKS = re.compile(
    r"://|www\.|mailto:|xmpp:|@.|#\d|gh-\d|(?<![0-9a-z])[0-9a-f]{7,}(?![0-9a-z])",
    re.IGNORECASE,
)


def cell(text):
    """A Markdown table cell: one line, and nothing in it read as Markdown or HTML or linked
    (rule names are toolc's, but file names and the messages quoting them are the committer's
    text: `[x](https://…)`, `<img …>` or `@user` must show as written)."""
    text = "".join(ch if ch >= " " else " " for ch in str(text))
    words = []
    for word in text.split(" "):
        if LINKS.search(word):
            words.append(code(word))
            continue
        word = word.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        for ch in "\\`*_[]|~":
            word = word.replace(ch, "\\" + ch)
        words.append(word)
    return " ".join(words)


def code(text):
    """A code span in a table cell, whatever backticks or pipes the text holds: fenced with
    more backticks than its longest run, so a file name cannot end the span and start
    Markdown."""
    text = "".join(ch if ch >= " " else " " for ch in str(text)).replace("|", "\\|")
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


lines = ["## toolc", ""]
checked = f"{plural(summary.get('files', 0), 'file')}, {plural(summary.get('tools', 0), 'tool')}"
if not diags:
    lines.append(f"✅ No problems in {checked}.")
else:
    mark = "❌" if failing else "⚠️"
    found = [plural(errors, "error"), plural(warnings, "warning")]
    if infos:
        found.append(plural(infos, "info"))
    lines.append(f"{mark} {', '.join(found)} in {checked}.")
    lines += ["", "| rule | name | severity | count |", "|---|---|---|---:|"]
    by_rule = Counter((d.get("code", "?"), d.get("name", ""), d.get("severity", "")) for d in diags)
    order = {"error": 0, "warning": 1, "info": 2}
    for (rule, name, severity), n in sorted(
        by_rule.items(), key=lambda kv: (order.get(kv[0][2], 3), -kv[1], kv[0][0])
    ):
        lines.append(f"| {code(rule)} | {cell(name)} | {cell(severity)} | {n} |")
    per_file = defaultdict(Counter)
    for d in diags:
        per_file[d.get("path", "?")][d.get("severity", "")] += 1
    worst = sorted(
        per_file.items(),
        key=lambda kv: (-kv[1]["error"], -kv[1]["warning"], -sum(kv[1].values()), kv[0]),
    )[:10]
    title = "Files with the most findings" if len(per_file) > 10 else "Files"
    lines += ["", f"### {title}", "", "| file | errors | warnings | infos |", "|---|---:|---:|---:|"]
    for path, c in worst:
        lines.append(f"| {code(path)} | {c['error']} | {c['warning']} | {c['info']} |")
    if len(per_file) > 10:
        lines.append(f"\n…and {plural(len(per_file) - 10, 'more file')}.")
# Changes to review (breaking changes, drift from toolc.lock) with both of their places: the
# new one and the old or locked one, for tools, Agent Skills and MCP servers alike.
changes = [d for d in diags if str(d.get("code", "")).startswith(("BRK", "LCK"))]
if changes:
    def place(item):
        line = item.get("span", {}).get("start", {}).get("line", "?")
        return code(f"{item.get('path', '?')}:{line}")

    lines += ["", "### Changes to review", "", "| rule | where | what | was |", "|---|---|---|---|"]
    for d in changes[:20]:
        was = "; ".join(f"{place(r)} {cell(r.get('message', ''))}" for r in d.get("related", []))
        lines.append(
            f"| {code(d.get('code', '?'))} | {place(d)} | {cell(d.get('message', ''))} | {was or '-'} |"
        )
    if len(changes) > 20:
        lines.append(f"\n…and {plural(len(changes) - 20, 'more change')}.")
if diff_table:
    with open(diff_table, encoding="utf-8") as f:
        lines += [""] + f.read().rstrip("\n").split("\n")
# What the baseline and suppression comments hid is said, so a pull request cannot hide a
# finding from review without the summary showing it.
baselined = int(summary.get("baselined", 0))
suppressed = int(summary.get("suppressed", 0))
if baselined or suppressed:
    by = []
    if baselined:
        by.append(f"{baselined} by the baseline")
    if suppressed:
        by.append(f"{suppressed} by `# toolc: ignore` comments")
    lines += ["", f"{plural(baselined + suppressed, 'finding')} hidden: {', '.join(by)}."]
verdict = {"never": "never fails the job", "error": "fails the job on errors",
           "warning": "fails the job on errors and warnings"}[fail_on]
lines += ["", f"`fail-on: {fail_on}`: toolc {verdict}."]
if sarif:
    lines.append(f"SARIF written to {code(sarif)}.")
if summary_path:
    with open(summary_path, "a", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
print(errors, warnings, infos, int(failing))
PY
)"
read -r errors warnings infos failing <<<"$counts"

if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    {
        echo "errors=$errors"
        echo "warnings=$warnings"
        echo "infos=$infos"
        echo "sarif-file=${INPUT_SARIF_FILE:-}"
    } >>"$GITHUB_OUTPUT"
fi

echo "toolc: $errors error(s), $warnings warning(s), $infos info(s); fail-on: $fail_on"
if [[ $failing -eq 1 ]]; then
    exit 1
fi
exit 0
