package secrets

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// planPieces are what texts for FuzzPlanNear are made of: keywords of
// gitleaks' default rules (block openings included), in both cases, line
// breaks, fillers long enough to make long lines (windows) and to put a
// block opening more or less than 2*maxBlock bytes before a judged line,
// and encoded text that gitleaks' decoder turns into keywords.
var planPieces = []string{
	"\n", "\n", "\n", "\r\n", " ", "x", "key", "KEY", "token", "secret", "password",
	"-----BEGIN", "-----begin", " PRIVATE KEY-----", "-----END", "api_key: ", "akia", "ghp_",
	"glpat-", "xoxb-", "sk_live_", "=", "'", "\"", ": ", "- ",
	strings.Repeat("filler ", 90), strings.Repeat("y", 700), strings.Repeat("z", 5000),
	strings.Repeat("w\n", 3000), strings.Repeat("v", 40000),
	// Encoded text: a token base64- and hex-encoded, a base64 key, escapes.
	encodings["base64"](fakeGitHub), encodings["hex"](fakeGitHub), encodings["base64"](fakeKey[:40]),
	"U+0067", "U+0068\n", "%67", "\\u0067",
}

// planText builds a text and its judged lines from fuzz input: each byte
// of shape picks a piece; each bit of judge says whether a line is judged.
func planText(shape, judge []byte) (*text, judged) {
	var b strings.Builder
	for _, c := range shape {
		b.WriteString(planPieces[int(c)%len(planPieces)])
	}
	t := newText([]byte(b.String()), 1+len(judge)%7)
	var lines []int
	for i := range t.lines() {
		if len(judge) > 0 && judge[(i/8)%len(judge)]&(1<<(i%8)) != 0 {
			lines = append(lines, t.first+i)
		}
	}
	return t, t.judge(lines)
}

// FuzzPlanNear holds the plan made from keywords near the judged lines to
// the plan made from every keyword of the text: the same lines selected,
// the same fragments calling for the same rules, the same block regions.
// Those are all that find takes from a plan, so both find the same
// secrets.
func FuzzPlanNear(f *testing.F) {
	s := New(Options{})
	if err := s.load(); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{6, 0, 5, 0, 11, 13, 0, 14}, []byte{0x02})
	f.Add([]byte{30, 11, 13, 0, 29, 0, 7, 0, 30, 0, 6}, []byte{0x10})
	f.Add([]byte{28, 0, 6, 27, 0, 8, 0}, []byte{0x05})
	f.Add([]byte{11, 30, 30, 0, 6}, []byte{0x80, 0x01})
	f.Add([]byte{0, 0, 15, 0, 16, 0, 17}, []byte{0xff})
	f.Add([]byte{0, 31, 0, 33, 0, 34, 35, 35, 0, 30, 31, 0}, []byte{0x04})
	f.Fuzz(func(t *testing.T, shape, judge []byte) {
		if len(shape) > 64 {
			return
		}
		tx, j := planText(shape, judge)
		if j.all || len(j.indexes(tx.lines())) == 0 {
			return
		}
		near, whole := s.planNear(tx, j), s.planWhole(tx, j)
		if !slices.Equal(near.selected, whole.selected) {
			t.Fatalf("selected lines: near %v, whole %v", near.selected, whole.selected)
		}
		nf, wf := fragments(tx, near), fragments(tx, whole)
		if len(nf) != len(wf) {
			t.Fatalf("%d fragments near, %d whole", len(nf), len(wf))
		}
		for i := range nf {
			if nf[i].off != wf[i].off || nf[i].text != wf[i].text {
				t.Fatalf("fragment %d: near at %d (%d bytes), whole at %d (%d bytes)", i, nf[i].off, len(nf[i].text), wf[i].off, len(wf[i].text))
			}
			end := nf[i].off + len(nf[i].text)
			if n, w := s.rulesIn(near, nf[i].off, end), s.rulesIn(whole, wf[i].off, end); !slices.Equal(n, w) {
				t.Fatalf("fragment %d calls for %v near, %v whole", i, n, w)
			}
		}
		nb, wb := blockRegions(tx, near.blocks, j), blockRegions(tx, whole.blocks, j)
		if len(nb) != len(wb) {
			t.Fatalf("%d block regions near, %d whole", len(nb), len(wb))
		}
		for i := range nb {
			if nb[i].off != wb[i].off || nb[i].text != wb[i].text {
				t.Fatalf("block region %d: near at %d, whole at %d", i, nb[i].off, wb[i].off)
			}
		}
	})
}

