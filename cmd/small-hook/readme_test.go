package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestReadmeTryIt runs the first screen of README.md exactly as a newcomer
// would (but for the go install line: the binary built for the tests is
// on PATH): a new repository, small-hook's hooks, an artifact committed,
// and a rewrite of its provenance refused by the hook, with the output the
// README shows.
func TestReadmeTryIt(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	_, section, _ := strings.Cut(readme, "## Try it\n")
	_, rest, ok := strings.Cut(section, "```sh\n")
	script, after, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatal("README.md's Try it section has no sh block")
	}
	var lines []string
	for _, line := range strings.Split(script, "\n") {
		if !strings.HasPrefix(line, "go install ") {
			lines = append(lines, line)
		}
	}
	dir := t.TempDir()
	cmd := exec.Command("bash", "-c", strings.Join(lines, "\n"))
	cmd.Dir = dir
	cmd.Env = cleanEnv(binPATH(t))
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the rewrite was not refused:\n%s", out)
	}
	if n := repoAt(t, dir+"/demo").Git("rev-list", "--count", "HEAD"); n != "1" {
		t.Errorf("%s commits, want 1: the first commit passes, the rewrite is refused\n%s", n, out)
	}
	// The output the README shows is what the hook prints.
	_, shown, _ := strings.Cut(after, "```\n")
	shown, _, _ = strings.Cut(shown, "```")
	for _, line := range strings.Split(strings.TrimSpace(shown), "\n") {
		if line != "" && !strings.Contains(string(out), line) {
			t.Errorf("the README shows %q, the hook printed:\n%s", line, out)
		}
	}
}
