package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// undeclaredRepo commits, over three commits, directories that real
// projects name artifacts/ without using SMP or SMALL (the shapes of the
// issue's repositories: Markdown notes, a case-folded Artifacts/ of JSON
// definitions, build outputs, a .small/ holding no canonical file).
func undeclaredRepo(t *testing.T) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	r.Write("README.md", "# A project\n")
	r.Write("artifacts/notes.md", "# Notes\n\nNo frontmatter.\n")
	r.Write("artifacts/design.md", "---\ntitle: Design\ntags: [docs]\n---\nBody.\n")
	r.Write("Artifacts/windows-git/artifact.json", "{\"title\": \"Git\"}\n")
	r.Write("build/artifacts/run-1/metrics.json", "{\"loss\": 0.1}\n")
	r.Write("tools/.small/cache.txt", "not a SMALL workspace\n")
	r.Commit("first")
	r.Write("artifacts/notes.md", "# Notes\n\nEdited.\n")
	r.Write("Artifacts/windows-git/artifact.json", "{\"title\": \"Git 2\"}\n")
	r.Write("Artifacts/windows-node/artifact.json", "{\"title\": \"Node\"}\n")
	r.Commit("second")
	r.Git("rm", "-q", "artifacts/design.md")
	r.Write("artifacts/sub/x.md", "x\n")
	r.Commit("third")
	return r
}

// TestUndeclaredDirectoriesAreNotGoverned: nothing that does not declare
// itself is judged, read or counted, in any mode.
func TestUndeclaredDirectoriesAreNotGoverned(t *testing.T) {
	r := undeclaredRepo(t)
	r.Write("artifacts/notes.md", "# Notes\n\nStaged.\n")
	r.Write("Artifacts/windows-node/artifact.json", "{}\n")
	r.Git("add", "-A")
	for _, args := range [][]string{
		{"check", "--history"},
		{"check"},
		{"check", "--all"},
		{"check", "--all", "--rev", "HEAD"},
		{"check", "--base", "HEAD~2"},
	} {
		code, out, errOut := r.check(nil, append(args, "--format", "json")...)
		rep := decodeReport(t, out)
		if code != exitOK || len(rep.Findings) > 0 || rep.Summary.Files != 0 {
			t.Errorf("%s: exit %d, %d files checked, findings %+v\n%s", strings.Join(args, " "), code, rep.Summary.Files, rep.Findings, errOut)
		}
	}
}

// TestUndeclaredBlobsAreNotRead: a blobless partial clone holds only the
// contents git fetched on demand. A check without secret detection reads
// nothing that is not governed, so it needs none of the JSON files; only a
// Markdown file directly in an artifacts directory is read, to see whether
// its frontmatter declares it.
func TestUndeclaredBlobsAreNotRead(t *testing.T) {
	src := undeclaredRepo(t)
	src.Git("config", "uploadpack.allowFilter", "true")
	dir := t.TempDir()
	src.Git("clone", "-q", "--no-checkout", "--filter=blob:none", "file://"+src.Dir, dir)
	c := repoAt(t, dir)
	missing := 0
	for _, line := range strings.Split(src.Git("rev-list", "--objects", "--all"), "\n") {
		id, path, _ := strings.Cut(line, " ")
		switch {
		case strings.HasPrefix(path, "artifacts/") && strings.HasSuffix(path, ".md"):
			c.Git("cat-file", "blob", id) // git fetches it from the promisor remote
		case strings.HasSuffix(path, ".json"):
			missing++
		}
	}
	absent := strings.Count("\n"+c.Git("rev-list", "--objects", "--all", "--missing=print"), "\n?")
	if missing == 0 || absent < missing {
		t.Fatalf("the clone misses %d objects, want at least the %d JSON files", absent, missing)
	}
	code, out, errOut := c.check(nil, "check", "--history", "--no-secrets", "--format", "json")
	if rep := decodeReport(t, out); code != exitOK || len(rep.Findings) > 0 || rep.Summary.Files != 0 {
		t.Errorf("exit %d, %d files, findings %+v\n%s", code, rep.Summary.Files, rep.Findings, errOut)
	}
}

