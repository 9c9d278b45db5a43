package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// nestedWorkspaces is scenario 6: a staged append to two of 20 SMALL
// workspaces nested at several depths, beside an AWP workspace.
func (b *bench) nestedWorkspaces() (scenario, error) {
	s := scenario{title: fmt.Sprintf("6. staged append in a repository with 20 nested workspaces, %d files", b.files),
		targets: map[string]float64{"gitleaks git --pre-commit --staged": 0.7}}
	dir, err := b.repo("nested", 0)
	if err != nil {
		return s, err
	}
	roots := nestedRoots(19)
	for _, root := range roots {
		if err := copySmall(b.smallFixture(), filepath.Join(dir, root, ".small"), 200); err != nil {
			return s, err
		}
	}
	if err := writeFile(filepath.Join(dir, "agents", "notes", ".awp", "workspace.json"), []byte("{\"name\": \"notes\"}\n")); err != nil {
		return s, err
	}
	if err := writeFile(filepath.Join(dir, "agents", "notes", "artifacts", "bench-notes.md"), []byte(artifact(3))); err != nil {
		return s, err
	}
	if err := git(dir, "add", "-A"); err != nil {
		return s, err
	}
	if err := git(dir, "commit", "-q", "-m", "nested workspaces"); err != nil {
		return s, err
	}
	if err := stageAppend(dir, 0); err != nil {
		return s, err
	}
	nested := filepath.Join(roots[len(roots)-1], ".small", "progress.small.yml")
	if err := appendEntries(filepath.Join(dir, nested), progressEntry(200, "appended")); err != nil {
		return s, err
	}
	if err := git(dir, "add", filepath.ToSlash(nested)); err != nil {
		return s, err
	}
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	return s, b.compare(&s, b.smallHook("small-hook check", dir, "check"), false, append([]command{gitDiffCached(dir)}, b.gitleaksStaged(dir)...)...)
}

// nestedRoots returns n workspace roots at depths 2 to 5, the way the
// reference repository nests its examples.
func nestedRoots(n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		parts := []string{"examples", fmt.Sprintf("e%02d", i)}
		for d := 0; d < i%4; d++ {
			parts = append(parts, fmt.Sprintf("level%d", d))
		}
		out = append(out, strings.Join(parts, "/"))
	}
	return out
}

// stagedMerge is scenario 7: a merge being committed (MERGE_HEAD), where
// both branches appended progress entries and one edited an artifact;
// the conflict in the progress file is resolved by keeping both sides in
// time order.
func (b *bench) stagedMerge() (scenario, error) {
	s := scenario{title: "7. a staged merge of two branches that both appended progress",
		targets: map[string]float64{"gitleaks git --pre-commit --staged": 0.7}}
	dir, err := b.repo("merge", 0)
	if err != nil {
		return s, err
	}
	progress := filepath.Join(dir, ".small", "progress.small.yml")
	base, err := os.ReadFile(progress)
	if err != nil {
		return s, err
	}
	side := func(from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			b.WriteString(progressEntry(i, "merged"))
		}
		return b.String()
	}
	if err := git(dir, "checkout", "-q", "-b", "topic"); err != nil {
		return s, err
	}
	if err := os.WriteFile(progress, append(append([]byte{}, base...), side(5, 10)...), 0o644); err != nil {
		return s, err
	}
	if err := writeFile(filepath.Join(dir, "artifacts", "bench-notes.md"), []byte(artifact(2))); err != nil {
		return s, err
	}
	if err := git(dir, "add", "-A"); err != nil {
		return s, err
	}
	if err := git(dir, "commit", "-q", "-m", "topic"); err != nil {
		return s, err
	}
	if err := git(dir, "checkout", "-q", "main"); err != nil {
		return s, err
	}
	if err := os.WriteFile(progress, append(append([]byte{}, base...), side(0, 5)...), 0o644); err != nil {
		return s, err
	}
	if err := git(dir, "commit", "-q", "-am", "main"); err != nil {
		return s, err
	}
	// The progress file conflicts; the other changes merge cleanly.
	if _, err := gitOutput(dir, nil, "merge", "--no-commit", "topic"); err == nil {
		return s, fmt.Errorf("the merge was expected to conflict")
	}
	if err := os.WriteFile(progress, append(append([]byte{}, base...), side(0, 10)...), 0o644); err != nil {
		return s, err
	}
	if err := git(dir, "add", ".small/progress.small.yml"); err != nil {
		return s, err
	}
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	return s, b.compare(&s, b.smallHook("small-hook check", dir, "check"), false, append([]command{gitDiffCached(dir)}, b.gitleaksStaged(dir)...)...)
}
