package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ledgerPaths lists the files of a ledger.
func ledgerPaths(l ledgerOut) []string {
	var out []string
	for _, f := range l.Files {
		out = append(out, f.Path)
	}
	return out
}

// TestLogSelectsFiles: by default every progress file and artifact of
// every workspace and every artifact that declares itself; PATHs select
// files or directories; a Markdown file in an artifacts directory that
// declares nothing, and excluded paths, are left out;
// a PATH that selects nothing is an error.
func TestLogSelectsFiles(t *testing.T) {
	r := ledgerWorkspace(t)
	demo := "examples/demo/.small/progress.small.yml"
	r.Write(demo, progressHeader+ledgerEntry("demo", hours(3)))
	r.Write("artifacts/root.md", artifact("root", 1, provenanceEntry("did:key:z6MkA", "created", hours(3))))
	r.Write("tools/artifacts/loose.md", "# Loose notes\n\nNo SMP frontmatter: nothing declares this file an artifact.\n")
	r.Write("agents/a/.awp/workspace.json", "{}\n")
	r.Write("agents/a/artifacts/kept.md", artifact("kept", 1, provenanceEntry("did:key:z6MkA", "created", hours(3))))
	r.Write(".small/plan.small.yml", "not a ledger file\n")
	r.Write("other/.SMALL/progress.small.yml", progressHeader+ledgerEntry("folded", hours(3)))
	r.CommitAt("workspaces", hours(4))
	_, l, _ := r.log()
	if got, want := ledgerPaths(l), []string{".small/progress.small.yml", "agents/a/artifacts/kept.md", "artifacts/root.md", demo}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	_, l, _ = r.log(demo, "agents")
	if got, want := ledgerPaths(l), []string{"agents/a/artifacts/kept.md", demo}; !slices.Equal(got, want) {
		t.Errorf("selected %v, want %v", got, want)
	}
	inner := repoAt(t, filepath.Join(r.Dir, "examples"))
	if _, l, _ = inner.log("demo"); !slices.Equal(ledgerPaths(l), []string{demo}) {
		t.Errorf("a PATH relative to the working directory selected %v", ledgerPaths(l))
	}
	code, _, errOut := r.log("tools/artifacts/loose.md")
	if code != exitFailure || !strings.Contains(errOut, "tools/artifacts/loose.md: no progress file or knowledge artifact at HEAD") {
		t.Errorf("a path that is no ledger file: exit %d\n%s", code, errOut)
	}
	r.Write(".small-hook.yml", "exclude: [\"examples/**\"]\n")
	r.CommitAt("exclude the examples", hours(5))
	if _, l, _ = r.log(); slices.Contains(ledgerPaths(l), demo) {
		t.Errorf("an excluded file is in the ledger: %v", ledgerPaths(l))
	}
}

// TestLogOfAnotherRevision: --rev gives the ledger of that revision,
// read with that revision's configuration.
func TestLogOfAnotherRevision(t *testing.T) {
	r := ledgerWorkspace(t)
	r.appendTo(progressPath, ledgerEntry("second", hours(3)))
	second := r.CommitAt("second", hours(3))
	r.appendTo(progressPath, ledgerEntry("third", hours(4)))
	r.CommitAt("third", hours(4))
	code, l, errOut := r.log("--rev", second)
	if code != exitOK || l.Head != second || len(l.file(t, progressPath)) != 2 || l.Rev != second {
		t.Errorf("exit %d, head %s, %d entries\n%s", code, l.Head, len(l.file(t, progressPath)), errOut)
	}
	if code, _, errOut := r.log("--rev", "no-such-rev"); code != exitFailure || !strings.Contains(errOut, "small-hook: log: --rev: unknown revision") {
		t.Errorf("unknown revision: exit %d\n%s", code, errOut)
	}
}

