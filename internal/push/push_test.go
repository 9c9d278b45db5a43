package push

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/gittest"
)

// open opens the test repository r.
func open(t *testing.T, r *gittest.Repo) *gitdiff.Repo {
	t.Helper()
	g, err := gitdiff.Open(r.Dir, gitdiff.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// commits makes n commits of a file on the current branch and returns
// their ids.
func commits(r *gittest.Repo, n int) []string {
	var out []string
	for i := range n {
		r.Write("notes.txt", fmt.Sprintf("note %d\n", i))
		out = append(out, r.Commit(fmt.Sprintf("note %d", i)))
	}
	return out
}

func TestGuarded(t *testing.T) {
	for ref, want := range map[string]bool{
		"refs/heads/main": true, "refs/tags/v1": true, "refs/merge-requests/1/head": false, "refs/pull/1/head": false,
		"refs/keep-around/abc": false, "refs/pipelines/7": false, "refs/remotes/origin/main": false, "refs/notes/commits": false,
		"refs/replace/abc": false, "refs/headsx/main": false,
	} {
		if got := Guarded(ref); got != want {
			t.Errorf("%s: %v, want %v", ref, got, want)
		}
	}
}

func TestReadLinesRefusesWhatGitNeverWrites(t *testing.T) {
	id := strings.Repeat("a", 40)
	lines, err := ReadReceive(strings.NewReader(ZeroID + " " + id + " refs/heads/main\r\n\n" + id + " " + ZeroID + " refs/tags/v1\n"))
	if want := []ReceiveLine{{ZeroID, id, "refs/heads/main"}, {id, ZeroID, "refs/tags/v1"}}; err != nil || !slices.Equal(lines, want) {
		t.Fatalf("%v, %v", lines, err)
	}
	for input, want := range map[string]string{
		"refs/heads/main " + id + " refs/heads/main " + ZeroID + "\n": "",
		"refs/heads/main HEAD refs/heads/main " + ZeroID + "\n":       `line 1 of standard input: "HEAD" is not a full object id`,
		"refs/heads/main " + id + "\n":                                "line 1 of standard input has 2 fields, not the 4 git writes",
	} {
		_, err := ReadSend(strings.NewReader(input))
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: %v, want %q", input, err, want)
		}
	}
}

// TestReceiveJudgesWhatOnlyBranchesAndTagsHold: the server's refs of its
// own (a merge request's head) say nothing about what the hook judged.
func TestReceiveJudgesWhatOnlyBranchesAndTagsHold(t *testing.T) {
	r := gittest.New(t).Dated()
	ids := commits(r, 3)
	r.Git("tag", "v1", ids[0])
	r.Git("update-ref", "refs/merge-requests/1/head", ids[2])
	r.Git("update-ref", "refs/heads/main", ids[1])
	plan, err := Receive(open(t, r), []ReceiveLine{{ids[1], ids[2], "refs/heads/main"}}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{ids[1], ids[0]}; !slices.Equal(plan.Judged, want) && !slices.Equal(plan.Judged, []string{ids[0], ids[1]}) {
		t.Errorf("judged %v, want main's and v1's commits %v", plan.Judged, want)
	}
	if plan.PolicyRev != ids[1] || plan.Onto != ids[1] || plan.PolicyFrom != "refs/heads/main" {
		t.Errorf("policy %s from %s, onto %s; want main's tip", plan.PolicyRev, plan.PolicyFrom, plan.Onto)
	}
}

// TestPrePushJudgesWhatTheRemoteHas: only the remote-tracking refs of the
// remote pushed to say what it has; a remote never fetched has none, and
// the plan says how to judge less.
func TestPrePushJudgesWhatTheRemoteHas(t *testing.T) {
	r := gittest.New(t).Dated()
	ids := commits(r, 3)
	for _, remote := range []string{"origin", "fork", "new"} {
		r.Git("remote", "add", remote, "/nowhere/"+remote)
	}
	r.Git("update-ref", "refs/remotes/origin/main", ids[0])
	r.Git("update-ref", "refs/remotes/fork/main", ids[1])
	g := open(t, r)
	line := []SendLine{{"refs/heads/main", ids[2], "refs/heads/main", ZeroID}}
	for remote, want := range map[string]struct {
		judged []string
		note   string
	}{
		"origin": {[]string{ids[0]}, ""},
		"fork":   {[]string{ids[1]}, ""},
		"new":    {nil, "no remote-tracking ref of new says what it has: every commit judged from the root (git fetch new first, and the push judges only what new lacks)"},
		"/a/url": {nil, "a push to /a/url, not to a configured remote: no remote-tracking ref says what it has, every commit judged from the root"},
	} {
		sent, err := PrePush(g, remote, line)
		if err != nil || len(sent) != 1 || sent[0].Plan == nil {
			t.Fatalf("%s: %+v, %v", remote, sent, err)
		}
		if p := sent[0].Plan; !slices.Equal(p.Judged, want.judged) || p.Note != want.note {
			t.Errorf("%s: judged %v, note %q; want %v, %q", remote, p.Judged, p.Note, want.judged, want.note)
		}
	}
}

// TestEachJudgesEveryUpdateInFull: an update that brings no commit (a
// branch set to a tag of a tree) comes first; the rewrite of main after it
// still gets its ref unit, its commits and its tip comparison.
func TestEachJudgesEveryUpdateInFull(t *testing.T) {
	r := gittest.New(t).Dated()
	old := commits(r, 2)
	r.Git("tag", "-a", "-m", "a tree", "tree-tag", old[1]+"^{tree}")
	tag := r.Git("rev-parse", "tree-tag")
	r.Git("checkout", "-q", "-b", "rewrite", old[0])
	next := commits(r, 1)[0]
	plan := &Plan{Judged: []string{old[1]}, Updates: []Update{
		{Ref: "refs/heads/aaa", Old: old[1], New: tag, Previous: old[1]},
		{Ref: "refs/heads/main", Old: old[1], New: next, Previous: old[1], DefaultBranch: true},
	}}
	var got []string
	n, err := Each(open(t, r), plan, gitdiff.Scope{}, config.Default().Push, func(u changes.Unit) error {
		s := string(u.Mode) + " " + u.Ref
		switch {
		case u.Target != nil:
			s += " " + u.Target.Type + "/" + u.Target.Peeled
		case u.Mode == changes.ModeTip:
			s += " " + u.Previous[:7] + ".." + u.Commit.Hash[:7]
		case u.Commit != nil:
			s += " " + u.Commit.Hash[:7]
		}
		got = append(got, s)
		return nil
	})
	want := []string{
		"ref refs/heads/aaa tag/tree",
		"ref refs/heads/main commit/commit",
		"range refs/heads/main " + next[:7],
		"tip refs/heads/main " + old[1][:7] + ".." + next[:7],
	}
	if err != nil || n != 1 || !slices.Equal(got, want) {
		t.Errorf("%d commits, %v\ngot  %q\nwant %q", n, err, got, want)
	}
}
