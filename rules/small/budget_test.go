package small

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/internal/budgettest"
	"github.com/small-hook/small-hook/internal/yamldoc"
)

// entryList decodes n progress entries, entry i written by write(i).
func entryList(t *testing.T, n int, write func(i int) string) ([]any, int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("entries:\n")
	for i := range n {
		b.WriteString(write(i))
	}
	doc, err := yamldoc.Decode([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return doc.Value.(map[string]any)["entries"].([]any), b.Len()
}

// stamp is the timestamp i tenths of a second after a fixed start, as
// migrate writes it.
func stamp(i int) string {
	return time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 100 * time.Millisecond).Format(migrateFormat)
}

// TestAlignmentComparesEachEntryOnce is the work budget of small/append-
// only (and of the ledger, which aligns the same way): every old entry is
// looked up in the new version, and every unmatched one again, as
// checkHistory does. Doubling the entries doubles the files; the
// comparisons must not grow faster (each old entry was compared with
// every new one: they grew with the square of the entries).
func TestAlignmentComparesEachEntryOnce(t *testing.T) {
	shapes := []struct {
		name     string
		old, cur func(i int) string
	}{
		{"every entry rewritten",
			func(i int) string {
				return fmt.Sprintf("  - task_id: task-%d\n    evidence: run %d passed\n    timestamp: %q\n", i, i, stamp(i))
			},
			func(i int) string {
				return fmt.Sprintf("  - task_id: task-%d\n    evidence: run %d rewritten\n    timestamp: %q\n", i, i, stamp(i))
			}},
		{"the same entry at other times",
			func(i int) string { return fmt.Sprintf("  - task_id: heartbeat\n    timestamp: %q\n", stamp(2*i)) },
			func(i int) string { return fmt.Sprintf("  - task_id: heartbeat\n    timestamp: %q\n", stamp(2*i+1)) }},
		{"the same entry, ties spread",
			func(i int) string { return fmt.Sprintf("  - task_id: heartbeat\n    timestamp: %q\n", stamp(0)) },
			func(i int) string {
				return fmt.Sprintf("  - task_id: heartbeat\n    timestamp: \"2027-01-01T00:00:00.%09dZ\"\n", i)
			}},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			var input, work [2]float64
			for k, n := range []int{1000, 2000} {
				old, oldSize := entryList(t, n, s.old)
				cur, curSize := entryList(t, n, s.cur)
				h := align(old, cur)
				for i, o := range h.old {
					if h.match[i] < 0 {
						h.inNew(o)
					}
				}
				for j, c := range h.cur {
					if h.from[j] < 0 {
						h.inEarlier(c)
					}
				}
				input[k], work[k] = float64(oldSize+curSize), float64(h.eq.Comparisons())
			}
			budgettest.Linear(t, "the comparisons", input, work)
		})
	}
}

// TestAlignmentSurvivesSharedSums: two different entries whose sums agree
// (planted here; the hash makes it vanishingly rare) have the entries
// compared one by one from there, as without the index.
func TestAlignmentSurvivesSharedSums(t *testing.T) {
	entry := func(task string) string { return fmt.Sprintf("  - task_id: %s\n    timestamp: %q\n", task, stamp(1)) }
	tasks := []string{"other", "a", "b"}
	old, _ := entryList(t, 2, func(i int) string { return entry(tasks[i+1]) })
	cur, _ := entryList(t, 3, func(i int) string { return entry(tasks[i]) })
	h := newHistory(old, cur)
	x := newEntryIndex(h.eq, cur)
	a, _ := timestampOf(old[0])
	list := x.byValue[valueKey{h.eq.SumExcept(old[0], "timestamp"), h.eq.Sum(a)}]
	list.list = append([]int{0}, list.list...)
	h.alignWith(x)
	if h.match[0] != 1 || h.match[1] != 2 {
		t.Fatalf("matches %v, want [1 2]", h.match)
	}
}
