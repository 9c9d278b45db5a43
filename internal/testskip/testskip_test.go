package testskip

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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

// TestNoOtherSkips fails for any test file of the module that skips other
// than through Skip: a direct t.Skip would pass unnoticed under CI=true.
func TestNoOtherSkips(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "Skip", "Skipf", "SkipNow":
				if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "testskip" {
					t.Errorf("%s: skips with %s; use testskip.Skip, which fails under CI=true", fset.Position(call.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
