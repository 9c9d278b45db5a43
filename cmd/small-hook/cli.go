package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/small-hook/small-hook/internal/agentguard"
	"github.com/small-hook/small-hook/internal/report"
)

// cli is the command line, parsed by kong. There is no default command:
// `small-hook` alone prints the help and fails, so that a hook or script
// that lost its command never passes without checking.
type cli struct {
	Version kong.VersionFlag `help:"Print the version and exit."`

	Check      checkCmd     `cmd:"" help:"Check the staged change, a range of commits, or a whole tree."`
	Rules      rulesCmd     `cmd:"" help:"List every rule with its documentation."`
	Log        logCmd       `cmd:"" help:"Print the verified ledger: the commit that recorded each progress and provenance entry, and its checks."`
	Install    installCmd   `cmd:"" help:"Install small-hook's pre-commit, commit-msg and pre-push git hooks."`
	Uninstall  uninstallCmd `cmd:"" help:"Remove the git hooks small-hook installed."`
	Guard      guardCmd     `cmd:"" help:"A coding agent's pre-tool hook: refuse a write the commit would be refused for, or a command that switches the checks off (the tool call on standard input)."`
	VersionCmd versionCmd   `cmd:"" name:"version" help:"Print the version (the same as --version)."`
}

// versionCmd is `small-hook version`.
type versionCmd struct{}

func (versionCmd) run(e *env) (int, error) {
	if _, err := fmt.Fprintln(e.stdout, versionLine()); err != nil {
		return exitFailure, fmt.Errorf("writing the version: %w", err)
	}
	return exitOK, nil
}

// versionLine is what `small-hook version` and `--version` print.
func versionLine() string { return "small-hook " + version() }

// runner is a command that can run.
type runner interface {
	run(*env) (int, error)
}

// usageError is a problem with the command line: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitError carries an exit code out of kong's help and version handling.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// cliVars are the values the command line's help and enums interpolate.
func cliVars() kong.Vars {
	return kong.Vars{"version": versionLine(), "formats": formatNames(", "), "format_enum": formatNames(","),
		"agents": strings.Join(agentguard.Names(), ", "), "agent_enum": strings.Join(agentguard.Names(), ",")}
}

// run parses args, runs the command and returns the process exit code.
// Every line it writes to stderr starts with "small-hook:", and a check's
// error names the stage it ran in.
func run(args []string, e *env) int {
	parser, err := kong.New(&cli{},
		kong.Name("small-hook"),
		kong.Description("Guards the git history of AI-agent project state (.small/ and artifacts/)."),
		cliVars(),
		kong.Writers(e.stdout, e.stderr),
		kong.Exit(func(code int) { panic(&exitError{code}) }),
		kong.Help(helpWithFooter),
	)
	if err != nil {
		printError(e, err)
		return exitFailure
	}
	if len(args) == 0 {
		return noCommand(parser, e)
	}
	if args[0] == "help" {
		args = slices.Concat(args[1:], []string{"--help"})
	}
	code, cmd, err := exitFailure, runner(nil), missingValue(parser.Model, args)
	if err == nil {
		code, cmd, err = parseAndRun(parser, args, e)
	}
	if err == nil {
		return code
	}
	check, isCheck := cmd.(*checkCmd)
	var ue *usageError
	if errors.As(err, &ue) {
		err = withHelpHint(err, commandOf(parser.Model, args))
	}
	if isCheck && ue == nil {
		printError(e, fmt.Errorf("%s: could not check: %w", check.stage(), err))
	} else {
		printError(e, err)
	}
	if code == exitFailure && (isCheck && check.Format == "github" || cmd == nil && wantsGitHub(args)) {
		if werr := writeFailure(e, err.Error()); werr != nil {
			printError(e, werr)
		}
	}
	return code
}

// parseAndRun parses args and runs the selected command; it returns the
// exit code, the command (nil when the arguments did not parse) and the
// error to print.
func parseAndRun(parser *kong.Kong, args []string, e *env) (code int, cmd runner, err error) {
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
		return exitFailure, nil, &usageError{err.Error()}
	}
	cmd, ok := kctx.Selected().Target.Addr().Interface().(runner)
	if !ok {
		return exitFailure, nil, errors.New("no command")
	}
	code, err = cmd.run(e)
	var ue *usageError
	if errors.As(err, &ue) {
		return exitFailure, cmd, err
	}
	return code, cmd, err
}

// noCommand answers `small-hook` without arguments: the help on stderr and
// exit code 2.
func noCommand(parser *kong.Kong, e *env) int {
	parser.Stdout = e.stderr
	kctx, err := kong.Trace(parser, nil)
	if err == nil {
		err = kctx.PrintUsage(false)
	}
	if err != nil {
		printError(e, fmt.Errorf("printing the help: %w", err))
	}
	printError(e, errors.New(`no command given; "small-hook check" checks the staged change`))
	return exitFailure
}

// printError writes an error to stderr, every line prefixed with
// "small-hook: " and stripped of control characters.
func printError(e *env, err error) {
	for _, line := range strings.Split(e.out.text(err.Error()), "\n") {
		fmt.Fprintf(e.stderr, "small-hook: %s\n", report.Printable(line))
	}
}

// withHelpHint adds where to read about the command line to a usage error.
func withHelpHint(err error, command string) error {
	help := "small-hook --help"
	if command != "" {
		help = "small-hook " + command + " --help"
	}
	return &usageError{fmt.Sprintf("%v (see %s)", err, help)}
}

// commandOf returns the command named in args, or "".
func commandOf(app *kong.Application, args []string) string {
	if cmd := findCommand(app, args); cmd != nil {
		return cmd.Name
	}
	return ""
}

