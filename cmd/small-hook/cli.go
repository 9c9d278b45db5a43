package main

import (
	"errors"
	"fmt"

	"github.com/alecthomas/kong"
)

// cli is the command line, parsed by kong.
type cli struct {
	Version kong.VersionFlag `help:"Print the version and exit."`

	Check     checkCmd     `cmd:"" default:"withargs" help:"Check the staged change, a range of commits, or a whole tree."`
	Rules     rulesCmd     `cmd:"" help:"List every rule with its documentation."`
	Install   installCmd   `cmd:"" help:"Install small-hook's pre-commit, commit-msg and pre-push git hooks."`
	Uninstall uninstallCmd `cmd:"" help:"Remove the git hooks small-hook installed."`
}

// usageError is a problem with the command line: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitError carries an exit code out of kong's help and version handling.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// run parses args, runs the command and returns the process exit code.
func run(args []string, e *env) int {
	var c cli
	parser, err := kong.New(&c,
		kong.Name("small-hook"),
		kong.Description("Guards the git history of AI-agent project state (.small/ and artifacts/)."),
		kong.Vars{"version": "small-hook " + version()},
		kong.Writers(e.stdout, e.stderr),
		kong.Exit(func(code int) { panic(&exitError{code}) }),
		kong.UsageOnError(),
	)
	if err != nil {
		fmt.Fprintf(e.stderr, "small-hook: %v\n", err)
		return exitFailure
	}
	code, err := parseAndRun(parser, args, e)
	if err != nil {
		fmt.Fprintf(e.stderr, "small-hook: %v\n", err)
	}
	return code
}

func parseAndRun(parser *kong.Kong, args []string, e *env) (code int, err error) {
	defer func() {
		if r := recover(); r != nil {
			exit, ok := r.(*exitError)
			if !ok {
				panic(r)
			}
			code, err = exit.code, nil
			if code != 0 {
				code = exitFailure
			}
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		return exitFailure, err
	}
	runner, ok := kctx.Selected().Target.Addr().Interface().(interface{ run(*env) (int, error) })
	if !ok {
		return exitFailure, errors.New("no command")
	}
	code, err = runner.run(e)
	var ue *usageError
	if errors.As(err, &ue) {
		return exitFailure, err
	}
	return code, err
}
