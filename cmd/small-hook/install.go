package main

import (
	"fmt"
	"path/filepath"

	"github.com/small-hook/small-hook/hooks"
)

// installCmd is `small-hook install`.
type installCmd struct {
	Force bool   `help:"Install over hooks small-hook did not write: each keeps running, before small-hook's (uninstall puts it back)."`
	Repo  string `help:"The repository (any directory inside it; a bare repository gets the pre-receive hook)." default:"." placeholder:"DIR"`
	agentFlags
}

func (c *installCmd) run(e *env) (int, error) {
	if agent, err := c.agent(); agent != nil || err != nil {
		if err != nil {
			return exitFailure, err
		}
		return c.installGuard(e, agent, c.Repo)
	}
	actions, err := hooks.Install(absDir(e, c.Repo), hooks.Options{Force: c.Force, Binary: e.binary, Getenv: e.getenv})
	printActions(e, actions)
	if err != nil {
		return exitFailure, err
	}
	if note, err := olderRefs(e, absDir(e, c.Repo), actions); err != nil {
		printError(e, fmt.Errorf("listing the branches and tags older than the hook: %w", err))
	} else if note != "" {
		fmt.Fprintln(e.stdout, note)
	}
	for _, a := range actions {
		if a.What == "skipped" {
			return exitFindings, nil
		}
	}
	return exitOK, nil
}

// uninstallCmd is `small-hook uninstall`.
type uninstallCmd struct {
	Repo string `help:"The repository (any directory inside it)." default:"." placeholder:"DIR"`
	agentFlags
}

func (c *uninstallCmd) run(e *env) (int, error) {
	if agent, err := c.agent(); agent != nil || err != nil {
		if err != nil {
			return exitFailure, err
		}
		return c.uninstallGuard(e, agent, c.Repo)
	}
	actions, err := hooks.Uninstall(absDir(e, c.Repo), e.getenv)
	printActions(e, actions)
	if err != nil {
		return exitFailure, err
	}
	return exitOK, nil
}

// printActions prints one line per hook, with its note; a note every hook
// shares (what to do instead of installing beside the pre-commit
// framework, say) follows the lines, once.
func printActions(e *env, actions []hooks.Action) {
	shared := sharedNote(actions)
	for _, a := range actions {
		line := fmt.Sprintf("%s: %s (%s)", a.Hook, a.What, a.Path)
		if a.Note != "" && shared == "" {
			line += ": " + a.Note
		}
		fmt.Fprintln(e.stdout, line)
	}
	if shared != "" {
		fmt.Fprintln(e.stdout, shared)
	}
}

// sharedNote is the note of every action when there are several and they
// all have the same one, else "".
func sharedNote(actions []hooks.Action) string {
	if len(actions) < 2 {
		return ""
	}
	for _, a := range actions[1:] {
		if a.Note != actions[0].Note {
			return ""
		}
	}
	return actions[0].Note
}

func absDir(e *env, dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(e.dir, dir)
}
