#!/usr/bin/env bash
# demo.sh: small-hook's main job on a real example. It builds a throw-away
# repository from the reference SMALL workspace in testdata/small/, then
# shows small-hook accept a legitimate append and refuse a history rewrite,
# first as the pre-commit check and then as the pull-request (range) check,
# which also catches an agent commit that edits the human-owned intent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)/small-hook
(cd "$root" && go build -o "$bin" ./cmd/small-hook)
repo=$(mktemp -d)
trap 'rm -rf "$repo" "$(dirname "$bin")"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.com
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.com
cd "$repo"
git init -q -b main
mkdir .small
cp "$root"/testdata/small/reference-init/.small/*.small.yml .small/
git add -A && git commit -qm "small init"
base=$(git rev-parse HEAD)

step() { printf '\n$ small-hook %s\n' "$*"; set +e; "$bin" "$@"; echo "(exit $?)"; set -e; }

echo "== the reference workspace, as a whole tree"
step check --all

cat >> .small/progress.small.yml <<'YAML'
    - evidence: go vet ./... is clean
      replayId: ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2
      status: completed
      task_id: task-3
      timestamp: "2026-11-22T10:20:00.000000001Z"
YAML
git add -A
echo; echo "== a staged append: accepted"
step check
git commit -qm "progress: go vet" -m "Co-Authored-By: Claude <noreply@anthropic.com>"

sed -i 's/go test .\/parser passed/parser done (rewritten)/' .small/progress.small.yml
git add -A
echo; echo "== a staged rewrite of an old entry: refused"
step check
git commit -qm "rewrite history" -m "Co-Authored-By: Claude <noreply@anthropic.com>" --no-verify

sed -i 's/^intent: .*/intent: Ship whatever the agent likes/' .small/intent.small.yml
git add -A
git commit -qm "agent rewrites the intent" -m "Co-Authored-By: Claude <noreply@anthropic.com>" --no-verify

echo; echo "== the same history as a pull request (range mode): the rewrite, and an agent editing human-owned intent"
step check --base "$base"