// TestLogConfigurationIsTheRevisionsUnlessTrusted: by default the
// configuration of the revision whose ledger is printed applies, so a
// change can turn a rule off for itself; --config-rev reads it from a
// revision the change cannot touch.
func TestLogConfigurationIsTheRevisionsUnlessTrusted(t *testing.T) {
	r := ledgerWorkspace(t)
	base := r.Git("rev-parse", "HEAD")
	r.appendTo(progressPath, ledgerEntry("ahead", hours(9)))
	r.Write(".small-hook.yml", "rules:\n  ledger/future-entry: off\n")
	r.CommitAt("an entry from the future, and the rule turned off", hours(3))
	_, l, _ := r.log("--verify")
	if len(l.Findings) != 0 || !strings.Contains(l.Config, "the .small-hook.yml of "+r.Git("rev-parse", "HEAD")) {
		t.Errorf("the revision's own configuration: %v, from %s", l.rules(), l.Config)
	}
	code, l, errOut := r.log("--verify", "--config-rev", base)
	if code != exitFindings || !slices.Equal(l.rules(), []string{"error ledger/future-entry"}) || !strings.Contains(l.Config, base) {
		t.Errorf("--config-rev: exit %d, %v, from %s\n%s", code, l.rules(), l.Config, errOut)
	}
	r.Write(".small-hook.yml", "ledger:\n  clock-skew: 5 minutes\n")
	r.CommitAt("a malformed configuration", hours(4))
	if code, _, errOut := r.log(); code != exitFailure || !strings.Contains(errOut, "line 2 of the .small-hook.yml of") {
		t.Errorf("malformed configuration: exit %d\n%s", code, errOut)
	}
}

// TestLogNamesTheBuiltInDefaultsWhenThereIsNoConfiguration: a revision
// without a .small-hook.yml is judged by the built-in defaults, and the
// ledger says so, in text and JSON, instead of naming a file that is not
// there.
func TestLogNamesTheBuiltInDefaultsWhenThereIsNoConfiguration(t *testing.T) {
	r := ledgerWorkspace(t)
	head := r.Git("rev-parse", "HEAD")
	want := "the built-in defaults (" + head + " has no .small-hook.yml)"
	if code, l, errOut := r.log(); code != exitOK || l.Config != want {
		t.Errorf("log --format json: exit %d, configuration from %q, want %q\n%s", code, l.Config, want, errOut)
	}
	if code, out, _ := r.check(nil, "log"); code != exitOK || !strings.Contains(out, "\nledger of "+head[:12]+" (HEAD), configuration from "+want+"\n") {
		t.Errorf("log: exit %d\n%s", code, out)
	}
}

// TestLogOfAShallowClone marks the entries the clone's first commit
// already held, and refuses to verify what it cannot see.
func TestLogOfAShallowClone(t *testing.T) {
	r := ledgerWorkspace(t)
	r.appendTo(progressPath, ledgerEntry("second", hours(3)))
	r.CommitAt("second", hours(3))
	r.appendTo(progressPath, ledgerEntry("third", hours(4)))
	r.CommitAt("third", hours(4))
	dir := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth", "2", "file://"+r.Dir, dir)
	c := repoAt(t, dir)
	code, l, _ := c.log()
	entries := l.file(t, progressPath)
	if code != exitOK || !l.Shallow || entries[0].Recorded.Origin != "before-history" || entries[0].Recorded.Actor != "" || entries[2].Recorded.Origin != "appended" {
		t.Errorf("exit %d, shallow %v, entries %+v", code, l.Shallow, entries)
	}
	code, _, errOut := c.log("--verify")
	if code != exitFailure || !strings.Contains(errOut, "shallow clone") || !strings.Contains(errOut, "git fetch --unshallow") {
		t.Errorf("--verify in a shallow clone: exit %d\n%s", code, errOut)
	}
	text := c.run(t, "log")
	if !strings.Contains(text, "[before the clone's history]") || !strings.Contains(text, "a shallow clone") {
		t.Errorf("text:\n%s", text)
	}
}

