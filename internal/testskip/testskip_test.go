package testskip

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// childEnv marks the test binary run by TestSkip as the child that calls
// Skip.
const childEnv = "TESTSKIP_CHILD"

// TestSkipChild calls Skip when this binary runs as TestSkip's child and
// does nothing otherwise.
func TestSkipChild(t *testing.T) {
	if os.Getenv(childEnv) != "1" {
		return
	}
	Skip(t, "the reason is %d", 42)
	t.Error("Skip returned")
}

// TestSkip runs this test binary again with each value of CI and checks
// that only CI=true turns the skip into a failure that names the reason.
func TestSkip(t *testing.T) {
	for _, c := range []struct {
		ci         string
		set        bool
		wantFailed bool
		wantLine   string
	}{
		{"true", true, true, "--- FAIL: TestSkipChild"},
		{"", false, false, "--- SKIP: TestSkipChild"},
		{"", true, false, "--- SKIP: TestSkipChild"},
		{"false", true, false, "--- SKIP: TestSkipChild"},
		{"1", true, false, "--- SKIP: TestSkipChild"},
	} {
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "CI=") {
				env = append(env, kv)
			}
		}
		env = append(env, childEnv+"=1")
		if c.set {
			env = append(env, "CI="+c.ci)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestSkipChild$", "-test.v", "-test.count=1")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("running the child: %v", err)
		}
		failed := err != nil
		if failed != c.wantFailed || !strings.Contains(string(out), c.wantLine) || !strings.Contains(string(out), "the reason is 42") {
			t.Errorf("CI=%q (set %v): failed %v, want %v, and %q with the reason in:\n%s", c.ci, c.set, failed, c.wantFailed, c.wantLine, out)
		}
		if c.wantFailed && !strings.Contains(string(out), "cannot run under CI=true") {
			t.Errorf("CI=true: the failure does not say why:\n%s", out)
		}
	}
}
