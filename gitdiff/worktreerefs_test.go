package gitdiff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// TestPerWorktreeRefsAreTheWorktrees: a linked worktree's HEAD may name
// a ref git keeps for that worktree alone (refs/worktree/, refs/bisect/,
// refs/rewritten/, under its own git directory): the fast reader reads
// HEAD's commit there, as git does, and not as an unborn branch of the
// shared refs (which would judge every file as new, with the built-in
// configuration).
func TestPerWorktreeRefsAreTheWorktrees(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a1")
	first := r.Commit("one")
	r.Write(".small/constraints.small.yml", "a2")
	r.Commit("two")
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "--detach", wt, first)
	w := &repo{gittest.At(t, wt).Dated()}
	for _, ref := range []string{"refs/worktree/topic", "refs/bisect/good"} {
		w.Git("update-ref", ref, first)
		w.Git("symbolic-ref", "HEAD", ref)
		if _, err := os.Stat(filepath.Join(r.Dir, ".git", "worktrees", "wt", filepath.FromSlash(ref))); err != nil {
			t.Fatalf("git did not keep %s in the worktree's git directory: %v", ref, err)
		}
		w.Write(".small/constraints.small.yml", "a3")
		w.Git("add", "-A")
		for _, reader := range []string{"", ReaderGit} {
			g := w.openWith(map[string]string{"SMALL_HOOK_READER": reader})
			head, err := g.Resolve("HEAD")
			if err != nil || head != first {
				t.Errorf("%s, reader %q: HEAD is %s (%v), want %s", ref, reader, head, err, first)
			}
			u, err := g.Staged(Scope{})
			if err != nil || summary(u.Changes) != ".small/constraints.small.yml:a1>a3" {
				t.Errorf("%s, reader %q: staged %s, %v", ref, reader, summary(u.Changes), err)
			}
			g.Close()
		}
	}
}
