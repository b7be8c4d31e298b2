#!/usr/bin/env bash
# Precision on real repositories: re-scores toolc on the reviewed corpus of public skill and MCP
# repositories (shared/corpus/wild beside the checkout) against its verdicts plus the project's
# own record of verdicts on findings judged since (tests/data/wild-verdicts.tsv, which wins on
# the same finding). Fails when a finding judged false comes back or a true one is lost.
# Skipped, with a line saying so, when the corpus is not there.
set -euo pipefail
cd "$(dirname "$0")/.."
shared="../shared"
score="$shared/tools/wild-score"
corpus="$shared/corpus/wild"
if [[ ! -x "$score" && ! -f "$score" ]] || [[ ! -d "$corpus" ]]; then
  echo "wild-score: skipped (no reviewed corpus beside the checkout)"
  exit 0
fi
toolc="${TOOLC:-target/debug/toolc}"
[[ -x "$toolc" ]] || cargo build --locked --quiet
labels="$(mktemp "${TMPDIR:-/tmp}/toolc-wild-labels.XXXXXX")"
trap 'rm -f "$labels"' EXIT
cat "$corpus/labels.tsv" > "$labels"
grep -v '^#' tests/data/wild-verdicts.tsv >> "$labels" || true
python3 "$score" --toolc "$toolc" --corpus "$corpus" --labels "$labels" --show all "$@"
