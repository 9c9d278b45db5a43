package main

import (
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
