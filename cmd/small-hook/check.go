package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/push"
	"github.com/small-hook/small-hook/internal/report"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// checkCmd is `small-hook check`.
type checkCmd struct {
	Base       string   `help:"Pull-request semantics: check every commit reachable from --head and not from REV, the branch --head merges into (it may have moved on since --head forked)." placeholder:"REV"`
	Previous   string   `help:"Push semantics: REV is this branch's tip before the push. Check every commit reachable from --head and not from REV and, when --head does not contain REV (a force-push), that the governed files at --head still hold what they held at REV." placeholder:"REV"`
	History    bool     `help:"Check every commit reachable from --head, the root commit included (first adoption, a repository's first push)."`
	Baseline   string   `name:"write-baseline" help:"With --history: record the fingerprint of every finding on a commit in FILE, keeping those FILE holds. Checks read .small-hook-baseline at the repository root, from the revision they trust; a human commits it, and the findings it records are accepted from then on (first adoption)." placeholder:"FILE"`
	Head       string   `help:"The last commit for --base, --previous or --history (default HEAD)." placeholder:"REV"`
	All        bool     `help:"Check every governed file as it stands, without history (the index, or --rev), with the policy files of the work tree (or of --rev)."`
	Rev        string   `help:"With --all: check the tree of REV instead of the index." placeholder:"REV"`
	CI         bool     `name:"ci" help:"Find the range from the CI environment (GitHub Actions, GitLab CI, pre-commit, SMALL_HOOK_BASE/SMALL_HOOK_HEAD)."`
	CommitMsg  string   `name:"commit-msg" help:"Commit-msg hook stage: attribute the staged change with this commit message file." placeholder:"FILE" type:"path"`
	PrePush    string   `name:"pre-push" help:"Pre-push hook stage: check the refs git lists on standard input for a push to REMOTE: the commits no remote-tracking ref of REMOTE has, each pushed branch compared with the tip it replaces." placeholder:"REMOTE"`
	PreReceive bool     `name:"pre-receive" help:"Pre-receive hook of a server: check the ref updates git lists on standard input, with the configuration of the default branch before the push."`
	Repo       string   `help:"The repository to check (any directory inside it)." default:"." placeholder:"DIR"`
	Config     string   `help:"Configuration file to use instead of .small-hook.yml. A file inside the repository is read from the trusted revision (HEAD, or the base of a range) like .small-hook.yml, and is human-owned." placeholder:"FILE" type:"path"`
	Format     string   `help:"Output format: ${formats}." enum:"${format_enum}" default:"text"`
	Output     []string `help:"Also write FORMAT to FILE (repeatable), e.g. --output sarif=results.sarif." placeholder:"FORMAT=FILE"`
	NoSecrets  bool     `name:"no-secrets" help:"Skip secret detection."`
	Quiet      bool     `help:"Print only findings and errors: nothing when the check passes."`
	Files      []string `arg:"" optional:"" name:"file" help:"Files the pre-commit framework names (pre-commit run --all-files, --files): besides the staged change, every governed file among them that the staged change does not touch is checked whole, as it stands in the index."`
}

