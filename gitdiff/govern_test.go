package gitdiff

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
)

const (
	declaring = "---\nsmp: '1.0'\n---\nbody\n"
	plainNote = "# notes\n"
)

// unitPaths lists the paths of every unit, one unit per "|".
func unitPaths(units []changes.Unit) string {
	var out []string
	for _, u := range units {
		out = append(out, paths(u.Changes))
	}
	return strings.Join(out, " | ")
}

// TestOnlyDeclaredPathsAreRead: candidate paths that nothing declares are
// left out of every kind of unit, before their blobs are read.
func TestOnlyDeclaredPathsAreRead(t *testing.T) {
	r := newRepo(t)
	r.Write("artifacts/notes.md", plainNote)
	r.Write("artifacts/x.md", declaring)
	r.Write("Artifacts/def/artifact.json", "{}")
	r.Write("w/.small/notes.txt", "n")
	r.Write("v/.small/plan.small.yml", "p")
	r.Write("v/.small/notes.txt", "n")
	r.Write("t/.awp/workspace.json", "{}")
	r.Write("t/artifacts/any.json", "{}")
	r.Write("u/.awp/key.pem", "k")
	base := r.Commit("one")
	want := "artifacts/x.md t/.awp/workspace.json t/artifacts/any.json v/.small/notes.txt v/.small/plan.small.yml"

	tree, err := r.open().Tree("HEAD", Scope{})
	if err != nil || paths(tree.Changes) != want {
		t.Errorf("tree: %s (%v)\nwant  %s", paths(tree.Changes), err, want)
	}
	units, err := rangeUnits(r.open(), "", "HEAD", Scope{})
	if err != nil || unitPaths(units) != want {
		t.Errorf("root commit: %s (%v)", unitPaths(units), err)
	}
	for _, p := range []string{"artifacts/notes.md", "artifacts/x.md", "Artifacts/def/artifact.json", "w/.small/notes.txt", "v/.small/notes.txt", "t/artifacts/any.json", "u/.awp/key.pem"} {
		r.Write(p, "changed "+p)
	}
	r.Git("add", "-A")
	u, err := r.open().Staged(Scope{})
	// artifacts/x.md no longer declares itself, but did in HEAD.
	if want := "artifacts/x.md t/artifacts/any.json v/.small/notes.txt"; err != nil || paths(u.Changes) != want {
		t.Errorf("staged: %s (%v)\nwant    %s", paths(u.Changes), err, want)
	}
	all, err := r.open().Staged(Scope{All: true})
	if err != nil || !strings.Contains(paths(all.Changes), "artifacts/notes.md") {
		t.Errorf("secrets.scope: staged reads every path: %s (%v)", paths(all.Changes), err)
	}
	r.Commit("two")
	units, err = rangeUnits(r.open(), base, "HEAD", Scope{})
	if want := "artifacts/x.md t/artifacts/any.json v/.small/notes.txt"; err != nil || unitPaths(units) != want {
		t.Errorf("range: %s (%v)\nwant   %s", unitPaths(units), err, want)
	}
}

// TestTrustedRevisionGoverns: what the trusted revision declares governs a
// range whose own commits never declare it (the base branch declared a
// workspace after the pull request forked).
func TestTrustedRevisionGoverns(t *testing.T) {
	r := newRepo(t)
	r.Write("ws/artifacts/n.md", plainNote)
	fork := r.Commit("notes")
	r.Write("ws/.awp/workspace.json", "{}")
	trusted := r.Commit("declare the workspace")
	r.Git("checkout", "-q", "-b", "pr", fork)
	r.Write("ws/artifacts/n.md", "# notes, edited\n")
	r.Commit("edit")
	for scope, want := range map[string]string{"": "", trusted: "ws/artifacts/n.md"} {
		units, err := rangeUnits(r.open(), fork, "HEAD", Scope{Trusted: scope})
		if err != nil || unitPaths(units) != want {
			t.Errorf("trusted %q: %q (%v), want %q", scope, unitPaths(units), err, want)
		}
		if want != "" && !units[0].Declared.Has(workspace.Declaration{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "ws/"}}) {
			t.Errorf("the unit does not carry the declaration: %+v", units[0].Declared)
		}
	}
	if _, err := rangeUnits(r.open(), fork, "HEAD", Scope{Trusted: strings.Repeat("0", 40)}); err == nil || !strings.Contains(err.Error(), "trusted revision") {
		t.Errorf("an unknown trusted revision: %v", err)
	}
}

