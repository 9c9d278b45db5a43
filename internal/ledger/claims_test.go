package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/yamldoc"
)

// TestEvidenceOfNamesWhatSaysItIsACommit lists the commits an entry names
// where it says they are commits, and nothing else.
func TestEvidenceOfNamesWhatSaysItIsACommit(t *testing.T) {
	doc, err := yamldoc.Decode([]byte(`commit: 1a2b3c4
evidence:
  commit_sha: ABCDEF0123456
  Commit-Ref: 0123456789abcdef0123456789abcdef01234567
  url: 1a2b3c4d
  commits: [1a2b3c4d]
verification:
  commit: HEAD
test:
  commit: 1a2b3c
notes: see commit 1a2b3c4d
`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evidenceOf(doc.Value) {
		got = append(got, e.Field+"="+e.Ref)
	}
	want := []string{"commit=1a2b3c4", "evidence.Commit-Ref=0123456789abcdef0123456789abcdef01234567", "evidence.commit_sha=ABCDEF0123456"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	// Every key of every evidence object is asked: the question builds
	// nothing (it built a replacer each time).
	if n := testing.AllocsPerRun(100, func() { commitKey("Commit-SHA_") }); n != 0 {
		t.Errorf("commitKey allocates %.0f times", n)
	}
}

// TestAncestorAndPrefixes resolves the digits an entry writes among the
// commits of a history that merges a branch: ancestors are found down
// every parent, later and unrelated commits are not ancestors, and digits
// that two commits share are ambiguous.
func TestAncestorAndPrefixes(t *testing.T) {
	// root <- a <- b <- merge; root <- side <- merge; later after merge.
	ids := map[string]string{
		"root": "aaaa000", "a": "abcd111", "b": "abcd222", "side": "cccc333", "merge": "dddd444", "later": "eeee555",
	}
	parents := map[string][]string{"a": {"root"}, "b": {"a"}, "side": {"root"}, "merge": {"b", "side"}, "later": {"merge"}}
	var history []Node
	for _, name := range []string{"root", "a", "b", "side", "merge", "later"} {
		n := Node{Hash: ids[name] + strings.Repeat("0", 33)}
		for _, p := range parents[name] {
			n.Parents = append(n.Parents, ids[p]+strings.Repeat("0", 33))
		}
		history = append(history, n)
	}
	b, err := NewBuilder(history, config.Default().Ledger)
	if err != nil {
		t.Fatal(err)
	}
	x := newCommitIndex(b.order)
	at := func(name string) *node { return b.nodes[ids[name]+strings.Repeat("0", 33)] }
	cases := []struct {
		ref, recorder string
		want          EvidenceStatus
	}{
		{"cccc333", "merge", Ancestor},
		{"CCCC333", "later", Ancestor},
		{"aaaa000", "side", Ancestor},
		{"cccc333", "b", NotAncestor},
		{"eeee555", "merge", NotAncestor},
		{"dddd444", "merge", NotAncestor},
		{"abcd", "later", Ambiguous},
		{"abcd1110", "later", Ancestor},
		{"ffff999", "later", Missing},
	}
	for _, c := range cases {
		got := x.resolve([]Evidence{{Ref: c.ref}}, at(c.recorder), Appended, false)[0]
		if got.Status != c.want {
			t.Errorf("%s from %s: %s, want %s", c.ref, c.recorder, got.Status, c.want)
		}
	}
	if got := x.resolve([]Evidence{{Ref: "ffff999"}}, at("later"), Appended, true)[0]; got.Status != Undecided {
		t.Errorf("in a shallow clone, a commit it lacks: %s", got.Status)
	}
}

// TestSpanAndPositions word durations and sets of entries as messages
// show them.
func TestSpanAndPositions(t *testing.T) {
	for d, want := range map[time.Duration]string{
		45 * time.Second: "45s", 3 * time.Minute: "3m", 2 * time.Hour: "2h", 2*time.Hour + 5*time.Minute: "2h5m",
		9 * 24 * time.Hour: "9d", 9*24*time.Hour + 4*time.Hour: "9d4h", -90 * time.Second: "1m",
	} {
		if got := span(d); got != want {
			t.Errorf("span(%v) = %s, want %s", d, got, want)
		}
	}
	f := File{Kind: Progress}
	for i := range 12 {
		f.Entries = append(f.Entries, Entry{Position: i, Claim: Claim{TaskID: fmt.Sprint("t", i)}})
	}
	for list, want := range map[string]string{
		"3":           "progress entry 4 (task_id t3)",
		"3 4 5":       "3 progress entries (4 to 6)",
		"0 2 5":       "3 progress entries (1, 3 and 6)",
		"0 2 4 6 8 9": "6 progress entries (1, 3, 5, 7, 9 and 1 more)",
	} {
		var idx []int
		for _, s := range strings.Fields(list) {
			var n int
			fmt.Sscan(s, &n)
			idx = append(idx, n)
		}
		if got := positions(f, idx); got != want {
			t.Errorf("positions(%v) = %s, want %s", idx, got, want)
		}
	}
}