func (c *checkCmd) validate() error {
	modes := c.selectedModes()
	switch {
	case modes > 1:
		return &usageError{modeFlags() + " exclude each other"}
	case c.Head != "" && c.Base == "" && c.Previous == "" && !c.History:
		return &usageError{"--head needs --base, --previous or --history"}
	case c.Rev != "" && !c.All:
		return &usageError{"--rev needs --all"}
	case c.Baseline != "" && !c.History:
		return &usageError{"--write-baseline needs --history: a baseline records the findings on the commits of a history"}
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
	outs, err := c.openOutputs(e)
	if err != nil {
		return exitFailure, err
	}
	code, err := c.check(e, outs)
	if cerr := closeOutputs(outs); cerr != nil && err == nil {
		return exitFailure, cerr
	}
	return code, err
}

// check opens the repository, settles what the mode looks at and checks
// it, writing the result to stdout and to the --output files. The pre-push
// hook checks each pushed ref on its own.
func (c *checkCmd) check(e *env, outs []*outputFile) (int, error) {
	repo, err := gitdiff.Open(absDir(e, c.Repo), gitdiff.Options{Getenv: e.getenv, NoIndex: c.mode().commitsOnly})
	if err != nil {
		return exitFailure, err
	}
	defer repo.Close()
	var tgt target
	switch {
	case c.PrePush != "":
		return c.prePush(e, repo, outs)
	case c.PreReceive:
		tgt, err = preReceiveTarget(e, repo)
	default:
		if tgt, err = c.target(e); err == nil && tgt.pushed != nil {
			return c.preCommitPush(e, repo, outs, *tgt.pushed)
		}
		if err == nil {
			err = tgt.verify(repo)
		}
	}
	if err != nil {
		return exitFailure, err
	}
	return c.checkTarget(e, repo, tgt, outs)
}

// checkTarget checks what one target looks at and writes its report.
func (c *checkCmd) checkTarget(e *env, repo *gitdiff.Repo, tgt target, outs []*outputFile) (int, error) {
	// What runs after the pre-commit stage is asked of git only when a
	// check needs it (a rewrite to report, a summary to print): a commit
	// of nothing governed pays for no git process.
	setup := sync.OnceValue(func() *attribution.Setup { return hookSetup(repo, e) })
	res, err := c.judge(e, repo, tgt, setup)
	if err != nil {
		return exitFailure, err
	}
	e.out.result(res)
	if err := c.write(res, e, outs, setup); err != nil {
		return exitFailure, err
	}
	if res.Errors() > 0 {
		return exitFindings, nil
	}
	return exitOK, nil
}

// judge checks what one target looks at: the findings, and what the
// report says of the check. setup says what runs after the pre-commit
// stage (see attribution.Setup); the agent guard's proposed write needs
// none.
func (c *checkCmd) judge(e *env, repo *gitdiff.Repo, tgt target, setup func() *attribution.Setup) (*report.Result, error) {
	pol, err := c.loadPolicy(e, repo, tgt)
	if err != nil {
		return nil, err
	}
	cfg, scanner := pol.cfg, pol.scanner
	scope := gitdiff.Scope{Policy: cfg.PolicyFiles()}
	if scope.Trusted, err = declaringRev(repo, tgt); err != nil {
		return nil, err
	}
	if cfg.Secrets.Scope == "staged" && !c.NoSecrets {
		scope.All = true
	}
	sig, err := newSigning(repo, tgt, cfg, time.Now())
	if err != nil {
		return nil, err
	}
	actor, err := c.attributor(repo, cfg, sig, e, tgt, setup)
	if err != nil {
		return nil, err
	}
	adopt, err := newAdoption(repo, tgt, pol)
	if err != nil {
		return nil, err
	}
	actor = adopt.actor(actor)
	opts := rules.Options{Rules: registry.All(), Config: cfg, Actor: actor}
	if !c.NoSecrets {
		opts.Secrets = scanner
	}
	checker := rules.NewChecker(opts)
	named := c.named(e, repo)
	notes, err := namedNotes(repo, named)
	if err != nil {
		return nil, err
	}
	tips := &tipCheck{cfg: cfg, actor: actor}
	files := &changedFiles{}
	order := map[string]int{}
	refOf := map[string]string{}
	var refs []string
	commits, err := each(repo, tgt, named, scope, cfg, func(u changes.Unit) error {
		files.add(&u)
		if u.Mode == changes.ModeRef {
			refs = append(refs, u.Ref)
		}
		if u.Mode == changes.ModeTip {
			return tips.check(&u)
		}
		if u.Commit != nil {
			order[u.Commit.Hash] = len(order)
			if u.Mode == changes.ModeRange && u.Ref != "" {
				refOf[u.Commit.Hash] = u.Ref
			}
		}
		adopt.see(u)
		return checker.Check(&u)
	})
	if err == nil && tgt.previous {
		err = previousTip(repo, tgt, scope, tips, files)
	}
	if err != nil {
		return nil, fmt.Errorf("checking %s: %w", tgt.what(), err)
	}
	findings := checker.Findings()
	if c.Baseline != "" {
		note, err := c.writeBaseline(e, adopt, findings)
		if err != nil {
			return nil, err
		}
		notes = append(notes, note)
	}
	findings, adopted := adopt.apply(findings)
	notes = append(notes, adopted...)
	withRefs(findings, refOf)
	if len(tips.found) > 0 {
		findings = append(findings, tips.found...)
		rules.Sort(findings, order)
	}
	if tgt.mode == changes.ModeStaged && tgt.proposed == nil && c.handRun(e) {
		note, err := unstagedNote(repo)
		if err != nil {
			return nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	res := &report.Result{
		Tool: "small-hook", Version: version(), Mode: string(tgt.mode),
		Findings: findings, Files: files.count(), Refs: refs, Rules: opts.Rules, Notes: append(pol.notes, notes...),
	}
	res.Reader, _ = repo.Reader()
	if tgt.mode == changes.ModeRange {
		res.Commits = commits
		res.Range = tgt.describe(tips.rewritten)
		res.Signatures = sig.statuses
	}
	return res, nil
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
// named files the staged change does not touch follow as a tree; the
// agent guard's one unit is the write it judges.
func each(repo *gitdiff.Repo, tgt target, named []string, scope gitdiff.Scope, cfg *config.Config, fn func(changes.Unit) error) (int, error) {
	switch {
	case tgt.proposed != nil:
		u, err := repo.Proposed(tgt.proposed.path, tgt.proposed.after, scope)
		if err != nil {
			return 0, err
		}
		return 0, fn(u)
	case tgt.push != nil:
		return push.Each(repo, tgt.push, scope, cfg.Push, fn)
	case tgt.mode == changes.ModeRange:
		return repo.Range(tgt.base, tgt.head, scope, fn)
	case tgt.mode == changes.ModeTree:
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
	if tgt.index {
		tree, err := repo.Tree("", scope)
		if err != nil {
			return 0, err
		}
		for _, ch := range tree.Changes {
			named = append(named, ch.Path)
		}
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

// attributor returns how each unit's actor is decided: a commit from its
// signature, message and identities; the staged change from the commit
// message (commit-msg stage), the environment and git's signing settings;
// an agent's proposed write is the agent's.
func (c *checkCmd) attributor(repo *gitdiff.Repo, cfg *config.Config, sig *signing, e *env, tgt target, setup func() *attribution.Setup) (func(*changes.Unit) (attribution.Verdict, error), error) {
	if tgt.proposed != nil {
		v := tgt.proposed.actor
		return func(*changes.Unit) (attribution.Verdict, error) { return v, nil }, nil
	}
	staged := attribution.Input{EnvActor: strings.TrimSpace(e.getenv("SMALL_HOOK_ACTOR")), EnvRewrite: e.getenv("SMALL_HOOK_REWRITE"), Readiness: sig.readiness}
	if c.CommitMsg != "" {
		msg, err := os.ReadFile(c.CommitMsg)
		if err != nil {
			return nil, fmt.Errorf("reading the commit message: %w", err)
		}
		if staged.Message, err = committedMessage(repo, e, msg); err != nil {
			return nil, err
		}
		staged.HasMessage = true
		staged.Author = repo.Author()
		staged.Committer = repo.Committer()
	}
	if c.CommitMsg == "" && tgt.mode == changes.ModeStaged {
		staged.Setup = setup
	}
	return func(u *changes.Unit) (attribution.Verdict, error) {
		in := staged
		if u.Mode == changes.ModeRef {
			return attribution.Verdict{Actor: attribution.Unknown, Evidence: "a ref update has no author"}, nil
		}
		if u.Commit != nil {
			st, err := sig.verify(u.Commit)
			if err != nil {
				return attribution.Verdict{}, fmt.Errorf("commit %s: verifying its signature: %w", u.Commit.Hash, err)
			}
			in = attribution.Input{Message: u.Commit.Message, HasMessage: true, Author: u.Commit.Author, Committer: u.Commit.Committer, Signature: st}
			if tgt.push != nil {
				in.Pusher, in.PusherSource = tgt.push.Pusher, tgt.push.PusherVar
			}
		}
		e.out.learn(in)
		v, err := attribution.Decide(in, cfg.Attribution)
		if err != nil && u.Commit != nil {
			return v, fmt.Errorf("commit %s: %w", u.Commit.Hash, err)
		}
		return v, err
	}, nil
}
