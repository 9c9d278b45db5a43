package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func whats(actions []Action) string {
	var s []string
	for _, a := range actions {
		s = append(s, a.Hook+"="+a.What)
	}
	return strings.Join(s, " ")
}

func TestInstallWritesExecutableScriptsOnce(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	acts, err := Install(dir, Options{Getenv: os.Getenv})
	if err != nil || whats(acts) != "pre-commit=installed commit-msg=installed pre-push=installed" {
		t.Fatalf("install: %s %v", whats(acts), err)
	}
	for _, name := range Names() {
		path := filepath.Join(dir, ".git", "hooks", name)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o755 {
			t.Errorf("%s has mode %v, want 0755", name, fi.Mode().Perm())
		}
		want, _ := script(name, "")
		content := readFile(t, path)
		if content != string(want) {
			t.Errorf("%s differs from the embedded script", name)
		}
		if !strings.HasPrefix(content, "#!/bin/sh\n"+Marker+": ") {
			t.Errorf("%s does not start with the shebang and the marker line:\n%s", name, content)
		}
	}
	acts, err = Install(dir, Options{Getenv: os.Getenv})
	if err != nil || whats(acts) != "pre-commit=unchanged commit-msg=unchanged pre-push=unchanged" {
		t.Errorf("second install: %s %v", whats(acts), err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, ".git", "hooks")); hasBackup(entries) {
		t.Error("reinstalling made a backup of small-hook's own hook")
	}
}

func hasBackup(entries []os.DirEntry) bool {
	for _, e := range entries {
		if strings.Contains(e.Name(), ".small-hook-") {
			return true
		}
	}
	return false
}

func TestInstallUpgradesOwnOlderHook(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	writeFile(t, hook, "#!/bin/sh\n"+Marker+": an older version\nexit 0\n", 0o755)
	acts, err := Install(dir, Options{Getenv: os.Getenv})
	if err != nil || !strings.HasPrefix(whats(acts), "pre-commit=replaced") {
		t.Fatalf("%s %v", whats(acts), err)
	}
	if want, _ := script("pre-commit", ""); readFile(t, hook) != string(want) {
		t.Error("the older small-hook hook was not replaced")
	}
	if acts[0].Note != "" {
		t.Errorf("replacing an own hook noted %q", acts[0].Note)
	}
}

func TestForeignHooksNeedForceAndKeepRunning(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	hook := filepath.Join(hooksDir, "pre-commit")
	first, second := "#!/bin/sh\necho first\n", "#!/bin/sh\necho second\n"
	writeFile(t, hook, first, 0o750)

	acts, err := Install(dir, Options{Getenv: os.Getenv})
	if err != nil || whats(acts) != "pre-commit=skipped commit-msg=installed pre-push=installed" {
		t.Fatalf("install without --force: %s %v", whats(acts), err)
	}
	if !strings.Contains(acts[0].Note, "--force") {
		t.Errorf("the skip does not say how to install over the hook: %q", acts[0].Note)
	}
	if readFile(t, hook) != first {
		t.Fatal("a foreign hook was overwritten without --force")
	}

	acts, err = Install(dir, Options{Force: true, Getenv: os.Getenv})
	if err != nil || !strings.HasPrefix(whats(acts), "pre-commit=chained") {
		t.Fatalf("install --force: %s %v", whats(acts), err)
	}
	chained := hook + ".small-hook-chained"
	if readFile(t, chained) != first {
		t.Fatal("--force did not keep the foreign hook where small-hook's hook runs it")
	}
	if acts[0].Chained != chained || !strings.Contains(acts[0].Note, chained) {
		t.Errorf("the report does not name where the hook runs from: %q", acts[0].Note)
	}

	// Another tool puts its hook in the place of small-hook's; --force
	// again chains that one and keeps the first as a backup.
	writeFile(t, hook, second, 0o755)
	acts, err = Install(dir, Options{Force: true, Getenv: os.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	if readFile(t, chained) != second || readFile(t, hook+".small-hook-backup") != first || !strings.Contains(acts[0].Note, ".small-hook-backup") {
		t.Fatalf("a second --force lost a hook: %q", acts[0].Note)
	}

	// A foreign hook small-hook never chained stays through uninstall.
	foreignMsg := filepath.Join(hooksDir, "commit-msg")
	if err := os.Remove(foreignMsg); err != nil {
		t.Fatal(err)
	}
	writeFile(t, foreignMsg, first, 0o755)

	acts, err = Uninstall(dir, os.Getenv)
	if err != nil || whats(acts) != "pre-commit=restored commit-msg=skipped pre-push=removed" {
		t.Fatalf("uninstall: %s %v", whats(acts), err)
	}
	if readFile(t, hook) != second {
		t.Error("uninstall did not put the chained hook back")
	}
	if readFile(t, foreignMsg) != first {
		t.Error("uninstall touched a foreign hook")
	}
	if _, err := os.Stat(filepath.Join(hooksDir, "pre-push")); !os.IsNotExist(err) {
		t.Error("uninstall left small-hook's pre-push hook")
	}
}

// TestUninstallRestoresABackupOfAnOlderInstall: an older small-hook kept
// the hook --force replaced as a backup; uninstall still puts it back.
func TestUninstallRestoresABackupOfAnOlderInstall(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	if _, err := Install(dir, Options{Getenv: os.Getenv}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, hook+".small-hook-backup", "#!/bin/sh\necho old\n", 0o755)
	if acts, err := Uninstall(dir, os.Getenv); err != nil || !strings.HasPrefix(whats(acts), "pre-commit=restored") || readFile(t, hook) != "#!/bin/sh\necho old\n" {
		t.Fatalf("uninstall: %s %v", whats(acts), err)
	}
}

// TestHookMentioningTheMarkerIsForeign: only a marker on the line after
// the shebang makes a hook small-hook's own.
func TestHookMentioningTheMarkerIsForeign(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	chained := "#!/bin/sh\nrun-other-checks\n# see the hook " + Marker + " in pre-commit.d\nexec small-hook check\n"
	writeFile(t, hook, chained, 0o755)
	if acts, err := Install(dir, Options{Getenv: os.Getenv}); err != nil || !strings.HasPrefix(whats(acts), "pre-commit=skipped") {
		t.Fatalf("install: %s %v", whats(acts), err)
	}
	if acts, err := Uninstall(dir, os.Getenv); err != nil || !strings.HasPrefix(whats(acts), "pre-commit=skipped") {
		t.Fatalf("uninstall: %s %v", whats(acts), err)
	}
	if readFile(t, hook) != chained {
		t.Fatal("a hook that only mentions the marker was changed")
	}
}

func TestUninstallWithoutHooks(t *testing.T) {
	isolate(t)
	acts, err := Uninstall(newRepo(t), os.Getenv)
	if err != nil || len(acts) != 0 {
		t.Fatalf("%s %v", whats(acts), err)
	}
}

func TestOutsideARepository(t *testing.T) {
	isolate(t)
	if _, err := Install(t.TempDir(), Options{Getenv: os.Getenv}); err == nil {
		t.Error("Install outside a repository did not fail")
	}
	if _, err := Uninstall(t.TempDir(), os.Getenv); err == nil {
		t.Error("Uninstall outside a repository did not fail")
	}
}

func TestUnreadableConfigFails(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".git", "config"), "[core\n\thooksPath = x\n", 0o644)
	if _, err := Install(dir, Options{Getenv: os.Getenv}); err == nil {
		t.Error("a configuration git cannot parse either did not fail the install")
	}
}
