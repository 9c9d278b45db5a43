package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

func TestReportNaturalCompare(t *testing.T) {
	// Each string sorts before the next.
	sorted := []string{
		"",
		"entries/1",
		"entries/2",
		"entries/9",
		"entries/10",
		"entries/10/evidence",
		"entries/11",
		"entries/100",
		"entry 0x10",
		"entry 007 is a",
		"entry 7 is a",
		"entry 7 is b",
		"entry 99999999999999999999999",
		"entry 100000000000000000000000",
		"entry x",
	}
	for i := range sorted {
		for j := range sorted {
			got, want := naturalCompare(sorted[i], sorted[j]), min(max(i-j, -1), 1)
			if got != want {
				t.Errorf("naturalCompare(%q, %q) = %d, want %d", sorted[i], sorted[j], got, want)
			}
		}
	}
}

// entryFindings are schema findings about progress entries 1 to 12 at one
// place, listed as a byte-wise sort of their messages leaves them.
func entryFindings(commit string) []rules.Finding {
	var out []rules.Finding
	for i := 1; i <= 12; i++ {
		out = append(out, rules.Finding{Rule: "small/schema", Severity: rules.Error, Path: ".small/progress.small.yml",
			Message: fmt.Sprintf("/entries/%d: missing property task_id", i), Commit: commit})
	}
	slices.SortFunc(out, func(a, b rules.Finding) int { return strings.Compare(a.Message, b.Message) })
	return out
}

func TestReportOrdersEntriesByNumber(t *testing.T) {
	other := strings.Repeat("f", 40)
	in := append(entryFindings(other), entryFindings(commit)...)
	in = append(in, rules.Finding{Rule: "small/timestamp", Severity: rules.Error, Path: ".small/progress.small.yml", Message: "entry 1"})
	r := &Result{Tool: "small-hook", Mode: "range", Files: 1, Commits: 2, Findings: slices.Clone(in)}

	var want []string
	for _, c := range []string{other, commit} {
		for i := 1; i <= 12; i++ {
			want = append(want, fmt.Sprintf("%s /entries/%d: missing property task_id", words.ShortID(c), i))
		}
	}
	want = append(want, " entry 1")
	var got []string
	for _, f := range ordered(r) {
		got = append(got, words.ShortID(f.Commit)+" "+f.Message)
	}
	if !slices.Equal(got, want) {
		t.Errorf("order\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(r.Findings, in) {
		t.Error("ordering changed the result's findings")
	}

	// Every format prints that order.
	var text, js, sarif bytes.Buffer
	if err := Text(&text, r, false); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if err := SARIF(&sarif, r); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Findings []struct{ Message string } }
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	log, _ := decodeSARIF(t, r)
	lines := strings.Split(text.String(), "\n")
	for i, w := range want {
		msg := w[strings.Index(w, " ")+1:]
		if !strings.Contains(lines[i], msg) || doc.Findings[i].Message != msg || log.Runs[0].Results[i].Message.Text != msg {
			t.Errorf("finding %d: text %q, JSON %q, SARIF %q; want %q", i, lines[i], doc.Findings[i].Message, log.Runs[0].Results[i].Message.Text, msg)
		}
	}
}