// TestWhatDeclaresItselfIsGoverned: a knowledge artifact that declares
// itself is judged without any workspace marker, in any directory; a
// folded spelling is refused exactly where the path it stands for would be
// governed; a .small directory with a canonical file is a workspace.
func TestWhatDeclaresItselfIsGoverned(t *testing.T) {
	v1 := smpFixture(t, "llm-context-research.v1.md")
	cases := []struct {
		name, path, content, want string
	}{
		{"root artifact with broken frontmatter", "artifacts/llm-context-research.md", strings.Replace(v1, "version: 1", "version: 0", 1), "smp/schema artifacts/llm-context-research.md"},
		{"nested artifact with broken frontmatter", "docs/artifacts/llm-context-research.md", strings.Replace(v1, "version: 1", "version: 0", 1), "smp/schema docs/artifacts/llm-context-research.md"},
		{"frontmatter that says smp but does not parse", "artifacts/x.md", "---\nsmp: '1.0'\ntitle: [\n---\n", "smp/parse artifacts/x.md"},
		{"folded spelling of an artifact", "Artifacts/llm-context-research.md", v1, "path/folded Artifacts/llm-context-research.md"},
		{"folded spelling of a SMALL file", ".SMALL/intent.small.yml", "small_version: \"1.0.0\"\n", "path/folded .SMALL/intent.small.yml"},
		{"a .small directory with one canonical file", "tools/.small/plan.small.yml", "small_version: \"1.0.0\"\n", "small/required tools/.small/intent.small.yml"},
		{"a secret in a declared artifact", "artifacts/llm-context-research.md", v1 + "\npushed with " + fakeGitHub + "\n", "secrets/github-pat artifacts/llm-context-research.md"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := undeclaredRepo(t)
			r.Write(c.path, c.content)
			r.Git("add", "-A")
			expectError(t, "staged", r, c.want, "check", "--format", "json")
			r.Git("commit", "-q", "--no-verify", "-m", c.name)
			expectError(t, "range", r, c.want, "check", "--base", "HEAD~1", "--format", "json")
			expectError(t, "history", r, c.want, "check", "--history", "--format", "json")
		})
	}
}

