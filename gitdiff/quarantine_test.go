package gitdiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuarantinedObjectsAreRead: the objects of a push wait, as a pack,
// in a directory of their own while the pre-receive hook runs, which git
// names in GIT_OBJECT_DIRECTORY (with the repository's own objects as
// GIT_ALTERNATE_OBJECT_DIRECTORIES, and GIT_QUARANTINE_PATH), absolute;
// GitLab's Gitaly names them relative to the repository, where it runs the
// hook. The probe hands such a run to git, which reads the push's objects
// either way; without the variables they are missing.
func TestQuarantinedObjectsAreRead(t *testing.T) {
	work := newRepo(t)
	work.Write(".small/plan.small.yml", "a\n")
	base := work.Commit("base")
	server := filepath.Join(t.TempDir(), "server.git")
	work.Git("clone", "-q", "--bare", work.Dir, server)
	work.Write(".small/plan.small.yml", "a\nb\n")
	head := work.Commit("pushed")

	quarantine := filepath.Join(server, "objects", "incoming-push")
	if err := os.MkdirAll(filepath.Join(quarantine, "pack"), 0o755); err != nil {
		t.Fatal(err)
	}
	objects := work.Git("rev-list", "--objects", base+".."+head)
	work.GitInput(objects+"\n", "pack-objects", "-q", filepath.Join(quarantine, "pack", "pack"))
	open := func(env map[string]string) (*Repo, error) {
		return Open(server, Options{Getenv: func(k string) string { return env[k] }})
	}
	for name, env := range map[string]map[string]string{
		"git": {"GIT_QUARANTINE_PATH": quarantine, "GIT_OBJECT_DIRECTORY": quarantine,
			"GIT_ALTERNATE_OBJECT_DIRECTORIES": filepath.Join(server, "objects")},
		"Gitaly, relative": {"GIT_OBJECT_DIRECTORY": "objects/incoming-push", "GIT_ALTERNATE_OBJECT_DIRECTORIES": "objects"},
	} {
		g, err := open(env)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if reader, _ := g.Reader(); reader != ReaderGit {
			t.Errorf("%s: read by %s, want git", name, reader)
		}
		units, err := rangeUnits(g, base, head, Scope{})
		if err != nil || len(units) != 1 || summary(units[0].Changes) != ".small/plan.small.yml:a>a\nb" {
			t.Errorf("%s: %d units, %v", name, len(units), err)
		}
		g.Close()
	}
	g, err := open(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := rangeUnits(g, base, head, Scope{}); err == nil || !strings.Contains(err.Error(), head) {
		t.Errorf("without the variables: %v", err)
	}
}
