// Package testskip is the only way this module's tests skip. A test that
// cannot run on a developer's machine (a tool is missing, the file system
// lacks symlinks) is skipped there; under CI=true, where every test must
// run, the same condition fails the test, so a green CI run never hides an
// untested check.
package testskip

import (
	"fmt"
	"os"
	"testing"
)

// Skip skips the test with the reason, or fails it when the environment
// variable CI is "true".
func Skip(t testing.TB, format string, args ...any) {
	t.Helper()
	reason := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("cannot run under CI=true, where no test may skip: %s", reason)
	}
	t.Skip(reason)
}
