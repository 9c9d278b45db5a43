package ledger

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
)

// repo is a real git repository in a temporary directory.
type repo struct {
	t   testing.TB
	dir string
}

func newRepo(t testing.TB) *repo {
	t.Helper()
	r := &repo{t: t, dir: t.TempDir()}
	r.git(nil, "init", "-q", "-b", "main")
	return r
}

// git runs git in the repository, isolated from the machine's
// configuration; env adds to its environment.
func (r *repo) git(env []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test Human", "GIT_AUTHOR_EMAIL=human@example.com",
		"GIT_COMMITTER_NAME=Test Human", "GIT_COMMITTER_EMAIL=human@example.com"), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return strings.TrimSpace(out.String())
}

func (r *repo) write(path, content string) {
	r.t.Helper()
	full := filepath.Join(r.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) read(path string) string {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(path)))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

// runGit runs git in dir, isolated from the machine's configuration, and
// returns its output and error.
func runGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test Human", "GIT_AUTHOR_EMAIL=human@example.com",
		"GIT_COMMITTER_NAME=Test Human", "GIT_COMMITTER_EMAIL=human@example.com")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// commit stages everything and commits at the given time; it returns the
// commit's id.
func (r *repo) commit(msg string, at time.Time, env ...string) string {
	r.t.Helper()
	date := at.UTC().Format(time.RFC3339)
	r.git(nil, "add", "-A")
	r.git(append([]string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, env...), "commit", "-q", "--allow-empty", "-m", msg)
	return r.git(nil, "rev-parse", "HEAD")
}

// build walks the history of HEAD in dir and returns its ledger, every
// ledger file kept, with commits attributed from their messages and
// identities alone.
func build(t testing.TB, dir string, cfg config.Ledger) *Ledger {
	t.Helper()
	l, err := tryBuild(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func tryBuild(dir string, cfg config.Ledger) (*Ledger, error) {
	g, err := gitdiff.Open(dir, gitdiff.Options{})
	if err != nil {
		return nil, err
	}
	defer g.Close()
	h, err := g.History("HEAD")
	if err != nil {
		return nil, err
	}
	var nodes []Node
	for _, c := range h.Commits() {
		nodes = append(nodes, Node{Hash: c.Hash, Parents: c.Parents, Boundary: c.Boundary})
	}
	b, err := NewBuilder(nodes, cfg)
	if err != nil {
		return nil, err
	}
	actor := func(u *changes.Unit) (attribution.Verdict, error) {
		c := u.Commit
		return attribution.Decide(attribution.Input{Message: c.Message, HasMessage: true, Author: c.Author, Committer: c.Committer}, config.Default().Attribution)
	}
	if err := h.Units(gitdiff.Scope{}, func(u changes.Unit) error { return b.Add(&u, actor) }); err != nil {
		return nil, err
	}
	return b.Ledger(func(string, Kind) bool { return true })
}

// day0 is when the test histories start.
var day0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// hours is day0 plus n hours.
func hours(n int) time.Time { return day0.Add(time.Duration(n) * time.Hour) }

const (
	progressPath   = ".small/progress.small.yml"
	progressHeader = "small_version: \"1.0.0\"\nowner: agent\nentries:\n"
)

// entry is a progress entry in the reference CLI's layout.
func entry(task string, at time.Time, more ...string) string {
	return fmt.Sprintf("    - evidence: worked on %s\n      status: completed\n      task_id: %s\n      timestamp: %q\n%s",
		task, task, at.UTC().Format("2006-01-02T15:04:05.000000000Z"), strings.Join(more, ""))
}

// recorders summarises a file's ledger as "task@commit-message/origin"
// per entry, the commit named by the first word of its message.
func recorders(t *testing.T, r *repo, l *Ledger, path string) string {
	t.Helper()
	names := map[string]string{}
	for _, line := range strings.Split(r.git(nil, "log", "--format=%H %s", "--all"), "\n") {
		hash, subject, _ := strings.Cut(line, " ")
		names[hash] = strings.Fields(subject)[0]
	}
	for _, f := range l.Files {
		if f.Path != path {
			continue
		}
		var out []string
		for _, e := range f.Entries {
			name := e.Claim.TaskID
			if f.Kind == Provenance {
				name = e.Claim.Action
			}
			out = append(out, fmt.Sprintf("%s@%s/%s", name, names[e.Commit.Hash], e.Origin))
		}
		return strings.Join(out, " ")
	}
	t.Fatalf("no ledger of %s", path)
	return ""
}
