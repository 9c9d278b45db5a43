package secrets

import (
	"fmt"
	"strings"
	"testing"
)

// spans lists findings as rule@line-endline.
func spans(found []Finding) string {
	var out []string
	for _, f := range found {
		out = append(out, fmt.Sprintf("%s@%d-%d", f.RuleID, f.Line, f.EndLine))
	}
	return strings.Join(out, ",")
}

// TestBlockSecretsAreJudgedWhole judges a private key by every line of its
// block: one whose BEGIN and END lines were there before and whose body is
// new is reported, and so is a second key whose BEGIN line repeats the
// first one's.
func TestBlockSecretsAreJudgedWhole(t *testing.T) {
	key := strings.Split(strings.TrimSuffix(fakeKey, "\n"), "\n")
	begin, end := key[0], key[len(key)-1]
	file := "# keys\n" + fakeKey + "notes: none\n" + fakeKey + "x: 1\n"
	cases := []struct {
		name  string
		lines []int
		want  string
	}{
		{"a body line of the first key", []int{3}, "private-key@2-5"},
		{"the last body line of the first key", []int{4}, "private-key@2-5"},
		{"the END line only", []int{5}, "private-key@2-5"},
		{"a body line of the second key", []int{8}, "private-key@7-10"},
		{"the line between the keys", []int{6}, ""},
		{"the line after the keys", []int{11}, ""},
		{"every line", nil, "private-key@2-5,private-key@7-10"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := spans(scan(t, New(Options{}), ".awp/private-key.pem", file, tc.lines)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if !strings.HasPrefix(begin, "-----BEGIN") || !strings.HasPrefix(end, "-----END") {
		t.Fatalf("fake key %q … %q", begin, end)
	}
	// A part that starts at the first judged line does not see the block's
	// opening line: LeadingContext says how much to hand over before it.
	part := Part{Path: "k.pem", Data: []byte(file[strings.Index(file, key[1]):]), FirstLine: 3, Lines: []int{3}}
	if found, err := New(Options{}).ScanPart(part); err != nil || len(found) != 0 {
		t.Errorf("without its BEGIN line: %s %v", spans(found), err)
	}
}

// TestKeyOnTheLineBeforeAJudgedValue reports a value added under an
// existing key, from the key's line to the value's.
func TestKeyOnTheLineBeforeAJudgedValue(t *testing.T) {
	content := "a: 1\npassword:\n  " + fakePass + "\nb: 2\n"
	if got := spans(scan(t, New(Options{}), "artifacts/a.md", content, []int{3})); got != "generic-api-key@2-3" {
		t.Errorf("got %q", got)
	}
	if got := spans(scan(t, New(Options{}), "artifacts/a.md", content, []int{4})); got != "" {
		t.Errorf("a line after the value: got %q", got)
	}
}

// TestBlockAcrossAChunkEdge places a private key across the edge between
// two 32 kB chunks of a large file: chunks are cut at line boundaries only,
// so a block must be scanned apart to be seen whole.
func TestBlockAcrossAChunkEdge(t *testing.T) {
	filler := "    - evidence: token rotated, go test ./... passed\n"
	for _, shift := range []int{-3, -2, -1, 0, 1, 2} {
		var b strings.Builder
		for b.Len()+len(filler) <= chunkSize+shift*len(filler) {
			b.WriteString(filler)
		}
		line := 1 + strings.Count(b.String(), "\n")
		b.WriteString(fakeKey)
		for range 1000 {
			b.WriteString(filler)
		}
		want := fmt.Sprintf("private-key@%d-%d", line, line+3)
		if got := spans(scan(t, New(Options{}), "artifacts/a.md", b.String(), nil)); got != want {
			t.Errorf("key at line %d: got %q, want %q", line, got, want)
		}
	}
}

// TestBlocksInJoinedPiecesStayApart: two private keys a few lines apart,
// each broken by markup, are found apart, as gitleaks finds them. The
// lines around their BEGIN lines are joined into one fragment, where a
// block rule's pattern runs from one piece into the next: such a match is
// no match of the text, and must not hide the second key.
func TestBlocksInJoinedPiecesStayApart(t *testing.T) {
	key := "-----BEGIN " + "RSA PRIVATE KEY-----\n" + strings.Split(fakeKey, "\n")[1] + "\n-----END " + "RSA PRIVATE KEY-----\n"
	half := len(key) / 2
	content := "# Notes\n\n" + key[:half] + "<!--\n-->" + key[half:] + "\n\nx **" + key[:half] + "**" + key[half:] + "\n"
	want := gitleaksFinds(t, "a.md", content)
	if len(want) != 2 {
		t.Fatalf("gitleaks finds %v: the case proves nothing", want)
	}
	if got := rulesAt(scan(t, New(Options{}), "a.md", content, nil)); got != strings.Join(want, ",") {
		t.Errorf("got %s, want %v", got, want)
	}
}