// run runs small-hook with args in the repository and returns its stdout,
// failing the test unless it exits 0.
func (r *testRepo) run(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := r.check(nil, args...)
	if code != exitOK {
		t.Fatalf("small-hook %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// TestLogUnreadableFile: a ledger file that does not parse at the
// revision cannot be listed: exit 2, naming the file and the line.
func TestLogUnreadableFile(t *testing.T) {
	r := ledgerWorkspace(t)
	r.appendTo(progressPath, "    - : [\n")
	r.CommitAt("broken", hours(3))
	code, _, errOut := r.log()
	if code != exitFailure || !strings.Contains(errOut, ".small/progress.small.yml at ") || !strings.Contains(errOut, "line 8") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
	if code, _, _ := r.log("--rev", "HEAD~1"); code != exitOK {
		t.Errorf("the revision before the break: exit %d", code)
	}
}

// TestLogFormats prints the same ledger as text, JSON and Markdown; a
// value from the repository never becomes Markdown or HTML.
func TestLogFormats(t *testing.T) {
	r := ledgerWorkspace(t)
	r.appendTo(progressPath, ledgerEntry("task-|<img src=x onerror=alert(1)>", hours(3)))
	r.Write("artifacts/notes.md", artifact("notes", 1, provenanceEntry("did:key:z6MkAgentOne", "created", hours(3))))
	head := r.CommitAt("more", hours(4))
	text := r.run(t, "log")
	for _, want := range []string{
		".small/progress.small.yml (progress, 2 entries)",
		"  1  " + r.Git("rev-parse", "HEAD~1")[:12] + "  2026-03-01  human    meta/init completed  2026-03-01T10:00:00.000000000Z  [with the file]",
		"  2  " + head[:12] + "  2026-03-01  human    task-|<img src=x onerror=alert(1)> completed  2026-03-01T12:00:00.000000000Z",
		"artifacts/notes.md (provenance, 1 entry)",
		"created by did:key:z6MkAgentOne  2026-03-01T12:00:00.000Z  [with the file]",
		"small-hook (log): 3 entries in 2 files, 2 commits: no problems",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	md := r.run(t, "log", "--format", "markdown")
	if strings.Contains(md, "<img") && !strings.Contains(md, "`` task-\\|<img src=x onerror=alert(1)> completed ``") && !strings.Contains(md, "` task-\\|<img src=x onerror=alert(1)> completed `") {
		t.Errorf("markdown shows the value outside a code span:\n%s", md)
	}
	if !strings.Contains(md, "## small-hook log") || !strings.Contains(md, "<details><summary>progress: 2 entries</summary>") {
		t.Errorf("markdown:\n%s", md)
	}
	_, l, _ := r.log()
	e := l.file(t, progressPath)[1]
	if *e.Claim.TaskID != "task-|<img src=x onerror=alert(1)>" || *e.Claim.Status != "completed" || e.Claim.Agent != nil || e.Recorded.Commit != head ||
		e.Recorded.Date != "2026-03-01T13:00:00Z" || e.Recorded.Author != "Test Human <human@example.com>" || e.Recorded.Signature != nil || e.Position != 2 || e.Line != 8 {
		t.Errorf("JSON entry %+v", e)
	}
	a := l.file(t, "artifacts/notes.md")[0]
	if *a.Claim.Agent != "did:key:z6MkAgentOne" || *a.Claim.Action != "created" || a.Claim.TaskID != nil || a.Recorded.Origin != "with-file" {
		t.Errorf("JSON provenance entry %+v", a)
	}
	if l.Tool != "small-hook" || l.Summary.Entries != 3 || l.Summary.Files != 2 || l.Summary.Commits != 2 {
		t.Errorf("JSON summary %+v", l.Summary)
	}
}

// TestLogRedactsSecrets: what a ledger prints passes the redaction
// boundary, in every format.
func TestLogRedactsSecrets(t *testing.T) {
	secret := "ghp_" + strings.Repeat("A1b2C3d4E5", 3) + "123456"
	r := ledgerWorkspace(t)
	r.appendTo(progressPath, ledgerEntry("token "+secret, hours(3)))
	r.CommitAt("a secret in a task id", hours(4), "GIT_AUTHOR_NAME=author "+secret)
	for _, format := range []string{"text", "json", "markdown"} {
		if out := r.run(t, "log", "--format", format); strings.Contains(out, secret) || strings.Contains(out, secret[4:20]) || !strings.Contains(out, "REDACTED") {
			t.Errorf("%s shows the secret:\n%s", format, out)
		}
	}
}

// TestLogShowsSignatures: with a signature policy, every entry carries
// the signature status of the commit that recorded it.
func TestLogShowsSignatures(t *testing.T) {
	key, pub := sshKey(t, "human")
	r := ledgerWorkspace(t)
	r.Write(".small-hook.yml", signedConfig("off"))
	r.Write(allowedSignersPath, "human@example.com "+pub+"\n")
	r.CommitAt("the signing policy", hours(3))
	r.appendTo(progressPath, ledgerEntry("signed", hours(4)))
	signed := sshCommit(r, key, "signed progress")
	_, l, errOut := r.log()
	entries := l.file(t, progressPath)
	if len(entries) != 2 || entries[0].Recorded.Signature == nil || entries[0].Recorded.Signature.Status != "unsigned" {
		t.Fatalf("the unsigned entry: %+v\n%s", entries, errOut)
	}
	if s := entries[1].Recorded.Signature; entries[1].Recorded.Commit != signed || s == nil || s.Status != "valid" || s.Signer != "human@example.com" || entries[1].Recorded.Actor != "human" {
		t.Errorf("the signed entry: %+v", entries[1])
	}
	if text := r.run(t, "log"); !strings.Contains(text, "signature valid") || !strings.Contains(text, "signature unsigned") {
		t.Errorf("text:\n%s", text)
	}
}

// TestLogRulesAreListed: the ledger rules are rules like the others.
func TestLogRulesAreListed(t *testing.T) {
	r := newTestRepo(t)
	out := r.run(t, "rules")
	for _, id := range []string{"ledger/future-entry (error)", "ledger/backfilled (warning)", "ledger/evidence-commit (error)", "ledger/human-recorded (off)", "ledger/agent-identity (error)", "ledger/artifact-metadata (error)"} {
		if !strings.Contains(out, id) {
			t.Errorf("small-hook rules does not list %s", id)
		}
	}
}

// TestLogInBareAndEmptyRepositories: a bare repository has a ledger like
// any other (PATHs are relative to its root); a repository without a
// commit has none to print.
func TestLogInBareAndEmptyRepositories(t *testing.T) {
	r := ledgerWorkspace(t)
	bare := filepath.Join(t.TempDir(), "bare.git")
	r.Git("clone", "-q", "--bare", r.Dir, bare)
	b := repoAt(t, bare)
	code, l, errOut := b.log(".small")
	if code != exitOK || !slices.Equal(ledgerPaths(l), []string{progressPath}) || l.file(t, progressPath)[0].Recorded.Origin != "with-file" {
		t.Errorf("bare: exit %d, %v\n%s", code, ledgerPaths(l), errOut)
	}
	empty := newTestRepo(t)
	if code, _, errOut := empty.log(); code != exitFailure || !strings.Contains(errOut, "no commits yet") {
		t.Errorf("empty: exit %d\n%s", code, errOut)
	}
}

// TestLogRefusesAnUnreadableActor: a commit that records entries with a
// Small-Actor trailer that is neither agent nor human cannot be
// attributed, as in check: exit 2.
func TestLogRefusesAnUnreadableActor(t *testing.T) {
	r := ledgerWorkspace(t)
	r.appendTo(progressPath, ledgerEntry("who", hours(3)))
	r.CommitAt("progress\n\nSmall-Actor: robot", hours(3))
	if code, _, errOut := r.log(); code != exitFailure || !strings.Contains(errOut, "Small-Actor") || !strings.Contains(errOut, "neither agent nor human") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
}

// TestLogOfAnotherDirectory: `small-hook log --repo DIR` run from outside
// any repository lists DIR's ledger; nothing of the working directory is
// read (the pre-commit stage's question about the commit-msg hook is not
// the ledger's).
func TestLogOfAnotherDirectory(t *testing.T) {
	r := ledgerWorkspace(t)
	r.CommitAt("workspace", hours(4))
	outside := repoAt(t, t.TempDir())
	code, out, errOut := outside.check(nil, "log", "--repo", r.Dir, "--format", "json")
	if code != exitOK || !strings.Contains(out, ".small/progress.small.yml") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
