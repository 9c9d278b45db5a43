package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The tests in this file hold small-hook's policy files (.small-hook.yml,
// .gitleaks.toml, .gitleaksignore, the file --config names) to what the
// trust roots say: read from the revision the change cannot touch (HEAD in
// the staged stages, the base of a range), validated when staged, and
// human-owned.

const agentTrailer = "Co-Authored-By: Claude <noreply@anthropic.com>"

// stageSecret appends a progress entry whose evidence holds fakeGitHub and
// returns the secret's fingerprint (path:rule:line).
func stageSecret(r *testRepo) string {
	old := r.Read(progressPath)
	r.Write(progressPath, old+strings.Replace(appendedEntry, "go vet ./... is clean", "pushed with "+fakeGitHub, 1))
	r.Git("add", "-A")
	return progressPath + ":github-pat:" + strconv.Itoa(strings.Count(old, "\n")+1)
}

func TestStagedPolicyChangeAppliesFromTheNextCommit(t *testing.T) {
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "rules:\n  small/append-only: off\n")
	rewriteProgress(r)
	r.Git("add", "-A")
	code, out, errOut := r.check(nil, "check")
	if code != exitFindings || !strings.Contains(out, "error small/append-only") {
		t.Fatalf("a staged rules: setting relaxed its own commit: exit %d\n%s%s", code, out, errOut)
	}
	note := "note: this commit changes the policy file .small-hook.yml: the change applies from the next commit (this check used HEAD's version)\n"
	if !strings.Contains(out, note) {
		t.Errorf("the output does not say when the change applies:\n%s", out)
	}
	if _, out, _ := r.check(nil, "check", "--format", "json"); !strings.Contains(out, `"notes": [`) {
		t.Errorf("the JSON report lacks the note:\n%s", out)
	}
	// Once committed, the setting applies.
	commitPolicy(r, ".small-hook.yml")
	if code, out, _ := r.check(nil, "check"); code != exitOK || strings.Contains(out, "note:") {
		t.Errorf("the committed setting: exit %d\n%s", code, out)
	}
}

