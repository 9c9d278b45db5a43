package gitdiff

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gittest"
)

// historyUnits walks h and returns "message[changes]" for every unit.
func historyUnits(t *testing.T, h *History) []string {
	t.Helper()
	var out []string
	err := h.Units(Scope{}, func(u changes.Unit) error {
		out = append(out, strings.TrimSpace(u.Commit.Message)+"["+summary(u.Changes)+"]")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHistoryListsWhatGitLists compares the commits of a History with
// `git rev-list`: the same set, every parent before its children, and each
// commit's parents as git records them.
func TestHistoryListsWhatGitLists(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/plan.small.yml", "a")
	base := r.Commit("base")
	r.Write(".small/plan.small.yml", "a b")
	r.Commit("main 1")
	r.Git("checkout", "-q", "-b", "side", base)
	r.Write(".small/handoff.small.yml", "q")
	r.Commit("side 1")
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-edit", "side")
	r.Write(".small/plan.small.yml", "a b c")
	r.Commit("main 2")

	h, err := r.open().History("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var ids []string
	for _, c := range h.Commits() {
		want := strings.Fields(r.Git("rev-list", "--parents", "-n", "1", c.Hash))[1:]
		if !slices.Equal(c.Parents, want) || c.Boundary {
			t.Errorf("commit %s: parents %v boundary %v, git says %v", c.Hash, c.Parents, c.Boundary, want)
		}
		for _, p := range c.Parents {
			if !seen[p] {
				t.Errorf("commit %s comes before its parent %s", c.Hash, p)
			}
		}
		seen[c.Hash] = true
		ids = append(ids, c.Hash)
	}
	slices.Sort(ids)
	want := strings.Fields(r.Git("rev-list", "HEAD"))
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("commits %v, git rev-list HEAD says %v", ids, want)
	}
	units := historyUnits(t, h)
	if len(units) != len(want) || units[0] != "base[.small/plan.small.yml:->a]" {
		t.Errorf("units %v", units)
	}
}

// TestHistoryOfAShallowCloneEndsAtItsBoundary walks a clone of depth 2:
// the boundary commit is a root of the walk, marked as a boundary, whose
// unit adds every governed file it holds, whereas Range refuses to go
// there.
func TestHistoryOfAShallowCloneEndsAtItsBoundary(t *testing.T) {
	r := newRepo(t)
	for _, step := range []string{"a", "a b", "a b c"} {
		r.Write(".small/plan.small.yml", step)
		r.Commit("step " + step)
	}
	clone := t.TempDir()
	gittest.At(t, clone).Git("clone", "-q", "--depth", "2", "file://"+r.Dir, "c")
	c := &repo{gittest.At(t, filepath.Join(clone, "c")).Dated()}
	h, err := c.open().History("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	commits := h.Commits()
	boundary := c.Git("rev-parse", "HEAD~1")
	if len(commits) != 2 || commits[0].Hash != boundary || !commits[0].Boundary || len(commits[0].Parents) != 0 || commits[1].Boundary {
		t.Fatalf("commits %+v, want the boundary %s first", commits, boundary)
	}
	if got := strings.Join(historyUnits(t, h), " "); got != "step a b[.small/plan.small.yml:->a b] step a b c[.small/plan.small.yml:a b>a b c]" {
		t.Errorf("units %s", got)
	}
	if _, err := rangeUnits(c.open(), "", "HEAD", Scope{}); err == nil {
		t.Error("Range walked past the boundary of a shallow clone")
	}
}
