package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/ledger"
	"github.com/small-hook/small-hook/internal/report"
	"github.com/small-hook/small-hook/internal/workspace"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// logCmd is `small-hook log`.
type logCmd struct {
	Rev       string   `help:"The revision whose ledger to print (default HEAD)." placeholder:"REV"`
	ConfigRev string   `name:"config-rev" help:"Read .small-hook.yml, the key files it names and the gitleaks files from REV instead of from --rev: in CI, the branch a pull request merges into, so that the change being verified cannot relax its own verification." placeholder:"REV"`
	Verify    bool     `help:"Exit 1 when a finding of error severity exists (and 2 when the clone is shallow), so that CI can require a verified ledger."`
	Repo      string   `help:"The repository (any directory inside it)." default:"." placeholder:"DIR"`
	Config    string   `help:"Configuration file to use instead of .small-hook.yml from the repository." placeholder:"FILE" type:"path"`
	Format    string   `help:"Output format: text, json or markdown." enum:"text,json,markdown" default:"text"`
	Paths     []string `arg:"" optional:"" name:"path" help:"Progress files, knowledge artifacts or directories holding them (default: every one at the revision)."`
}

func (c *logCmd) run(e *env) (int, error) {
	code, err := c.ledger(e)
	if err != nil {
		return code, fmt.Errorf("log: %w", err)
	}
	return code, nil
}

func (c *logCmd) ledger(e *env) (int, error) {
	repo, err := gitdiff.Open(absDir(e, c.Repo), gitdiff.Options{Getenv: e.getenv})
	if err != nil {
		return exitFailure, err
	}
	defer repo.Close()
	rev := orHEAD(c.Rev)
	head, err := repo.Resolve(rev)
	if err != nil {
		return exitFailure, fmt.Errorf("--rev: %w", err)
	}
	trusted := head
	if c.ConfigRev != "" {
		if trusted, err = repo.Resolve(c.ConfigRev); err != nil {
			return exitFailure, fmt.Errorf("--config-rev: %w", err)
		}
	}
	// The configuration comes from a revision, as a range check reads it
	// from its base: here the revision whose ledger is asked for, unless
	// --config-rev names a trusted one.
	tgt := target{mode: changes.ModeRange, base: trusted, head: head}
	pol, err := (&checkCmd{Config: c.Config}).loadPolicy(e, repo, tgt)
	if err != nil {
		return exitFailure, err
	}
	cfg := pol.cfg
	settings, err := rules.NewSettings(cfg, registry.All())
	if err != nil {
		return exitFailure, err
	}
	sig, err := newSigning(repo, tgt, cfg, time.Now())
	if err != nil {
		return exitFailure, err
	}
	actor, err := (&checkCmd{}).attributor(repo, cfg, sig, e, tgt, nil)
	if err != nil {
		return exitFailure, err
	}
	history, err := repo.History(head)
	if err != nil {
		return exitFailure, err
	}
	nodes := make([]ledger.Node, 0, len(history.Commits()))
	for _, hc := range history.Commits() {
		nodes = append(nodes, ledger.Node{Hash: hc.Hash, Parents: hc.Parents, Boundary: hc.Boundary})
		if hc.Boundary && c.Verify {
			return exitFailure, fmt.Errorf("--verify: the history of %s ends at commit %s: %w", rev, hc.Hash, gitdiff.ErrShallow)
		}
	}
	b, err := ledger.NewBuilder(nodes, cfg.Ledger)
	if err != nil {
		return exitFailure, err
	}
	if err := history.Units(gitdiff.Scope{}, func(u changes.Unit) error { return b.Add(&u, actor) }); err != nil {
		return exitFailure, fmt.Errorf("walking the history of %s: %w", rev, err)
	}
	sel := c.selection(e, repo)
	keep := newKeeper(repo, head, cfg, sel)
	l, err := b.Ledger(keep.accepts)
	if err != nil {
		return exitFailure, err
	}
	if keep.err != nil {
		return exitFailure, keep.err
	}
	if err := sel.unmatched(l, rev); err != nil {
		return exitFailure, err
	}
	l.Findings = configured(settings, l.Findings)
	e.out.ledger(l)
	source, err := configSource(repo, c.Config, tgt)
	if err != nil {
		return exitFailure, err
	}
	res := &report.LedgerReport{Tool: "small-hook", Version: version(), Rev: e.out.text(rev), Config: e.out.text(source), Ledger: l}
	if err := c.write(e.stdout, res, e.colour); err != nil {
		return exitFailure, err
	}
	if c.Verify && res.Errors() > 0 {
		return exitFindings, nil
	}
	return exitOK, nil
}

