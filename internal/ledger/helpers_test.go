package ledger

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/gittest"
)

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
func recorders(t *testing.T, r *gittest.Repo, l *Ledger, path string) string {
	t.Helper()
	names := map[string]string{}
	for _, line := range strings.Split(r.Git("log", "--format=%H %s", "--all"), "\n") {
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
