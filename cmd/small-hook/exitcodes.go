package main

import (
	"fmt"
	"strings"
)

// exitCode is one exit code of a command and what it means.
type exitCode struct {
	code    int
	meaning string
}

// commandExitCodes says, once, what each command's exit codes mean: the
// help footers and docs/cli.md print this table. Every command exits 2 on
// bad usage.
func commandExitCodes() map[string][]exitCode {
	return map[string][]exitCode{
		"check": {
			{exitOK, "no error findings (warnings allowed)"},
			{exitFindings, "at least one error finding"},
			{exitFailure, "could not check: bad usage, not a git repository, unknown revision, a shallow clone missing the range's history, an unsupported repository format, a malformed policy file (.small-hook.yml, .gitleaks.toml, .small-hook-baseline, a key file; a staged one too, though it applies from the next commit), an --output or --write-baseline file that cannot be written, unmerged index entries, a named file that is neither in the index nor in the work tree"},
		},
		"log": {
			{exitOK, "the ledger was printed (with --verify: no error findings)"},
			{exitFindings, "with --verify: at least one error finding, such as an entry inserted or rewritten by a commit that is not a human's intended rewrite (ledger/rewritten)"},
			{exitFailure, "could not list the ledger: bad usage, unknown revision, a ledger file that cannot be read, a malformed .small-hook.yml, or (with --verify) a shallow clone"},
		},
		"rules": {
			{exitOK, "the rules were printed"},
			{exitFailure, "bad usage, such as a rule ID that names no rule (the message suggests the closest one); a .small-hook.yml of HEAD that cannot be read"},
		},
		"install": {
			{exitOK, "the hooks are installed, or the pre-commit framework already runs small-hook's hooks as .pre-commit-config.yaml lists them"},
			{exitFindings, "nothing installed where something is in the way, and the output says what to do: a hook small-hook did not write (install --force installs over it, and it keeps running first), the pre-commit framework, a hooks directory the repository tracks"},
			{exitFailure, "could not install: bad usage, not a git repository, a git configuration or a .pre-commit-config.yaml that cannot be read"},
		},
		"uninstall": {
			{exitOK, "the hooks small-hook installed are removed (or there were none)"},
			{exitFailure, "could not uninstall: bad usage, not a git repository, a git configuration that cannot be read"},
		},
		"guard": {
			{exitAllowed, "the call may run: nothing it writes or runs is refused (or the guard does not judge its tool)"},
			{exitCouldNotJudge, "the guard could not judge the call (unreadable hook input, a repository it cannot read): the call runs, and the agent shows the error to the user"},
			{exitRefused, "the call is refused, the reason on standard error for the agent to read (or bad usage)"},
		},
		"version": {
			{exitOK, "the version was printed"},
			{exitFailure, "bad usage"},
		},
	}
}

// helpWidth is the width the help footers are wrapped to.
const helpWidth = 80

// exitCodesHelp writes codes under title as the help prints them: one
// code a line, its meaning wrapped under itself.
func exitCodesHelp(title string, codes []exitCode) string {
	var b strings.Builder
	b.WriteString(title + ":\n")
	for _, c := range codes {
		prefix := fmt.Sprintf("  %d  ", c.code)
		indent := strings.Repeat(" ", len(prefix))
		line := prefix
		for i, word := range strings.Fields(c.meaning) {
			if i > 0 && len(line)+1+len(word) >= helpWidth {
				b.WriteString(line + "\n")
				line = indent + word
				continue
			}
			if i > 0 {
				line += " "
			}
			line += word
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// helpFooter ends the help of the command called name ("" for the
// program): its examples, then its exit codes (the program's help lists
// check's).
func helpFooter(name string) string {
	codes := commandExitCodes()
	if name == "" {
		return rootExamples + "\n" + exitCodesHelp("Exit codes (check)", codes["check"])
	}
	footer := commandExamples()[name]
	if footer != "" {
		footer += "\n"
	}
	return footer + exitCodesHelp("Exit codes", codes[name])
}
