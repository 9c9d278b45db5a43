package gitdiff

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// history is a generated commit graph: parents[i] lists the parents of
// commit i (always lower numbers), dates[i] its committer date.
type history struct {
	parents [][]int
	dates   []int64
}

// randomHistory builds n commits: roots now and then, merges of two or
// three earlier commits, and dates that are either increasing (skewed
// says how often a commit is dated before one of its parents) or random.
func randomHistory(rng *rand.Rand, n int, skewed float64) history {
	h := history{parents: make([][]int, n), dates: make([]int64, n)}
	for i := 0; i < n; i++ {
		switch k := rng.Intn(10); {
		case i == 0 || k == 0 && i < n/2:
			// a root
		case k < 4 && i > 2:
			a, b := rng.Intn(i), rng.Intn(i)
			h.parents[i] = []int{a}
			if b != a {
				h.parents[i] = append(h.parents[i], b)
			}
			if c := rng.Intn(i); k == 1 && c != a && c != b {
				h.parents[i] = append(h.parents[i], c)
			}
		default:
			h.parents[i] = []int{i - 1 - rng.Intn(min(i, 3))}
		}
		latest := int64(1_700_000_000)
		for _, p := range h.parents[i] {
			latest = max(latest, h.dates[p])
		}
		h.dates[i] = latest + int64(rng.Intn(100))
		if rng.Float64() < skewed {
			h.dates[i] = latest - 1 - int64(rng.Intn(100_000))
		}
	}
	return h
}

// build writes the history into a new repository with git fast-import and
// returns the repository and the commit ids, commit i at index i.
func (h history) build(t *testing.T) (*repo, []string) {
	t.Helper()
	r := newRepo(t)
	var stream strings.Builder
	for i, ps := range h.parents {
		fmt.Fprintf(&stream, "commit refs/heads/c%d\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 3\nc%d\n", i, i+1, h.dates[i], i%10)
		for j, p := range ps {
			if j == 0 {
				fmt.Fprintf(&stream, "from :%d\n", p+1)
			} else {
				fmt.Fprintf(&stream, "merge :%d\n", p+1)
			}
		}
		content := fmt.Sprint(i)
		fmt.Fprintf(&stream, "M 100644 inline .small/intent.small.yml\ndata %d\n%s\n", len(content), content)
	}
	marks := filepath.Join(t.TempDir(), "marks")
	r.GitInput(stream.String(), "fast-import", "--quiet", "--export-marks="+marks)
	data, err := os.ReadFile(marks)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(h.parents))
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var mark int
		var id string
		if _, err := fmt.Sscanf(line, ":%d %s", &mark, &id); err != nil || mark < 1 || mark > len(ids) {
			t.Fatalf("marks file line %q: %v", line, err)
		}
		ids[mark-1] = id
	}
	return r, ids
}

