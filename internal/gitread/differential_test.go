package gitread

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// differentialOrigin builds the history every shape of the differential
// test is made from: governed files, sources in several directories, a
// symbolic link, an executable, and a progress file that grows past the
// size above which the fast reader hashes an object while it inflates it,
// so that packing stores deltas of it.
func differentialOrigin(t *testing.T) string {
	t.Helper()
	r := gittest.New(t).Dated()
	r.Write(".small/intent.small.yml", "intent: human\n")
	r.Write(".small-hook.yml", "rules: {}\n")
	for i := 0; i < 30; i++ {
		r.Write(fmt.Sprintf("src/d%d/f%02d.go", i%4, i), fmt.Sprintf("package d%d\n\nconst F%d = %d\n", i%4, i, i))
	}
	r.Write("docs/readme.md", "docs\n")
	r.Write("run.sh", "#!/bin/sh\n")
	r.Git("update-index", "--add", "--chmod=+x", "run.sh")
	if err := os.Symlink("docs/readme.md", r.Path("link")); err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	progress.WriteString("entries:\n")
	for i := 0; i < 4; i++ {
		for progress.Len() < (i+1)*(minHashAlong/3) {
			fmt.Fprintf(&progress, "  - task_id: task-%d\n    evidence: run %d\n", i, progress.Len())
		}
		r.Write(".small/progress.small.yml", progress.String())
		r.Write(fmt.Sprintf("src/d%d/f%02d.go", i, i), fmt.Sprintf("package d%d\n\nconst F%d = %d\n", i, i, 100+i))
		r.Commit(fmt.Sprint("commit ", i))
	}
	r.Git("config", "uploadpack.allowFilter", "true")
	r.Git("config", "uploadpack.allowAnySHA1InWant", "true")
	return r.Dir
}

// TestReadersAgreeOnEveryShape: on every repository shape of the
// conformance matrix (gittest.Shapes), the probe chooses the reader the
// matrix says, and wherever that is the fast reader, every method of the
// Reader interface answers as the git reader does on the same repository,
// a staged change in its index (see readersAgree). A fast reader that
// reads anything otherwise than git fails here, method by method, not only
// through the units built on it.
func TestReadersAgreeOnEveryShape(t *testing.T) {
	if gittest.ReaderFast != ReaderFast || gittest.ReaderGit != ReaderGit {
		t.Fatalf("gittest names the readers %q and %q", gittest.ReaderFast, gittest.ReaderGit)
	}
	origin := differentialOrigin(t)
	for _, s := range gittest.Shapes() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			dir, env := s.Build(t, origin, t.TempDir())
			if !s.Bare {
				r := gittest.At(t, dir).Dated()
				for k, v := range env {
					r.Env = append(r.Env, k+"="+v)
				}
				r.Write(".small/progress.small.yml", r.Read(".small/progress.small.yml")+"  - task_id: staged\n")
				r.Write(".small/new.small.yml", "new: true\n")
				r.Git("add", ".small")
				r.Git("rm", "-q", "--cached", ".small/intent.small.yml")
			}
			opts := Options{Getenv: func(k string) string { return env[k] }}
			found, err := Open(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer found.Reader.Close()
			if got := found.Reader.Name(); got != s.Reader {
				t.Fatalf("the probe chose the %s reader (%s), want %s", got, found.Why, s.Reader)
			}
			if s.Reader != ReaderFast {
				return
			}
			git, err := openWithGit(dir, opts, "the differential test")
			if err != nil {
				t.Fatal(err)
			}
			defer git.Reader.Close()
			readersAgree(t, gittest.At(t, dir), env, found.Reader, git.Reader, !s.Bare)
		})
	}
}

// differentialScopes are the kinds of scope a check reads the index in:
// the common decoding, every path, paths named alone (in and out of the
// common scope, and one the index lacks) and policy paths.
var differentialScopes = []Scope{
	{},
	{All: true},
	{Only: []string{}},
	{Only: []string{".small/progress.small.yml", "src/d1/f01.go", "missing.txt"}},
	{Policy: []string{".small-hook.yml", "docs/readme.md"}},
}

