package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// errorLinesArePrefixed fails the test when a line on stderr does not
// start with "small-hook:".
func errorLinesArePrefixed(t *testing.T, stderr string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if !strings.HasPrefix(line, "small-hook: ") {
			t.Errorf("stderr line %q does not start with \"small-hook: \"", line)
		}
	}
}

func TestCLIWithoutArgumentsPrintsHelpAndFails(t *testing.T) {
	// A hook or script that lost its command must not pass: even with a
	// history rewrite staged, `small-hook` alone checks nothing and fails.
	r := workspaceRepo(t)
	rewriteProgress(r)
	r.Git("add", "-A")
	code, out, errOut := r.check(nil)
	if code != exitFailure {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFailure, out, errOut)
	}
	if out != "" {
		t.Errorf("stdout %q, want nothing", out)
	}
	for _, want := range []string{"Usage: small-hook <command>", "\n  check [<file> ...] [flags]", "Exit codes", `small-hook: no command given; "small-hook check" checks the staged change`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "small/append-only") {
		t.Error("small-hook without a command ran a check")
	}
}

func TestCLISuggestsTheClosestCommand(t *testing.T) {
	cases := []struct{ typed, want string }{
		{"chekc", `unexpected argument chekc, did you mean "check"?`},
		{"instal", `did you mean "install"?`},
		{"rule", `did you mean "rules"?`},
		{"verison", `did you mean "version"?`},
	}
	for _, tc := range cases {
		t.Run(tc.typed, func(t *testing.T) {
			code, out, errOut := newTestRepo(t).check(nil, tc.typed)
			if code != exitFailure || !strings.Contains(errOut, tc.want) || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
			errorLinesArePrefixed(t, errOut)
		})
	}
}

func TestVersionCommandMatchesTheFlag(t *testing.T) {
	r := newTestRepo(t)
	code, flag, _ := r.check(nil, "--version")
	if code != exitOK || !strings.HasPrefix(flag, "small-hook ") || strings.Count(flag, "\n") != 1 {
		t.Fatalf("--version: exit %d, %q", code, flag)
	}
	code, cmd, errOut := r.check(nil, "version")
	if code != exitOK || cmd != flag || errOut != "" {
		t.Errorf("version: exit %d, %q, stderr %q; want exit 0 and %q", code, cmd, errOut, flag)
	}
}

func TestUsageFlagWithoutValue(t *testing.T) {
	r := workspaceRepo(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--base"}, "--base needs a revision"},
		{[]string{"check", "--base", "--all"}, "--base needs a revision"},
		{[]string{"check", "--base="}, "--base needs a revision"},
		{[]string{"check", "--base", ""}, "--base needs a revision"},
		{[]string{"check", "--base", "HEAD", "--head"}, "--head needs a revision"},
		{[]string{"check", "--all", "--rev"}, "--rev needs a revision"},
		// An empty message file name from a hook must not turn the
		// commit-msg check into a check without attribution.
		{[]string{"check", "--commit-msg", ""}, "--commit-msg needs a file"},
		{[]string{"check", "--commit-msg"}, "--commit-msg needs a file"},
		{[]string{"check", "--config", "--quiet"}, "--config needs a file"},
		{[]string{"check", "--repo"}, "--repo needs a directory"},
		{[]string{"check", "--format"}, "--format needs one of text, json, sarif, github"},
		{[]string{"check", "--output"}, "--output needs FORMAT=FILE, e.g. sarif=results.sarif"},
		{[]string{"rules", "--format="}, "--format needs one of text, json, markdown"},
		{[]string{"install", "--repo"}, "--repo needs a directory"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := r.check(nil, tc.args...)
			if code != exitFailure || out != "" {
				t.Fatalf("exit %d, stdout %q; want exit 2 and nothing", code, out)
			}
			want := "small-hook: " + tc.want + " (see small-hook " + tc.args[0] + " --help)\n"
			if errOut != want {
				t.Errorf("stderr %q, want %q", errOut, want)
			}
		})
	}
}

func TestUsageValuesThatLookOddAreAccepted(t *testing.T) {
	r := workspaceRepo(t)
	for _, args := range [][]string{
		{"check", "--base", "HEAD"},
		{"check", "--base=HEAD", "--head=HEAD", "--format=json"},
		{"check", "--all", "--rev", "HEAD", "--", "ignored"},
	} {
		code, out, errOut := r.check(nil, args...)
		if strings.Contains(errOut, "needs") {
			t.Errorf("%v: exit %d, stderr %q\n%s", args, code, errOut, out)
		}
	}
}

func TestUsageErrorsPointToTheHelp(t *testing.T) {
	r := workspaceRepo(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--bsae", "HEAD"}, `small-hook: unknown flag --bsae, did you mean "--base"? (see small-hook check --help)`},
		{[]string{"check", "--head", "HEAD"}, "small-hook: --head needs --base, --previous or --history (see small-hook check --help)"},
		{[]string{"--bogus"}, "small-hook: unknown flag --bogus (see small-hook --help)"},
	}
	for _, tc := range cases {
		code, out, errOut := r.check(nil, tc.args...)
		if code != exitFailure || out != "" || errOut != tc.want+"\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

func TestHelpShowsExamplesAndExitCodes(t *testing.T) {
	r := newTestRepo(t)
	code, out, errOut := r.check(nil, "check", "--help")
	if code != exitOK || errOut != "" {
		t.Fatalf("check --help: exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"Usage: small-hook check [<file> ...] [flags]", "--quiet", "\nExamples:\n", "small-hook check --base origin/main",
		"\nExit codes:\n  0  no error findings", "\n  1  at least one error finding", "\n  2  could not check"} {
		if !strings.Contains(out, want) {
			t.Errorf("check --help lacks %q:\n%s", want, out)
		}
	}
	if _, again, _ := r.check(nil, "help", "check"); again != out {
		t.Errorf("help check differs from check --help:\n%s", again)
	}
	for _, args := range [][]string{{"--help"}, {"help"}} {
		code, root, _ := r.check(nil, args...)
		if code != exitOK || !strings.Contains(root, "\nExamples:\n") || !strings.Contains(root, "\nExit codes (check):\n") || !strings.Contains(root, "  version") {
			t.Errorf("%v: exit %d\n%s", args, code, root)
		}
	}
	if _, install, _ := r.check(nil, "install", "--help"); !strings.Contains(install, "\n  1  nothing installed where something is in the way") {
		t.Errorf("install --help lacks its exit codes:\n%s", install)
	}
}

func TestHelpExamplesParse(t *testing.T) {
	// Every example in the help is a command line small-hook accepts.
	footers := commandExamples()
	examples := 0
	for _, text := range []string{rootExamples, footers["check"], footers["install"]} {
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "small-hook ") {
				continue
			}
			examples++
			args := strings.Fields(line)[1:]
			var out bytes.Buffer
			parser, err := kong.New(&cli{}, cliVars(), kong.Writers(&out, &out), kong.Exit(func(int) { t.Fatalf("%q exits", line) }))
			if err != nil {
				t.Fatal(err)
			}
			if err := missingValue(parser.Model, args); err != nil {
				t.Errorf("%q: %v", line, err)
			}
			if _, err := parser.Parse(args); err != nil {
				t.Errorf("%q: %v", line, err)
			}
		}
	}
	if examples < 8 {
		t.Errorf("found %d examples; the test no longer reads the help", examples)
	}
}
