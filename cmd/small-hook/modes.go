package main

import "strings"

// checkMode is one way `small-hook check` runs: the flag that selects it
// and where it runs, named in its summary line and its errors.
type checkMode struct {
	// flag selects the mode; "" is the default, the pre-commit stage.
	flag string
	// on reports whether the command line selects the mode.
	on func(*checkCmd) bool
	// stage names where a check in this mode runs.
	stage string
	// hook marks a git hook stage on every commit: its output is quiet
	// when the change touches no governed file.
	hook bool
	// commitsOnly marks a mode that judges commits alone: it never reads
	// the index, so the repository is opened without it (an index the
	// fast reader cannot read does not send the run to git, and its pages
	// are never mapped: on a large work tree they weigh megabytes).
	commitsOnly bool
}

// checkModes lists every mode, the default last. Adding a mode adds a row
// here (and its target in target.go).
func checkModes() []checkMode {
	return []checkMode{
		{flag: "--base", commitsOnly: true, on: func(c *checkCmd) bool { return c.Base != "" }, stage: "pre-push/CI check"},
		{flag: "--previous", commitsOnly: true, on: func(c *checkCmd) bool { return c.Previous != "" }, stage: "push check"},
		{flag: "--history", commitsOnly: true, on: func(c *checkCmd) bool { return c.History }, stage: "history check"},
		{flag: "--ci", on: func(c *checkCmd) bool { return c.CI }, stage: "pre-push/CI check"},
		{flag: "--all", on: func(c *checkCmd) bool { return c.All }, stage: "whole-tree check"},
		{flag: "--commit-msg", on: func(c *checkCmd) bool { return c.CommitMsg != "" }, stage: "commit-msg stage", hook: true},
		{flag: "--pre-push", on: func(c *checkCmd) bool { return c.PrePush != "" }, stage: "pre-push hook", hook: true},
		{flag: "--pre-receive", on: func(c *checkCmd) bool { return c.PreReceive }, stage: "pre-receive hook", hook: true, commitsOnly: true},
		{on: func(*checkCmd) bool { return true }, stage: "pre-commit stage", hook: true},
	}
}

// mode returns the mode the command line selects: the first whose flag
// is given (validate refuses two), else the default.
func (c *checkCmd) mode() checkMode {
	modes := checkModes()
	for _, m := range modes {
		if m.on(c) {
			return m
		}
	}
	return modes[len(modes)-1]
}

// selectedModes counts the mode flags given.
func (c *checkCmd) selectedModes() int {
	n := 0
	for _, m := range checkModes() {
		if m.flag != "" && m.on(c) {
			n++
		}
	}
	return n
}

// modeFlags lists the mode flags for a message: "--base, --previous and
// --all".
func modeFlags() string {
	var flags []string
	for _, m := range checkModes() {
		if m.flag != "" {
			flags = append(flags, m.flag)
		}
	}
	return strings.Join(flags[:len(flags)-1], ", ") + " and " + flags[len(flags)-1]
}