// readersAgree compares every method of fast with git's, both readers of
// the repository r (with the hook's environment env): Object for every
// object the repository holds (type and content; with a prefix, the id a
// reader hashes along must be the id of that much of git's content) and
// for one it does not hold, BlobSize (where the fast reader tells a size,
// the length of git's content), Head, Index in every kind of scope (when
// the repository has an index: entries, sparse directories, the cache
// tree), Twin (the twins read as their readers do) and Close.
func readersAgree(t *testing.T, r *gittest.Repo, env map[string]string, fast, git Reader, hasIndex bool) {
	t.Helper()
	for k, v := range env {
		r.Env = append(r.Env, k+"="+v)
	}
	if fast.Name() != ReaderFast || git.Name() != ReaderGit {
		t.Fatalf("the readers are named %q and %q", fast.Name(), git.Name())
	}
	ids := strings.Fields(r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)"))
	missing := plumbing.ComputeHash(plumbing.BlobObject, []byte("no repository holds this"))
	for _, id := range append(ids, missing.String()) {
		h := plumbing.NewHash(id)
		gitKind, gitData, _, gitErr := git.Object(h, -1)
		kind, data, _, err := fast.Object(h, -1)
		switch {
		case h == missing:
			if !errors.Is(err, plumbing.ErrObjectNotFound) || !errors.Is(gitErr, plumbing.ErrObjectNotFound) {
				t.Errorf("missing object: the fast reader says %v, git %v", err, gitErr)
			}
			continue
		case gitErr != nil:
			t.Fatalf("object %s: git: %v", h, gitErr)
		case err != nil || kind != gitKind || !bytes.Equal(data, gitData):
			t.Errorf("object %s: the fast reader reads a %s of %d bytes (%v), git a %s of %d", h, kind, len(data), err, gitKind, len(gitData))
			continue
		}
		prefix := int64(len(gitData) / 2)
		kind, data, sum, err := fast.Object(h, prefix)
		if err != nil || kind != gitKind || !bytes.Equal(data, gitData) {
			t.Errorf("object %s, hashing a prefix of %d: the fast reader reads a %s of %d bytes (%v)", h, prefix, kind, len(data), err)
		}
		if sum != nil && !bytes.Equal(sum, BlobID(gitData[:prefix])) {
			t.Errorf("object %s: the fast reader's id of its first %d bytes is %x, not that of git's content", h, prefix, sum)
		}
		if size, ok := fast.BlobSize(h); ok && size != int64(len(gitData)) {
			t.Errorf("object %s: the fast reader declares %d bytes, git reads %d", h, size, len(gitData))
		}
	}
	headsAgree(t, "", fast, git)
	if hasIndex {
		for _, scope := range differentialScopes {
			want, err := git.Index(scope)
			if err != nil {
				t.Fatalf("index, scope %+v: git: %v", scope, err)
			}
			got, err := fast.Index(scope)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("index, scope %+v: the fast reader reads %s (%v), git %s", scope, describeIndex(got), err, describeIndex(want))
			}
		}
	}
	fastTwin, gitTwin := fast.Twin(), git.Twin()
	headsAgree(t, "twins: ", fastTwin, gitTwin)
	for _, id := range ids {
		h := plumbing.NewHash(id)
		kind, data, _, err := fastTwin.Object(h, -1)
		gitKind, gitData, _, gitErr := gitTwin.Object(h, -1)
		if err != nil || gitErr != nil || kind != gitKind || !bytes.Equal(data, gitData) {
			t.Errorf("twins, object %s: the fast reader's twin reads a %s of %d bytes (%v), git's twin a %s of %d (%v)", h, kind, len(data), err, gitKind, len(gitData), gitErr)
		}
	}
	for _, rd := range []Reader{fastTwin, gitTwin, fast, git} {
		if err := rd.Close(); err != nil {
			t.Errorf("closing the %s reader: %v", rd.Name(), err)
		}
	}
}

