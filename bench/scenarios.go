package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/gittest"
)

// bench holds what every scenario shares.
type bench struct {
	root, work string
	tools      tools
	runs       int
	files      int
}

// scenario is one row group of the report: small-hook and its peers on one
// job, and the targets the issue sets.
type scenario struct {
	title   string
	subject measurement
	peers   []measurement
	// targets maps a peer name to the largest ratio small-hook may reach.
	targets map[string]float64
	// memoryTargets maps a peer name to the largest ratio of peak memory
	// small-hook may reach.
	memoryTargets map[string]float64
	// limit, when set, is the longest wall time small-hook may take.
	limit time.Duration
	// largest is the size of the largest governed file the check reads,
	// for the memory target (0: not judged).
	largest int64
	// maxMemory, when set, is the most peak memory small-hook may take.
	maxMemory int64
	note      string
}

func (b *bench) smallFixture() string {
	return filepath.Join(b.root, "testdata", "small", "reference-repo", ".small")
}

// repo builds a fresh large repository under work with the given progress
// size (0: the reference file, 1,206 entries).
func (b *bench) repo(name string, entries int) (string, error) {
	dir := filepath.Join(b.work, name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := largeRepo(dir, b.files, b.smallFixture(), entries); err != nil {
		return "", fmt.Errorf("building %s: %w", name, err)
	}
	return dir, nil
}

// stageAppend appends one progress entry and stages it.
func stageAppend(dir string, i int) error {
	if err := appendEntries(filepath.Join(dir, ".small", "progress.small.yml"), progressEntry(i, "appended")); err != nil {
		return err
	}
	return git(dir, "add", ".small/progress.small.yml")
}

// appendEntries appends text to a file.
func appendEntries(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// smallHook is a command line of small-hook. A staged check runs as git
// runs the pre-commit hook, with GIT_INDEX_FILE set: run by hand, a check
// also asks git status for unstaged governed edits to mention, which no
// commit pays for.
func (b *bench) smallHook(name, dir string, args ...string) command {
	c := command{name: name, dir: dir, argv: append([]string{b.tools.smallHook}, args...)}
	if stagedCheck(args) {
		c.env = append(c.env, "GIT_INDEX_FILE="+filepath.Join(dir, ".git", "index"))
	}
	return c
}

// stagedCheck reports whether args are `check` in its staged mode.
func stagedCheck(args []string) bool {
	if len(args) == 0 || args[0] != "check" {
		return false
	}
	for _, a := range args[1:] {
		if a != "--no-secrets" && strings.HasPrefix(a, "--") {
			return false
		}
	}
	return true
}

// smallHookByGit is smallHook with git itself as the reader
// (SMALL_HOOK_READER=git): the authoritative path, on the same repository.
func (b *bench) smallHookByGit(name, dir string, args ...string) command {
	c := b.smallHook(name, dir, args...)
	c.env = append(c.env, "SMALL_HOOK_READER=git")
	return c
}

// gitDiffCached is `git diff --cached --name-status`, the least any
// pre-commit check does.
func gitDiffCached(dir string) command {
	return command{name: "git diff --cached --name-status", dir: dir, argv: []string{"git", "diff", "--cached", "--name-status"}}
}

// gitleaksStaged is gitleaks' own staged scan, by both builds (see
// gitleaks).
func (b *bench) gitleaksStaged(dir string) []command {
	return b.gitleaks("gitleaks git --pre-commit --staged", dir, "git", "--pre-commit", "--staged", "--no-banner", "--log-level", "error", ".")
}

// gitleaksRange is gitleaks' scan of the commits of base..head, by both
// builds.
func (b *bench) gitleaksRange(dir, base, head string) []command {
	return b.gitleaks("gitleaks git --log-opts=BASE..HEAD", dir, "git", "--no-banner", "--log-level", "error", "--log-opts="+base+".."+head, ".")
}

// releaseBuild ends the name of a peer run by gitleaks' release build.
const releaseBuild = ", release build"

// gitleaks is one gitleaks command line run by each build: the plain one
// named name, the release build (-tags gore2regex) named name +
// releaseBuild.
func (b *bench) gitleaks(name, dir string, args ...string) []command {
	return []command{
		{name: name, dir: dir, argv: append([]string{b.tools.gitleaks}, args...)},
		{name: name + releaseBuild, dir: dir, argv: append([]string{b.tools.gitleaksRelease}, args...)},
	}
}

// smallCheck is the reference CLI's `small check`, or nil when it is not
// available.
func (b *bench) smallCheck(dir string) *command {
	if b.tools.small == "" {
		return nil
	}
	return &command{name: "small check", dir: dir, argv: []string{b.tools.small, "check"}}
}

// compare measures small-hook and its peers in turns into s; withSmall
// adds the reference CLI (or says why it is missing).
func (b *bench) compare(s *scenario, subject command, withSmall bool, peers ...command) error {
	if withSmall {
		if c := b.smallCheck(subject.dir); c != nil {
			peers = append(peers, *c)
		}
	}
	ms, err := measureTogether(b.runs, append([]command{subject}, peers...)...)
	if err != nil {
		return err
	}
	s.subject, s.peers = ms[0], append(s.peers, ms[1:]...)
	if withSmall && b.tools.small == "" {
		s.peers = append(s.peers, skipped("small check", b.tools.smallNote))
	}
	return nil
}

// stagedAppend is scenario 1.
func (b *bench) stagedAppend() (scenario, error) {
	s := scenario{title: fmt.Sprintf("1. staged append, 1,206 entries, %d files", b.files),
		targets: map[string]float64{"gitleaks git --pre-commit --staged": 0.7, "small check": 0.15}}
	dir, err := b.repo("append", 0)
	if err != nil {
		return s, err
	}
	if err := stageAppend(dir, 0); err != nil {
		return s, err
	}
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	peers := append([]command{gitDiffCached(dir)}, b.gitleaksStaged(dir)...)
	return s, b.compare(&s, b.smallHook("small-hook check", dir, "check"), true, append(peers,
		b.smallHookByGit("small-hook check, read by git", dir, "check"))...)
}

// historyGrowth is scenario 2: the staged append as progress grows.
func (b *bench) historyGrowth() (scenario, error) {
	s := scenario{title: "2. staged append as history grows (vs the same append on 1,206 entries)",
		targets: map[string]float64{"1,206 entries": 2}, note: "target applies to 100,000 entries"}
	var cmds []command
	for _, n := range []int{100_000, 1206, 10_000} {
		dir, err := b.repo(fmt.Sprintf("grow-%d", n), n)
		if err != nil {
			return s, err
		}
		if err := stageAppend(dir, n); err != nil {
			return s, err
		}
		name := fmt.Sprintf("%d entries", n)
		switch n {
		case 100_000:
			name = "small-hook check, 100,000 entries"
			if s.largest, err = largestGoverned(dir); err != nil {
				return s, err
			}
		case 1206:
			name = "1,206 entries"
		}
		cmds = append(cmds, b.smallHook(name, dir, "check"))
	}
	ms, err := measureTogether(b.runs, cmds...)
	if err != nil {
		return s, err
	}
	s.subject, s.peers = ms[0], ms[1:]
	return s, nil
}

// noGovernedChange is scenario 3.
func (b *bench) noGovernedChange() (scenario, error) {
	s := scenario{title: "3. a commit that touches no governed file, packed repository",
		targets: map[string]float64{"git diff --cached --name-status": 2}}
	dir, err := b.repo("unrelated", 0)
	if err != nil {
		return s, err
	}
	if err := git(dir, "gc", "-q"); err != nil {
		return s, err
	}
	path := filepath.Join(dir, "src", "d000", "f00000.go")
	if err := os.WriteFile(path, []byte("package p0\n\nfunc F0() int { return -1 }\n"), 0o644); err != nil {
		return s, err
	}
	if err := git(dir, "add", "src"); err != nil {
		return s, err
	}
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	return s, b.compare(&s, b.smallHook("small-hook check", dir, "check"), false, gitDiffCached(dir),
		b.smallHook("small-hook version (start-up alone)", dir, "version"),
		b.smallHookByGit("small-hook check, read by git", dir, "check"))
}

// rangeCheck is scenario 4: a 200-commit pull request.
func (b *bench) rangeCheck() (scenario, error) {
	s := scenario{title: "4. range mode, a 200-commit pull request",
		targets:       map[string]float64{"gitleaks git --log-opts=BASE..HEAD": 0.5},
		memoryTargets: map[string]float64{"gitleaks git --log-opts=BASE..HEAD": 1}}
	dir, err := b.repo("range", 0)
	if err != nil {
		return s, err
	}
	base, err := pullRequest(dir, 200)
	if err != nil {
		return s, err
	}
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	return s, b.compare(&s, b.smallHook("small-hook check --base", dir, "check", "--base", base), false,
		append(b.gitleaksRange(dir, base, "HEAD"), b.smallHookByGit("small-hook check --base, read by git", dir, "check", "--base", base))...)
}

// pullRequest adds n commits, each appending one progress entry and one
// paragraph to a knowledge artifact as awp does (version and provenance),
// and returns the commit they start from.
func pullRequest(dir string, n int) (string, error) {
	base, err := gitOutput(dir, nil, "rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	for i := 0; i < n; i++ {
		if err := stageAppend(dir, i); err != nil {
			return "", err
		}
		if err := writeFile(filepath.Join(dir, "artifacts", "bench-notes.md"), []byte(artifact(i+1))); err != nil {
			return "", err
		}
		if err := git(dir, "add", "-A"); err != nil {
			return "", err
		}
		if err := git(dir, "commit", "-q", "--no-verify", "-m", fmt.Sprintf("progress %d", i)); err != nil {
			return "", err
		}
	}
	return base, nil
}

// artifact is version v of a knowledge artifact as awp writes it.
func artifact(v int) string {
	var prov, body strings.Builder
	prov.WriteString("  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: created\n    timestamp: '2027-01-01T00:00:00.000Z'\n")
	for i := 2; i <= v; i++ {
		fmt.Fprintf(&prov, "  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: updated\n    timestamp: '2027-01-01T00:%02d:%02d.000Z'\n    message: Added finding %d\n", i/60, i%60, i)
	}
	for i := 1; i <= v; i++ {
		fmt.Fprintf(&body, "\n## Finding %d\n\nMeasured throughput %d on the second benchmark run.\n", i, i*37)
	}
	return fmt.Sprintf(`---
awp: 0.4.0
smp: '1.0'
type: knowledge-artifact
id: 'artifact:bench-notes'
title: Benchmark Notes
authors:
  - 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'
version: %d
created: '2027-01-01T00:00:00.000Z'
provenance:
%s---

# Benchmark Notes
%s`, v, prov.String(), body.String())
}

// treeCheck is scenario 5.
func (b *bench) treeCheck() (scenario, error) {
	s := scenario{title: "5. check --all on the 1,206-entry workspace",
		targets: map[string]float64{"small check": 0.5}}
	dir, err := b.repo("tree", 0)
	if err != nil {
		return s, err
	}
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	return s, b.compare(&s, b.smallHook("small-hook check --all", dir, "check", "--all"), true)
}

// signedRange is scenario 10: the 200-commit pull request of scenario 4,
// every commit signed with an SSH key (git commit -S), checked with
// signatures.require: human-owned from the base's .small-hook.yml, and
// without a signature policy (--config) over the same commits.
func (b *bench) signedRange() (scenario, error) {
	s := scenario{title: "10. range mode, 200 SSH-signed commits, signatures.require: human-owned",
		targets: map[string]float64{"small-hook check --base, no signatures section": 1.2}}
	dir, err := b.repo("signed", 0)
	if err != nil {
		return s, err
	}
	key := filepath.Join(b.work, "signing-key")
	// A kept work directory holds the key of an earlier run.
	for _, f := range []string{key, key + ".pub"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return s, err
		}
	}
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "bench", "-f", key).CombinedOutput(); err != nil {
		return s, fmt.Errorf("ssh-keygen: %w\n%s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		return s, err
	}
	plain := filepath.Join(b.work, "no-signatures.yml")
	for path, content := range map[string]string{
		filepath.Join(dir, ".github", "allowed_signers"): gittest.Email + " " + string(pub),
		filepath.Join(dir, ".small-hook.yml"):            "signatures:\n  allowed-signers: .github/allowed_signers\n  require: human-owned\n",
		plain:                                            "secrets:\n  scope: governed\n",
	} {
		if err := writeFile(path, []byte(content)); err != nil {
			return s, err
		}
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "signing policy"},
		{"config", "commit.gpgsign", "true"}, {"config", "gpg.format", "ssh"}, {"config", "user.signingkey", key}} {
		if err := git(dir, args...); err != nil {
			return s, err
		}
	}
	base, err := pullRequest(dir, 200)
	if err != nil {
		return s, err
	}
	return s, b.compare(&s, b.smallHook("small-hook check --base, require: human-owned", dir, "check", "--base", base), false,
		b.smallHook("small-hook check --base, no signatures section", dir, "check", "--base", base, "--config", plain))
}