// markerDance is a pull request that deletes a nested workspace's marker,
// rewrites an artifact's provenance and body while no marker is there,
// and restores the marker.
func markerDance(t *testing.T, r *testRepo) {
	t.Helper()
	marker := awpRoot + "/.awp/workspace.json"
	saved := r.Read(marker)
	r.Git("rm", "-q", marker)
	r.Commit("tidy up\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	a := strings.Replace(r.Read(nestedArtifact), "action: created", "action: updated", 1)
	r.Write(nestedArtifact, strings.Replace(a, "# LLM Context Window Research", "# Rewritten", 1))
	r.Commit("rewrite\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	r.Write(marker, saved)
	r.Commit("restore\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
}

// TestMarkerDanceIsRefused: a workspace that was governed stays governed
// for the length of a pull request that removes and restores its marker,
// and the removal itself is reported.
func TestMarkerDanceIsRefused(t *testing.T) {
	r, base := nestedRepo(t)
	markerDance(t, r)
	want := []string{"smp/undeclared " + awpRoot + "/.awp/workspace.json", "smp/append-only " + nestedArtifact}
	for _, args := range [][]string{
		{"check", "--base", base},
		{"check", "--previous", base},
		{"check", "--history"},
	} {
		code, out, errOut := r.check(nil, append(args, "--format", "json")...)
		got := findingsAt(decodeReport(t, out))
		for _, w := range want {
			if code != exitFindings || !contains(got, w) {
				t.Errorf("%s: exit %d, findings %q, want %q\n%s", strings.Join(args, " "), code, got, w, errOut)
			}
		}
	}
	code, _, errOut := r.check(map[string]string{"GITHUB_ACTIONS": "true", "SMALL_HOOK_BASE": base, "SMALL_HOOK_HEAD": "HEAD"}, "check", "--ci")
	if code != exitFindings {
		t.Errorf("--ci: exit %d\n%s", code, errOut)
	}
}

// TestMarkerDanceWithinTheRange: the workspace is created inside the
// range, so the base does not declare it; the earlier commit that did
// keeps it governed.
func TestMarkerDanceWithinTheRange(t *testing.T) {
	r := newTestRepo(t)
	r.Write("README.md", "# x\n")
	base := r.Commit("base")
	r.Write(awpRoot+"/.awp/workspace.json", "{\"name\": \"clawd\"}\n")
	r.Write(nestedArtifact, smpFixture(t, "llm-context-research.v1.md"))
	r.Commit("workspace")
	markerDance(t, r)
	expectError(t, "range", r, "smp/append-only "+nestedArtifact, "check", "--base", base, "--format", "json")
}

// TestStrippedArtifactDance: the same for an artifact that declares itself
// outside any workspace: stripping its frontmatter, editing it, and
// putting back a frontmatter with rewritten provenance.
func TestStrippedArtifactDance(t *testing.T) {
	r := newTestRepo(t)
	path := "docs/artifacts/llm-context-research.md"
	v1 := smpFixture(t, "llm-context-research.v1.md")
	r.Write(path, v1)
	base := r.Commit("artifact")
	body := v1[strings.Index(v1, "\n---\n")+len("\n---\n"):]
	r.Write(path, body)
	r.Commit("strip\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	r.Write(path, body+"\nMore.\n")
	r.Commit("edit\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	r.Write(path, strings.Replace(v1, "action: created", "action: updated", 1))
	r.Commit("restore\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	got := findingsAt(decodeReport(t, out))
	for _, w := range []string{"smp/undeclared " + path, "smp/parse " + path} {
		if code != exitFindings || !contains(got, w) {
			t.Errorf("exit %d, findings %q, want %q\n%s", code, got, w, errOut)
		}
	}
}

// TestMovingAWorkspaceIsAChangeToIt: git mv of a workspace deletes its
// marker and artifacts where they were.
func TestMovingAWorkspaceIsAChangeToIt(t *testing.T) {
	r, base := nestedRepo(t)
	r.Git("mv", awpRoot, "templates/moved")
	r.Commit("move\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	got := findingsAt(decodeReport(t, out))
	for _, w := range []string{"smp/undeclared " + awpRoot + "/.awp/workspace.json", "smp/append-only " + nestedArtifact} {
		if code != exitFindings || !contains(got, w) {
			t.Errorf("exit %d, findings %q, want %q\n%s", code, got, w, errOut)
		}
	}
}

// TestUndeclaredAdviceWorks follows each way out the smp/undeclared
// message gives: restoring the marker before the commit, rewriting the
// branch without the deletion, and a human retiring the workspace on
// purpose.
func TestUndeclaredAdviceWorks(t *testing.T) {
	marker := awpRoot + "/.awp/workspace.json"
	t.Run("staged: git restore", func(t *testing.T) {
		r, _ := nestedRepo(t)
		r.Git("rm", "-q", marker)
		code, out, _ := r.check(nil, "check", "--format", "json")
		msg := messageOf(t, out, "smp/undeclared")
		fix := "git restore --staged --worktree " + marker
		if code != exitFindings || !strings.Contains(msg, fix) {
			t.Fatalf("exit %d, message %q does not say %q", code, msg, fix)
		}
		r.Git(strings.Fields(fix)[1:]...)
		if code, out, errOut := r.check(nil, "check"); code != exitOK {
			t.Errorf("after %s: exit %d\n%s%s", fix, code, out, errOut)
		}
	})
	t.Run("staged: put the frontmatter back", func(t *testing.T) {
		r := newTestRepo(t)
		path := "docs/artifacts/llm-context-research.md"
		v1 := smpFixture(t, "llm-context-research.v1.md")
		r.Write(path, v1)
		r.Commit("artifact")
		r.Write(path, v1[strings.Index(v1, "\n---\n")+len("\n---\n"):])
		r.Git("add", "-A")
		code, out, _ := r.check(nil, "check", "--format", "json")
		if msg := messageOf(t, out, "smp/undeclared"); code != exitFindings || !strings.Contains(msg, "put its SMP frontmatter back and stage it") {
			t.Fatalf("exit %d, message %q", code, msg)
		}
		r.Write(path, v1)
		r.Git("add", path)
		if code, out, errOut := r.check(nil, "check"); code != exitOK {
			t.Errorf("with the frontmatter back: exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("range: rewrite the branch without the deletion", func(t *testing.T) {
		r, base := nestedRepo(t)
		r.Git("rm", "-q", marker)
		deletion := r.Commit("drop the marker\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
		r.Write("src/main.go", "package main // edited\n")
		r.Commit("edit")
		code, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
		if msg := messageOf(t, out, "smp/undeclared"); code != exitFindings || !strings.Contains(msg, "rewrite the branch without this change") {
			t.Fatalf("exit %d, message %q", code, msg)
		}
		r.Git("rebase", "-q", "--onto", deletion+"~1", deletion)
		if code, out, errOut := r.check(nil, "check", "--base", base); code != exitOK {
			t.Errorf("after the rewrite: exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("a human retires the workspace on purpose", func(t *testing.T) {
		r, base := nestedRepo(t)
		r.Git("rm", "-q", marker)
		r.Git("add", "-A")
		msgFile := filepath.Join(r.Dir, ".git", "COMMIT_EDITMSG")
		msg := "retire the clawd template's workspace\n\nSmall-Actor: human\nSmall-Rewrite: the template no longer ships an AWP workspace\n"
		r.Write(".git/COMMIT_EDITMSG", msg)
		for stage, args := range map[string][]string{
			"pre-commit": {"check", "--format", "json"},
			"commit-msg": {"check", "--commit-msg", msgFile, "--format", "json"},
		} {
			vars := map[string]string{}
			if stage == "pre-commit" {
				vars["SMALL_HOOK_REWRITE"] = "the template no longer ships an AWP workspace"
			}
			code, out, errOut := r.check(vars, args...)
			if rep := decodeReport(t, out); code != exitOK || rep.Summary.Warnings != 1 || messageOf(t, out, "smp/undeclared") == "" {
				t.Errorf("%s: exit %d, findings %+v\n%s", stage, code, rep.Findings, errOut)
			}
		}
		r.Git("commit", "-q", "--no-verify", "-F", msgFile)
		code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
		if rep := decodeReport(t, out); code != exitOK || rep.Summary.Warnings != 1 {
			t.Errorf("range: exit %d, findings %+v\n%s", code, rep.Findings, errOut)
		}
	})
}

// messageOf returns the message of the first finding of rule, or "".
func messageOf(t *testing.T, out, rule string) string {
	t.Helper()
	for _, f := range decodeReport(t, out).Findings {
		if f.Rule == rule {
			return f.Text()
		}
	}
	return ""
}

// TestForcePushThatDropsTheMarker: a push that replaces the branch with a
// history that never had the marker is compared with the tip it replaces.
func TestForcePushThatDropsTheMarker(t *testing.T) {
	r, previous := nestedRepo(t)
	r.Git("checkout", "-q", "--orphan", "rewritten")
	r.Git("rm", "-q", "--cached", awpRoot+"/.awp/workspace.json")
	r.Remove(awpRoot + "/.awp/workspace.json")
	r.Commit("history without the marker\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	code, out, errOut := r.check(nil, "check", "--previous", previous, "--format", "json")
	rep := decodeReport(t, out)
	found := false
	for _, f := range rep.Findings {
		if f.Rule == "smp/undeclared" && f.Path == awpRoot+"/.awp/workspace.json" && strings.Contains(f.Text(), "push a branch that keeps it") {
			found = true
		}
	}
	if code != exitFindings || !found {
		t.Errorf("exit %d, findings %+v\n%s", code, rep.Findings, errOut)
	}
}

// keyWhileUndeclared is a pull request that deletes the workspace's
// marker, adds a private key to its .awp/ (governed only as part of the
// workspace: it declares nothing itself) and restores the marker.
func keyWhileUndeclared(r *testRepo) {
	marker := awpRoot + "/.awp/workspace.json"
	saved := r.Read(marker)
	r.Git("rm", "-q", marker)
	r.Commit("tidy up")
	r.Write(awpRoot+"/.awp/private-key.pem", fakeKey)
	r.Commit("key")
	r.Write(marker, saved)
	r.Commit("restore")
}

// TestWorkspaceStaysGovernedWithoutItsMarker: while a pull request has
// removed the marker, the workspace's files are still judged, whether the
// base declares the workspace (the trusted revision) or only an earlier
// commit of the range does.
func TestWorkspaceStaysGovernedWithoutItsMarker(t *testing.T) {
	key := "secrets/private-key " + awpRoot + "/.awp/private-key.pem"
	t.Run("declared by the base", func(t *testing.T) {
		r, base := nestedRepo(t)
		keyWhileUndeclared(r)
		expectError(t, "range", r, key, "check", "--base", base, "--format", "json")
	})
	t.Run("declared by an earlier commit of the range", func(t *testing.T) {
		r := newTestRepo(t)
		r.Write("README.md", "# x\n")
		base := r.Commit("base")
		r.Write(awpRoot+"/.awp/workspace.json", "{\"name\": \"clawd\"}\n")
		r.Commit("workspace")
		keyWhileUndeclared(r)
		expectError(t, "range", r, key, "check", "--base", base, "--format", "json")
		expectError(t, "history", r, key, "check", "--history", "--format", "json")
	})
	t.Run("declared only by the base branch, after the pull request forked", func(t *testing.T) {
		r := newTestRepo(t)
		r.Write(awpRoot+"/notes.md", "# x\n")
		fork := r.Commit("start")
		r.Write(awpRoot+"/.awp/workspace.json", "{\"name\": \"clawd\"}\n")
		r.Commit("workspace")
		r.Git("branch", "-q", "-m", "base")
		r.Git("checkout", "-q", "-b", "pr", fork)
		r.Write(awpRoot+"/.awp/private-key.pem", fakeKey)
		r.Commit("key")
		expectError(t, "range", r, key, "check", "--base", "base", "--format", "json")
	})
}
