package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The tests in this file sign real commits with real keys (ssh-keygen,
// gpg) and check them through the command: signatures.require refuses a
// human-owned change that no allowed key signed, for each way a signature
// can fail.

// TestSignaturesRequiredOnHumanOwnedFiles: the cases, each a pull
// request of one commit that edits the intent, checked with --base.
func TestSignaturesRequiredOnHumanOwnedFiles(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	mallory, malloryPub := sshKey(t, "mallory")
	allowed := "human@example.com namespaces=\"git\" " + alicePub + "\n"
	cases := []struct {
		name    string
		allowed string
		commit  func(r *testRepo) string
		// status is the commit's signature status; says what the finding
		// (if any) must contain.
		status string
		want   []string
		says   []string
	}{
		{"signed by an allowed key", allowed, func(r *testRepo) string { return sshCommit(r, alice, "Refine intent") },
			"valid", nil, nil},
		{"unsigned", allowed, func(r *testRepo) string { return r.Commit("Refine intent") },
			"unsigned", []string{"attribution/signature error " + intentPath}, []string{"edits human-owned " + intentPath, "unsigned: the commit is not signed"}},
		{"signed by a key not in the file", allowed, func(r *testRepo) string { return sshCommit(r, mallory, "Refine intent") },
			"unknown-key", []string{"attribution/signature error " + intentPath}, []string{"unknown-key ssh signature: the SSH key ", " is not in " + allowedSignersPath}},
		{"principal mismatch", allowed, func(r *testRepo) string {
			return sshCommit(r, alice, "Refine intent", "GIT_COMMITTER_EMAIL=someone@example.com")
		}, "principal-mismatch", []string{"attribution/signature error " + intentPath}, []string{"principal-mismatch ssh signature", `not for the committer e-mail "someone@example.com"`}},
		{"signed after valid-before", "human@example.com valid-before=\"20250101Z\" " + alicePub + "\n", func(r *testRepo) string {
			return sshCommit(r, alice, "Refine intent", "GIT_COMMITTER_DATE=2026-01-02T00:00:00Z")
		}, "key-expired", []string{"attribution/signature error " + intentPath}, []string{"key-expired ssh signature: the key has expired at the committer time 2026-01-02T00:00:00Z: its valid-before is 2025-01-01T00:00:00Z"}},
		{"signed before valid-after", "human@example.com valid-after=\"20300101Z\" " + alicePub + "\n", func(r *testRepo) string {
			return sshCommit(r, alice, "Refine intent", "GIT_COMMITTER_DATE=2026-01-02T00:00:00Z")
		}, "key-expired", []string{"attribution/signature error " + intentPath}, []string{"not yet valid"}},
		{"the pull request adds its own key", allowed, func(r *testRepo) string {
			r.Write(allowedSignersPath, allowed+"human@example.com "+malloryPub+"\n")
			return sshCommit(r, mallory, "Refine intent and trust my key")
		}, "unknown-key", []string{"attribution/signature error " + allowedSignersPath, "attribution/signature error " + intentPath}, []string{"unknown-key ssh signature"}},
		{"an agent claiming to be human", allowed, func(r *testRepo) string {
			return r.Commit("Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nSmall-Actor: human")
		}, "unsigned", []string{"small/ownership error " + intentPath}, []string{"agent-authored", "overrides the self-declared trailer Small-Actor: human"}},
		{"a human's key on an agent's commit", allowed, func(r *testRepo) string {
			return sshCommit(r, alice, "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
		}, "valid", []string{"attribution/signature error " + intentPath}, []string{"is signed (valid ssh signature by human@example.com", "evidence of an agent (trailer Co-Authored-By: Claude"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, base := signingRepo(t, signedConfig("human-owned"), tc.allowed)
			editIntent(r, "Changed by "+tc.name)
			sha := tc.commit(r)
			code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
			rep := decodeSigned(t, out)
			if got := findingSummary(rep); !slices.Equal(got, tc.want) {
				t.Fatalf("exit %d, findings %q, want %q\n%s%s", code, got, tc.want, out, errOut)
			}
			if wantCode := map[bool]int{true: exitOK, false: exitFindings}[len(tc.want) == 0]; code != wantCode {
				t.Errorf("exit %d, want %d", code, wantCode)
			}
			for _, f := range rep.Findings {
				if f.Commit != sha || !strings.Contains(f.Text(), "commit "+sha[:12]) {
					t.Errorf("the finding does not name commit %s: %+v", sha, f)
				}
				for _, s := range tc.says {
					if !strings.Contains(f.Text(), s) {
						t.Errorf("message lacks %q: %s", s, f.Text())
					}
				}
			}
			if len(rep.Signatures) != 1 || rep.Signatures[0].Commit != sha || rep.Signatures[0].Status != tc.status {
				t.Fatalf("signatures %+v, want commit %s %s", rep.Signatures, sha, tc.status)
			}
			if st := rep.Signatures[0]; len(tc.want) == 0 && (st.Signer != "human@example.com" || st.Key != fingerprint(t, alicePub) || st.Entry != allowedSignersPath+":1" || st.Format != "ssh") {
				t.Errorf("the valid signature's status: %+v", st)
			}
		})
	}
}

// TestOpenPGPSignatures: a commit signed with gpg by a key in the OpenPGP
// key file counts; one signed by another key does not.
func TestOpenPGPSignatures(t *testing.T) {
	t.Parallel()
	home, fpr, armored := pgpKey(t, "Test Human <human@example.com>")
	otherHome, otherFpr, _ := pgpKey(t, "Test Human <human@example.com>")
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "signatures:\n  openpgp-keys: "+signingKeysPath+"\n  require: human-owned\n")
	r.Write(signingKeysPath, armored)
	base := r.Commit("signing policy")
	pgpCommit := func(home, fpr, msg string) string {
		r.Git("add", "-A")
		r.GitEnv([]string{"GNUPGHOME=" + home}, "-c", "gpg.format=openpgp", "-c", "user.signingkey="+fpr, "commit", "-q", "--no-verify", "-S", "-m", msg)
		return r.Git("rev-parse", "HEAD")
	}
	editIntent(r, "Signed with OpenPGP")
	signed := pgpCommit(home, fpr, "Refine intent")
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	rep := decodeSigned(t, out)
	if code != exitOK || len(rep.Findings) != 0 || len(rep.Signatures) != 1 || rep.Signatures[0].Status != "valid" || rep.Signatures[0].Format != "openpgp" || rep.Signatures[0].Signer != "Test Human <human@example.com>" || rep.Signatures[0].Key != fpr {
		t.Fatalf("an OpenPGP-signed intent edit: exit %d\n%s%s", code, out, errOut)
	}
	editIntent(r, "Signed with another key")
	other := pgpCommit(otherHome, otherFpr, "Refine intent again")
	code, out, _ = r.check(nil, "check", "--base", signed, "--format", "json")
	rep = decodeSigned(t, out)
	if code != exitFindings || len(rep.Findings) != 1 || rep.Findings[0].Commit != other || !strings.Contains(rep.Findings[0].Text(), "unknown-key openpgp signature: the OpenPGP key "+otherFpr+" is not in "+signingKeysPath) {
		t.Fatalf("an intent edit signed by an unknown OpenPGP key: exit %d\n%s", code, out)
	}
}

// TestSignedKeyCountsOnceMerged: a key added by a signed commit of the base
// branch signs the next pull request.
func TestSignedKeyCountsOnceMerged(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	bob, bobPub := sshKey(t, "bob")
	r, _ := signingRepo(t, signedConfig("human-owned"), "human@example.com "+alicePub+"\n")
	r.Write(allowedSignersPath, "human@example.com "+alicePub+"\nbob@example.com "+bobPub+"\n")
	added := sshCommit(r, alice, "Trust Bob's key")
	editIntent(r, "Bob's refinement")
	sshCommit(r, bob, "Refine intent", "GIT_COMMITTER_EMAIL=bob@example.com")
	code, out, errOut := r.check(nil, "check", "--base", added, "--format", "json")
	if rep := decodeSigned(t, out); code != exitOK || len(rep.Findings) != 0 || rep.Signatures[0].Signer != "bob@example.com" {
		t.Fatalf("Bob's signed intent edit after his key was merged: exit %d\n%s%s", code, out, errOut)
	}
}

// TestSignaturesOnMergesAndThroughGitHub: a pull request with a signed
// intent edit, merged by an unsigned merge commit (what GitHub's merge
// button writes, signed by a key nobody lists), passes both as the pull
// request (--ci, pull_request event) and as the push to main; an unsigned
// edit fails the pull request.
func TestSignaturesOnMergesAndThroughGitHub(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	r, base := signingRepo(t, signedConfig("human-owned"), "human@example.com "+alicePub+"\n")
	r.Git("checkout", "-q", "-b", "feature")
	editIntent(r, "Signed on a branch")
	head := sshCommit(r, alice, "Refine intent")
	ci := func(base, head string) (int, signedReport, string) {
		payload := filepath.Join(t.TempDir(), "event.json")
		if err := os.WriteFile(payload, []byte(pullRequestEvent(base, head)), 0o644); err != nil {
			t.Fatal(err)
		}
		vars := map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": payload}
		code, out, errOut := r.check(vars, "check", "--ci", "--format", "json")
		return code, decodeSigned(t, out), out + errOut
	}
	if code, rep, out := ci(base, head); code != exitOK || len(rep.Signatures) != 1 || rep.Signatures[0].Status != "valid" {
		t.Fatalf("a signed pull request through --ci: exit %d\n%s", code, out)
	}
	r.Git("checkout", "-q", "main")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Commit("main moves on")
	r.Git("merge", "-q", "--no-ff", "--no-edit", "feature")
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	rep := decodeSigned(t, out)
	if code != exitOK || len(rep.Signatures) != 3 {
		t.Fatalf("the merged branch: exit %d\n%s%s", code, out, errOut)
	}
	r.Git("checkout", "-q", "-b", "unsigned")
	editIntent(r, "Unsigned on a branch")
	unsigned := r.Commit("Refine intent, unsigned")
	code, rep, all := ci(r.Git("rev-parse", "main"), unsigned)
	if code != exitFindings || !slices.Equal(findingSummary(rep), []string{"attribution/signature error " + intentPath}) {
		t.Fatalf("an unsigned pull request through --ci: exit %d\n%s", code, all)
	}
}

// TestRequireHuman: with require: human, every change that is not an
// agent's needs a signature; an agent's does not.
func TestRequireHuman(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	r, base := signingRepo(t, signedConfig("human"), "human@example.com "+alicePub+"\n")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	unmarked := r.Commit("progress, unsigned and unmarked")
	code, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
	rep := decodeSigned(t, out)
	if code != exitFindings || !slices.Equal(findingSummary(rep), []string{"attribution/signature error " + progressPath}) || rep.Findings[0].Commit != unmarked ||
		!strings.Contains(rep.Findings[0].Text(), "is human (no agent marker) and edits "+progressPath) {
		t.Fatalf("an unsigned human commit under require: human: exit %d\n%s", code, out)
	}
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(appendedEntry, "10:20:00", "10:21:00", 1))
	r.Commit("progress by an agent\n\nSmall-Actor: agent")
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(appendedEntry, "10:20:00", "10:22:00", 1))
	sshCommit(r, alice, "progress, signed")
	code, out, _ = r.check(nil, "check", "--base", unmarked, "--format", "json")
	if rep := decodeSigned(t, out); code != exitOK || len(rep.Signatures) != 2 {
		t.Fatalf("an agent's and a signed commit under require: human: exit %d\n%s", code, out)
	}
}

