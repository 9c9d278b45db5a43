package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/budgettest"
	"github.com/small-hook/small-hook/internal/gittest"
)

// deepRepo builds, with fast-import (the paths are too long for a work
// tree), a repository whose first commit declares an AWP workspace at the
// root and whose second adds files files depth artifacts/ directories
// deep; it returns the repository, the first commit and the bytes of the
// paths added.
func deepRepo(t *testing.T, files, depth int) (*testRepo, string, int) {
	r := newTestRepo(t)
	var stream strings.Builder
	inline := func(path, content string) {
		fmt.Fprintf(&stream, "M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
	}
	fmt.Fprintf(&stream, "commit refs/heads/main\nmark :1\ncommitter %s <%s> 1798761600 +0000\ndata 9\nworkspace\n", gittest.Name, gittest.Email)
	inline(".awp/workspace.json", "{}\n")
	fmt.Fprintf(&stream, "commit refs/heads/main\nmark :2\ncommitter %s <%s> 1798761601 +0000\ndata 5\ndeep\nfrom :1\n", gittest.Name, gittest.Email)
	deep, size := strings.Repeat("artifacts/", depth), 0
	for i := range files {
		path := fmt.Sprintf("%sf%03d.md", deep, i)
		inline(path, fmt.Sprintf("# Note %d\n", i))
		size += len(path)
	}
	r.GitInput(stream.String(), "fast-import", "--quiet")
	return r, strings.TrimSpace(r.Git("rev-parse", "main~1")), size
}

// TestDeepDirectoriesCostTheirBytes is the work budget of deciding what
// governs a path: a range that adds files ever deeper in artifacts/
// directories, each of which could govern them, costs what their paths
// hold. Doubling the depth doubles the bytes of the paths; what the range
// check allocates must not grow faster (each directory of each path was
// spelled out again: it grew with the square of the depth).
func TestDeepDirectoriesCostTheirBytes(t *testing.T) {
	var input, work [2]float64
	for i, depth := range []int{100, 200} {
		r, base, size := deepRepo(t, 40, depth)
		input[i] = float64(size)
		work[i] = budgettest.Allocated(func() {
			if code, out, errOut := r.check(nil, "check", "--base", base, "--no-secrets"); code != exitOK || !strings.Contains(out, "40 files") {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
		})
	}
	budgettest.Linear(t, "the bytes allocated", input, work)
}
