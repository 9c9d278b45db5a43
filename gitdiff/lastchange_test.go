package gitdiff

import "testing"

// TestLastChange: the commit that wrote a file's content at a head, along
// git's simplified history: past commits that leave the file alone, into
// the side a merge took the file from, the merge itself when it wrote a
// content neither parent had; "" for a path no commit touched, and a
// path is literal, never a pattern.
func TestLastChange(t *testing.T) {
	r := newRepo(t)
	r.Write("f", "1\n")
	first := r.Commit("first")
	r.Write("other", "x\n")
	r.Commit("leaves f alone")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("f", "side\n")
	side := r.Commit("side writes f")
	r.Git("checkout", "-q", "main")
	r.Write("other", "y\n")
	r.Commit("main leaves f alone")
	r.Git("merge", "-q", "--no-edit", "side")
	tookSide := r.Git("rev-parse", "HEAD")
	r.Git("checkout", "-q", "-b", "conflict", first)
	r.Write("f", "conflict\n")
	r.Commit("another f")
	if _, err := r.Try("merge", "-q", "main"); err == nil {
		t.Fatal("the merge did not conflict")
	}
	r.Write("f", "resolved\n")
	resolved := r.Commit("resolve")
	r.Write("a*", "star\n")
	star := r.Commit("a file named a*")

	repo := r.open()
	for _, c := range []struct{ head, path, want string }{
		{tookSide, "f", side},
		{tookSide, "nothing", ""},
		{resolved, "f", resolved},
		{first, "f", first},
		{star, "a*", star},
		{star, "a?", ""},
	} {
		got, err := repo.LastChange(c.head, c.path)
		if err != nil || got != c.want {
			t.Errorf("LastChange(%.7s, %q) = %q, %v; want %q", c.head, c.path, got, err, c.want)
		}
	}
}