// TestBrokenKeyFilesCannotBeChecked: a configured key file that the base
// revision lacks, or that is malformed, is exit 2 naming it.
func TestBrokenKeyFilesCannotBeChecked(t *testing.T) {
	t.Parallel()
	_, pub := sshKey(t, "alice")
	cases := map[string]struct{ allowed, says string }{
		"missing":   {"", "signatures.allowed-signers in the .small-hook.yml of %s names " + allowedSignersPath + ", but there is no such file"},
		"malformed": {"human@example.com " + pub + "\nnot-a-signer-line\n", "line 2 of the " + allowedSignersPath + " of %s: is not `principals [options] keytype base64-key`"},
		"a DSA key": {"human@example.com ssh-dss AAAAB3NzaC1kc3M=\n", "line 1 of the " + allowedSignersPath + " of %s: has a DSA key"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := workspaceRepo(t)
			r.Write(".small-hook.yml", signedConfig("human-owned"))
			if tc.allowed != "" {
				r.Write(allowedSignersPath, tc.allowed)
			}
			base := r.Commit("policy")
			editIntent(r, "x")
			r.Commit("intent")
			code, out, errOut := r.check(nil, "check", "--base", base)
			if want := strings.ReplaceAll(tc.says, "%s", base); code != exitFailure || !strings.Contains(errOut, want) {
				t.Errorf("exit %d, stderr lacks %q:\n%s%s", code, want, out, errOut)
			}
		})
	}
}