// headsAgree compares what two readers read of HEAD.
func headsAgree(t *testing.T, what string, fast, git Reader) {
	t.Helper()
	id, branch, err := fast.Head()
	gitID, gitBranch, gitErr := git.Head()
	if err != nil || gitErr != nil || id != gitID || branch != gitBranch {
		t.Errorf("%sHEAD: the fast reader reads %s on %q (%v), git %s on %q (%v)", what, id, branch, err, gitID, gitBranch, gitErr)
	}
}

// describeIndex renders what a reader read of the index, for a failure.
func describeIndex(idx *IndexFile) string {
	if idx == nil {
		return "no index"
	}
	var tree func(name string, c *CacheTree) string
	tree = func(name string, c *CacheTree) string {
		s := fmt.Sprintf("%s(valid %v %s, %d/%d entries", name, c.Valid, c.Hash, c.entryCount, c.Entries)
		for n, child := range c.Children {
			s += " " + tree(n, child)
		}
		return s + ")"
	}
	out := fmt.Sprintf("entries %v, sparse %v", idx.Entries, idx.Sparse)
	if idx.Tree != nil {
		out += ", cache tree " + tree("", idx.Tree)
	}
	return out
}

// FuzzReadersAgree applies the same mutations to a repository — files
// written, appended to, removed, linked; staged, staged as intent to add,
// committed; packed; the index rewritten in another version; HEAD
// detached — and wants both readers to read it alike (readersAgree). Each
// byte of the input is one mutation, at most 24 of them.
func FuzzReadersAgree(f *testing.F) {
	f.Add([]byte{0, 2, 3})
	f.Add([]byte{0, 1, 2, 3, 4, 1, 2, 6})
	f.Add([]byte{0, 18, 2, 3, 5, 7, 9, 2, 16})
	f.Add([]byte{8, 0, 2, 3, 25, 2, 3, 4, 15, 1, 2, 3, 12, 22})
	f.Add([]byte{0, 11, 2, 3, 4, 33, 2, 3, 20, 7})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 24 {
			ops = ops[:24]
		}
		r := gittest.New(t).Dated()
		r.Write(".small/intent.small.yml", "intent: human\n")
		r.Commit("start")
		paths := []string{".small/progress.small.yml", "src/a.go", "src/b/c.go", "docs/x.md"}
		for i, op := range ops {
			path := paths[int(op>>4)%len(paths)]
			switch op % 10 {
			case 0, 1:
				size := []int{10, 70 << 10, minHashAlong + 100}[int(op>>2)%3]
				var b strings.Builder
				for b.Len() < size {
					fmt.Fprintf(&b, "  - entry %d of step %d\n", b.Len(), i)
				}
				if op%10 == 1 {
					old, _ := os.ReadFile(r.Path(path))
					r.Write(path, string(old)+b.String())
				} else {
					r.Write(path, b.String())
				}
			case 2:
				r.Git("add", "-A")
			case 3:
				r.Git("commit", "-q", "--allow-empty", "-m", fmt.Sprint("step ", i))
			case 4:
				r.Git("gc", "-q")
			case 5:
				os.Remove(r.Path(path))
			case 6:
				r.Git("update-index", "--index-version", []string{"2", "3", "4"}[int(op>>4)%3])
			case 7:
				r.Write("new/intended.md", "intended\n")
				r.Git("add", "-N", "new/intended.md")
			case 8:
				os.Remove(r.Path("link"))
				if err := os.Symlink(path, r.Path("link")); err != nil {
					t.Fatal(err)
				}
			case 9:
				r.Git("checkout", "-q", "--detach")
			}
		}
		found, err := Open(r.Dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if found.Reader.Name() != ReaderFast {
			t.Fatalf("the probe chose git: %s", found.Why)
		}
		git, err := openWithGit(r.Dir, Options{}, "the differential test")
		if err != nil {
			t.Fatal(err)
		}
		readersAgree(t, r, nil, found.Reader, git.Reader, true)
	})
}
