package main

import (
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/hooks"
	"github.com/small-hook/small-hook/internal/changes"
)

// guardRepos answers the questions the guard's judgement of a shell
// command asks (agentguard.Repository) from the repositories the command
// runs in, each opened on first need.
type guardRepos struct {
	e     *env
	repos map[string]*gitdiff.Repo
}

func newGuardRepos(e *env) *guardRepos {
	return &guardRepos{e: e, repos: map[string]*gitdiff.Repo{}}
}

// open returns the repository whose work tree holds dir, or nil when
// there is none.
func (g *guardRepos) open(dir string) (*gitdiff.Repo, error) {
	root := workTreeOf(existingReal(dir))
	if root == "" {
		return nil, nil
	}
	if r, ok := g.repos[root]; ok {
		return r, nil
	}
	r, err := gitdiff.Open(root, gitdiff.Options{Getenv: g.e.getenv, NoIndex: true})
	if err != nil {
		return nil, err
	}
	g.repos[root] = r
	return r, nil
}

func (g *guardRepos) close() {
	for _, r := range g.repos {
		r.Close()
	}
}

// Branch returns the branch HEAD names in dir's repository.
func (g *guardRepos) Branch(dir string) (string, error) {
	r, err := g.open(dir)
	if r == nil || err != nil {
		return "", err
	}
	ref, _, err := r.DefaultBranch()
	return strings.TrimPrefix(ref, "refs/heads/"), err
}

// Protected says why branch may not be rewritten on remote: it is the
// branch the remote's HEAD names (main and master when this repository
// has not recorded it), or push.protect in HEAD's .small-hook.yml names
// it, as the pre-push hook trusts it.
func (g *guardRepos) Protected(dir, remote, branch string) (string, error) {
	r, err := g.open(dir)
	if r == nil || err != nil {
		return "", err
	}
	head, _, err := r.SymbolicRef("refs/remotes/" + remote + "/HEAD")
	if err != nil {
		return "", err
	}
	switch def := strings.TrimPrefix(head, "refs/remotes/"+remote+"/"); {
	case def == branch:
		return "the default branch of " + remote, nil
	case def == "" && (branch == "main" || branch == "master"):
		return "taken for the default branch of " + remote + ", whose HEAD this clone does not record", nil
	}
	cfg, err := trustedConfig(r, target{mode: changes.ModeStaged})
	if err != nil {
		return "", err
	}
	if cfg.Push.Protects("refs/heads/" + branch) {
		return "protected by push.protect in .small-hook.yml", nil
	}
	return "", nil
}

// Alias returns alias.<name> as git reads it in dir.
func (g *guardRepos) Alias(dir, name string) (string, error) {
	r, err := g.open(dir)
	if r == nil || err != nil {
		return "", err
	}
	v, _, err := r.Config("alias." + name)
	return v, err
}

// HooksDir returns the directory git runs hooks from in dir.
func (g *guardRepos) HooksDir(dir string) (string, error) {
	if workTreeOf(existingReal(dir)) == "" {
		return "", nil
	}
	h, err := hooks.Dir(dir, g.e.getenv)
	return h.Path, err
}
