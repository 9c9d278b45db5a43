package secrets

import (
	"fmt"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/rulestest"
)

func TestAddedLines(t *testing.T) {
	cases := []struct {
		old, cur string
		want     string
	}{
		{"a\nb\n", "a\nb\nc\n", "[3]"},
		{"a\nb\n", "a\nb\nc\nd", "[3 4]"},
		{"a\nb\nc\n", "a\nX\nc\n", "[2]"},
		{"a\nb\nc\n", "X\na\nb\nc\n", "[1]"},
		{"a\nb\n", "a\nb\n", "[]"},
		{"a\nb\n", "b\na\n", "[]"},
		{"same line\nx\n", "same line\nsame line\nx\n", "[2]"},
		{"ab\n", "abc\n", "[1]"},
		{"a\r\nb\r\n", "a\r\nb\r\nsecret\r\n", "[3]"},
	}
	for _, tc := range cases {
		lines, _, _ := addedLines(changes.Change{Old: rulestest.Blob(tc.old), New: rulestest.Blob(tc.cur)})
		got := fmt.Sprint(lines)
		if got != tc.want {
			t.Errorf("%q -> %q: %s, want %s", tc.old, tc.cur, got, tc.want)
		}
	}
	if got, _, _ := addedLines(changes.Change{New: rulestest.Blob("a\n")}); got != nil {
		t.Errorf("new file: %v, want every line", got)
	}
	merge := changes.Change{Old: rulestest.Blob("a\n"), New: rulestest.Blob("a\nb\nc\n"),
		Merge: &changes.Merge{Parents: []*changes.Blob{rulestest.Blob("a\n"), rulestest.Blob("a\nb\n")}}}
	if got, _, _ := addedLines(merge); fmt.Sprint(got) != "[3]" {
		t.Errorf("merge: %v, want only the line in no parent", got)
	}
}
