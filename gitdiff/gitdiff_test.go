package gitdiff

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gittest"
)

// repo is a real git repository of a test, dated (gittest.Repo.Dated),
// that opens as a Repo.
type repo struct{ *gittest.Repo }

func newRepo(t testing.TB) *repo {
	t.Helper()
	return &repo{gittest.New(t).Dated()}
}

func (r *repo) open() *Repo {
	r.T.Helper()
	return r.openWith(nil)
}

// openWith opens the repository with env as the
// environment git would give a hook.
func (r *repo) openWith(env map[string]string) *Repo {
	r.T.Helper()
	g, err := Open(r.Dir, Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		r.T.Fatal(err)
	}
	return g
}

// summary renders changes as "path:old>new" with - for absent sides.
func summary(list []changes.Change) string {
	var parts []string
	for _, c := range list {
		side := func(b *changes.Blob) string {
			if b == nil {
				return "-"
			}
			return strings.TrimSpace(string(b.Data))
		}
		parts = append(parts, fmt.Sprintf("%s:%s>%s", c.Path, side(c.Old), side(c.New)))
	}
	return strings.Join(parts, " ")
}

func TestStagedAddModifyDelete(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a1")
	r.Write(".small/handoff.small.yml", "b1")
	r.Write(".awp/workspace.json", "{}") // artifacts/ is an AWP workspace's
	r.Write("src/x.go", "x1")
	r.Commit("one")
	r.Write(".small/constraints.small.yml", "a2")
	r.Git("rm", "-q", ".small/handoff.small.yml")
	r.Write("artifacts/c.md", "c1")
	r.Write("src/x.go", "x2")
	r.Git("add", "-A")
	u, err := r.open().Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(u.Changes), ".small/constraints.small.yml:a1>a2 .small/handoff.small.yml:b1>- artifacts/c.md:->c1"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for dir, want := range map[string]string{".small/": ".small/constraints.small.yml", "artifacts/": "artifacts/c.md", "src/": ""} {
		list, err := u.Files.List(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(list, " "); got != want {
			t.Errorf("snapshot paths under %s: %q, want %q", dir, got, want)
		}
	}
	all, err := r.open().Staged(Scope{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary(all.Changes), "src/x.go:x1>x2") {
		t.Errorf("scope All misses src/x.go: %s", summary(all.Changes))
	}
}

func TestStagedUnbornHeadAndSubdirectory(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a1")
	r.Write("sub/dir/f", "f")
	r.Git("add", "-A")
	g, err := Open(filepath.Join(r.Dir, "sub", "dir"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := g.Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(u.Changes); got != ".small/constraints.small.yml:->a1" {
		t.Errorf("got %s", got)
	}
}

func TestGitIndexFileIsHonoured(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a1")
	r.Commit("one")
	alt := filepath.Join(t.TempDir(), "index.lock")
	r.Write(".small/constraints.small.yml", "a2")
	r.GitEnv([]string{"GIT_INDEX_FILE=" + alt}, "read-tree", "HEAD")
	r.GitEnv([]string{"GIT_INDEX_FILE=" + alt}, "add", ".small/constraints.small.yml")
	u, err := r.openWith(map[string]string{"GIT_INDEX_FILE": alt}).Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(u.Changes); got != ".small/constraints.small.yml:a1>a2" {
		t.Errorf("got %q", got)
	}
}

func TestLinkedWorktree(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a1")
	r.Commit("one")
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "-b", "feature", wt)
	w := &repo{gittest.At(t, wt).Dated()}
	w.Write(".small/constraints.small.yml", "a2")
	w.Git("add", "-A")
	u, err := w.open().Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(u.Changes); got != ".small/constraints.small.yml:a1>a2" {
		t.Errorf("got %q", got)
	}
}

func TestRangeOrderAndMerges(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "base")
	base := r.Commit("base")
	r.Write(".small/intent.small.yml", "base a")
	r.Commit("a")
	r.Git("checkout", "-q", "-b", "side", base)
	r.Write(".small/plan.small.yml", "q")
	r.Commit("side")
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-edit", "side")
	// An evil merge: the result drops side's file although it merged side.
	r.Git("checkout", "-q", "-b", "side2", base)
	r.Write(".small/workspace.small.yml", "r")
	r.Commit("side2")
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-commit", "side2")
	r.Git("rm", "-q", "--cached", ".small/workspace.small.yml")
	r.Git("commit", "-q", "-m", "evil")

	units, err := rangeUnits(r.open(), base, "HEAD", Scope{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, u := range units {
		msgs = append(msgs, strings.TrimSpace(u.Commit.Message)+"["+summary(u.Changes)+"]")
	}
	got := strings.Join(msgs, " ")
	want := "a[.small/intent.small.yml:base>base a] side[.small/plan.small.yml:->q] Merge branch 'side'[] side2[.small/workspace.small.yml:->r] evil[.small/workspace.small.yml:->-]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	last := units[len(units)-1].Changes[0]
	if last.Merge == nil || len(last.Merge.Parents) != 2 || last.Merge.Parents[1] == nil {
		t.Errorf("evil merge lacks parent versions: %+v", last.Merge)
	}
}

func TestRangeErrors(t *testing.T) {
	r := newRepo(t)
	for i := 0; i < 4; i++ {
		r.Write(".small/intent.small.yml", fmt.Sprint(i))
		r.Commit(fmt.Sprint(i))
	}
	if _, err := rangeUnits(r.open(), "no-such-rev", "HEAD", Scope{}); err == nil || !strings.Contains(err.Error(), "no-such-rev") {
		t.Errorf("unknown revision: %v", err)
	}
	clone := t.TempDir()
	gittest.At(t, clone).Git("clone", "-q", "--depth", "2", "file://"+r.Dir, "c")
	c := &repo{gittest.At(t, filepath.Join(clone, "c")).Dated()}
	_, err := rangeUnits(c.open(), "HEAD~3", "HEAD", Scope{})
	if !errors.Is(err, ErrShallow) {
		t.Errorf("shallow: %v", err)
	}
}

func TestUnsupportedFormats(t *testing.T) {
	r := &repo{gittest.At(t, t.TempDir()).Dated()}
	r.Git("init", "-q", "--object-format=sha256")
	if _, err := Open(r.Dir, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("sha256: %v", err)
	}
	// Whichever reader the probe picks: GIT_NAMESPACE sends the
	// repository to git, which finds the format without go-git.
	if _, err := Open(r.Dir, Options{Getenv: func(k string) string { return map[string]string{"GIT_NAMESPACE": "ns"}[k] }}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("sha256 read by git: %v", err)
	}
}

func TestRangeInBareRepositoryAndLongHistory(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	var stream strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", 1700000000+i)
		content := fmt.Sprint(i)
		fmt.Fprintf(&stream, "M 100644 inline .small/intent.small.yml\ndata %d\n%s\n", len(content), content)
	}
	r.GitInput(stream.String(), "fast-import", "--quiet")
	bare := filepath.Join(t.TempDir(), "bare.git")
	gittest.At(t, t.TempDir()).Git("clone", "-q", "--bare", r.Dir, bare)
	g, err := Open(bare, Options{})
	if err != nil {
		t.Fatal(err)
	}
	units, err := rangeUnits(g, "main~999", "main", Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if len(units) != 999 || string(units[0].Changes[0].New.Data) != "1" || string(units[998].Changes[0].New.Data) != "999" {
		t.Fatalf("%d units", len(units))
	}
	if _, err := g.Staged(Scope{}); err == nil {
		t.Error("staged check in a bare repository did not fail")
	}
}

// rangeUnits collects the units Range hands out.
func rangeUnits(g *Repo, base, head string, scope Scope) ([]changes.Unit, error) {
	var units []changes.Unit
	_, err := g.Range(base, head, scope, func(u changes.Unit) error {
		units = append(units, u)
		return nil
	})
	return units, err
}

// TestRangeStopsAtTheFirstError: the next commit's unit is built while
// the current one is checked; an error of the check, or of building a
// later unit, ends the range with that error, and the Repo serves another
// range afterwards.
func TestRangeStopsAtTheFirstError(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "base")
	base := r.Commit("base")
	var blobs []string
	for i := range 4 {
		r.Write(".small/intent.small.yml", fmt.Sprint("version ", i))
		r.Commit(fmt.Sprint(i))
		blobs = append(blobs, r.Git("rev-parse", "HEAD:.small/intent.small.yml"))
	}
	g := r.open()
	stop := errors.New("stop")
	seen := 0
	_, err := g.Range(base, "HEAD", Scope{}, func(u changes.Unit) error {
		seen++
		return stop
	})
	if !errors.Is(err, stop) || seen != 1 {
		t.Fatalf("range went on after the check's error: %d units, %v", seen, err)
	}
	units, err := rangeUnits(g, base, "HEAD", Scope{})
	if err != nil || len(units) != 4 {
		t.Fatalf("second range: %d units, %v", len(units), err)
	}
	// Read through: the snapshots the units carry.
	if b, err := units[3].Files.Read(".small/intent.small.yml"); err != nil || b == nil || string(b.Data) != "version 3" {
		t.Fatalf("snapshot read after the range: %v %v", b, err)
	}

	loose := filepath.Join(r.Dir, ".git", "objects", blobs[2][:2], blobs[2][2:])
	if err := os.Chmod(loose, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(loose, []byte("not a zlib stream"), 0o644); err != nil {
		t.Fatal(err)
	}
	seen = 0
	_, err = r.open().Range(base, "HEAD", Scope{}, func(u changes.Unit) error {
		seen++
		return nil
	})
	third := r.Git("rev-parse", "HEAD~1")
	if err == nil || !strings.Contains(err.Error(), third) || seen != 2 {
		t.Fatalf("a corrupt object in the third commit: %d units checked, error %v", seen, err)
	}
}
