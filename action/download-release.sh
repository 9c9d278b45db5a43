#!/usr/bin/env bash
# The action's first step: when the action is used at a release tag
# (uses: small-hook/small-hook@v1.2.3), download that release's binary for
# this runner and verify its SHA-256 against the release's checksums.txt
# before anything in the archive is extracted or run.
#
# Reads ACTION_REF (github.action_ref), GITHUB_ACTION_PATH, RUNNER_OS,
# RUNNER_ARCH, RUNNER_TEMP, GITHUB_OUTPUT and, optionally,
# SMALL_HOOK_RELEASES_URL (default: the GitHub releases of small-hook; tests
# point it at a local server). Writes the step outputs:
#   source=release, binary=PATH   a verified release binary is ready;
#   source=build                  there is no release to download (a ref
#                                 that is not an exact version, a release
#                                 that does not exist: HTTP 404, a runner
#                                 no archive is built for); the action
#                                 builds small-hook from its own checkout.
# Fails the step when a release exists but cannot be trusted: a checksum
# mismatch, a checksums.txt that does not list the archive exactly once, an
# archive without the binary, a binary reporting another version, or any
# other HTTP error. None of these falls back to a build.
set -euo pipefail

build() {
	echo "small-hook: $1; building small-hook from the action's source instead"
	echo "source=build" >>"$GITHUB_OUTPUT"
	exit 0
}

fail() {
	echo "::error title=small-hook release download::$1"
	exit 1
}

ref=${ACTION_REF:-}
# Only an exact version names one release. A branch, a commit SHA or a
# moving major tag (v1) names source that no release archive is known to
# match, so it is built.
if [[ ! $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
	build "the action's ref '${ref}' is not a release version (vX.Y.Z)"
fi
# The runner checks an action out under its ref (…/_actions/OWNER/REPO/REF).
# Inside a composite action used by another composite action,
# github.action_ref is the outer action's ref (actions/runner#2473): then
# the names differ and the ref says nothing about this checkout.
if [ "$(basename "$GITHUB_ACTION_PATH")" != "$ref" ]; then
	build "the action's ref '${ref}' is not the name of its checkout $(basename "$GITHUB_ACTION_PATH")"
fi

case ${RUNNER_OS:-} in
Linux) os=linux ;;
macOS) os=darwin ;;
Windows) os=windows ;;
*) build "no release archive is built for the runner OS '${RUNNER_OS:-}'" ;;
esac
case ${RUNNER_ARCH:-} in
X64) arch=amd64 ;;
ARM64) arch=arm64 ;;
*) build "no release archive is built for the runner architecture '${RUNNER_ARCH:-}'" ;;
esac
format=tar.gz exe= temp=${RUNNER_TEMP:?}
if [ "$os" = windows ]; then
	format=zip exe=.exe
	command -v unzip >/dev/null || build "unzip is not installed"
	# Git Bash's tools want D:\a\_temp as /d/a/_temp.
	if command -v cygpath >/dev/null; then temp=$(cygpath -u "$temp"); fi
fi
if command -v sha256sum >/dev/null; then
	sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null; then
	sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
else
	build "neither sha256sum nor shasum is installed"
fi

base=${SMALL_HOOK_RELEASES_URL:-https://github.com/small-hook/small-hook/releases/download}
base=${base%/}/$ref
# The archive names GoReleaser writes (.goreleaser.yaml: archives.name_template).
archive="small-hook_${ref#v}_${os}_${arch}.${format}"
dir=$(mktemp -d "$temp/small-hook-release-XXXXXX")
trap 'rm -rf "$dir"' EXIT

# download URL FILE sets status to the final HTTP status. GitHub redirects
# release assets to its storage host: redirects are followed over HTTPS only.
download() {
	status=$(curl --silent --show-error --location --proto '=https,http' --proto-redir '=https' \
		--retry 3 --connect-timeout 10 --max-time 300 --max-filesize 200000000 \
		--output "$2" --write-out '%{http_code}' "$1") ||
		fail "downloading $1 failed (curl exit status $?)"
}

download "$base/checksums.txt" "$dir/checksums.txt"
case $status in
200) ;;
404) build "release $ref has no checksums.txt at $base (HTTP 404)" ;;
*) fail "downloading $base/checksums.txt: HTTP $status" ;;
esac
download "$base/$archive" "$dir/$archive"
case $status in
200) ;;
404) build "release $ref has no $archive (HTTP 404)" ;;
*) fail "downloading $base/$archive: HTTP $status" ;;
esac

# checksums.txt lines are "<sha256>  <file name>"; the archive must be
# listed exactly once.
expected=$(awk -v name="$archive" '$2 == name { print $1; n++ } END { exit n != 1 }' "$dir/checksums.txt") ||
	fail "checksums.txt of release $ref does not list $archive exactly once; refusing the download"
[[ $expected =~ ^[0-9a-f]{64}$ ]] ||
	fail "checksums.txt of release $ref gives '$expected' for $archive, not a SHA-256; refusing the download"
actual=$(sha256 "$dir/$archive")
if [ "$actual" != "$expected" ]; then
	fail "SHA-256 mismatch for $archive of release $ref: checksums.txt says $expected, the download is $actual. The archive was altered or corrupted; nothing from it was extracted or run"
fi

mkdir "$dir/x"
if [ "$format" = zip ]; then
	unzip -q "$dir/$archive" "small-hook$exe" -d "$dir/x" || fail "$archive holds no small-hook$exe"
else
	tar -xzf "$dir/$archive" -C "$dir/x" "small-hook" || fail "$archive holds no small-hook"
fi
bin=$dir/x/small-hook$exe
if [ -L "$bin" ] || [ ! -f "$bin" ]; then
	fail "small-hook$exe in $archive is not a regular file"
fi
chmod 0755 "$bin"
got=$("$bin" --version) || fail "small-hook$exe from $archive does not run"
if [ "$got" != "small-hook $ref" ]; then
	fail "small-hook$exe from the $ref archive reports '$got', not 'small-hook $ref'"
fi
dest=$temp/small-hook$exe
mv -f "$bin" "$dest"
echo "small-hook: $ref for $os/$arch from $base, SHA-256 verified against checksums.txt"
echo "source=release" >>"$GITHUB_OUTPUT"
echo "binary=$dest" >>"$GITHUB_OUTPUT"
