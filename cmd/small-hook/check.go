package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/report"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
	"github.com/small-hook/small-hook/secrets"
)

// checkCmd is `small-hook check`.
type checkCmd struct {
	Base      string   `help:"Pull-request semantics: check every commit reachable from --head and not from REV, the branch --head merges into (it may have moved on since --head forked)." placeholder:"REV"`
	Previous  string   `help:"Push semantics: REV is this branch's tip before the push. Check every commit reachable from --head and not from REV and, when --head does not contain REV (a force-push), that the governed files at --head still hold what they held at REV." placeholder:"REV"`
	History   bool     `help:"Check every commit reachable from --head, the root commit included (first adoption, a repository's first push)."`
	Head      string   `help:"The last commit for --base, --previous or --history (default HEAD)." placeholder:"REV"`
	All       bool     `help:"Check every governed file as it stands, without history (the index, or --rev)."`
	Rev       string   `help:"With --all: check the tree of REV instead of the index." placeholder:"REV"`
	CI        bool     `name:"ci" help:"Find the range from the CI environment (GitHub Actions, GitLab CI, pre-commit, SMALL_HOOK_BASE/SMALL_HOOK_HEAD)."`
	CommitMsg string   `name:"commit-msg" help:"Commit-msg hook stage: attribute the staged change with this commit message file." placeholder:"FILE" type:"path"`
	Repo      string   `help:"The repository to check (any directory inside it)." default:"." placeholder:"DIR"`
	Config    string   `help:"Configuration file to use instead of .small-hook.yml from the repository." placeholder:"FILE" type:"path"`
	Format    string   `help:"Output format: text, json, sarif or github." enum:"text,json,sarif,github" default:"text"`
	Output    []string `help:"Also write FORMAT to FILE (repeatable), e.g. --output sarif=results.sarif." placeholder:"FORMAT=FILE"`
	NoSecrets bool     `name:"no-secrets" help:"Skip secret detection."`
	Quiet     bool     `help:"Print only findings and errors: nothing when the check passes."`
	Files     []string `arg:"" optional:"" name:"file" help:"Files the pre-commit framework names (pre-commit run --all-files, --files): besides the staged change, every governed file among them that the staged change does not touch is checked whole, as it stands in the index."`
}

func (c *checkCmd) validate() error {
	modes := 0
	for _, on := range []bool{c.Base != "", c.Previous != "", c.History, c.All, c.CI, c.CommitMsg != ""} {
		if on {
			modes++
		}
	}
	switch {
	case modes > 1:
		return &usageError{"--base, --previous, --history, --ci, --all and --commit-msg exclude each other"}
	case c.Head != "" && c.Base == "" && c.Previous == "" && !c.History:
		return &usageError{"--head needs --base, --previous or --history"}
	case c.Rev != "" && !c.All:
		return &usageError{"--rev needs --all"}
	case len(c.Files) > 0 && modes > 0:
		return &usageError{"file names are for the staged check only (the pre-commit framework passes them): drop them, or drop the mode flag"}
	}
	for _, o := range c.Output {
		if _, _, err := parseOutput(o); err != nil {
			return err
		}
	}
	return nil
}

func (c *checkCmd) run(e *env) (int, error) {
	if err := c.validate(); err != nil {
		return exitFailure, err
	}
	repo, err := gitdiff.Open(absDir(e, c.Repo), gitdiff.Options{Getenv: e.getenv})
	if err != nil {
		return exitFailure, err
	}
	defer repo.Close()
	tgt, err := c.target(e)
	if err != nil {
		return exitFailure, err
	}
	if err := tgt.verify(repo); err != nil {
		return exitFailure, err
	}
	files, err := loadRepoFiles(repo, tgt)
	if err != nil {
		return exitFailure, err
	}
	scanner := newScanner(files, tgt)
	e.out.scanner = scanner
	cfg, err := c.loadConfig(files, tgt)
	if err != nil {
		return exitFailure, err
	}
	scope := gitdiff.Scope{Policy: policyPaths(cfg)}
	if cfg.Secrets.Scope == "staged" && !c.NoSecrets {
		scope.All = true
	}
	sig, err := newSigning(repo, tgt, cfg, time.Now())
	if err != nil {
		return exitFailure, err
	}
	actor, err := c.attributor(repo, cfg, sig, e)
	if err != nil {
		return exitFailure, err
	}
	opts := rules.Options{Rules: registry.All(), Config: cfg, Actor: actor}
	if !c.NoSecrets {
		opts.Secrets = scanner
	}
	checker := rules.NewChecker(opts)
	paths := map[string]bool{}
	order := map[string]int{}
	commits, err := each(repo, tgt, c.named(e, repo), scope, func(u changes.Unit) error {
		for _, ch := range u.Changes {
			paths[ch.Path] = true
		}
		if u.Commit != nil {
			order[u.Commit.Hash] = len(order)
		}
		return checker.Check(&u)
	})
	if err != nil {
		return exitFailure, fmt.Errorf("checking %s: %w", tgt.what(), err)
	}
	findings := checker.Findings()
	rewritten := false
	if tgt.previous {
		var tip []rules.Finding
		if tip, rewritten, err = checkTip(repo, tgt, scope, cfg, paths); err != nil {
			return exitFailure, fmt.Errorf("comparing %s with the previous tip %s: %w", tgt.head, tgt.base, err)
		}
		findings = append(findings, tip...)
		rules.Sort(findings, order)
	}
	res := &report.Result{
		Tool: "small-hook", Version: version(), Mode: string(tgt.mode),
		Findings: findings, Files: len(paths), Rules: opts.Rules,
	}
	res.Reader, _ = repo.Reader()
	if tgt.mode == changes.ModeRange {
		res.Commits = commits
		res.Range = tgt.describe(rewritten)
		res.Signatures = sig.statuses
	}
	e.out.result(res)
	if err := c.write(res, e); err != nil {
		return exitFailure, err
	}
	if res.Errors() > 0 {
		return exitFindings, nil
	}
	return exitOK, nil
}

