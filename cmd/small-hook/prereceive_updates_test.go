package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPreReceiveJudgesEveryUpdateInFull: git applies each update of a
// push on its own, refusing a branch set to a non-commit only after the
// hook accepted the push. A force-push of main that drops two entries,
// paired with a branch aaa (which git lists first) set to a tag of a
// tree, is refused for main's rewrite (and for the branch); the server's
// main does not move. Alone,
// the branch and a tag of a tree are refused; tags of commits pass.
func TestPreReceiveJudgesEveryUpdateInFull(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	s := newServer(t, r, "")
	appendProgress(r, "a human's first append", 21)
	kept := appendProgress(r, "a human's second append", 22)
	out, ok := pushTo(t, r, nil, "main", "main:refs/heads/aaa")
	accepted(t, "two appends", out, ok)

	r.Git("checkout", "-q", "-b", "agent", "HEAD~2")
	agent := appendProgress(r, "an agent's append", 23)
	r.Git("tag", "-a", "-m", "a tree", "tree-tag", r.Git("rev-parse", "HEAD^{tree}"))
	out, ok = pushTo(t, r, nil, "+tree-tag:refs/heads/aaa", "+agent:main")
	if i, j := strings.Index(out, "refs/heads/aaa "), strings.Index(out, "refs/heads/main "); i < 0 || j < i {
		t.Fatalf("git did not hand the hook aaa's update before main's; the test proves nothing:\n%s", out)
	}
	refused(t, "a rewrite of main paired with a branch set to a tag of a tree", out, ok, "refs/heads/main", agent, progressPath, "small/append-only")
	if !strings.Contains(out, "remote: refs/heads/aaa: error push/not-a-commit") {
		t.Errorf("the branch set to a tag of a tree is not reported:\n%s", out)
	}
	if got := serverHas(t, s, "refs/heads/main"); got != kept {
		t.Fatalf("the server's main moved to %s", got)
	}

	for _, c := range []struct{ what, refspec, ref string }{
		{"a branch set to a tag of a tree", "+tree-tag:refs/heads/aaa", "refs/heads/aaa"},
		{"a branch set to a tree", r.Git("rev-parse", "HEAD^{tree}") + ":refs/heads/bbb", "refs/heads/bbb"},
		{"a tag of a tree", "tree-tag", "refs/tags/tree-tag"},
		{"a lightweight tag of a blob", r.Git("rev-parse", "HEAD:"+progressPath) + ":refs/tags/blob", "refs/tags/blob"},
	} {
		out, ok := pushTo(t, r, nil, c.refspec)
		if ok || !strings.Contains(out, "remote: "+c.ref+": error push/not-a-commit") {
			t.Errorf("%s: want push/not-a-commit:\n%s", c.what, out)
		}
	}
	r.Git("tag", "v1", kept)
	r.Git("tag", "-a", "-m", "v1", "v1-annotated", kept)
	out, ok = pushTo(t, r, nil, "v1", "v1-annotated")
	accepted(t, "tags of a commit", out, ok)
}

// TestPreReceiveRefusesReplacements: a push of refs/replace/<blob of
// main's progress file> would make git show the rewritten file for main
// on the server; it is refused (push/replace) until a human's
// push.replace-refs: allow is on the default branch. Deleting a
// replacement, and notes, are accepted.
func TestPreReceiveRefusesReplacements(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	s := newServer(t, r, "")
	original := r.Read(progressPath)
	blob := r.Git("rev-parse", "HEAD:"+progressPath)
	rewriteProgress(r)
	replacement := r.Git("hash-object", "-w", progressPath)
	r.Git("checkout", "-q", "--", progressPath)
	ref := "refs/replace/" + blob
	out, ok := pushTo(t, r, nil, replacement+":"+ref)
	if ok || !strings.Contains(out, "remote: "+ref+": error push/replace") {
		t.Fatalf("a replacement of main's progress file: want push/replace:\n%s", out)
	}
	if shown := r.Git("-C", s.dir, "show", "main:"+progressPath); shown+"\n" != original {
		t.Fatalf("the server shows another progress file for main:\n%s", shown)
	}

	r.Git("notes", "add", "-m", "a note", "HEAD")
	out, ok = pushTo(t, r, nil, "refs/notes/commits")
	accepted(t, "a note", out, ok)

	r.Write(".small-hook.yml", "push:\n  replace-refs: allow\n")
	r.Commit("this project replaces objects on purpose")
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "the configuration", out, ok)
	out, ok = pushTo(t, r, nil, replacement+":"+ref)
	accepted(t, "a replacement push.replace-refs allows", out, ok)
	r.Write(".small-hook.yml", "push:\n  replace-refs: refuse\n")
	r.Commit("no more replacements")
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "the configuration", out, ok)
	out, ok = pushTo(t, r, nil, ":"+ref)
	accepted(t, "deleting a replacement", out, ok)
}

// TestPreReceiveTrustsOnlyWhatItJudged: servers write refs without the
// pre-receive hook (GitLab fetches a fork's merge request into
// refs/merge-requests/<iid>/head, GitHub writes refs/pull/<n>/head, GitLab
// keeps refs/keep-around/*). A rewrite main refused that such a ref holds
// is judged again when main is pushed to it: only branches and tags say
// what the guard accepted.
func TestPreReceiveTrustsOnlyWhatItJudged(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	s := newServer(t, r, "")
	rewriteProgress(r)
	rewrite := r.Commit("a rewrite")
	out, ok := pushTo(t, r, nil, "main")
	refused(t, "a rewrite", out, ok, "refs/heads/main", rewrite, progressPath, "small/append-only")
	for _, ref := range []string{"refs/merge-requests/1/head", "refs/pull/1/head", "refs/keep-around/" + rewrite} {
		r.Git("-C", s.dir, "fetch", "-q", r.Dir, rewrite+":"+ref)
		out, ok := pushTo(t, r, nil, "main")
		refused(t, "main pushed to the commit "+ref+" holds", out, ok, "refs/heads/main", rewrite, progressPath, "small/append-only")
		r.Git("-C", s.dir, "update-ref", "-d", ref)
	}
}

// TestInstallSaysWhichRefsAreOlderThanTheHook: the branches and tags of a
// bare repository that exist before install were never judged; install
// says so, and the survey it names runs in the server's repository.
func TestInstallSaysWhichRefsAreOlderThanTheHook(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	rewriteProgress(r)
	rewrite := r.Commit("a rewrite from before the hook")
	r.Git("tag", "v1")
	dir := filepath.Join(t.TempDir(), "server.git")
	r.Git("clone", "-q", "--bare", r.Dir, dir)
	out, ok := runIn(t, dir, binEnv(t), smallHook.path(t), "install")
	survey := "small-hook check --history --head refs/heads/main"
	if !ok || !strings.Contains(out, "pre-receive: 1 branch and 1 tag are older than the hook: it counts what they hold as judged") || !strings.Contains(out, survey) {
		t.Fatalf("install does not say which refs it counts as judged:\n%s", out)
	}
	out, ok = runIn(t, dir, binEnv(t), smallHook.path(t), strings.Fields(survey)[1:]...)
	if ok || !strings.Contains(out, "small/append-only") || !strings.Contains(out, rewrite[:12]) {
		t.Fatalf("the survey install names does not show the history's rewrite:\n%s", out)
	}
	out, ok = runIn(t, dir, binEnv(t), smallHook.path(t), "install")
	if !ok || !strings.Contains(out, "older than the hook") {
		t.Fatalf("install again:\n%s", out)
	}
}