// write prints the ledger in the chosen format.
func (c *logCmd) write(w io.Writer, res *report.LedgerReport, colour bool) error {
	var err error
	switch c.Format {
	case "json":
		err = report.LedgerJSON(w, res)
	case "markdown":
		err = report.LedgerMarkdown(w, res)
	default:
		err = report.LedgerText(w, res, colour)
	}
	if err != nil {
		return fmt.Errorf("writing %s output: %w", c.Format, err)
	}
	return nil
}

// configSource names where the configuration came from: the file
// --config names, the .small-hook.yml of the trusted revision, or, when
// that revision has none, the built-in defaults.
func configSource(repo *gitdiff.Repo, override string, tgt target) (string, error) {
	if override != "" {
		return override, nil
	}
	blobs, err := readTrusted(repo, tgt, config.FileName)
	if err != nil {
		return "", fmt.Errorf("reading %s from %s: %w", config.FileName, tgt.trustedName(), err)
	}
	if blobs[config.FileName] == nil {
		return "the built-in defaults (" + tgt.trustedName() + " has no " + config.FileName + ")", nil
	}
	return tgt.configName(config.FileName), nil
}

// configured applies the configuration to the ledger's findings.
func configured(s *rules.Settings, findings []rules.Finding) []rules.Finding {
	out := findings[:0:0]
	for _, f := range findings {
		if f, keep := s.Apply(f); keep {
			out = append(out, f)
		}
	}
	return out
}

// selection is the paths named on the command line, relative to the
// repository root ("" selects everything).
type selection struct {
	paths []string
}

// selection turns the PATH arguments, relative to the working directory,
// into paths relative to the work tree's root (to the repository's root
// as given, in a bare repository).
func (c *logCmd) selection(e *env, repo *gitdiff.Repo) selection {
	var s selection
	root := repo.WorkTree()
	for _, p := range c.Paths {
		rel := filepath.ToSlash(filepath.Clean(p))
		if root != "" {
			if r, err := filepath.Rel(root, absDir(e, p)); err == nil {
				rel = filepath.ToSlash(r)
			}
		}
		if rel == "." {
			rel = ""
		}
		s.paths = append(s.paths, strings.TrimSuffix(rel, "/"))
	}
	return s
}

// selects reports whether path is, or lies under, one of the selected
// paths (every path, when none is selected).
func (s selection) selects(path string) bool {
	if len(s.paths) == 0 {
		return true
	}
	for _, p := range s.paths {
		if p == "" || path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// unmatched says which named path selects no ledger file.
func (s selection) unmatched(l *ledger.Ledger, rev string) error {
	for _, p := range s.paths {
		found := false
		for _, f := range l.Files {
			if p == "" || f.Path == p || strings.HasPrefix(f.Path, p+"/") {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%s: no progress file or knowledge artifact at %s is there (small-hook log lists .small/progress.small.yml and artifacts/<slug>.md of every workspace)", p, rev)
		}
	}
	return nil
}

// keeper decides which ledger files of the head the ledger shows.
type keeper struct {
	repo *gitdiff.Repo
	head string
	cfg  *config.Config
	sel  selection
	// known remembers which declaring files (markers, artifacts) the head
	// holds as declarations.
	known map[string]bool
	err   error
}

func newKeeper(repo *gitdiff.Repo, head string, cfg *config.Config, sel selection) *keeper {
	return &keeper{repo: repo, head: head, cfg: cfg, sel: sel, known: map[string]bool{}}
}

// accepts keeps the files the selection names and the configuration does
// not exclude; an artifact only when the head declares it (its AWP
// workspace's marker, or its own SMP frontmatter: see workspace.Needs).
func (k *keeper) accepts(path string, kind ledger.Kind) bool {
	if !k.sel.selects(path) || k.cfg.Excluded(path) {
		return false
	}
	if kind != ledger.Provenance {
		return true
	}
	var declared workspace.Declarations
	for _, x := range workspace.Needs(path) {
		if k.declares(x) {
			declared.Add(x)
		}
	}
	p := workspace.Locate(path, declared)
	return p.Area == workspace.Artifacts && !p.Folded
}

// declares reports whether the head holds declaration x: an AWP
// workspace's marker, or an artifact whose frontmatter declares it.
func (k *keeper) declares(x workspace.Declaration) bool {
	path := x.Artifact
	if path == "" {
		if x.Workspace.Kind != workspace.AWP {
			return false
		}
		path = x.Workspace.Root + workspace.Marker
	}
	if known, ok := k.known[path]; ok {
		return known
	}
	blobs, err := k.repo.RevFiles(k.head, path)
	if err != nil && k.err == nil {
		k.err = fmt.Errorf("reading %s at %s: %w", path, k.head, err)
	}
	b := blobs[path]
	k.known[path] = b != nil && (x.Artifact == "" || workspace.DeclaresArtifact(b.Data))
	return k.known[path]
}