// named returns the files named on the command line as slash-separated
// paths relative to the work tree's root (pre-commit runs hooks there and
// names files relative to it; a name is taken relative to the working
// directory). Names outside the work tree are dropped.
func (c *checkCmd) named(e *env, repo *gitdiff.Repo) []string {
	root := repo.WorkTree()
	if root == "" {
		return nil
	}
	var out []string
	for _, f := range c.Files {
		rel, err := filepath.Rel(root, absDir(e, f))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// each hands fn the units of change the target describes, one at a time,
// and returns the number of commits in range mode. In staged mode, the
// named files the staged change does not touch follow as a tree.
func each(repo *gitdiff.Repo, tgt target, named []string, scope gitdiff.Scope, fn func(changes.Unit) error) (int, error) {
	switch tgt.mode {
	case changes.ModeRange:
		return repo.Range(tgt.base, tgt.head, scope, fn)
	case changes.ModeTree:
		u, err := repo.Tree(tgt.rev, scope)
		if err != nil {
			return 0, err
		}
		return 0, fn(u)
	}
	u, err := repo.Staged(scope)
	if err != nil {
		return 0, err
	}
	var rest []string
	for _, p := range named {
		if u.Changed(p) == nil {
			rest = append(rest, p)
		}
	}
	if err := fn(u); err != nil || len(rest) == 0 {
		return 0, err
	}
	tree, err := repo.IndexTree(rest, scope)
	if err != nil {
		return 0, err
	}
	if len(tree.Changes) == 0 {
		return 0, nil
	}
	return 0, fn(tree)
}

// repoFiles are the repository files that configure a check.
func repoFiles() []string { return []string{config.FileName, ".gitleaks.toml", ".gitleaksignore"} }

// loadRepoFiles reads the configuring files from where the check trusts
// them: the index for staged and index-tree checks, the base revision for
// a range (so that a pull request cannot relax the rules it is checked
// by), the head of a whole history (which has nothing before it), the
// revision for a tree check.
func loadRepoFiles(repo *gitdiff.Repo, tgt target) (map[string][]byte, error) {
	var blobs map[string]*changes.Blob
	var err error
	where := trustedRev(tgt)
	if where != "" {
		blobs, err = repo.RevFiles(where, repoFiles()...)
	} else {
		blobs, err = repo.IndexFiles(repoFiles()...)
	}
	if err != nil {
		if where == "" {
			where = "the index"
		}
		return nil, fmt.Errorf("reading %s, .gitleaks.toml and .gitleaksignore from %s: %w", config.FileName, where, err)
	}
	out := map[string][]byte{}
	for p, b := range blobs {
		out[p] = b.Data
	}
	return out, nil
}

func (c *checkCmd) loadConfig(files map[string][]byte, tgt target) (*config.Config, error) {
	name, data := tgt.configName(config.FileName), files[config.FileName]
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
	if err == nil {
		err = rules.ValidateSettings(cfg, registry.All())
	}
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("line %d of %s: %s", ce.Line, name, ce.Msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return cfg, nil
}

// attributor returns how each unit's actor is decided: a commit from its
// signature, message and identities; the staged change from the commit
// message (commit-msg stage), the environment and git's signing settings.
func (c *checkCmd) attributor(repo *gitdiff.Repo, cfg *config.Config, sig *signing, e *env) (func(*changes.Unit) (attribution.Verdict, error), error) {
	staged := attribution.Input{EnvActor: strings.TrimSpace(e.getenv("SMALL_HOOK_ACTOR")), EnvRewrite: e.getenv("SMALL_HOOK_REWRITE"), Readiness: sig.readiness}
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
			st, err := sig.verify(u.Commit)
			if err != nil {
				return attribution.Verdict{}, fmt.Errorf("commit %s: verifying its signature: %w", u.Commit.Hash, err)
			}
			in = attribution.Input{Message: u.Commit.Message, HasMessage: true, Author: u.Commit.Author, Committer: u.Commit.Committer, Signature: st}
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
func newScanner(files map[string][]byte, tgt target) *secrets.Scanner {
	return secrets.New(secrets.Options{Config: files[".gitleaks.toml"], ConfigPath: tgt.configName(".gitleaks.toml"), Ignore: files[".gitleaksignore"]})
}
