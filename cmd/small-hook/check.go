package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/cienv"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/report"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
	"github.com/small-hook/small-hook/secrets"
)

// checkCmd is `small-hook check`.
type checkCmd struct {
	Base      string   `help:"Check every commit reachable from --head and not from REV." placeholder:"REV"`
	Head      string   `help:"The last commit of the range (default HEAD)." placeholder:"REV"`
	All       bool     `help:"Check every governed file as it stands, without history (the index, or --rev)."`
	Rev       string   `help:"With --all: check the tree of REV instead of the index." placeholder:"REV"`
	CI        bool     `name:"ci" help:"Find the range from the CI environment (GitHub Actions, GitLab CI, pre-commit, SMALL_HOOK_BASE/SMALL_HOOK_HEAD)."`
	CommitMsg string   `name:"commit-msg" help:"Commit-msg hook stage: attribute the staged change with this commit message file." placeholder:"FILE" type:"path"`
	Repo      string   `help:"The repository to check (any directory inside it)." default:"." placeholder:"DIR"`
	Config    string   `help:"Configuration file to use instead of .small-hook.yml from the repository." placeholder:"FILE" type:"path"`
	Format    string   `help:"Output format: text, json, sarif or github." enum:"text,json,sarif,github" default:"text"`
	Output    []string `help:"Also write FORMAT to FILE (repeatable), e.g. --output sarif=results.sarif." placeholder:"FORMAT=FILE"`
	NoSecrets bool     `name:"no-secrets" help:"Skip secret detection."`
}

func (c *checkCmd) validate() error {
	modes := 0
	for _, on := range []bool{c.Base != "", c.All, c.CI, c.CommitMsg != ""} {
		if on {
			modes++
		}
	}
	switch {
	case modes > 1:
		return &usageError{"--base, --ci, --all and --commit-msg exclude each other"}
	case c.Head != "" && c.Base == "":
		return &usageError{"--head needs --base"}
	case c.Rev != "" && !c.All:
		return &usageError{"--rev needs --all"}
	}
	for _, o := range c.Output {
		if _, _, err := parseOutput(o); err != nil {
			return err
		}
	}
	return nil
}

// target is what a check looks at, once the mode is settled.
type target struct {
	mode  changes.Mode
	base  string
	head  string
	rev   string // tree mode: "" is the index
	label string // for the report: how the range was found
}

func (c *checkCmd) run(e *env) (int, error) {
	if err := c.validate(); err != nil {
		return exitFailure, err
	}
	repo, err := gitdiff.Open(absDir(e, c.Repo), gitdiff.Options{Getenv: e.getenv})
	if err != nil {
		return exitFailure, err
	}
	tgt, err := c.target(e)
	if err != nil {
		return exitFailure, err
	}
	files, err := loadRepoFiles(repo, tgt)
	if err != nil {
		return exitFailure, err
	}
	cfg, err := c.loadConfig(files)
	if err != nil {
		return exitFailure, err
	}
	scope := gitdiff.Scope{}
	if cfg.Secrets.Scope == "staged" && !c.NoSecrets {
		scope = gitdiff.Scope{All: true}
	}
	actor, err := c.attributor(repo, cfg, e)
	if err != nil {
		return exitFailure, err
	}
	opts := rules.Options{Rules: registry.All(), Config: cfg, Actor: actor}
	if !c.NoSecrets {
		opts.Secrets = newScanner(files)
	}
	checker := rules.NewChecker(opts)
	paths := map[string]bool{}
	commits, err := each(repo, tgt, scope, func(u changes.Unit) error {
		for _, ch := range u.Changes {
			paths[ch.Path] = true
		}
		return checker.Check(&u)
	})
	if err != nil {
		return exitFailure, err
	}
	res := &report.Result{
		Tool: "small-hook", Version: version(), Mode: string(tgt.mode),
		Findings: checker.Findings(), Files: len(paths), Rules: opts.Rules,
	}
	if tgt.mode == changes.ModeRange {
		res.Commits = commits
		res.Range = fmt.Sprintf("%s..%s (%s, %d commits)", tgt.base, tgt.head, tgt.label, commits)
	}
	if err := c.write(res, e); err != nil {
		return exitFailure, err
	}
	if res.Errors() > 0 {
		return exitFindings, nil
	}
	return exitOK, nil
}

