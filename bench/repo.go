package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/gittest"
)

// benchEnv is the environment every command runs with: git's from
// gittest (isolated from the user's configuration and from GIT_*
// variables, a fixed identity), with colours off.
func benchEnv() []string {
	return gittest.Env("NO_COLOR=1")
}

// git runs git in dir under benchEnv.
func git(dir string, args ...string) error {
	_, err := gitOutput(dir, nil, args...)
	return err
}

// gitOutput runs git in dir under benchEnv with stdin and returns its
// trimmed output.
func gitOutput(dir string, stdin []byte, args ...string) (string, error) {
	out, err := gittest.Run(dir, benchEnv(), stdin, args...)
	return strings.TrimSpace(out), err
}

// largeRepo creates a repository with files source files plus the
// reference project's .small/ workspace (progress grown to entries when
// entries > 0), committed and checked out.
func largeRepo(dir string, files int, small string, entries int) error {
	if err := git(dir, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	var stream bytes.Buffer
	w := bufio.NewWriter(&stream)
	fmt.Fprintf(w, "commit refs/heads/main\ncommitter %s <%s> 1700000000 +0000\ndata 7\nsources\n", gittest.Name, gittest.Email)
	for i := 0; i < files; i++ {
		content := fmt.Sprintf("package p%d\n\n// File %d of a large repository.\nfunc F%d() int { return %d }\n", i/100, i, i, i)
		fmt.Fprintf(w, "M 100644 inline src/d%03d/f%05d.go\ndata %d\n%s\n", i/100, i, len(content), content)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := gitOutput(dir, stream.Bytes(), "fast-import", "--quiet"); err != nil {
		return err
	}
	if err := git(dir, "checkout", "-q", "-f", "main"); err != nil {
		return err
	}
	if err := copySmall(small, filepath.Join(dir, ".small"), entries); err != nil {
		return err
	}
	if err := git(dir, "add", "-A"); err != nil {
		return err
	}
	return git(dir, "commit", "-q", "-m", "small workspace")
}

// copySmall copies a .small/ directory; with entries > 0 the progress file
// is grown to that many entries by repeating its entries with later
// timestamps.
func copySmall(src, dst string, entries int) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	names, err := filepath.Glob(filepath.Join(src, "*.small.yml"))
	if err != nil {
		return err
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if filepath.Base(name) == "progress.small.yml" && entries > 0 {
			data = grownProgress(entries)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(name)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// grownProgress writes a progress file of n entries in the reference CLI's
// layout.
func grownProgress(n int) []byte {
	var b bytes.Buffer
	b.WriteString("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	for i := 0; i < n; i++ {
		b.WriteString(progressEntry(i, "historical"))
	}
	return b.Bytes()
}

// progressEntry is entry number i, timestamped i milliseconds after a fixed
// start so that every entry is strictly later than the one before it.
func progressEntry(i int, what string) string {
	ts := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Millisecond)
	return fmt.Sprintf(`    - command: go test ./...
      evidence: %s run %d passed
      notes: 'apply: exit code 0'
      replayId: 22980d19369cecba5c57ddcc5ad3b8d34e4b3eb41b03dfe3fae06ef1ea2dab52
      status: completed
      task_id: task-1
      timestamp: "%s"
`, what, i, ts.Format("2006-01-02T15:04:05.000000000Z"))
}

// largestGoverned is the size of the largest file of the work tree under
// a .small, artifacts or .awp directory.
func largestGoverned(dir string) (int64, error) {
	var largest int64
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || !governed(filepath.ToSlash(rel)) {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		largest = max(largest, info.Size())
		return nil
	})
	return largest, err
}

// governed reports whether a path lies under a .small, artifacts or .awp
// directory.
func governed(path string) bool {
	parts := strings.Split(path, "/")
	for _, p := range parts[:len(parts)-1] {
		if p == ".small" || p == "artifacts" || p == ".awp" {
			return true
		}
	}
	return false
}

// writeFile writes data to path, creating its directory.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
