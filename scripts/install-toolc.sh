#!/usr/bin/env bash
# Install toolc for the GitHub Action: the release binary for a version when there is one,
# verified against the release's SHA256SUMS; otherwise built from source with cargo.
#
#   VERSION       the version to install (`0.1.0` or `v0.1.0`); empty: build ACTION_PATH
#   ROOT          install root: the binary goes to $ROOT/bin/toolc
#   ACTION_PATH   the action's own source, built when there is no version
#   RELEASE_URL   where releases are downloaded from (default: GitHub releases of toolc/toolc);
#                 the files are $RELEASE_URL/v$VERSION/{toolc-$TARGET.tar.gz,SHA256SUMS}
#
# A binary whose checksum does not match fails the step: a tampered or truncated download is
# never installed, and never silently replaced by a build. A release that cannot be fetched at
# all (no binary for this platform, no network to GitHub) falls back to `cargo install`.
set -euo pipefail

VERSION="${VERSION#v}"
ROOT="${ROOT:?ROOT must name the install folder}"
RELEASE_URL="${RELEASE_URL:-https://github.com/toolc/toolc/releases/download}"

from_source() {
    if [[ -n "$VERSION" ]]; then
        echo "toolc: building toolc $VERSION from crates.io"
        cargo install --locked --root "$ROOT" --version "$VERSION" toolc
    else
        echo "toolc: building toolc from the action's source"
        cargo install --locked --root "$ROOT" --path "${ACTION_PATH:?ACTION_PATH must be set}"
    fi
}

# The release target for this runner, or nothing when no binary is published for it.
target() {
    case "$(uname -s)-$(uname -m)" in
        Linux-x86_64) echo x86_64-unknown-linux-musl ;;
        Linux-aarch64 | Linux-arm64) echo aarch64-unknown-linux-gnu ;;
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

if [[ -z "$VERSION" ]]; then
    from_source
    exit 0
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
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
base="$RELEASE_URL/v$VERSION"
if ! curl -fsSL --retry 2 -o "$work/$archive" "$base/$archive" ||
    ! curl -fsSL --retry 2 -o "$work/SHA256SUMS" "$base/SHA256SUMS"; then
    echo "toolc: could not download $base/$archive"
    from_source
    exit 0
fi
expected="$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$work/SHA256SUMS")"
actual="$(sha256 "$work/$archive")"
if [[ -z "$expected" ]]; then
    echo "::error::toolc: SHA256SUMS of v$VERSION lists no checksum for $archive; not installing it"
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
echo "toolc: installed the v$VERSION release binary for $triple (sha256 $actual)"
