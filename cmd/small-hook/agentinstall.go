package main

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/small-hook/small-hook/internal/agentguard"
	"github.com/small-hook/small-hook/internal/agenthooks"
	"github.com/small-hook/small-hook/internal/shell"
)

// agentFlags are install's and uninstall's flags for an agent's guard
// hook instead of the git hooks.
type agentFlags struct {
	Agent string `help:"Install (or remove) small-hook's guard in this coding agent's settings instead of the git hooks: ${agents} (docs/agents.md)." placeholder:"AGENT"`
	User  bool   `help:"With --agent: the agent's settings in your home directory (all your projects) instead of the project's."`
}

// agent returns the agent --agent names; --user without --agent, or an
// agent the guard does not serve, is a usage error.
func (f agentFlags) agent() (*agentguard.Agent, error) {
	if f.User && f.Agent == "" {
		return nil, &usageError{"--user needs --agent: the git hooks are installed in the repository"}
	}
	a, ok := agentguard.Lookup(f.Agent)
	if !ok && f.Agent != "" {
		return nil, &usageError{fmt.Sprintf("--agent %s: the guard serves %s (docs/agents.md says which agents document a hook it can serve)", f.Agent, strings.Join(agentguard.Names(), ", "))}
	}
	return a, nil
}

// settingsFile returns the agent's settings file the flags name: the
// project's, at the root of the repository repoDir is in, or the user's.
func (f agentFlags) settingsFile(e *env, repoDir string, agent *agentguard.Agent) (string, error) {
	if f.User {
		home := e.getenv("HOME")
		if home == "" {
			return "", errors.New("--user: HOME is not set")
		}
		return filepath.Join(home, filepath.FromSlash(agent.UserSettings)), nil
	}
	root := workTreeOf(existingReal(absDir(e, repoDir)))
	if root == "" {
		return "", fmt.Errorf("--agent %s: %s is not inside a git repository with a work tree; the guard goes into the project's %s at its root (or use --user for ~/%s)", agent.Name, absDir(e, repoDir), agent.Settings, agent.UserSettings)
	}
	return filepath.Join(root, filepath.FromSlash(agent.Settings)), nil
}

// guardHook is the hook the agent's settings get. The user's settings
// record this binary's path, as the git hooks do; a project's settings are
// shared by everyone who clones it, so they name small-hook on PATH.
func (f agentFlags) guardHook(e *env, agent *agentguard.Agent) agenthooks.Hook {
	binary := "small-hook"
	if f.User && e.binary != "" {
		binary = shell.Quote(e.binary)
	}
	return agenthooks.Hook{Event: agent.Event, Matcher: agent.Matcher, Command: binary + " guard --agent " + agent.Name, Name: agent.HookName}
}

func (c *installCmd) installGuard(e *env, agent *agentguard.Agent, repoDir string) (int, error) {
	if c.Force {
		return exitFailure, &usageError{"--force is for the git hooks; --agent merges the guard into the agent's settings and leaves every other hook there"}
	}
	file, err := c.settingsFile(e, repoDir, agent)
	if err != nil {
		return exitFailure, err
	}
	hook := c.guardHook(e, agent)
	what, err := agenthooks.Install(file, hook)
	if err != nil {
		return exitFailure, err
	}
	fmt.Fprintf(e.stdout, "%s guard: %s (%s): %s %s runs %s\n", agent.Title, what, file, hook.Event, hook.Matcher, hook.Command)
	if !c.User {
		if _, err := exec.LookPath("small-hook"); err != nil {
			fmt.Fprintf(e.stdout, "note: small-hook is not on PATH, where %s will look for it: install it there (go install github.com/small-hook/small-hook/cmd/small-hook@latest), or use --user, which records this binary's path\n", agent.Title)
		}
	}
	return exitOK, nil
}

func (c *uninstallCmd) uninstallGuard(e *env, agent *agentguard.Agent, repoDir string) (int, error) {
	file, err := c.settingsFile(e, repoDir, agent)
	if err != nil {
		return exitFailure, err
	}
	what, err := agenthooks.Uninstall(file, agent.Event)
	if err != nil {
		return exitFailure, err
	}
	fmt.Fprintf(e.stdout, "%s guard: %s (%s)\n", agent.Title, what, file)
	return exitOK, nil
}
