package gitdiff

import (
	"crypto/sha1"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// clashingNames sort next to each other in git's order, where a file and a
// directory of one name sort apart: "a" < "a b" < "a-" < "a.b" < "a/" <
// "a0" < "a0/".
var clashingNames = []string{"a", "a b", "a-", "a.b", "a0", "b", ".small"}

// fileModes are the modes of every kind of file a tree holds: a file, an
// executable, a symbolic link and a submodule.
var fileModes = []string{"100644", "100755", "120000", "160000"}

// genFiles adds to files (path to mode and content) random files and
// directories under prefix, named from clashingNames.
func genFiles(rng *rand.Rand, prefix string, depth int, files map[string]string) {
	for _, name := range clashingNames {
		switch p := rng.Intn(10); {
		case p < 4:
		case p < 7 || depth >= 3:
			files[prefix+name] = fmt.Sprintf("%s %d", fileModes[rng.Intn(len(fileModes))], rng.Intn(3))
		default:
			genFiles(rng, prefix+name+"/", depth+1, files)
		}
	}
}

// mutateFiles returns files after a few random edits: a content or a mode
// changed, a file removed, or a name's whole subtree replaced (a file by a
// directory, a directory by a file).
func mutateFiles(rng *rand.Rand, files map[string]string) map[string]string {
	out := maps.Clone(files)
	for range 1 + rng.Intn(3) {
		all := slices.Sorted(maps.Keys(out))
		if len(all) == 0 {
			genFiles(rng, "", 0, out)
			continue
		}
		path := all[rng.Intn(len(all))]
		mode, content, _ := strings.Cut(out[path], " ")
		switch rng.Intn(4) {
		case 0:
			out[path] = mode + " " + content + "x"
		case 1:
			out[path] = fileModes[rng.Intn(len(fileModes))] + " " + content
		case 2:
			delete(out, path)
		default:
			dir := path[:strings.LastIndex(path, "/")+1]
			name := clashingNames[rng.Intn(len(clashingNames))]
			for p := range out {
				if p == dir+name || strings.HasPrefix(p, dir+name+"/") {
					delete(out, p)
				}
			}
			if rng.Intn(2) == 0 {
				out[dir+name] = fileModes[rng.Intn(len(fileModes))] + " new"
			} else {
				genFiles(rng, dir+name+"/", strings.Count(dir, "/")+1, out)
			}
		}
	}
	return out
}

// importCommits commits each state of files in turn with git fast-import
// (a submodule's content names its commit) and returns the commits.
func importCommits(r *repo, states []map[string]string) []string {
	var stream strings.Builder
	for i, files := range states {
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter T <t@example.com> %d +0000\ndata 2\nc\ndeleteall\n", 1700000000+i)
		for _, path := range slices.Sorted(maps.Keys(files)) {
			mode, content, _ := strings.Cut(files[path], " ")
			if mode == "160000" {
				fmt.Fprintf(&stream, "M %s %x %s\n", mode, sha1.Sum([]byte(content)), path)
				continue
			}
			fmt.Fprintf(&stream, "M %s inline %s\ndata %d\n%s\n", mode, path, len(content), content)
		}
	}
	r.GitInput(stream.String(), "fast-import", "--quiet")
	return strings.Fields(r.Git("rev-list", "--reverse", "main"))
}

// splitZ splits git's -z output.
func splitZ(out string) []string {
	var list []string
	for _, f := range strings.Split(out, "\x00") {
		if f = strings.TrimSpace(f); f != "" {
			list = append(list, f)
		}
	}
	return list
}

// inScope keeps the paths of list that scope holds, sorted.
func inScope(list []string, scope Scope) []string {
	var out []string
	for _, p := range list {
		if scope.ContainsPath(p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// TestTreesAgreeWithGit compares gitdiff's reading of generated trees with
// git's own, commit after commit: nested directories, names that sort next
// to each other and a file replaced by a directory of the same name ("a",
// "a b", "a-", "a.b", "a/", "a0"), files, executables, symbolic links and
// submodules. The paths diffTrees reports changed are those of `git
// diff-tree -r` (with the unit's scope filter, whole or the default one),
// walkTree lists what `git ls-tree -r` lists, and findEntry finds every
// entry of `git ls-tree -r -t` as git lists it, and no other name.
func TestTreesAgreeWithGit(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	states := []map[string]string{{}}
	genFiles(rng, "", 0, states[0])
	for range 40 {
		states = append(states, mutateFiles(rng, states[len(states)-1]))
	}
	r := newRepo(t)
	commits := importCommits(r, states)
	g := r.open()
	defer g.Close()
	treeOf := func(c string) plumbing.Hash {
		t.Helper()
		tree, err := g.commitTree(plumbing.NewHash(c))
		if err != nil {
			t.Fatal(err)
		}
		return tree.hash
	}
	for k, c := range commits {
		listed := splitZ(r.Git("ls-tree", "-r", "-t", "-z", c))
		var files []string
		present := map[string]bool{}
		for _, line := range listed {
			meta, path, _ := strings.Cut(line, "\t")
			fields := strings.Fields(meta)
			present[path] = true
			mode, err := filemode.New(fields[0])
			if err != nil {
				t.Fatal(err)
			}
			if fields[1] != "tree" {
				files = append(files, path)
			}
			e, ok, err := g.findEntry(treeOf(c), path)
			if err != nil || !ok || e.mode != mode || e.hash.String() != fields[2] {
				t.Errorf("commit %d: findEntry(%q) = %v %v %v; git lists %s", k, path, e, ok, err, meta)
			}
		}
		for dir := range present {
			for _, name := range clashingNames {
				if path := dir + "/" + name; !present[path] {
					if e, ok, err := g.findEntry(treeOf(c), path); ok || err != nil {
						t.Errorf("commit %d: findEntry(%q) = %v %v, which git does not list", k, path, e, err)
					}
				}
			}
		}
		whole := entries{}
		tree, err := g.tree(treeOf(c))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.walkTree(tree, "", Scope{All: true}, whole); err != nil {
			t.Fatal(err)
		}
		if got, want := unionPaths(whole), inScope(files, Scope{All: true}); !slices.Equal(got, want) {
			t.Errorf("commit %d: walkTree lists %q, git %q", k, got, want)
		}
		if k == 0 {
			continue
		}
		changed := splitZ(r.Git("diff-tree", "-r", "-z", "--no-renames", "--name-only", commits[k-1], c))
		for _, scope := range []Scope{{All: true}, {}} {
			old, now := entries{}, entries{}
			if err := g.diffTrees(treeOf(commits[k-1]), treeOf(c), "", scope, old, now); err != nil {
				t.Fatal(err)
			}
			if got, want := unionPaths(old, now), inScope(changed, scope); !slices.Equal(got, want) {
				t.Errorf("commit %d, scope %+v: diffTrees reports %q, git diff-tree %q", k, scope, got, want)
			}
		}
	}
}

// goGitEntries decodes a tree's bytes with go-git.
func goGitEntries(data []byte) ([]object.TreeEntry, error) {
	o := &plumbing.MemoryObject{}
	o.SetType(plumbing.TreeObject)
	if _, err := o.Write(data); err != nil {
		return nil, err
	}
	var t object.Tree
	err := t.Decode(o)
	return t.Entries, err
}

// sortKey is an entry's name as git sorts it: a directory's followed by
// "/" (names hold no NUL, so a shorter name sorts first as git's NUL
// terminator makes it).
func sortKey(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// plainRefusal is what checkTree refuses in decoded entries, written
// plainly: any earlier entry of a directory's name repeats it.
func plainRefusal(list []object.TreeEntry) error {
	for i, e := range list {
		if e.Name == "." || e.Name == ".." || strings.Contains(e.Name, "/") {
			return fmt.Errorf("%w: it holds an entry named %q", errMalformedTree, e.Name)
		}
		if i == 0 {
			continue
		}
		switch prev := list[i-1]; {
		case prev.Name == e.Name:
			return fmt.Errorf("%w: it lists %q twice", errMalformedTree, e.Name)
		case sortKey(prev) > sortKey(e):
			return fmt.Errorf("%w: its entries are not sorted (%q before %q)", errMalformedTree, prev.Name, e.Name)
		}
		for _, earlier := range list[:i] {
			if e.Mode == filemode.Dir && earlier.Name == e.Name {
				return fmt.Errorf("%w: it lists %q twice", errMalformedTree, e.Name)
			}
		}
	}
	return nil
}

// checkedTree reads data as optionalTreeObject does.
func checkedTree(data []byte) (*treeObject, error) {
	starts, err := checkTree(data)
	if err != nil {
		return nil, err
	}
	return &treeObject{data: data, starts: starts}, nil
}

// FuzzCheckTree: whatever the bytes, checkTree does not panic, and it
// accepts exactly the trees go-git decodes and fsck does not refuse, with
// go-git's or fsck's error; an accepted tree walks to go-git's entries, and
// each is found by its name.
func FuzzCheckTree(f *testing.F) {
	id := strings.Repeat("ab", 20)
	for _, seed := range [][][]byte{
		{encodeEntry("100644", "a", id), encodeEntry("100644", "a.b", id), encodeEntry("40000", "a0", id)},
		{encodeEntry("100644", "a", id), encodeEntry("100644", "a.b", id), encodeEntry("40000", "a", id)},
		{encodeEntry("40000", "a", id), encodeEntry("100644", "a", id)},
		{encodeEntry("100755", "b", id), encodeEntry("120000", "a", id)},
		{encodeEntry("160000", "..", id)},
		{encodeEntry("0100644", "x y", id), []byte("100644 z\x00abc")},
		{[]byte("100644 z")},
		{[]byte("99 z\x00" + strings.Repeat("x", 20))},
	} {
		f.Add(slices.Concat(seed...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tree, err := checkedTree(data)
		list, want := goGitEntries(data)
		if want == nil {
			want = plainRefusal(list)
		}
		if fmt.Sprint(err) != fmt.Sprint(want) {
			t.Fatalf("checkTree: %v; go-git and fsck: %v", err, want)
		}
		if err != nil {
			return
		}
		var walked []object.TreeEntry
		for e := range tree.all() {
			walked = append(walked, object.TreeEntry{Name: string(e.name), Mode: e.mode, Hash: e.hash})
		}
		if !slices.Equal(walked, list) || len(tree.starts) != len(list) {
			t.Fatalf("walked %v (%d starts), go-git decodes %v", walked, len(tree.starts), list)
		}
		for _, e := range list {
			if found, ok := tree.find(e.Name); !ok || found.hash != e.Hash || found.mode != e.Mode {
				t.Fatalf("find(%q) = %v, %v", e.Name, found, ok)
			}
			if _, ok := tree.find(e.Name + "\x01"); ok {
				t.Fatalf("find(%q) finds an entry", e.Name+"\x01")
			}
		}
	})
}

// plainChanges lists what differs between two trees' entries, as a merge of
// two maps by sort key: each name with both versions.
func plainChanges(a, b []object.TreeEntry) []string {
	ma, mb := map[string]object.TreeEntry{}, map[string]object.TreeEntry{}
	for _, e := range a {
		ma[sortKey(e)] = e
	}
	for _, e := range b {
		mb[sortKey(e)] = e
	}
	keys := slices.Sorted(maps.Keys(ma))
	keys = slices.Compact(slices.Sorted(slices.Values(append(keys, slices.Collect(maps.Keys(mb))...))))
	var out []string
	for _, k := range keys {
		x, inA := ma[k]
		y, inB := mb[k]
		if inA && inB && x == y {
			continue
		}
		out = append(out, fmt.Sprintf("%q %v %v", k, inA, inB))
		if inA {
			out[len(out)-1] += fmt.Sprintf(" %o %s", x.Mode, x.Hash)
		}
		if inB {
			out[len(out)-1] += fmt.Sprintf(" %o %s", y.Mode, y.Hash)
		}
	}
	return out
}

// changesOf lists eachChange's calls as plainChanges lists the changes.
func changesOf(t *testing.T, a, b *treeObject) []string {
	var out []string
	err := eachChange(a, b, func(x, y *treeEntry) error {
		e := x
		if e == nil {
			e = y
		}
		key := object.TreeEntry{Name: string(e.name), Mode: e.mode}
		out = append(out, fmt.Sprintf("%q %v %v", sortKey(key), x != nil, y != nil))
		for _, v := range []*treeEntry{x, y} {
			if v != nil {
				out[len(out)-1] += fmt.Sprintf(" %o %s", v.mode, v.hash)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// treeBytes encodes entries in git's order, each name once (the last
// kept), as a valid tree.
func treeBytes(list []object.TreeEntry) []byte {
	byName := map[string]object.TreeEntry{}
	for _, e := range list {
		byName[e.Name] = e
	}
	sorted := slices.SortedFunc(maps.Values(byName), func(x, y object.TreeEntry) int { return strings.Compare(sortKey(x), sortKey(y)) })
	var out []byte
	for _, e := range sorted {
		out = fmt.Appendf(out, "%o %s\x00", uint32(e.Mode), e.Name)
		out = append(out, e.Hash[:]...)
	}
	return out
}

// TestUnchangedEndsAlignEntries: two trees can share bytes at their end
// where their entries start at different places — a name can hold a space
// and look like another entry ("xx100644 y" ends as "100644 y" does). Only
// entries that start at the same distance from the end in both trees are
// skipped as unchanged; the changes are those of a plain merge.
func TestUnchangedEndsAlignEntries(t *testing.T) {
	h1, h2, h3 := plumbing.NewHash(strings.Repeat("11", 20)), plumbing.NewHash(strings.Repeat("22", 20)), plumbing.NewHash(strings.Repeat("33", 20))
	file := func(name string, h plumbing.Hash) object.TreeEntry {
		return object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h}
	}
	for _, c := range []struct{ a, b []object.TreeEntry }{
		{[]object.TreeEntry{file("a", h1), file("y", h2)}, []object.TreeEntry{file("xx100644 y", h2)}},
		{[]object.TreeEntry{file("a", h1), file("y", h2), file("z", h3)}, []object.TreeEntry{file("xx100644 y", h2), file("z", h3)}},
		{[]object.TreeEntry{file("a", h1), file("b", h2), file("c", h3)}, []object.TreeEntry{file("a", h1), file("b", h1), file("c", h3)}},
		{[]object.TreeEntry{file("a", h1)}, []object.TreeEntry{file("a", h1), file("b", h2)}},
		{[]object.TreeEntry{file("b", h2)}, []object.TreeEntry{file("a", h1), file("b", h2)}},
	} {
		a, err := checkedTree(treeBytes(c.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := checkedTree(treeBytes(c.b))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := changesOf(t, a, b), plainChanges(c.a, c.b); !slices.Equal(got, want) {
			t.Errorf("%v → %v: eachChange %q, a plain merge %q", c.a, c.b, got, want)
		}
	}
}

// FuzzEachChange: two valid trees built from the input — entries named
// from clashingNames and names that look like entries, then edited —
// compare as a plain merge of their entries compares them.
func FuzzEachChange(f *testing.F) {
	f.Add([]byte("abcdefghijkl"), []byte("\x00\x01\x02\x03\x04\x05"))
	f.Add([]byte("\x07\x00\x01\x06\x01\x02"), []byte("\x01\x00\x00"))
	f.Fuzz(func(t *testing.T, spec, edits []byte) {
		names := append(slices.Clone(clashingNames), "xx100644 y", "y", "100644 y")
		modes := []filemode.FileMode{filemode.Regular, filemode.Executable, filemode.Symlink, filemode.Submodule, filemode.Dir}
		entryOf := func(n, m, h byte) object.TreeEntry {
			var id plumbing.Hash
			id[19] = h % 3
			return object.TreeEntry{Name: names[int(n)%len(names)] + strings.Repeat("!", int(n)/len(names)%3), Mode: modes[int(m)%len(modes)], Hash: id}
		}
		var a []object.TreeEntry
		for i := 0; i+2 < len(spec); i += 3 {
			a = append(a, entryOf(spec[i], spec[i+1], spec[i+2]))
		}
		ta, err := checkedTree(treeBytes(a))
		if err != nil {
			t.Fatal(err)
		}
		a, _ = goGitEntries(ta.data)
		b := slices.Clone(a)
		for i := 0; i+2 < len(edits); i += 3 {
			switch at := int(edits[i+1]); edits[i] % 3 {
			case 0:
				b = append(b, entryOf(edits[i+1], edits[i+2], edits[i]))
			case 1:
				if len(b) > 0 {
					b = slices.Delete(b, at%len(b), at%len(b)+1)
				}
			default:
				if len(b) > 0 {
					b[at%len(b)].Hash[0]++
				}
			}
		}
		tb, err := checkedTree(treeBytes(b))
		if err != nil {
			t.Fatal(err)
		}
		b, _ = goGitEntries(tb.data)
		if got, want := changesOf(t, ta, tb), plainChanges(a, b); !slices.Equal(got, want) {
			t.Fatalf("eachChange %q, a plain merge %q", got, want)
		}
	})
}