// TestPlanNearSeesAKeyBeforeItsValue: a key on the line before an added
// value is found by the plan that looks near the judged lines, and so is a
// private key's BEGIN line far above an added line of its body.
func TestPlanNearSeesAKeyBeforeItsValue(t *testing.T) {
	s := New(Options{})
	if err := s.load(); err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n", 300)
	data := "intro\n-----BEGIN PRIVATE KEY-----\n" + body + "-----END PRIVATE KEY-----\napi_key:\n  value\n"
	tx := newText([]byte(data), 1)
	last := tx.lines()
	j := tx.judge([]int{200, last})
	p := s.planNear(tx, j)
	if !slices.Contains(p.selected, last-2) || !slices.Contains(p.selected, last-1) {
		t.Errorf("the key's line %d is not selected with its value's: %v", last-1, p.selected)
	}
	if len(p.blocks) != 1 || p.blocks[0] != strings.Index(data, "-----BEGIN") {
		t.Errorf("block openings %v, want the BEGIN line's", p.blocks)
	}
	if len(blockRegions(tx, p.blocks, j)) != 1 {
		t.Error("the key's block is not scanned")
	}
}

// FuzzOccurrences holds occurrences to a search of the lower-cased text,
// for keywords with and without a byte that case leaves alone.
func FuzzOccurrences(f *testing.F) {
	f.Add([]byte("x -----BEGIN -----begin ----BEGIN"), "-----begin", 0, 40)
	f.Add([]byte("Key KEY kEy keykey"), "key", 2, 15)
	f.Add([]byte("grüße GRÜSSE grü"), "grü", 0, 20)
	f.Add([]byte("aaaa"), "aa", 0, 4)
	f.Fuzz(func(t *testing.T, data []byte, keyword string, from, to int) {
		keyword = strings.ToLower(keyword)
		if keyword == "" || len(data) > 1<<12 {
			return
		}
		from, to = min(max(from, 0), len(data)), min(max(to, 0), len(data))
		lower := asciiLower(data)
		var want []int
		for at := from; at < to; at++ {
			if strings.HasPrefix(string(lower[at:]), keyword) {
				want = append(want, at)
			}
		}
		if got := occurrences(data, keyword, from, to); !slices.Equal(got, want) {
			t.Fatalf("occurrences of %q in %q [%d,%d): %v, want %v", keyword, data, from, to, got, want)
		}
	})
}

// BenchmarkPlan: the plan of a 40 kB artifact of which three lines are
// judged (a commit that bumped the version and appended a provenance
// entry), looking near those lines and over the whole text.
func BenchmarkPlan(b *testing.B) {
	s := New(Options{})
	if err := s.load(); err != nil {
		b.Fatal(err)
	}
	var doc strings.Builder
	doc.WriteString("---\nversion: 201\nprovenance:\n")
	for i := range 200 {
		fmt.Fprintf(&doc, "  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: updated\n    message: Added finding %d\n", i)
	}
	doc.WriteString("---\n\n# Notes\n\nMeasured throughput on the second benchmark run.\n")
	tx := newText([]byte(doc.String()), 1)
	j := tx.judge([]int{2, tx.lines() - 6, tx.lines()})
	b.Run("near", func(b *testing.B) {
		for b.Loop() {
			s.planNear(tx, j)
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			s.planWhole(tx, j)
		}
	})
}

// TestKeywordAcrossLinesIsLookedForEverywhere: a configuration whose
// keyword holds a line break could have it start before the lines near a
// judged one and end among them; the near plan would miss it, so such a
// configuration gets the whole-text plan.
func TestKeywordAcrossLinesIsLookedForEverywhere(t *testing.T) {
	s := New(Options{Config: []byte("[[rules]]\nid = \"split\"\nregex = '''zz\\nyy[0-9]{8}'''\nkeywords = [\"zz\\nyy\"]\n"), ConfigPath: ".gitleaks.toml"})
	if err := s.load(); err != nil {
		t.Fatal(err)
	}
	tx := newText([]byte("zz\nyy12345678\nfiller\nfiller\nadded\n"), 1)
	j := tx.judge([]int{5})
	if near, whole := s.planNear(tx, j), s.planWhole(tx, j); slices.Equal(near.hits, whole.hits) {
		t.Fatalf("the near plan finds the keyword too (%v): the test proves nothing", near.hits)
	}
	if got, whole := s.plan(tx, j), s.planWhole(tx, j); !slices.Equal(got.hits, whole.hits) || !slices.Equal(got.selected, whole.selected) {
		t.Errorf("plan with a keyword across lines: hits %v, want %v", got.hits, whole.hits)
	}
}
