// Command bench measures small-hook against its peers on repositories it
// builds itself, and writes a Markdown table of medians and ratios, all
// measured in the same run, to BENCHMARKS.md.
//
// Usage: go run ./bench [-runs N] [-out BENCHMARKS.md]
//
// Peers: git itself, gitleaks (installed with `go install` at the version
// small-hook imports), and the reference `small` CLI when SMALL_REF_SRC names
// a checkout of github.com/justyn-clark/small-protocol.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

func main() {
	runs := flag.Int("runs", 7, "runs per command (the median is reported)")
	out := flag.String("out", "BENCHMARKS.md", "where to write the Markdown table")
	files := flag.Int("files", 50_000, "files in the large repository")
	flag.Parse()
	if err := run(*runs, *files, *out); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

func run(runs, files int, out string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "small-hook-bench-")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(work)

	tools, err := buildTools(root, work)
	if err != nil {
		return err
	}
	b := &bench{root: root, work: work, tools: tools, runs: runs, files: files}
	scenarios := []func() (scenario, error){b.stagedAppend, b.historyGrowth, b.noGovernedChange, b.rangeCheck, b.treeCheck, b.signedRange}
	var results []scenario
	for _, s := range scenarios {
		res, err := s()
		if err != nil {
			return err
		}
		results = append(results, res)
		fmt.Fprintln(os.Stderr, "done:", res.title)
	}
	md := markdown(results, time.Now().UTC(), runtime.NumCPU(), runs)
	fmt.Print(md)
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	return nil
}
