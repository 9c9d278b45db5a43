package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// largeLimit is the longest a check of any input under 30 MB may take.
const largeLimit = 10 * time.Second

// largeNote says how scenarios 15 and 16 are measured.
const largeNote = "median of 3 runs per command"

// largeTargets are the targets of scenarios 15 and 16 against gitleaks'
// own staged scan of the same commit: as fast as its release build, and
// at most twice the memory of its plain build.
func largeTargets(s *scenario) {
	s.targets = map[string]float64{"gitleaks git --pre-commit --staged" + releaseBuild: 1}
	s.memoryTargets = map[string]float64{"gitleaks git --pre-commit --staged": 2}
}

// largeRuns is how many runs scenarios 15 and 16 take per command: each
// run takes seconds, and the median of three is steady enough at that.
func (b *bench) largeRuns() int { return min(b.runs, 3) }

// manyWorkspaces is scenario 15: one staged commit that adds 10,000 SMALL
// workspaces, each a copy of the reference CLI's, every file made
// distinct by a comment (28.9 MB in 60,000 files).
func (b *bench) manyWorkspaces() (scenario, error) {
	s := scenario{title: "15. a staged commit of 10,000 SMALL workspaces (60,000 files, 28.9 MB)", limit: largeLimit, note: largeNote}
	largeTargets(&s)
	init := filepath.Join(b.root, "testdata", "small", "reference-init", ".small")
	files, err := os.ReadDir(init)
	if err != nil {
		return s, err
	}
	contents := map[string][]byte{}
	for _, f := range files {
		if contents[f.Name()], err = os.ReadFile(filepath.Join(init, f.Name())); err != nil {
			return s, err
		}
	}
	dir, err := b.stagedRepo("many-workspaces", func(dir string) error {
		for i := range 10_000 {
			for name, data := range contents {
				unique := fmt.Appendf(data[:len(data):len(data)], "# workspace %05d\n", i)
				if err := writeFile(filepath.Join(dir, fmt.Sprintf("ws%05d", i), ".small", name), unique); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	return s, b.compareLarge(&s, dir)
}

// manyArtifacts is scenario 16: one staged commit that adds 30,000
// knowledge artifacts to an AWP workspace, each the reference CLI's
// artifact under its own id (30 MB).
func (b *bench) manyArtifacts() (scenario, error) {
	s := scenario{title: "16. a staged commit of 30,000 knowledge artifacts (30 MB)", limit: largeLimit, note: largeNote}
	largeTargets(&s)
	artifact, err := os.ReadFile(filepath.Join(b.root, "testdata", "smp", "llm-context-research.v2.md"))
	if err != nil {
		return s, err
	}
	dir, err := b.stagedRepo("many-artifacts", func(dir string) error {
		if err := writeFile(filepath.Join(dir, ".awp", "workspace.json"), []byte("{}\n")); err != nil {
			return err
		}
		for i := range 30_000 {
			slug := fmt.Sprintf("a%05d", i)
			if err := writeFile(filepath.Join(dir, "artifacts", slug+".md"), []byte(strings.ReplaceAll(string(artifact), "llm-context-research", slug))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	return s, b.compareLarge(&s, dir)
}

// stagedRepo builds a repository under work with one commit, then has
// write add files and stages them all.
func (b *bench) stagedRepo(name string, write func(dir string) error) (string, error) {
	dir := filepath.Join(b.work, name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := writeFile(filepath.Join(dir, "README.md"), []byte("x\n")); err != nil {
		return "", err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "README.md"}, {"commit", "-q", "-m", "base"}} {
		if err := git(dir, args...); err != nil {
			return "", err
		}
	}
	if err := write(dir); err != nil {
		return "", fmt.Errorf("building %s: %w", name, err)
	}
	return dir, git(dir, "add", "-A")
}

// compareLarge measures the staged check of dir against gitleaks' own
// staged scan by both its builds, largeRuns times each.
func (b *bench) compareLarge(s *scenario, dir string) error {
	ms, err := measureTogether(b.largeRuns(), append([]command{b.smallHook("small-hook check", dir, "check")}, b.gitleaksStaged(dir)...)...)
	if err != nil {
		return err
	}
	s.subject, s.peers = ms[0], ms[1:]
	return nil
}