// TestAgentsDoNotChangeThePolicy: an agent's commit that edits
// .small-hook.yml or a key file it names is refused; a human's signed one
// passes.
func TestAgentsDoNotChangeThePolicy(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	r, base := signingRepo(t, signedConfig("human-owned"), "human@example.com "+alicePub+"\n")
	r.Write(".small-hook.yml", signedConfig("off"))
	r.Write(allowedSignersPath, "human@example.com "+alicePub+"\n*@example.com "+alicePub+"\n")
	r.Commit("Relax the policy\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	code, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
	rep := decodeSigned(t, out)
	if want := []string{"small/ownership error " + allowedSignersPath, "small/ownership error .small-hook.yml"}; code != exitFindings || !slices.Equal(findingSummary(rep), want) ||
		!strings.Contains(rep.Findings[0].Text(), "agents must not change small-hook's policy files") {
		t.Fatalf("an agent relaxing the policy: exit %d\n%s", code, out)
	}
	r.Git("reset", "-q", "--hard", base)
	r.Write(".small-hook.yml", signedConfig("human"))
	sshCommit(r, alice, "Tighten the policy")
	code, out, _ = r.check(nil, "check", "--base", base, "--format", "json")
	if rep := decodeSigned(t, out); code != exitOK || len(rep.Findings) != 0 {
		t.Fatalf("a human's signed policy change: exit %d\n%s", code, out)
	}
	plain := workspaceRepo(t)
	plainBase := plain.Git("rev-parse", "HEAD")
	plain.Write(".small-hook.yml", "exclude: [.small/]\n")
	plain.Commit("Exclude the workspace\n\nSmall-Actor: agent")
	code, out, _ = plain.check(nil, "check", "--base", plainBase, "--format", "json")
	if rep := decodeSigned(t, out); code != exitFindings || !slices.Equal(findingSummary(rep), []string{"small/ownership error .small-hook.yml"}) {
		t.Fatalf("an agent editing .small-hook.yml without a signatures section: exit %d\n%s", code, out)
	}
}

// TestStagedStagesWarnWhenGitWillNotSign: before the commit exists, a
// change to a human-owned file gets a warning unless git is set to sign
// it with an allowed key; the commit is not refused there.
func TestStagedStagesWarnWhenGitWillNotSign(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	mallory, _ := sshKey(t, "mallory")
	r, _ := signingRepo(t, signedConfig("human-owned"), "human@example.com "+alicePub+"\n")
	msg := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	writeMessage(t, msg, "Refine intent\n")
	stages := map[string][]string{"pre-commit": {"check", "--format", "json"}, "commit-msg": {"check", "--commit-msg", msg, "--format", "json"}}
	expect := func(what string, vars map[string]string, says string) {
		t.Helper()
		for stage, args := range stages {
			code, out, errOut := r.check(vars, args...)
			rep := decodeSigned(t, out)
			switch {
			case code != exitOK:
				t.Errorf("%s, %s: exit %d\n%s%s", what, stage, code, out, errOut)
			case says == "" && len(rep.Findings) != 0:
				t.Errorf("%s, %s: findings\n%s", what, stage, out)
			case says != "" && (!slices.Equal(findingSummary(rep), []string{"attribution/signature warning " + intentPath}) || !strings.Contains(rep.Findings[0].Text(), says)):
				t.Errorf("%s, %s: want a warning saying %q\n%s", what, stage, says, out)
			}
		}
	}
	editIntent(r, "Staged")
	r.Git("add", "-A")
	expect("no signing set up", hookEnv(), "commits are not signed: run `git config commit.gpgsign true`")
	r.Git("config", "commit.gpgsign", "true")
	r.Git("config", "gpg.format", "ssh")
	r.Git("config", "user.signingkey", mallory+".pub")
	expect("a key that is not allowed", hookEnv(), "is not in "+allowedSignersPath)
	r.Git("config", "user.signingkey", alice)
	expect("signing set up", hookEnv(), "")
	expect("another committer", hookEnv("GIT_COMMITTER_EMAIL=someone@example.com"), `not for the committer e-mail "someone@example.com"`)
	r.Git("config", "--unset", "commit.gpgsign")
	expect("git -c commit.gpgsign=true", hookEnv("GIT_CONFIG_PARAMETERS='commit.gpgsign'='true'"), "")
	r.Git("reset", "-q", "--hard")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	expect("progress needs no signature", hookEnv(), "")
}

// TestHooksWarnAndPushRefuses: through git and the native hooks, an
// unsigned intent edit is committed with a warning and refused by the
// pre-push hook; signed with git -c, it commits silently and is pushed.
func TestHooksWarnAndPushRefuses(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	r, _ := signingRepo(t, signedConfig("human-owned"), "human@example.com "+alicePub+"\n")
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	// The remote already holds the history from before signatures were
	// required: pushed without the hooks, as it was then.
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "--no-verify", "origin", "main"); !ok {
		t.Fatalf("pushing the base: %s", out)
	}
	editIntent(r, "Unsigned")
	r.Git("add", "-A")
	out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "Refine intent")
	if !ok || !strings.Contains(out, "warning attribution/signature") || !strings.Contains(out, "commits are not signed") {
		t.Fatalf("the unsigned intent edit: committed %v\n%s", ok, out)
	}
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main"); ok || !strings.Contains(out, "error attribution/signature") || !strings.Contains(out, "unsigned: the commit is not signed") {
		t.Fatalf("the pre-push hook let an unsigned intent edit through:\n%s", out)
	}
	r.Git("reset", "-q", "--hard", "HEAD~1")
	editIntent(r, "Signed")
	r.Git("add", "-A")
	out, ok = runIn(t, r.Dir, env, "git", "-c", "commit.gpgsign=true", "-c", "gpg.format=ssh", "-c", "user.signingkey="+alice, "commit", "-q", "-m", "Refine intent")
	if !ok || strings.Contains(out, "attribution/signature") {
		t.Fatalf("the signed intent edit:\n%s", out)
	}
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main"); !ok {
		t.Fatalf("the pre-push hook refused a signed intent edit:\n%s", out)
	}
}

// TestCraftedMergeCannotRevertTheIntent: a merge commit made with an old
// commit as its second parent, taking that commit's intent, undoes a
// signed edit; it is the merge's own change and needs a signature.
func TestCraftedMergeCannotRevertTheIntent(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	r, old := signingRepo(t, signedConfig("human-owned"), "human@example.com "+alicePub+"\n")
	oldIntent := r.Read(intentPath)
	editIntent(r, "Signed edit")
	signed := sshCommit(r, alice, "Refine intent")
	r.Write(intentPath, oldIntent)
	r.Git("add", "-A")
	tree := r.Git("write-tree")
	merge := r.Git("commit-tree", tree, "-p", signed, "-p", old, "-m", "Merge an old commit")
	code, out, _ := r.check(nil, "check", "--base", signed, "--head", merge, "--format", "json")
	rep := decodeSigned(t, out)
	if code != exitFindings || !slices.Equal(findingSummary(rep), []string{"attribution/signature error " + intentPath}) || rep.Findings[0].Commit != merge {
		t.Fatalf("a crafted merge reverting a signed intent edit: exit %d\n%s", code, out)
	}
}
