package main

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/config"
)

// installHooks runs small-hook install in dir: the native hooks in a
// repository, the pre-receive hook in a bare one.
func installHooks(t *testing.T, dir string) {
	t.Helper()
	if out, ok := runIn(t, dir, binEnv(t), smallHook.path(t), "install"); !ok {
		t.Fatalf("install: %s", out)
	}
}

// hookedRepo is a workspace repository with small-hook's native hooks
// installed.
func hookedRepo(t *testing.T) *testRepo {
	t.Helper()
	r := workspaceRepo(t)
	installHooks(t, r.Dir)
	return r
}

// commitThroughHooks stages everything and commits through the installed
// hooks with msg, as the test's human unless extra says otherwise; it
// returns git's output and whether the commit was made.
func commitThroughHooks(t *testing.T, r *testRepo, msg string, extra ...string) (string, bool) {
	t.Helper()
	r.Git("add", "-A")
	return tryCommit(t, r, append([]string{binPATH(t)}, extra...), "-m", msg)
}

// TestAMalformedConfigurationCanBeRepaired: a .small-hook.yml committed
// past the hooks that no check can load refuses every commit, and the
// refusal names the way out; following it exactly — fix the file, git add
// it, commit — passes, judged with the built-in configuration, and the
// repaired file applies from the next commit. The repair is still judged:
// an agent's is refused by small/ownership, one that rewrites progress by
// small/append-only, one still malformed names the staged file's line.
func TestAMalformedConfigurationCanBeRepaired(t *testing.T) {
	t.Parallel()
	const broken = "rules:\n  small/human-edit: warn\n"
	const repaired = "rules:\n  small/human-edit: warning\n"
	r := hookedRepo(t)
	r.Write(config.FileName, broken)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "configure small-hook")

	appendEntry := func(minute int) {
		r.Write(progressPath, r.Read(progressPath)+progressEntry("an append", minute))
	}
	appendEntry(21)
	out, ok := commitThroughHooks(t, r, "an ordinary commit")
	advice := "fix .small-hook.yml in the work tree and stage it (git add .small-hook.yml)"
	if ok || !strings.Contains(out, "line 2 of the .small-hook.yml of HEAD") || !strings.Contains(out, advice) {
		t.Fatalf("an ordinary commit under a malformed configuration: want it refused naming %q:\n%s", advice, out)
	}

	for _, c := range []struct {
		name, config, want string
		edit               func()
		extra              []string
	}{
		{"an agent's repair", repaired, "small/ownership", nil,
			[]string{"GIT_AUTHOR_NAME=Claude", "GIT_AUTHOR_EMAIL=noreply@anthropic.com"}},
		{"a repair that rewrites progress", repaired, "small/append-only", func() { rewriteProgress(r) }, nil},
		{"a repair still malformed", "rules:\n  small/human-edit: warnin\n", "line 2 of the staged .small-hook.yml", nil, nil},
	} {
		r.Write(config.FileName, c.config)
		if c.edit != nil {
			c.edit()
		}
		if out, ok := commitThroughHooks(t, r, "fix the configuration", c.extra...); ok || !strings.Contains(out, c.want) {
			t.Fatalf("%s: want it refused with %s:\n%s", c.name, c.want, out)
		}
		r.Git("checkout", "-q", "HEAD", "--", ".")
		appendEntry(21)
	}

	r.Write(config.FileName, repaired)
	r.Git("add", config.FileName)
	out, ok = tryCommit(t, r, []string{binPATH(t)}, "-m", "fix the configuration")
	if !ok || !strings.Contains(out, "this check used the built-in configuration, as for a first commit: HEAD's .small-hook.yml cannot be loaded") {
		t.Fatalf("the repair was refused, or does not say how it was judged:\n%s", out)
	}
	appendEntry(22)
	if out, ok := commitThroughHooks(t, r, "an ordinary commit"); !ok {
		t.Fatalf("a commit after the repair was refused:\n%s", out)
	}
}

// TestAMalformedGitleaksConfigurationCanBeRepaired: a .gitleaks.toml
// committed past the hooks whose rule does not compile refuses every
// commit with content to scan; the commit that repairs it passes.
func TestAMalformedGitleaksConfigurationCanBeRepaired(t *testing.T) {
	t.Parallel()
	r := hookedRepo(t)
	r.Write(config.GitleaksConfig, "[[rules]]\nid = \"mine\"\nregex = \"(unclosed\"\n")
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "configure gitleaks")
	r.Write(progressPath, r.Read(progressPath)+progressEntry("an append", 21))
	if out, ok := commitThroughHooks(t, r, "an append"); ok || !strings.Contains(out, "the .gitleaks.toml of HEAD") {
		t.Fatalf("a commit under a malformed .gitleaks.toml: want it refused naming the file:\n%s", out)
	}
	r.Write(config.GitleaksConfig, "[extend]\nuseDefault = true\n")
	if out, ok := commitThroughHooks(t, r, "repair the gitleaks rules"); !ok || !strings.Contains(out, "HEAD's .gitleaks.toml cannot be loaded") {
		t.Fatalf("the repair was refused, or does not say how it was judged:\n%s", out)
	}
}

// TestAMalformedKeyFileCanBeRepaired: an allowed-signers file the
// configuration names, committed past the hooks with a line that is not a
// key, refuses every commit naming the way out; following it, the commit
// that repairs the file passes.
func TestAMalformedKeyFileCanBeRepaired(t *testing.T) {
	t.Parallel()
	const keys = ".github/allowed_signers"
	r := hookedRepo(t)
	r.Write(config.FileName, "signatures:\n  allowed-signers: "+keys+"\n")
	r.Write(keys, "not a key\n")
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "configure signatures")
	r.Write(progressPath, r.Read(progressPath)+progressEntry("an append", 21))
	out, ok := commitThroughHooks(t, r, "an append")
	advice := "fix " + keys + " in the work tree and stage it (git add " + keys + ")"
	if ok || !strings.Contains(out, "line 1 of the "+keys+" of HEAD") || !strings.Contains(out, advice) {
		t.Fatalf("a commit under a malformed key file: want it refused naming %q:\n%s", advice, out)
	}
	r.Write(keys, "# no key allowed yet\n")
	r.Git("add", keys)
	out, ok = tryCommit(t, r, []string{binPATH(t)}, "-m", "repair the allowed signers")
	if !ok || !strings.Contains(out, "HEAD's key files cannot be loaded") {
		t.Fatalf("the repair was refused, or does not say how it was judged:\n%s", out)
	}
}
