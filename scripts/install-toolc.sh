#!/usr/bin/env bash
# Install toolc for the GitHub Action: the release binary of the action's own repository and
# ref when there is one, verified against that release's SHA256SUMS; otherwise built from the
# action's own checked-out source with `cargo build --release --locked`. Nothing is fetched
# from a repository or a registry the action was not itself taken from, and no package is
# installed by name.
#
#   VERSION            a version to install (`0.1.0` or `v0.1.0`); empty: the action's ref
#                      when it is a release tag (`uses: OWNER/REPO@v0.1.0`)
#   ACTION_REPOSITORY  the action's repository, `OWNER/REPO` (`github.action_repository`);
#                      empty: read from ACTION_PATH (`…/_actions/OWNER/REPO/REF`)
#   ACTION_REF         the action's ref (`github.action_ref`); empty: read from ACTION_PATH
#   ACTION_PATH        the action's checked-out source (`GITHUB_ACTION_PATH`), built when no
#                      release binary can be had
#   ROOT               install root: the binary goes to $ROOT/bin/toolc
#   RELEASE_URL        where the action's releases are (default:
#                      $GITHUB_SERVER_URL/OWNER/REPO/releases/download); the files are
#                      $RELEASE_URL/TAG/{toolc-$TARGET.tar.gz,SHA256SUMS}
#
# A binary whose checksum does not match fails the step: a tampered or truncated download is
# never installed, and never silently replaced by a build. A release that cannot be fetched
# (no release for this ref, no binary for this platform, no network) falls back to the build.
set -euo pipefail

ROOT="${ROOT:?ROOT must name the install folder}"
ACTION_PATH="${ACTION_PATH:?ACTION_PATH must name the source of the action}"
repository="${ACTION_REPOSITORY:-}"
ref="${ACTION_REF:-}"

# An action taken from a repository is checked out at RUNNER/_actions/OWNER/REPO/REF.
if [[ -z "$repository" || -z "$ref" ]]; then
    parent="$(dirname "$ACTION_PATH")"
    if [[ "$(basename "$(dirname "$(dirname "$parent")")")" == "_actions" ]]; then
        repository="${repository:-$(basename "$(dirname "$parent")")/$(basename "$parent")}"
        ref="${ref:-$(basename "$ACTION_PATH")}"
    fi
fi

tag=""
if [[ -n "${VERSION:-}" ]]; then
    tag="v${VERSION#v}"
elif [[ "$ref" =~ ^v?[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    tag="$ref"
fi

from_source() {
    local build="${CARGO_TARGET_DIR:-$work/target}"
    echo "toolc: building toolc from the action's source ($ACTION_PATH) with cargo build --release --locked"
    CARGO_TARGET_DIR="$build" cargo build --release --locked --manifest-path "$ACTION_PATH/Cargo.toml"
    local exe=toolc
    [[ -f "$build/release/toolc.exe" ]] && exe=toolc.exe
    mkdir -p "$ROOT/bin"
    install -m 755 "$build/release/$exe" "$ROOT/bin/$exe"
    echo "toolc: installed the build of the action's source"
}

# The release target for this runner, or nothing when no binary is published for it.
target() {
    case "$(uname -s)-$(uname -m)" in
        Linux-x86_64) echo x86_64-unknown-linux-musl ;;
        Linux-aarch64 | Linux-arm64) echo aarch64-unknown-linux-musl ;;
        Darwin-x86_64) echo x86_64-apple-darwin ;;
        Darwin-arm64 | Darwin-aarch64) echo aarch64-apple-darwin ;;
        MINGW*-x86_64 | MSYS*-x86_64 | CYGWIN*-x86_64) echo x86_64-pc-windows-msvc ;;
        *) ;;
    esac
}

sha256() {
    if command -v sha256sum >/dev/null; then
        sha256sum "$1" | cut -d' ' -f1
    else
        shasum -a 256 "$1" | cut -d' ' -f1
    fi
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ -z "$tag" ]]; then
    echo "toolc: the action's ref (${ref:-none}) is not a release tag"
    from_source
    exit 0
fi
base="${RELEASE_URL:-}"
if [[ -z "$base" ]]; then
    if [[ -z "$repository" ]]; then
        echo "toolc: the action's repository is not known (a local action?)"
        from_source
        exit 0
    fi
    base="${GITHUB_SERVER_URL:-https://github.com}/$repository/releases/download"
fi
triple="$(target)"
if [[ -z "$triple" ]]; then
    echo "toolc: no release binary for $(uname -s) $(uname -m)"
    from_source
    exit 0
fi
case "$triple" in
    *windows*) archive="toolc-$triple.zip" exe=toolc.exe ;;
    *) archive="toolc-$triple.tar.gz" exe=toolc ;;
esac
if ! curl -fsSL --retry 2 -o "$work/$archive" "$base/$tag/$archive" ||
    ! curl -fsSL --retry 2 -o "$work/SHA256SUMS" "$base/$tag/SHA256SUMS"; then
    echo "toolc: could not download $base/$tag/$archive"
    from_source
    exit 0
fi
expected="$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$work/SHA256SUMS")"
actual="$(sha256 "$work/$archive")"
if [[ -z "$expected" ]]; then
    echo "::error::toolc: SHA256SUMS of $tag lists no checksum for $archive; not installing it"
    exit 1
fi
if [[ "$expected" != "$actual" ]]; then
    echo "::error::toolc: checksum mismatch for $archive (expected $expected, got $actual); not installing it"
    exit 1
fi
mkdir -p "$work/unpacked" "$ROOT/bin"
case "$archive" in
    *.zip) unzip -q "$work/$archive" -d "$work/unpacked" ;;
    *) tar -xzf "$work/$archive" -C "$work/unpacked" ;;
esac
found="$(find "$work/unpacked" -type f -name "$exe" | head -n 1)"
if [[ -z "$found" ]]; then
    echo "::error::toolc: $archive holds no $exe"
    exit 1
fi
install -m 755 "$found" "$ROOT/bin/$exe"
echo "toolc: installed the $tag release binary for $triple (sha256 $actual)"
