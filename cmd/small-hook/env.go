package main

import (
	"io"
	"os"
	"runtime/debug"
)

// Exit codes.
const (
	exitOK       = 0 // no error findings (warnings allowed)
	exitFindings = 1 // at least one error finding
	exitFailure  = 2 // could not check: bad flag, not a repository, unknown revision...
)

// env is the process's outside world, replaceable in tests.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	// colour reports whether stdout is a terminal that wants colour.
	colour bool
	// dir is the working directory.
	dir string
	// out redacts secrets from everything written to stdout, stderr and
	// files.
	out redactor
}

func newEnv() *env {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	colour := os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" && isTerminal(os.Stdout)
	return &env{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, colour: colour, dir: dir}
}

// version is the module version small-hook was built from ("devel" for a
// build from a work tree).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" || info.Main.Version == "(devel)" {
		return "devel"
	}
	return info.Main.Version
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
