package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorsSayWhatFailed: a revision that cannot be found is reported
// under the option or CI source that named it, with why.
func TestErrorsSayWhatFailed(t *testing.T) {
	r := workspaceRepo(t)
	cases := []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"unknown --base", nil, []string{"--base", "nope"}, `--base: unknown revision "nope"`},
		{"unknown --head", nil, []string{"--base", "HEAD", "--head", "nope"}, `--head: unknown revision "nope"`},
		{"unknown --previous", nil, []string{"--previous", "nope"}, "fetch it first"},
		{"unknown --rev", nil, []string{"--all", "--rev", "nope"}, `--rev: unknown revision "nope"`},
		{"unknown CI base", map[string]string{"SMALL_HOOK_BASE": "nope"}, []string{"--ci"}, `--ci (SMALL_HOOK_BASE): unknown revision "nope"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := r.check(c.vars, append([]string{"check"}, c.args...)...)
			if code != exitFailure || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "configuration") {
				t.Fatalf("exit %d, %q; want exit 2 and %q", code, errOut, c.want)
			}
		})
	}
	empty := newTestRepo(t)
	for _, args := range [][]string{{"--history"}, {"--all", "--rev", "HEAD"}, {"--base", "main"}} {
		code, _, errOut := empty.check(nil, append([]string{"check"}, args...)...)
		if code != exitFailure || !strings.Contains(errOut, "no commits yet") {
			t.Errorf("%v in an empty repository: exit %d, %q", args, code, errOut)
		}
	}
	if code, out, errOut := empty.check(nil, "check"); code != exitOK {
		t.Errorf("the staged check of an empty repository: exit %d\n%s%s", code, out, errOut)
	}
}

func TestShallowCloneMessageSaysItOnce(t *testing.T) {
	r := workspaceRepo(t)
	for i := 0; i < 3; i++ {
		r.Write("f", fmt.Sprint(i))
		r.Commit("c")
	}
	clone := filepath.Join(t.TempDir(), "c")
	r.Git("clone", "-q", "--depth", "1", "file://"+r.Dir, clone)
	c := repoAt(t, clone)
	for _, args := range [][]string{{"--base", "HEAD~2"}, {"--history"}, {"--base", r.Git("rev-list", "--max-parents=0", "HEAD")}} {
		code, _, errOut := c.check(nil, append([]string{"check"}, args...)...)
		if code != exitFailure || strings.Count(errOut, "shallow clone") != 1 || strings.Count(errOut, "not in this clone") != 0 || !strings.Contains(errOut, "fetch-depth: 0") {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}

// TestProcessEnvironmentIsNotRead: the check reads GIT_* only from the
// environment it is given; inside another repository's hook, the process
// environment names that repository.
func TestProcessEnvironmentIsNotRead(t *testing.T) {
	outer := workspaceRepo(t)
	rewriteProgress(outer)
	outer.Git("add", "-A")
	r := workspaceRepo(t)
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	t.Setenv("GIT_DIR", filepath.Join(outer.Dir, ".git"))
	t.Setenv("GIT_WORK_TREE", outer.Dir)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(outer.Dir, ".git", "index"))
	if code, out, errOut := r.check(nil, "check"); code != exitOK {
		t.Fatalf("the process's GIT_* variables were read: exit %d\n%s%s", code, out, errOut)
	}
}
