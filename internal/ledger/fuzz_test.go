package ledger

import (
	"fmt"
	"slices"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/yamldoc"
)

// FuzzAppendedAgreesWithDecoded: whenever a new version of a progress
// file is proved to append to the old one from the bytes alone, the
// entries it carries forward and decodes are those the full decoding and
// alignment give, at the same lines, recorded by the same commits.
func FuzzAppendedAgreesWithDecoded(f *testing.F) {
	old := progressHeader + "    - task_id: a\n      evidence: x\n      timestamp: \"2026-01-01T00:00:00.1Z\"\n"
	f.Add(old, old+"    - task_id: b\n      evidence: y\n      timestamp: \"2026-01-01T00:00:00.2Z\"\n")
	f.Add(old, old+"    - task_id: b\n      notes: |\n        two\n        lines\n    - task_id: c\n")
	f.Add(old, old+"owner: human\n")
	f.Add("entries:\n- a\n", "entries:\n- a\n- b\n\n# comment\n- c\n")
	f.Fuzz(func(t *testing.T, oldText, newText string) {
		oldBlob := &changes.Blob{Hash: "old", Kind: changes.KindFile, Data: []byte(oldText)}
		newBlob := &changes.Blob{Hash: "new", Kind: changes.KindFile, Data: []byte(newText)}
		d, err := decodeVersion(Progress, oldBlob)
		if err != nil {
			return
		}
		first := &node{Node: Node{Hash: "first"}}
		second := &node{Node: Node{Hash: "second", Parents: []string{"first"}}, index: 1, parents: []*node{first}}
		prev := (&walkStep{n: first}).slots(Progress, d, nil)
		n := len(prev)
		old := &version{kind: Progress, hash: "old", slots: prev, claimed: &n}
		w := &walkStep{n: second}
		fast := w.appended(Progress, &changes.Change{Path: progressPath, Old: oldBlob, New: newBlob}, []*version{old})
		if fast == nil {
			return
		}
		full, err := decodeVersion(Progress, newBlob)
		if err != nil {
			t.Fatalf("an append proved from the bytes does not decode: %v", err)
		}
		want := w.slots(Progress, full, []*version{old})
		if len(fast.slots) != len(want) {
			t.Fatalf("%d entries carried, %d decoded", len(fast.slots), len(want))
		}
		for i, s := range fast.slots {
			if w := want[i]; !yamldoc.Equal(s.value, w.value) || s.line != w.line || s.commit != w.commit || s.origin != w.origin {
				t.Fatalf("entry %d: carried %v at line %d by %s (%s), decoded %v at line %d by %s (%s)", i, s.value, s.line, s.commit.Hash, s.origin, w.value, w.line, w.commit.Hash, w.origin)
			}
		}
	})
}

// FuzzAncestor holds the chains the evidence check answers ancestry from
// to walking the parents: for every pair of commits of a history the
// bytes shape (each commit's parents among the commits before it: a
// root, a line, merges of two or three, branches that start anywhere),
// ancestor says what the walk finds.
func FuzzAncestor(f *testing.F) {
	f.Add([]byte{1, 0, 1, 0, 2, 0, 1, 1, 0})
	f.Add([]byte{0, 1, 0, 1, 1, 2, 1, 0, 3, 2, 0, 1})
	f.Add([]byte{1, 0, 0, 1, 1, 2, 0, 1, 3, 0, 1, 2, 2, 1, 0})
	f.Fuzz(func(t *testing.T, shape []byte) {
		var history []Node
		for len(shape) > 0 && len(history) < 40 {
			n := Node{Hash: fmt.Sprintf("%040x", len(history)+1)}
			count := int(shape[0] % 4)
			shape = shape[1:]
			for k := 0; k < count && len(shape) > 0 && len(history) > 0; k++ {
				p := history[len(history)-1-int(shape[0])%len(history)].Hash
				shape = shape[1:]
				if !slices.Contains(n.Parents, p) {
					n.Parents = append(n.Parents, p)
				}
			}
			history = append(history, n)
		}
		b, err := NewBuilder(history, config.Default().Ledger)
		if err != nil {
			t.Fatal(err)
		}
		x := newCommitIndex(b.order)
		for _, d := range b.order {
			below := map[*node]bool{}
			stack := slices.Clone(d.parents)
			for len(stack) > 0 {
				n := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if !below[n] {
					below[n] = true
					stack = append(stack, n.parents...)
				}
			}
			for _, a := range b.order {
				if got := x.ancestor(a, d); got != below[a] {
					t.Fatalf("ancestor(%d, %d) = %v, the walk says %v", a.index, d.index, got, below[a])
				}
			}
		}
	})
}