// TestEarlierStatesOfTheRangeGovern: a workspace declared by an earlier
// commit of the range stays governed after its marker is gone, in later
// commits and merges, whatever their own states hold.
func TestEarlierStatesOfTheRangeGovern(t *testing.T) {
	r := newRepo(t)
	r.Write("README.md", "x")
	base := r.Commit("base")
	r.Write("ws/.awp/workspace.json", "{}")
	r.Write("ws/artifacts/n.md", plainNote)
	r.Commit("workspace")
	r.Git("rm", "-q", "ws/.awp/workspace.json")
	r.Commit("undeclare")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("ws/artifacts/side.md", plainNote)
	r.Commit("side")
	r.Git("checkout", "-q", "main")
	r.Write("ws/artifacts/n.md", "# rewritten\n")
	r.Commit("rewrite")
	r.Git("merge", "-q", "--no-ff", "--no-edit", "side")
	r.Write("ws/artifacts/n.md", "# rewritten again\n")
	r.Write("ws/artifacts/side.md", "# edited in the merge\n")
	r.Git("add", "-A")
	r.Git("commit", "-q", "--amend", "--no-edit")
	units, err := rangeUnits(r.open(), base, "HEAD", Scope{})
	want := "ws/.awp/workspace.json ws/artifacts/n.md | ws/.awp/workspace.json | ws/artifacts/side.md | ws/artifacts/n.md | ws/artifacts/n.md ws/artifacts/side.md"
	if err != nil || unitPaths(units) != want {
		t.Errorf("%s (%v)\nwant %s", unitPaths(units), err, want)
	}
	// Without the earlier commits, nothing declares ws/ any more.
	units, err = rangeUnits(r.open(), "HEAD~1", "HEAD", Scope{})
	if err != nil || len(units) != 2 || unitPaths(units) != " | " {
		t.Errorf("a range that never saw the marker: %q (%v)", unitPaths(units), err)
	}
}

// TestStagedMarkerDeletionKeepsItsWorkspace: in the staged change, HEAD
// declares what the index no longer does.
func TestStagedMarkerDeletionKeepsItsWorkspace(t *testing.T) {
	r := newRepo(t)
	r.Write("ws/.awp/workspace.json", "{}")
	r.Write("ws/artifacts/n.md", plainNote)
	r.Write("ws/.small/intent.small.yml", "i")
	r.Write("ws/.small/notes.txt", "n")
	r.Commit("one")
	r.Git("rm", "-q", "ws/.awp/workspace.json", "ws/.small/intent.small.yml")
	r.Write("ws/artifacts/n.md", "# rewritten\n")
	r.Write("ws/.small/notes.txt", "n2")
	r.Git("add", "-A")
	u, err := r.open().Staged(Scope{})
	if want := "ws/.awp/workspace.json ws/.small/intent.small.yml ws/.small/notes.txt ws/artifacts/n.md"; err != nil || paths(u.Changes) != want {
		t.Errorf("%s (%v)\nwant %s", paths(u.Changes), err, want)
	}
}

// TestStagedMergeGovernsByEveryParent: a merge in progress reads a path
// that only the merged branch declares.
func TestStagedMergeGovernsByEveryParent(t *testing.T) {
	r := newRepo(t)
	r.Write("ws/artifacts/n.md", plainNote)
	r.Commit("notes")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("ws/.awp/workspace.json", "{}")
	r.Commit("declare")
	r.Git("checkout", "-q", "main")
	r.Write("ws/artifacts/n.md", "# edited on main\n")
	r.Write("other/artifacts/o.md", plainNote)
	r.Commit("edit")
	r.Git("merge", "-q", "--no-commit", "side")
	r.Git("rm", "-q", "--cached", "ws/.awp/workspace.json")
	r.Write("ws/artifacts/n.md", "# edited in the merge\n")
	r.Write("other/artifacts/o.md", "# edited in the merge\n")
	r.Git("add", "ws/artifacts/n.md", "other/artifacts/o.md")
	u, err := r.open().Staged(Scope{})
	if want := "ws/.awp/workspace.json ws/artifacts/n.md"; err != nil || paths(u.Changes) != want {
		t.Errorf("%s (%v)\nwant %s", paths(u.Changes), err, want)
	}
}

// TestTipGovernsByThePreviousTip: a force-push that removes a marker and
// rewrites the artifacts beside it is compared on governed paths.
func TestTipGovernsByThePreviousTip(t *testing.T) {
	r := newRepo(t)
	r.Write("ws/.awp/workspace.json", "{}")
	r.Write("ws/artifacts/n.md", plainNote)
	r.Write("build/artifacts/b.md", plainNote)
	previous := r.Commit("one")
	r.Git("checkout", "-q", "--orphan", "rewritten")
	r.Git("rm", "-q", "--cached", "ws/.awp/workspace.json")
	r.Write("ws/artifacts/n.md", "# rewritten\n")
	r.Write("build/artifacts/b.md", "# other\n")
	r.Git("add", "ws/artifacts/n.md", "build/artifacts/b.md")
	r.Git("commit", "-q", "-m", "rewritten")
	u, err := r.open().Tip(previous, "HEAD", "", Scope{})
	if err != nil || u == nil || paths(u.Changes) != "ws/.awp/workspace.json ws/artifacts/n.md" {
		t.Fatalf("tip: %+v (%v)", u, err)
	}
}
