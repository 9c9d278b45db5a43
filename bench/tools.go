package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gitleaksModule is the module small-hook imports gitleaks from; its
// version in go.mod decides which gitleaks binary the benchmark installs.
const gitleaksModule = "github.com/zricethezav/gitleaks/v8"

// gitleaksReleaseTags are the build tags of gitleaks' release binaries
// (its .goreleaser.yml: what gitleaks-action, Homebrew, the Docker image
// and the release page give users): go-re2, RE2 compiled to WebAssembly
// and run by wazero, in place of Go's regexp.
const gitleaksReleaseTags = "gore2regex"

// tools are the binaries a benchmark runs; an empty path is not available.
type tools struct {
	smallHook string
	// gitleaks is built as `go install` builds it (what the pre-commit
	// framework's golang hook runs), gitleaksRelease as gitleaks' releases
	// are; both are named gitleaks, in directories of their own.
	gitleaks        string
	gitleaksRelease string
	small           string
	// smallNote says why the reference CLI is missing.
	smallNote string
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run the benchmark from inside the small-hook module")
	}
	return filepath.Dir(mod), nil
}

func buildTools(root, work string) (tools, error) {
	bin := filepath.Join(work, "bin")
	var t tools
	t.smallHook = filepath.Join(bin, "small-hook")
	if err := goCmd(root, nil, "build", "-o", t.smallHook, "./cmd/small-hook"); err != nil {
		return t, err
	}
	version, err := goCmdOutput(root, "list", "-m", "-f", "{{.Version}}", gitleaksModule)
	if err != nil {
		return t, err
	}
	if err := goCmd(root, []string{"GOBIN=" + bin}, "install", gitleaksModule+"@"+version); err != nil {
		return t, err
	}
	t.gitleaks = filepath.Join(bin, "gitleaks")
	release := filepath.Join(bin, "release")
	if err := goCmd(root, []string{"GOBIN=" + release}, "install", "-tags", gitleaksReleaseTags, "-ldflags=-s -w", gitleaksModule+"@"+version); err != nil {
		return t, err
	}
	t.gitleaksRelease = filepath.Join(release, "gitleaks")
	src := os.Getenv("SMALL_REF_SRC")
	if src == "" {
		t.smallNote = "not available (set SMALL_REF_SRC to a checkout of github.com/justyn-clark/small-protocol)"
		return t, nil
	}
	t.small = filepath.Join(bin, "small")
	if err := goCmd(src, nil, "build", "-o", t.small, "./cmd/small"); err != nil {
		return t, fmt.Errorf("building the reference small CLI from SMALL_REF_SRC: %w", err)
	}
	return t, nil
}

func goCmd(dir string, env []string, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return nil
}

func goCmdOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
