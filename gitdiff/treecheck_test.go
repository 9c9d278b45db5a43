package gitdiff

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gitread"
)

// rawObject writes an object of type kind with exactly these bytes (git
// checks nothing with --literally) and returns its id.
func (r *repo) rawObject(kind string, data []byte) string {
	r.T.Helper()
	return r.GitInput(string(data), "hash-object", "-t", kind, "-w", "--literally", "--stdin")
}

// encodeEntry is one entry of a tree written byte by byte.
func encodeEntry(mode, name, id string) []byte {
	raw, err := hex.DecodeString(id)
	if err != nil {
		panic(err)
	}
	return append([]byte(mode+" "+name+"\x00"), raw...)
}

// TestMalformedTreesAreRefused: a tree git fsck refuses is an error,
// whichever reader reads it. The tree that lists .small/intent.small.yml
// twice is read first-wins by git (`git show` prints the first version) and
// was read last-wins by go-git: a rewritten intent listed first passed.
func TestMalformedTreesAreRefused(t *testing.T) {
	for name, entries := range map[string]func(human, agent, tree string) [][]byte{
		"listed twice": func(human, agent, _ string) [][]byte {
			return [][]byte{encodeEntry("100644", "intent.small.yml", agent), encodeEntry("100644", "intent.small.yml", human)}
		},
		"a file and a directory": func(human, agent, tree string) [][]byte {
			return [][]byte{encodeEntry("100644", "intent.small.yml", agent), encodeEntry("100644", "intent.small.yml.x", human), encodeEntry("40000", "intent.small.yml", tree)}
		},
		"not sorted": func(human, agent, _ string) [][]byte {
			return [][]byte{encodeEntry("100644", "progress.small.yml", agent), encodeEntry("100644", "intent.small.yml", human)}
		},
		"a name holding a slash": func(human, agent, _ string) [][]byte {
			return [][]byte{encodeEntry("100644", "a/intent.small.yml", agent), encodeEntry("100644", "intent.small.yml", human)}
		},
		"a name that is a dot-dot": func(human, agent, _ string) [][]byte {
			return [][]byte{encodeEntry("100644", "..", agent), encodeEntry("100644", "intent.small.yml", human)}
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := newRepo(t)
			r.Write(".small/intent.small.yml", "intent: human\n")
			base := r.Commit("base")
			human := r.Git("rev-parse", "HEAD:.small/intent.small.yml")
			agent := r.rawObject("blob", []byte("intent: rewritten\n"))
			small := r.rawObject("tree", bytes.Join(entries(human, agent, r.Git("rev-parse", "HEAD^{tree}")), nil))
			root := r.rawObject("tree", encodeEntry("40000", ".small", small))
			head := r.Git("commit-tree", root, "-p", base, "-m", name)
			if _, err := r.Try("fsck", "--strict", "--no-dangling"); err == nil {
				t.Fatalf("git fsck accepts the tree")
			}
			if name == "listed twice" {
				if got := r.Git("show", head+":.small/intent.small.yml"); got != "intent: rewritten" {
					t.Fatalf("git reads %q", got)
				}
			}
			for _, asked := range []string{"", ReaderGit} {
				g := r.openWith(map[string]string{"SMALL_HOOK_READER": asked})
				_, err := rangeUnits(g, base, head, Scope{})
				g.Close()
				if !errors.Is(err, errMalformedTree) {
					t.Errorf("reader %q: %v", asked, err)
				}
			}
		})
	}
}

// writeCacheTree serialises a cache tree as git writes it: subtrees in
// git's order (shorter names first), each node's count of entries its
// Entries.
func writeCacheTree(b *bytes.Buffer, name string, t *gitread.CacheTree) {
	b.WriteString(name)
	b.WriteByte(0)
	count := t.Entries
	if !t.Valid {
		count = -1
	}
	fmt.Fprintf(b, "%d %d\n", count, len(t.Children))
	if t.Valid {
		b.Write(t.Hash[:])
	}
	var names []string
	for n := range t.Children {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) < len(names[j])
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		writeCacheTree(b, n, t.Children[n])
	}
}