// target settles the mode from the flags and, with --ci, the environment.
func (c *checkCmd) target(e *env) (target, error) {
	switch {
	case c.All:
		return target{mode: changes.ModeTree, rev: c.Rev}, nil
	case c.Base != "":
		return target{mode: changes.ModeRange, base: c.Base, head: orHEAD(c.Head), label: "--base"}, nil
	case c.CI:
		r, err := cienv.Detect(e.getenv)
		if err != nil {
			return target{}, fmt.Errorf("--ci: %w", err)
		}
		if r.Base == "" {
			return target{mode: changes.ModeTree, rev: orHEAD(r.Head), label: r.Source}, nil
		}
		return target{mode: changes.ModeRange, base: r.Base, head: orHEAD(r.Head), label: r.Source}, nil
	}
	return target{mode: changes.ModeStaged}, nil
}

func orHEAD(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}

// each hands fn the units of change the target describes, one at a time,
// and returns the number of commits in range mode.
func each(repo *gitdiff.Repo, tgt target, scope gitdiff.Scope, fn func(changes.Unit) error) (int, error) {
	var u changes.Unit
	var err error
	switch tgt.mode {
	case changes.ModeRange:
		return repo.Range(tgt.base, tgt.head, scope, fn)
	case changes.ModeTree:
		u, err = repo.Tree(tgt.rev, scope)
	default:
		u, err = repo.Staged(scope)
	}
	if err != nil {
		return 0, err
	}
	return 0, fn(u)
}

// repoFiles are the repository files that configure a check.
func repoFiles() []string { return []string{config.FileName, ".gitleaks.toml", ".gitleaksignore"} }

// loadRepoFiles reads the configuring files from where the check trusts
// them: the index for staged and index-tree checks, the base revision for
// a range (so that a pull request cannot relax the rules it is checked
// by), the revision for a tree check.
func loadRepoFiles(repo *gitdiff.Repo, tgt target) (map[string][]byte, error) {
	var blobs map[string]*changes.Blob
	var err error
	switch {
	case tgt.mode == changes.ModeRange:
		blobs, err = repo.RevFiles(tgt.base, repoFiles()...)
	case tgt.rev != "":
		blobs, err = repo.RevFiles(tgt.rev, repoFiles()...)
	default:
		blobs, err = repo.IndexFiles(repoFiles()...)
	}
	if err != nil {
		return nil, fmt.Errorf("reading configuration: %w", err)
	}
	out := map[string][]byte{}
	for p, b := range blobs {
		out[p] = b.Data
	}
	return out, nil
}

func (c *checkCmd) loadConfig(files map[string][]byte) (*config.Config, error) {
	name, data := config.FileName, files[config.FileName]
	if c.Config != "" {
		var err error
		name = c.Config
		if data, err = os.ReadFile(c.Config); err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
	}
	if data == nil {
		return config.Default(), nil
	}
	cfg, err := config.Load(data)
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("%s:%d: %s", name, ce.Line, ce.Msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return cfg, nil
}

// attributor returns how each unit's actor is decided.
func (c *checkCmd) attributor(repo *gitdiff.Repo, cfg *config.Config, e *env) (func(*changes.Unit) (attribution.Verdict, error), error) {
	staged := attribution.Input{EnvActor: strings.TrimSpace(e.getenv("SMALL_HOOK_ACTOR"))}
	if c.CommitMsg != "" {
		msg, err := os.ReadFile(c.CommitMsg)
		if err != nil {
			return nil, fmt.Errorf("reading the commit message: %w", err)
		}
		staged.Message, staged.HasMessage = string(msg), true
		staged.Author = repo.Author()
		staged.Committer = repo.Committer()
	}
	return func(u *changes.Unit) (attribution.Verdict, error) {
		in := staged
		if u.Commit != nil {
			in = attribution.Input{Message: u.Commit.Message, HasMessage: true, Author: u.Commit.Author, Committer: u.Commit.Committer}
		}
		v, err := attribution.Decide(in, cfg.Attribution)
		if err != nil && u.Commit != nil {
			return v, fmt.Errorf("commit %s: %w", u.Commit.Hash, err)
		}
		return v, err
	}, nil
}

// newScanner prepares secret detection with the repository's gitleaks
// settings; the detector itself is only built when there is content.
func newScanner(files map[string][]byte) *secrets.Scanner {
	return secrets.New(secrets.Options{Config: files[".gitleaks.toml"], ConfigPath: ".gitleaks.toml", Ignore: files[".gitleaksignore"]})
}
