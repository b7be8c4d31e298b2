#!/usr/bin/env bash
# The toolc-check pre-commit hook, for real: pre-commit (from PyPI, in a throwaway venv)
# installs this repository as a Rust hook (`cargo install --path`, as any user gets it) and
# runs it on fixture repositories.
#   - a repository with an error: the hook fails and shows the error;
#   - a clean repository: the hook passes;
#   - a commit that stages only the copy of a duplicated tool: the hook fails on it, because
#     toolc reads the repository around the staged files;
#   - the Python wheel built by maturin, installed by pip through a `language: python` hook.
# Run by .ci/run after `cargo test`. Needs python3 with venv, git and cargo; PyPI and
# crates.io are the only network it uses.
#
# Time: pre-commit builds toolc in release mode for every fresh hook environment, and
# `try-repo` always starts from a fresh one (about 3 to 6 minutes on 2 cores). So case 1 uses
# `try-repo`, as the issue asks, and cases 2 and 3 use a real `.pre-commit-config.yaml`, as a
# user does, which pre-commit installs once and caches; CARGO_TARGET_DIR lets the second
# install reuse the compiled dependencies.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolc-precommit.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Fixture commits must not depend on the caller's git identity or hooks.
export GIT_AUTHOR_NAME=toolc-test GIT_AUTHOR_EMAIL=toolc-test@example.invalid
export GIT_COMMITTER_NAME=toolc-test GIT_COMMITTER_EMAIL=toolc-test@example.invalid
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
# A fresh pre-commit cache: the hook is built from source, as a user's first run does.
export PRE_COMMIT_HOME="$work/cache"
export PIP_DISABLE_PIP_VERSION_CHECK=1
export CARGO_TARGET_DIR="$work/target"

fail() {
    echo "precommit: FAILED: $*" >&2
    exit 1
}

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet 'pre-commit>=4,<5'
pre_commit="$work/venv/bin/pre-commit"

