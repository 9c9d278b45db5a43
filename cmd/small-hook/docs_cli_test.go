package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// cliCommands returns the commands of the command line, in kong's order.
func cliCommands(t *testing.T) []*kong.Node {
	t.Helper()
	parser, err := kong.New(&cli{}, cliVars())
	if err != nil {
		t.Fatal(err)
	}
	var out []*kong.Node
	for _, c := range parser.Model.Children {
		if c.Type == kong.CommandNode && !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// cliFailureModes is the end of docs/cli.md.
const cliFailureModes = `## Failure modes

| the user does | small-hook does | proved by |
| --- | --- | --- |
| runs ` + "`small-hook`" + ` without a command (a hook or script that lost it) | prints the help on stderr and exits 2: nothing passes unchecked | ` + "`main.TestCLIWithoutArgumentsPrintsHelpAndFails`" + ` |
| misspells a command (` + "`small-hook chekc`" + `) | exit 2 with the closest command | ` + "`main.TestCLISuggestsTheClosestCommand`" + ` |
| misspells a flag, or combines flags that exclude each other | exit 2 with the closest flag, pointing at the command's ` + "`--help`" + ` | ` + "`main.TestUsageErrorsPointToTheHelp`" + ` |
| gives a flag without its value, or an empty one (` + "`--commit-msg \"\"`" + `) | exit 2 saying what the flag needs, never another mode | ` + "`main.TestUsageFlagWithoutValue`" + ` |
| runs ` + "`small-hook help check`" + ` | the same text as ` + "`small-hook check --help`" + `, with examples and exit codes | ` + "`main.TestHelpShowsExamplesAndExitCodes`" + ` |
| copies an example from the help | it is a command line small-hook accepts | ` + "`main.TestHelpExamplesParse`" + ` |
| mistypes a rule ID in ` + "`small-hook rules`" + ` | exit 2 with the closest rule ID | ` + "`main.TestRulesCommandLooksUpOneRule`" + ` |
| reads this page after a change to the command line | the page is the help of the code it documents: a stale page fails the tests | ` + "`main.TestGeneratedDocs`" + ` |
`

// cliPage is docs/cli.md: the help of the program and of every command,
// as `small-hook help COMMAND` prints it, and the exit codes of each.
func cliPage(t *testing.T) []byte {
	commands := cliCommands(t)
	codes := commandExitCodes()
	var b strings.Builder
	fmt.Fprintf(&b, generatedNote+"\n\n", "the command line's definition and `small-hook COMMAND --help`")
	b.WriteString("# Command line\n\n")
	b.WriteString("Every command, with its help as `small-hook help COMMAND` (or `small-hook COMMAND --help`) prints it.\n")
	b.WriteString("The command is always named: `small-hook` alone prints the help on stderr and exits 2, so that a\n")
	b.WriteString("hook or script that lost its command fails instead of passing unchecked.\n\n")
	b.WriteString("| command | what it does |\n| --- | --- |\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "| [`%s`](#small-hook-%s) | %s |\n", c.Name, c.Name, c.Help)
	}
	b.WriteString("\n## Exit codes\n\nEvery command exits 2 on bad usage. An internal error never exits 0.\n\n")
	b.WriteString("| command | code | meaning |\n| --- | --- | --- |\n")
	for _, c := range commands {
		for _, code := range codes[c.Name] {
			fmt.Fprintf(&b, "| `%s` | %d | %s |\n", c.Name, code.code, tableCell(markdownText(code.meaning)))
		}
	}
	b.WriteString("\n## `small-hook`\n\n```text\n" + runCommand(t, "--help") + "```\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "\n## `small-hook %s`\n\n```text\n%s```\n", c.Name, runCommand(t, c.Name, "--help"))
	}
	b.WriteString("\n" + cliFailureModes)
	return []byte(b.String())
}

// TestEveryCommandHasExitCodes: the exit-code table and the command line
// name the same commands, and each command's help ends with its codes.
func TestEveryCommandHasExitCodes(t *testing.T) {
	codes := commandExitCodes()
	var names []string
	for _, c := range cliCommands(t) {
		names = append(names, c.Name)
		list := codes[c.Name]
		if len(list) == 0 || list[0].code != exitOK || list[len(list)-1].code != exitFailure {
			t.Errorf("%s: exit codes %v, want 0 first and 2 last", c.Name, list)
		}
		help := runCommand(t, c.Name, "--help")
		if !strings.HasSuffix(help, exitCodesHelp("Exit codes", list)) {
			t.Errorf("%s --help does not end with its exit codes:\n%s", c.Name, help)
		}
	}
	for name := range codes {
		if !slices.Contains(names, name) {
			t.Errorf("exit codes for %q, which is not a command", name)
		}
	}
	if root := runCommand(t, "--help"); !strings.HasSuffix(root, exitCodesHelp("Exit codes (check)", codes["check"])) {
		t.Errorf("--help does not end with check's exit codes:\n%s", root)
	}
}

func TestExitCodesHelpWraps(t *testing.T) {
	long := strings.Repeat("word ", 40)
	got := exitCodesHelp("Exit codes", []exitCode{{0, "fine"}, {2, long}})
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n")[1:] {
		if len(line) >= helpWidth || !strings.HasPrefix(line, "  0  ") && !strings.HasPrefix(line, "  2  ") && !strings.HasPrefix(line, "     word") {
			t.Errorf("line %q", line)
		}
	}
	if strings.Count(got, "word") != 40 || !strings.HasPrefix(got, "Exit codes:\n  0  fine\n  2  word word") {
		t.Errorf("got:\n%s", got)
	}
}
