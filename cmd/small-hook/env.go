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
	// stdin is what git hands the pre-push and pre-receive hooks (the refs
	// being pushed); nil reads as empty.
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// colour reports whether stdout is a terminal that wants colour.
	colour bool
	// dir is the working directory.
	dir string
	// binary is the path of the running small-hook, which install records
	// in the hooks; "" when unknown (they then look on PATH).
	binary string
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
	binary, err := os.Executable()
	if err != nil {
		binary = ""
	}
	return &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, colour: colour, dir: dir, binary: binary}
}

// stampedVersion is the release version, set at link time by the release
// build (-ldflags "-X main.stampedVersion=v1.2.3"); empty otherwise. It is
// the one package-level variable: the linker can set nothing else.
var stampedVersion string

// version is the version small-hook reports: the one stamped by a release
// build, else the module version the go command recorded (`go install
// …@v1.2.3`, or a build from a tagged git checkout), else "devel".
func version() string {
	if stampedVersion != "" {
		return stampedVersion
	}
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