# A snapshot of the work tree as one commit, so uncommitted edits are what gets tested and
# pre-commit installs the hook once (its cache is keyed by repository and revision).
snap="$work/toolc"
mkdir "$snap"
(cd "$src" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$src" && xargs -0 cp --parents -t "$snap" 2>/dev/null || true)
git -C "$snap" init --quiet
git -C "$snap" add -A
git -C "$snap" commit --quiet -m snapshot
[ -f "$snap/.pre-commit-hooks.yaml" ] || fail "no .pre-commit-hooks.yaml in the snapshot"
"$pre_commit" validate-manifest "$snap/.pre-commit-hooks.yaml" || fail "invalid .pre-commit-hooks.yaml"

# fixture NAME: an empty git repository at $work/NAME.
fixture() {
    local dir="$work/$1"
    mkdir -p "$dir"
    git -C "$dir" init --quiet
    echo "$dir"
}

# put DIR PATH CONTENT: write a file in a fixture.
put() {
    mkdir -p "$(dirname "$1/$2")"
    printf '%s' "$3" >"$1/$2"
}

tool_yaml() { # NAME
    cat <<EOF
spec: 1
name: $1
version: "1.0.0"
type: tool
description: "Generates a config file"
inputSchema: "input.schema.json"
generator:
  strategy: llm
  systemPrompt: "You write config files."
files:
  - path: "out/config.yaml"
    serializer: yaml
EOF
}
schema='{"type": "object", "properties": {}}'

# run DIR ARGS...: run pre-commit ARGS in DIR; output in $work/out, status in $status.
run() {
    local dir="$1"
    shift
    set +e
    (cd "$dir" && "$pre_commit" "$@" --color never) >"$work/out" 2>&1
    status=$?
    set -e
}

# configure DIR: a .pre-commit-config.yaml using the hook from the snapshot, as a user writes it.
configure() {
    cat >"$1/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $snap
    rev: $(git -C "$snap" rev-parse HEAD)
    hooks:
      - id: toolc-check
EOF
    git -C "$1" add .pre-commit-config.yaml
}

# 1. An invalid tool name: the hook fails and prints the diagnostic.
bad="$(fixture bad)"
put "$bad" .dojops/tools/my-tool/tool.yaml "$(tool_yaml 'My Tool')"
put "$bad" .dojops/tools/my-tool/input.schema.json "$schema"
put "$bad" README.md "# not a tool"
git -C "$bad" add -A
start=$SECONDS
run "$bad" try-repo "$snap" toolc-check --all-files
echo "precommit: try-repo (pre-commit builds and installs toolc): $((SECONDS - start))s"
[ "$status" -ne 0 ] || { cat "$work/out"; fail "the hook passed on a repository with an error"; }
grep -q 'DOJ003' "$work/out" || { cat "$work/out"; fail "the error code is not shown"; }
grep -q '\.dojops/tools/my-tool/tool\.yaml:2:7' "$work/out" || {
    cat "$work/out"
    fail "the error's place is not shown"
}
echo "precommit: ok: try-repo on a repository with an error fails and shows it"

# 2. A clean repository passes.
good="$(fixture good)"
# Two `tool.yaml` tools of one name are duplicates for the DojOps releases that load them.
put "$good" toolc.toml "$(printf '[runtimes]\ndojops = "1.0.9"\n')"
put "$good" .dojops/tools/my-tool/tool.yaml "$(tool_yaml my-tool)"
put "$good" .dojops/tools/my-tool/input.schema.json "$schema"
git -C "$good" add -A
configure "$good"
start=$SECONDS
run "$good" run --all-files
echo "precommit: run with a config (pre-commit installs toolc into its cache): $((SECONDS - start))s"
[ "$status" -eq 0 ] || { cat "$work/out"; fail "the hook failed on a clean repository"; }
grep -q 'toolc check' "$work/out" || { cat "$work/out"; fail "the hook did not run"; }
echo "precommit: ok: a clean repository passes"

# 3. Only the staged copy is passed, yet the duplicate name across files is found.
git -C "$good" commit --quiet -m base
put "$good" .dojops/tools/copy/tool.yaml "$(tool_yaml my-tool)"
put "$good" .dojops/tools/copy/input.schema.json "$schema"
git -C "$good" add .dojops/tools/copy
run "$good" run
[ "$status" -ne 0 ] || { cat "$work/out"; fail "a duplicate name in a staged file passed"; }
grep -q 'DOJ011' "$work/out" || { cat "$work/out"; fail "the duplicate name is not shown"; }
echo "precommit: ok: a staged file is checked against the rest of the repository"

# 4. The Python wheel (maturin, `bindings = "bin"`) behind a `language: python` hook, as the
#    pre-commit mirror serves it: build the wheel, install it in a fresh venv, then run the
#    mirror's hook through `try-repo` (pip installs the wheel; nothing is compiled).
"$work/venv/bin/pip" install --quiet 'maturin>=1.5,<2'
start=$SECONDS
(cd "$snap" && "$work/venv/bin/maturin" build --release --locked --out "$work/wheels" --quiet) \
    >"$work/out" 2>&1 || { cat "$work/out"; fail "maturin could not build the wheel"; }
wheel="$(ls "$work"/wheels/toolc-*.whl | head -n 1)"
echo "precommit: maturin built $(basename "$wheel"): $((SECONDS - start))s"
python3 -m venv "$work/wheel-venv"
"$work/wheel-venv/bin/pip" install --quiet "$wheel"
"$work/wheel-venv/bin/toolc" --version | grep -q '^toolc ' || fail "the wheel's toolc does not run"
mirror="$work/mirror"
bash "$snap/scripts/pre-commit-mirror.sh" "toolc @ file://$wheel" "$mirror"
git -C "$mirror" init --quiet
git -C "$mirror" add -A
git -C "$mirror" commit --quiet -m mirror
start=$SECONDS
run "$bad" try-repo "$mirror" toolc-check --all-files
echo "precommit: try-repo of the python mirror (pip installs the wheel): $((SECONDS - start))s"
[ "$status" -ne 0 ] || { cat "$work/out"; fail "the python hook passed on a repository with an error"; }
grep -q 'DOJ003' "$work/out" || { cat "$work/out"; fail "the python hook did not show the error"; }
echo "precommit: ok: the wheel installs and runs as a language: python hook"

echo "precommit: 4 passed, 0 failed"
