package gitdiff

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unsafe"
)

// sharesMemory reports whether a starts where b starts: the old version
// was taken from the new one's bytes.
func sharesMemory(a, b []byte) bool {
	return len(a) > 0 && len(b) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// TestOldVersionFromTheNewOnesPrefix edits a large file in every way
// (appends, edits inside, truncations, same-size rewrites, and new
// content that starts with the old one's bytes but for one), loose and
// packed, and checks that every old version read is exactly what git
// holds, taken from the new version's bytes exactly when it is their
// prefix.
func TestOldVersionFromTheNewOnesPrefix(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	r := newRepo(t)
	var content strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&content, "    - task_id: task-%d\n      evidence: run %d\n", rng.Intn(20), i)
	}
	text := content.String()
	r.Write(".small/progress.small.yml", text)
	r.Commit("start")
	for round := 0; round < 24; round++ {
		old := text
		switch round % 6 {
		case 0, 1:
			text += fmt.Sprintf("    - task_id: appended-%d\n", round)
		case 2:
			i := rng.Intn(len(text))
			text = text[:i] + "X" + text[i+1:]
		case 3:
			text = text[:len(text)-rng.Intn(1000)-1]
		case 4:
			// The new version holds the old one's length of bytes with
			// one changed, then more.
			i := rng.Intn(len(text))
			text = text[:i] + "Y" + text[i+1:] + "    - task_id: more\n"
		case 5:
			text = strings.Replace(text, "task-1\n", "task-one\n", 1)
		}
		r.Write(".small/progress.small.yml", text)
		r.Git("add", "-A")
		if round%4 == 3 {
			r.Git("gc", "-q")
		}
		g := r.open()
		u, err := g.Staged(Scope{})
		if err != nil {
			t.Fatal(err)
		}
		if len(u.Changes) != 1 {
			t.Fatalf("round %d: %d changes", round, len(u.Changes))
		}
		ch := u.Changes[0]
		if string(ch.Old.Data) != old || string(ch.New.Data) != text {
			t.Fatalf("round %d: the old version read is not the committed one", round)
		}
		if want := strings.HasPrefix(text, old); sharesMemory(ch.Old.Data, ch.New.Data) != want {
			t.Fatalf("round %d: old taken from the new one's bytes: %v, want %v", round, !want, want)
		}
		g.Close()
		r.Commit(fmt.Sprint(round))
		units, err := rangeUnits(r.open(), "HEAD~1", "HEAD", Scope{})
		if err != nil {
			t.Fatal(err)
		}
		ch = units[0].Changes[0]
		if string(ch.Old.Data) != old || string(ch.New.Data) != text {
			t.Fatalf("round %d: the range read another old version", round)
		}
		if want := strings.HasPrefix(text, old); sharesMemory(ch.Old.Data, ch.New.Data) != want {
			t.Fatalf("round %d: in the range, old taken from the new one's bytes: %v, want %v", round, !want, want)
		}
	}
}
