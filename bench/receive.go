package main

import (
	"os"
	"path/filepath"
)

// preReceive is scenario 14: the 200-commit pull request of scenario 4
// pushed to a server, judged by the pre-receive hook as git runs it
// (`small-hook check --pre-receive` in the bare repository, the ref update
// on standard input, the server's main still at the base), and by gitleaks
// over the same range in the same repository.
func (b *bench) preReceive() (scenario, error) {
	s := scenario{title: "14. pre-receive hook, a 200-commit push",
		targets:       map[string]float64{"gitleaks git --log-opts=BASE..HEAD": 0.5},
		memoryTargets: map[string]float64{"gitleaks git --log-opts=BASE..HEAD": 1}}
	dir, err := b.repo("receive", 0)
	if err != nil {
		return s, err
	}
	base, err := pullRequest(dir, 200)
	if err != nil {
		return s, err
	}
	head, err := gitOutput(dir, nil, "rev-parse", "HEAD")
	if err != nil {
		return s, err
	}
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	// The server holds the pushed objects in one pack, as after a push, and
	// main where it was before the push: the hook runs before git moves it.
	server := filepath.Join(b.work, "receive-server.git")
	if err := os.RemoveAll(server); err != nil {
		return s, err
	}
	if err := git(b.work, "clone", "-q", "--bare", "--no-local", dir, server); err != nil {
		return s, err
	}
	if err := git(server, "update-ref", "refs/heads/main", base); err != nil {
		return s, err
	}
	hook := b.smallHook("small-hook check --pre-receive", server, "check", "--pre-receive")
	hook.stdin = base + " " + head + " refs/heads/main\n"
	return s, b.compare(&s, hook, false, b.gitleaksRange(server, base, head)...)
}