// TestFirstCommitUsesTheDefaults: before the first commit there is no
// trusted policy; the staged one is validated and the defaults apply.
func TestFirstCommitUsesTheDefaults(t *testing.T) {
	r := newTestRepo(t)
	r.copyDir(fixtureInit, ".small")
	r.Write(".small-hook.yml", "exclude:\n  - .small/\n")
	r.Write(".small/notes.txt", "not a SMALL artifact\n")
	r.Git("add", "-A")
	code, out, errOut := r.check(nil, "check")
	if code != exitFindings || !strings.Contains(out, "small/layout") || !strings.Contains(out, "the change applies from the next commit (this check used the defaults, as there is no commit yet)") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestGitleaksFilesArePolicy(t *testing.T) {
	t.Run("a staged .gitleaksignore does not hide the staged secret", func(t *testing.T) {
		r := workspaceRepo(t)
		fp := stageSecret(r)
		r.Write(".gitleaksignore", fp+"\n")
		r.Git("add", "-A")
		code, out, _ := r.check(nil, "check")
		if code != exitFindings || !strings.Contains(out, "secrets/github-pat") {
			t.Fatalf("exit %d\n%s", code, out)
		}
		commitPolicy(r, ".gitleaksignore")
		if code, out, _ := r.check(nil, "check"); code != exitOK {
			t.Errorf("the committed fingerprint: exit %d\n%s", code, out)
		}
	})
	t.Run("a staged .gitleaks.toml does not replace the rules of its commit", func(t *testing.T) {
		r := workspaceRepo(t)
		stageSecret(r)
		r.Write(".gitleaks.toml", "[[rules]]\nid = \"nothing\"\nregex = '''never-matches-[0-9]{40}'''\nkeywords = [\"never-matches-\"]\n")
		r.Git("add", "-A")
		if code, out, _ := r.check(nil, "check"); code != exitFindings || !strings.Contains(out, "secrets/github-pat") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})
	t.Run("a malformed staged .gitleaks.toml stops the check", func(t *testing.T) {
		r := workspaceRepo(t)
		key := longKey()
		// The broken rule's keyword occurs nowhere: only validation finds it.
		r.Write(".gitleaks.toml", "[[rules]]\nid = \"corp\"\nregex = '''(?i)("+key+"|x('''\nkeywords = [\"corp\"]\n")
		r.Write(progressPath, r.Read(progressPath)+appendedEntry)
		r.Git("add", "-A")
		code, out := everyOutput(t, r, "check")
		if code != exitFailure || !strings.Contains(out, "the staged .gitleaks.toml: invalid gitleaks configuration") {
			t.Fatalf("exit %d\n%s", code, out)
		}
		if p := pieceOf(out, key); p != "" {
			t.Errorf("the error holds %q:\n%s", p, out)
		}
	})
	for _, file := range []string{".gitleaks.toml", ".gitleaksignore"} {
		t.Run("an agent pull request that changes "+file, func(t *testing.T) {
			r := workspaceRepo(t)
			base := r.Git("rev-parse", "HEAD")
			fp := stageSecret(r)
			content := fp + "\n"
			if file == ".gitleaks.toml" {
				content = "[[rules]]\nid = \"nothing\"\nregex = '''never-matches-[0-9]{40}'''\nkeywords = [\"never-matches-\"]\n"
			}
			r.Write(file, content)
			commitAs(r, "Test Human", "human@example.com", "Record progress\n\n"+agentTrailer)
			code, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
			rep := decodeReport(t, out)
			var ownership, secret bool
			for _, f := range rep.Findings {
				ownership = ownership || f.Rule == "small/ownership" && f.Path == file
				secret = secret || f.Rule == "secrets/github-pat"
			}
			if code != exitFindings || !ownership || !secret {
				t.Errorf("want small/ownership on %s and the secret reported with the base's rules; exit %d\n%s", file, code, out)
			}
		})
	}
}

func TestConfigFlagInsideTheRepositoryIsPolicy(t *testing.T) {
	const cfg = ".github/small-hook.yml"
	r := workspaceRepo(t)
	r.Write(cfg, "rules:\n  small/human-edit: warning\n")
	base := r.Commit("small-hook settings")
	r.Write(cfg, "rules:\n  small/ownership: off\n  small/append-only: off\n")
	editIntent(r, "whatever the agent likes")
	commitAs(r, "Test Human", "human@example.com", "Relax the rules\n\n"+agentTrailer)
	path := filepath.Join(r.Dir, cfg)
	code, out, errOut := r.check(nil, "check", "--base", base, "--config", path, "--format", "json")
	rep := decodeReport(t, out)
	owned := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Rule == "small/ownership" {
			owned[f.Path] = true
		}
	}
	if code != exitFindings || !owned[intentPath] || !owned[cfg] {
		t.Errorf("the pull request relaxed the configuration that checks it: exit %d\n%s%s", code, out, errOut)
	}

	// A configuration the trusted revision lacks cannot be used.
	other := filepath.Join(r.Dir, ".github", "other.yml")
	r.Write(".github/other.yml", "rules:\n  small/ownership: off\n")
	code, _, errOut = r.check(nil, "check", "--base", base, "--config", other)
	if code != exitFailure || !strings.Contains(errOut, base+" has no .github/other.yml") {
		t.Errorf("a configuration the base lacks: exit %d, stderr %q", code, errOut)
	}

	// A file outside the repository is read from disk.
	outside := filepath.Join(t.TempDir(), "small-hook.yml")
	if err := os.WriteFile(outside, []byte("rules:\n  small/ownership: warning\n  small/append-only: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = r.check(nil, "check", "--base", base, "--config", outside, "--format", "json")
	if rep := decodeReport(t, out); code != exitOK || rep.Summary.Warnings == 0 {
		t.Errorf("a configuration outside the repository: exit %d\n%s", code, out)
	}
}

// TestStagedKeyFilesAreValidated: a staged key file that the configuration
// names is parsed in the staged stages, though HEAD's is the one applied:
// committing a malformed one would stop every later check.
func TestStagedKeyFilesAreValidated(t *testing.T) {
	_, pub := sshKey(t, "alice")
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", signedConfig("off"))
	r.Write(allowedSignersPath, "human@example.com "+pub+"\n")
	r.Commit("policy")
	r.Write(allowedSignersPath, "human@example.com "+pub+"\nnot-a-signer-line\n")
	r.Git("add", "-A")
	code, _, errOut := r.check(nil, "check")
	if want := "line 2 of the staged " + allowedSignersPath + ": is not `principals [options] keytype base64-key`"; code != exitFailure || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, errOut)
	}
	r.Write(allowedSignersPath, "human@example.com "+pub+"\nbob@example.com "+pub+"\n")
	r.Git("add", "-A")
	if code, out, errOut := r.check(nil, "check"); code != exitOK || !strings.Contains(out, "note: this commit changes the policy file "+allowedSignersPath) {
		t.Errorf("a valid staged key file: exit %d\n%s%s", code, out, errOut)
	}
}

// TestABrokenCommittedConfigurationIsRepairedByCommittingTheFix: when
// HEAD's .small-hook.yml is malformed, the staged fix is checked with the
// built-in configuration, as docs/output.md says (it applies from the next
// commit); once it is committed, the checks run with it.
func TestABrokenCommittedConfigurationIsRepairedByCommittingTheFix(t *testing.T) {
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "secrets:\n  scope: everything\n")
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "a broken configuration")
	r.Write(".small-hook.yml", "secrets:\n  scope: staged\n")
	r.Git("add", "-A")
	if code, out, errOut := r.check(nil, "check"); code != exitOK || !strings.Contains(out, "HEAD's .small-hook.yml cannot be loaded: line 2 of") {
		t.Fatalf("the staged fix: exit %d\n%s%s", code, out, errOut)
	}
	r.Git("commit", "-q", "-m", "repair the configuration")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	if code, out, errOut := r.check(nil, "check"); code != exitOK {
		t.Errorf("after the repair: exit %d\n%s%s", code, out, errOut)
	}
}

// TestFirstCommitWithAConfigurationInsideTheRepository: before the first
// commit no revision holds the file --config names; the defaults apply.
func TestFirstCommitWithAConfigurationInsideTheRepository(t *testing.T) {
	r := newTestRepo(t)
	r.copyDir(fixtureInit, ".small")
	r.Write(".github/small-hook.yml", "rules:\n  small/layout: off\n")
	r.Write(".small/notes.txt", "not a SMALL artifact\n")
	r.Git("add", "-A")
	code, out, errOut := r.check(nil, "check", "--config", filepath.Join(r.Dir, ".github/small-hook.yml"))
	if code != exitFindings || !strings.Contains(out, "small/layout") || !strings.Contains(out, "note: this commit changes the policy file .github/small-hook.yml") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