// editCacheTree rewrites the cache tree of r's index with edit: the cache
// tree as the reader decodes it, written back in place of the index's TREE
// extension, and the index's checksum computed again.
func editCacheTree(t *testing.T, r *repo, edit func(root *gitread.CacheTree)) {
	t.Helper()
	g := r.open()
	idx, err := g.reader.Index(Scope{All: true})
	g.Close()
	if err != nil || idx.Tree == nil {
		t.Fatalf("the index's cache tree: %v, %v", idx, err)
	}
	var old, edited bytes.Buffer
	writeCacheTree(&old, "", idx.Tree)
	edit(idx.Tree)
	writeCacheTree(&edited, "", idx.Tree)
	extension := func(body []byte) []byte {
		return append(binary.BigEndian.AppendUint32([]byte("TREE"), uint32(len(body))), body...)
	}
	path := filepath.Join(r.Dir, ".git", "index")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, extension(old.Bytes())) != 1 {
		t.Fatal("the index does not hold its cache tree as git writes it")
	}
	data = bytes.Replace(data[:len(data)-sha1.Size], extension(old.Bytes()), extension(edited.Bytes()), 1)
	sum := sha1.Sum(data)
	if err := os.WriteFile(path, append(data, sum[:]...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStagedCheckJudgesWhatGitCommits: `git commit` writes a directory whose
// cache-tree node is valid as the tree the node names, whatever the index
// entries say. An index whose entries are HEAD's but whose cache tree names
// a rewritten .small/ commits the rewrite: the staged check must see it,
// with either reader. Before, the check read the entries (no change) while
// git committed the other tree.
func TestStagedCheckJudgesWhatGitCommits(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "intent: human\n")
	r.Write(".small/progress.small.yml", "entries: []\n")
	r.Write("src/x.go", "package x\n")
	r.Commit("base")
	agent := r.rawObject("blob", []byte("intent: rewritten\n"))
	listing := strings.Replace(r.Git("ls-tree", "HEAD:.small"), r.Git("rev-parse", "HEAD:.small/intent.small.yml"), agent, 1)
	rewritten := r.GitInput(listing+"\n", "mktree")
	r.Git("read-tree", "HEAD")
	editCacheTree(t, r, func(root *gitread.CacheTree) {
		root.Valid = false
		small := root.Children[".small"]
		copy(small.Hash[:], mustHex(t, rewritten))
	})
	for _, asked := range []string{"", ReaderGit} {
		g := r.openWith(map[string]string{"SMALL_HOOK_READER": asked})
		u, err := g.Staged(Scope{})
		if err != nil {
			t.Fatalf("reader %q: %v", asked, err)
		}
		if got := summary(u.Changes); got != ".small/intent.small.yml:intent: human>intent: rewritten" {
			t.Errorf("reader %q: the staged change is %q", asked, got)
		}
		if b, err := u.Files.Read(".small/intent.small.yml"); err != nil || b == nil || string(b.Data) != "intent: rewritten\n" {
			t.Errorf("reader %q: the staged intent reads %v, %v", asked, b, err)
		}
		if list, err := u.Files.List(".small/"); err != nil || strings.Join(list, " ") != ".small/intent.small.yml .small/progress.small.yml" {
			t.Errorf("reader %q: the staged workspace lists %v, %v", asked, list, err)
		}
		g.Close()
	}
	// What git commits from this index, indeed.
	if got := r.Git("rev-parse", r.Git("write-tree")+":.small"); got != rewritten {
		t.Fatalf("git writes %s for .small, not the cache tree's %s", got, rewritten)
	}
}

// TestCacheTreeCountsMustMatchTheEntries: where a valid cache-tree node
// claims another number of entries than the index holds below it, git
// would skip other entries than the directory's when it writes the commit:
// the index is refused.
func TestCacheTreeCountsMustMatchTheEntries(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "intent: human\n")
	r.Write("a/.small/intent.small.yml", "intent: nested\n")
	r.Commit("base")
	r.Git("read-tree", "HEAD")
	editCacheTree(t, r, func(root *gitread.CacheTree) {
		root.Valid = false
		root.Children[".small"].Entries++
	})
	for _, asked := range []string{"", ReaderGit} {
		g := r.openWith(map[string]string{"SMALL_HOOK_READER": asked})
		if _, err := g.Staged(Scope{}); err == nil || !strings.Contains(err.Error(), "the cache tree says .small/ holds 2 entries") || !strings.Contains(err.Error(), "`git read-tree HEAD`") {
			t.Errorf("reader %q: %v", asked, err)
		}
		g.Close()
	}
	// The advice works: git read-tree HEAD rebuilds the index and its cache tree.
	r.Git("read-tree", "HEAD")
	if _, err := r.open().Staged(Scope{}); err != nil {
		t.Errorf("after git read-tree HEAD: %v", err)
	}
}

func mustHex(t *testing.T, id string) []byte {
	t.Helper()
	b, err := hex.DecodeString(id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