// findCommand returns the node of the first argument that names a command.
func findCommand(app *kong.Application, args []string) *kong.Node {
	for _, a := range args {
		if a == "--" {
			return nil
		}
		for _, child := range app.Children {
			if child.Type == kong.CommandNode && child.Name == a {
				return child
			}
		}
	}
	return nil
}

// missingValue finds a flag that takes a value but is given none (at the
// end of the line, or followed by another flag) or an empty one, and says
// what it needs: "--base needs a revision". kong's own message for this
// names its token types, and an empty --base or --commit-msg would
// silently select another mode.
func missingValue(app *kong.Application, args []string) error {
	flags := app.Flags
	if cmd := findCommand(app, args); cmd != nil {
		flags = append(flags[:len(flags):len(flags)], cmd.Flags...)
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			return nil
		}
		name, value, inline := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
		f := valueFlag(flags, name)
		if !strings.HasPrefix(arg, "--") || f == nil {
			continue
		}
		if !inline {
			if i+1 == len(args) || looksLikeFlag(args[i+1]) {
				return needsValue(f)
			}
			i++
			value = args[i]
		}
		if value == "" {
			return needsValue(f)
		}
	}
	return nil
}

// valueFlag returns the flag called name if it takes a value.
func valueFlag(flags []*kong.Flag, name string) *kong.Flag {
	for _, f := range flags {
		if f.Name == name && !f.IsBool() && !f.IsCounter() {
			return f
		}
	}
	return nil
}

func looksLikeFlag(arg string) bool { return len(arg) > 1 && arg[0] == '-' }

// needsValue says what a flag given without a value needs.
func needsValue(f *kong.Flag) error {
	what := map[string]string{
		"REV":         "a revision",
		"FILE":        "a file",
		"DIR":         "a directory",
		"FORMAT=FILE": "FORMAT=FILE, e.g. sarif=results.sarif",
		"AGENT":       "an agent (" + strings.Join(agentguard.Names(), ", ") + ")",
	}[f.PlaceHolder]
	switch {
	case f.Enum != "":
		what = "one of " + strings.ReplaceAll(f.Enum, ",", ", ")
	case what == "":
		what = "a value"
	}
	return &usageError{fmt.Sprintf("--%s needs %s", f.Name, what)}
}

// wantsGitHub reports whether args ask for --format github, for a command
// line that did not parse.
func wantsGitHub(args []string) bool {
	for i, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--format=github", a == "--format" && i+1 < len(args) && args[i+1] == "github":
			return true
		}
	}
	return false
}

// helpWithFooter prints kong's help, then the examples and exit codes of
// the program or of the command it is about (see helpFooter).
func helpWithFooter(options kong.HelpOptions, kctx *kong.Context) error {
	if err := kong.DefaultHelpPrinter(options, kctx); err != nil {
		return err
	}
	name := ""
	if cmd := kctx.Selected(); cmd != nil {
		name = cmd.Name
	}
	if _, err := fmt.Fprint(kctx.Stdout, "\n"+helpFooter(name)); err != nil {
		return fmt.Errorf("printing the help: %w", err)
	}
	return nil
}

// rootExamples end `small-hook --help`, before the exit codes.
const rootExamples = `Examples:
  # install the pre-commit, commit-msg and pre-push hooks in this repository
  small-hook install
  # check the staged change, as the pre-commit hook does
  small-hook check
  # what each rule checks, or the one a finding names
  small-hook rules
  small-hook rules small/ownership
`

// commandExamples end each command's --help, before its exit codes.
func commandExamples() map[string]string {
	return map[string]string{
		"check": `Examples:
  # the staged change (the pre-commit hook runs this)
  small-hook check
  # the staged change with the commit message, which says who commits
  # (the commit-msg hook runs this)
  small-hook check --commit-msg .git/COMMIT_EDITMSG
  # every commit of this branch that origin/main lacks (as the pre-push hook)
  small-hook check --base origin/main
  # the pull request or push CI names, as annotations (the GitHub Action)
  small-hook check --ci --format github --output sarif=small-hook.sarif
  # every governed file of HEAD, without history
  small-hook check --all --rev HEAD
  # a server's pre-receive hook, with git's ref updates on standard input
  # (small-hook install in a bare repository writes the hook)
  small-hook check --pre-receive
  # for scripts: only findings and errors, nothing when the check passes
  small-hook check --quiet
`,
		"log": `Examples:
  # who recorded every progress and provenance entry of HEAD, one line each
  small-hook log
  # one workspace's progress, as JSON
  small-hook log --format json examples/demo/.small/progress.small.yml
  # in CI: fail on an unverified ledger, with the base branch's configuration
  small-hook log --verify --config-rev refs/remotes/origin/main --format markdown >> "$GITHUB_STEP_SUMMARY"
`,
		"install": `Examples:
  # the pre-commit, commit-msg and pre-push hooks of this repository
  small-hook install
  # the pre-receive hook of a bare repository on a server
  small-hook install --repo /srv/git/project.git
  # install over hooks of other tools, which keep running first
  small-hook install --force
  # the agent guard in this project's .claude/settings.json (docs/agents.md)
  small-hook install --agent claude
`,
		"guard": `Examples:
  # what .claude/settings.json runs before Write, Edit, MultiEdit,
  # NotebookEdit and Bash (small-hook install --agent claude writes it)
  small-hook guard --agent claude
  # what .gemini/settings.json runs before write_file, replace and
  # run_shell_command
  small-hook guard --agent gemini
`,
	}
}