// reach is every commit reachable from i, by brute force.
func (h history) reach(i int) map[int]bool {
	seen := map[int]bool{i: true}
	stack := []int{i}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range h.parents[c] {
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return seen
}

// exact is reach(head) minus reach(base), as sorted commit ids.
func (h history) exact(ids []string, base, head int) []string {
	fromBase := h.reach(base)
	var out []string
	for c := range h.reach(head) {
		if !fromBase[c] {
			out = append(out, ids[c])
		}
	}
	slices.Sort(out)
	return out
}

func sortedLines(s string) []string {
	lines := strings.Fields(s)
	slices.Sort(lines)
	return lines
}

func betweenIDs(t *testing.T, g *Repo, base, head string) []string {
	t.Helper()
	var bases []plumbing.Hash
	if base != "" {
		bases = append(bases, plumbing.NewHash(base))
	}
	commits, err := g.between(bases, plumbing.NewHash(head))
	if err != nil {
		t.Fatalf("%s..%s: %v", base, head, err)
	}
	var out []string
	for _, c := range commits {
		out = append(out, c.Hash.String())
	}
	slices.Sort(out)
	return out
}

// TestRangeIsExactWhateverTheDates compares the range walk with the set
// difference of reachability on generated histories whose dates are in
// order, now and then skewed, or random; with and without a commit-graph.
// git rev-list is compared too: where it disagrees with the exact set
// (its walk gives up a few commits after the dates say it may), the test
// logs the history rather than failing, since small-hook must not follow
// git there.
func TestRangeIsExactWhateverTheDates(t *testing.T) {
	rng := rand.New(rand.NewSource(20261122))
	gitDisagrees := 0
	for round := 0; round < 16; round++ {
		skew := []float64{0, 0.1, 0.5, 1}[round%4]
		h := randomHistory(rng, 8+rng.Intn(22), skew)
		r, ids := h.build(t)
		for _, withGraph := range []bool{false, true} {
			if withGraph {
				r.Git("commit-graph", "write", "--reachable")
			}
			g := r.open()
			for pair := 0; pair < 8; pair++ {
				base, head := rng.Intn(len(ids)), rng.Intn(len(ids))
				want := h.exact(ids, base, head)
				if got := betweenIDs(t, g, ids[base], ids[head]); !slices.Equal(got, want) {
					t.Fatalf("round %d (skew %v, commit-graph %v): c%d..c%d gave %d commits, want %d\nparents %v\ndates %v",
						round, skew, withGraph, base, head, len(got), len(want), h.parents, h.dates)
				}
				if git := sortedLines(r.Git("rev-list", ids[base]+".."+ids[head])); !slices.Equal(git, want) {
					gitDisagrees++
					t.Logf("git rev-list c%d..c%d lists %d commits, the exact set has %d (skew %v, commit-graph %v): parents %v dates %v",
						base, head, len(git), len(want), skew, withGraph, h.parents, h.dates)
				}
			}
		}
	}
	t.Logf("git rev-list disagreed with the exact set %d times", gitDisagrees)
}

// TestSkewedBaseCommit is the case from the issue: main's last commit is
// dated before its parent, and a pull request forked from that parent.
// Only the pull request's own commit is in the range; a walk that trusts
// dates would also take main's older commits. git rev-list itself does so
// when more than five skewed commits follow each other (git 2.39, with or
// without a commit-graph): the test logs where it disagrees.
func TestSkewedBaseCommit(t *testing.T) {
	long := history{parents: [][]int{nil, {0}}, dates: []int64{100, 200}}
	for i := 2; i < 12; i++ {
		long.parents = append(long.parents, []int{i - 1})
		long.dates = append(long.dates, int64(i))
	}
	long.parents = append(long.parents, []int{11}, []int{1})
	long.dates = append(long.dates, 12, 300)
	for _, c := range []struct {
		name string
		h    history
	}{
		// 0 - 1 - 2(main, dated before 1); 1 - 3(pr)
		{"main's tip dated before its parent", history{parents: [][]int{nil, {0}, {1}, {1}}, dates: []int64{100, 200, 50, 300}}},
		// 0 - 1 - 2 - 3(main, dated before 0); 1 - 4(pr): the skewed commit's
		// parent is not a commit the pull request's side has seen.
		{"a run of skewed commits on main", history{parents: [][]int{nil, {0}, {1}, {2}, {1}}, dates: []int64{100, 200, 250, 50, 300}}},
		// 0 - 1 - 2 - 3 - 4(main); 4 and 3 dated long before 2; 1 - 5(pr)
		{"skew below main's tip", history{parents: [][]int{nil, {0}, {1}, {2}, {3}, {1}}, dates: []int64{100, 200, 250, 20, 10, 300}}},
		// 0 - 1 - 2 … 12(main), all of 2…12 dated before 0; 1 - 13(pr)
		{"eleven skewed commits on main", long},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, ids := c.h.build(t)
			last := len(ids) - 1
			base := ids[last-1]
			want := c.h.exact(ids, last-1, last)
			if len(want) != 1 {
				t.Fatalf("the fixture is wrong: %d commits in the exact range", len(want))
			}
			if got := betweenIDs(t, r.open(), base, ids[last]); !slices.Equal(got, want) {
				t.Errorf("without a commit-graph: %d commits, want 1", len(got))
			}
			r.Git("commit-graph", "write", "--reachable")
			if got := betweenIDs(t, r.open(), base, ids[last]); !slices.Equal(got, want) {
				t.Errorf("with a commit-graph: %d commits, want 1", len(got))
			}
			if git := sortedLines(r.Git("rev-list", base+".."+ids[last])); !slices.Equal(git, want) {
				t.Logf("git rev-list lists %d commits where the exact range has 1", len(git))
			}
		})
	}
}

// TestCommitGraphKeepsTheWalkToTheRange checks what the walk reads: with a
// commit-graph, the few commits around a short range of a long history;
// without one, every ancestor (levels must be computed from the roots).
func TestCommitGraphKeepsTheWalkToTheRange(t *testing.T) {
	h := history{}
	for i := 0; i < 500; i++ {
		if i > 0 {
			h.parents = append(h.parents, []int{i - 1})
		} else {
			h.parents = append(h.parents, nil)
		}
		h.dates = append(h.dates, int64(1_700_000_000+i))
	}
	r, ids := h.build(t)
	read := func() int {
		t.Helper()
		g, err := r.open().newGraph()
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		got, err := g.walk([]plumbing.Hash{plumbing.NewHash(ids[497])}, plumbing.NewHash(ids[499]))
		if err != nil || len(got) != 2 {
			t.Fatalf("walk: %d commits, %v", len(got), err)
		}
		return len(g.nodes)
	}
	if n := read(); n != 500 {
		t.Errorf("without a commit-graph the walk read %d commits, want all 500", n)
	}
	r.Git("commit-graph", "write", "--reachable")
	if n := read(); n > 5 {
		t.Errorf("with a commit-graph the walk read %d commits for a range of 2", n)
	}
}
