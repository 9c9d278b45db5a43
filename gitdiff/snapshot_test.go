package gitdiff

import (
	"strings"
	"testing"
)

func TestEntriesSnapshotList(t *testing.T) {
	s := &entriesSnapshot{entries: entries{}}
	for _, p := range []string{"a/.small/x", ".small/b", ".small/a/c", ".small-x/d", ".smal/e", ".small0"} {
		s.entries[p] = entry{}
	}
	for dir, want := range map[string]string{".small/": ".small/a/c .small/b", "a/.small/": "a/.small/x", "b/": "", "": ".smal/e .small-x/d .small/a/c .small/b .small0 a/.small/x"} {
		got, err := s.List(dir)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("List(%q) = %q (%v), want %q", dir, got, err, want)
		}
	}
	got, _ := s.List(".small/")
	got[0] = "changed"
	if again, _ := s.List(".small/"); again[0] != ".small/a/c" {
		t.Errorf("a caller changed the snapshot through List: %q", again)
	}
}
