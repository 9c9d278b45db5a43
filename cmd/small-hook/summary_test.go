package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusedDeletionIsCountedAsARef: the pre-push hook refuses the
// deletion of the remote's default branch; the summary counts the error
// in the ref it is about, not in a file, when no file was checked.
func TestRefusedDeletionIsCountedAsARef(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	r.Git("push", "-q", "origin", "main")
	r.Git("remote", "set-head", "origin", "main")
	line := "(delete) " + zeroID + " refs/heads/main " + r.Git("rev-parse", "main") + "\n"
	code, out, errOut := r.checkInput(line, "check", "--pre-push", "origin")
	if code != exitFindings || !strings.Contains(out, "push/protected") || !strings.HasSuffix(out, "small-hook (pre-push hook): 1 error in 1 ref (0 files checked, 0 commits)\n") {
		t.Fatalf("a refused deletion: exit %d\n%s%s", code, out, errOut)
	}
}
