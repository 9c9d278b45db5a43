// Command bench measures small-hook against its peers on repositories it
// builds itself, and writes a Markdown table of medians and ratios, all
// measured in the same run, to BENCHMARKS.md. Only the part of the file
// before its first "## " heading is rewritten: the sections after the
// table are kept as they are.
//
// Usage: go run ./bench [-runs N] [-out BENCHMARKS.md] [-only 1,3] [-work DIR]
//
// Peers: git itself, gitleaks at the version small-hook imports in two
// builds (as `go install` builds it, and as its releases are built, with
// -tags gore2regex), and the reference `small` CLI when SMALL_REF_SRC names
// a checkout of github.com/justyn-clark/small-protocol.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	runs := flag.Int("runs", 7, "runs per command (the median is reported)")
	out := flag.String("out", "BENCHMARKS.md", "where to write the Markdown table")
	files := flag.Int("files", 50_000, "files in the large repository")
	only := flag.String("only", "", "comma-separated scenario numbers to run; the table is then printed, not written")
	work := flag.String("work", "", "build the repositories in this directory and keep them (default: a temporary directory, removed)")
	flag.Parse()
	if err := run(options{runs: *runs, files: *files, out: *out, only: *only, work: *work}); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

// options are the command line's settings.
type options struct {
	runs, files     int
	out, only, work string
}

// scenarios lists every scenario in report order. A new scenario is a
// method of bench and one line here.
func (b *bench) scenarios() []func() (scenario, error) {
	return []func() (scenario, error){
		b.stagedAppend,
		b.historyGrowth,
		b.noGovernedChange,
		b.rangeCheck,
		b.treeCheck,
		b.nestedWorkspaces,
		b.stagedMerge,
		b.referenceHistory,
		b.longHistory,
		b.signedRange,
		b.ledgerReference,
		b.ledgerGrowth,
		b.preCommitCommit,
		b.preReceive,
		b.manyWorkspaces,
		b.manyArtifacts,
		b.guardedEdit,
		b.aliasedEvidence,
		b.deepDirectories,
		b.rewrittenEntries,
		b.ledgerSnapshots,
		b.oldEvidence,
	}
}

func run(o options) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	work := o.work
	if work == "" {
		if work, err = os.MkdirTemp("", "small-hook-bench-"); err != nil {
			return fmt.Errorf("temp dir: %w", err)
		}
		defer os.RemoveAll(work)
	} else if work, err = filepath.Abs(work); err != nil {
		return fmt.Errorf("-work: %w", err)
	}
	tools, err := buildTools(root, work)
	if err != nil {
		return err
	}
	b := &bench{root: root, work: work, tools: tools, runs: o.runs, files: o.files}
	selected, err := selectScenarios(b.scenarios(), o.only)
	if err != nil {
		return err
	}
	var results []scenario
	for _, s := range selected {
		res, err := s()
		if err != nil {
			return err
		}
		results = append(results, res)
		fmt.Fprintln(os.Stderr, "done:", res.title)
	}
	md := markdown(results, time.Now().UTC(), runtime.NumCPU(), o.runs)
	fmt.Print(md)
	if o.only != "" {
		return nil
	}
	out := o.out
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	return writeKeepingSections(out, md)
}

// selectScenarios picks the scenarios -only names by number (all when
// only is empty).
func selectScenarios(all []func() (scenario, error), only string) ([]func() (scenario, error), error) {
	if only == "" {
		return all, nil
	}
	var out []func() (scenario, error)
	for _, f := range strings.Split(only, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > len(all) {
			return nil, fmt.Errorf("-only: %q is not a scenario number (1 to %d)", f, len(all))
		}
		out = append(out, all[n-1])
	}
	return out, nil
}

// writeKeepingSections writes md to path in place of the file's part
// before its first "## " heading, keeping everything from that heading
// on.
func writeKeepingSections(path, md string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	kept := ""
	text := string(old)
	if strings.HasPrefix(text, "## ") {
		kept = text
	} else if i := strings.Index(text, "\n## "); i >= 0 {
		kept = text[i+1:]
	}
	if kept != "" {
		md = strings.TrimRight(md, "\n") + "\n\n" + kept
	}
	if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
