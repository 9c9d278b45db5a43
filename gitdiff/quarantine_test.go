package gitdiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuarantinedObjectsAreRead: the objects of a push wait, as a pack,
// in a directory of their own while the pre-receive hook runs; they are
// read from the directory GIT_QUARANTINE_PATH names (git), or
// GIT_OBJECT_DIRECTORY names relative to the git directory (GitLab's
// Gitaly), and are missing without either.
func TestQuarantinedObjectsAreRead(t *testing.T) {
	server := newRepo(t)
	server.write(".small/plan.small.yml", "a\n")
	base := server.commit("base")
	client := &repo{t: t, dir: t.TempDir()}
	server.gitIn(client.dir, nil, "clone", "-q", server.dir, ".")
	client.write(".small/plan.small.yml", "a\nb\n")
	head := client.commit("pushed")

	quarantine := filepath.Join(server.dir, ".git", "objects", "incoming-push")
	if err := os.MkdirAll(filepath.Join(quarantine, "pack"), 0o755); err != nil {
		t.Fatal(err)
	}
	list := exec.Command("sh", "-c", "git rev-list --objects "+base+".."+head+" | git pack-objects -q "+filepath.Join(quarantine, "pack", "pack"))
	list.Dir = client.dir
	if out, err := list.CombinedOutput(); err != nil {
		t.Fatalf("packing the push: %v\n%s", err, out)
	}
	for name, env := range map[string]map[string]string{
		"GIT_QUARANTINE_PATH":           {"GIT_QUARANTINE_PATH": quarantine},
		"GIT_OBJECT_DIRECTORY relative": {"GIT_OBJECT_DIRECTORY": "objects/incoming-push"},
	} {
		units, err := rangeUnits(server.openWith(env), base, head, Scope{})
		if err != nil || len(units) != 1 || summary(units[0].Changes) != ".small/plan.small.yml:a>a\nb" {
			t.Errorf("%s: %d units, %v", name, len(units), err)
		}
	}
	// go-git finds loose objects of a directory named incoming-*, but no
	// pack: without the variables, the push's commit is missing.
	if _, err := rangeUnits(server.open(), base, head, Scope{}); err == nil || !strings.Contains(err.Error(), head) {
		t.Errorf("without the variables: %v", err)
	}
}
