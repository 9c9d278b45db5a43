package agenthooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

var guard = Hook{Event: "PreToolUse", Matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash", Command: "small-hook guard --agent claude"}

// settings is a settings file a person keeps, written as Claude Code and
// editors write it: four spaces, other hooks before and after small-hook's
// event, permissions and keys small-hook does not know.
const settings = `{
    "permissions": {
        "allow": [
            "Bash(npm run lint)"
        ],
        "deny": []
    },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "~/.claude/check-bash.sh",
                        "timeout": 30
                    }
                ]
            }
        ],
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [
                    {
                        "type": "command",
                        "command": "npx prettier --write"
                    }
                ]
            }
        ]
    },
    "zeta": {
        "x-unknown": [
            1.50,
            true,
            null
        ]
    }
}
`

// withGuard is settings with the guard installed: one more matcher group,
// after the one that was there.
var withGuard = strings.Replace(settings, `                ]
            }
        ],
        "PostToolUse"`, `                ]
            },
            {
                "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "small-hook guard --agent claude"
                    }
                ]
            }
        ],
        "PostToolUse"`, 1)

// writeFile writes a file, making its directory, with mode 0600 (as a
// person's private settings may have).
func writeFile(t *testing.T, file, content string) {
	t.Helper()
	gittest.At(t, filepath.Dir(file)).Write(filepath.Base(file), content)
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, file string) string {
	t.Helper()
	return gittest.At(t, filepath.Dir(file)).Read(filepath.Base(file))
}

// TestInstallAndUninstallLeaveEverythingElse installs the guard into a
// settings file with other hooks in it, installs it again, and uninstalls
// it: the file gains exactly the guard's group, and loses exactly it.
func TestInstallAndUninstallLeaveEverythingElse(t *testing.T) {
	file := filepath.Join(t.TempDir(), ".claude", "settings.json")
	writeFile(t, file, settings)
	for i, want := range []Result{"installed", "unchanged"} {
		got, err := Install(file, guard)
		if err != nil || got != want {
			t.Fatalf("install %d: %q, %v; want %q", i+1, got, err, want)
		}
		if got := readFile(t, file); got != withGuard {
			t.Fatalf("install %d wrote\n%s\nwant\n%s", i+1, got, withGuard)
		}
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v (%v), want 0600 as it was", fi.Mode(), err)
	}
	if got, err := Uninstall(file, guard.Event); err != nil || got != "removed" {
		t.Fatalf("uninstall: %q, %v", got, err)
	}
	if got := readFile(t, file); got != settings {
		t.Fatalf("uninstall left\n%s\nwant what was there\n%s", got, settings)
	}
	if got, err := Uninstall(file, guard.Event); err != nil || got != "absent" {
		t.Errorf("a second uninstall: %q, %v", got, err)
	}
	if got := readFile(t, file); got != settings {
		t.Errorf("a second uninstall changed the file")
	}
}

func TestInstallReplacesAnOlderGuard(t *testing.T) {
	file := filepath.Join(t.TempDir(), "settings.json")
	old := guard
	old.Command = "'/opt/old/small-hook' guard"
	old.Matcher = "Write|Edit"
	if _, err := Install(file, old); err != nil {
		t.Fatal(err)
	}
	// A person added a hook to the guard's group meanwhile: it stays.
	data := strings.Replace(readFile(t, file), `"hooks": [`, `"hooks": [
        {
          "type": "command",
          "command": "echo mine"
        },`, 1)
	writeFile(t, file, data)
	if got, err := Install(file, guard); err != nil || got != "replaced" {
		t.Fatalf("install: %q, %v", got, err)
	}
	got := readFile(t, file)
	if strings.Contains(got, "/opt/old") || strings.Count(got, "small-hook guard") != 1 || !strings.Contains(got, "echo mine") {
		t.Errorf("the file holds\n%s", got)
	}
}

func TestInstallCreatesAndUninstallRemovesTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), ".gemini", "settings.json")
	h := Hook{Event: "BeforeTool", Matcher: "write_file|replace|run_shell_command", Command: "small-hook guard --agent gemini", Name: "small-hook-guard"}
	if got, err := Install(file, h); err != nil || got != "installed" {
		t.Fatalf("install: %q, %v", got, err)
	}
	want := `{
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace|run_shell_command",
        "hooks": [
          {
            "type": "command",
            "command": "small-hook guard --agent gemini",
            "name": "small-hook-guard"
          }
        ]
      }
    ]
  }
}
`
	if got := readFile(t, file); got != want {
		t.Errorf("install wrote\n%s\nwant\n%s", got, want)
	}
	if got, err := Install(file, h); err != nil || got != "unchanged" {
		t.Errorf("a second install: %q, %v", got, err)
	}
	if got, err := Uninstall(file, h.Event); err != nil || got != "removed" {
		t.Fatalf("uninstall: %q, %v", got, err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the file that held only the guard is still there: %v", err)
	}
	if got, err := Uninstall(file, h.Event); err != nil || got != "absent" {
		t.Errorf("uninstall without a file: %q, %v", got, err)
	}
}

func TestBrokenSettingsAreNotTouched(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"comment.json": "{ // a comment\n}",
		"array.json":   "[]",
		"hooks.json":   `{"hooks": []}`,
		"event.json":   `{"hooks": {"PreToolUse": {}}}`,
	} {
		file := filepath.Join(dir, name)
		writeFile(t, file, content)
		if _, err := Install(file, guard); err == nil || !strings.Contains(err.Error(), file) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
		if got := readFile(t, file); got != content {
			t.Errorf("%s: the file was changed to %s", name, got)
		}
	}
}

func TestIsGuard(t *testing.T) {
	for command, want := range map[string]bool{
		"small-hook guard --agent claude":                  true,
		"'/usr/local/bin/small-hook' guard --agent claude": true,
		`"C:\tools\small-hook.exe" guard`:                  true,
		"small-hook check":                                 false,
		"echo small-hook guard":                            false,
		"small-hook guard && rm -rf /":                     false,
		"~/.claude/check-bash.sh":                          false,
	} {
		if got := IsGuard(command); got != want {
			t.Errorf("IsGuard(%q) = %v", command, got)
		}
	}
}

func TestGuarded(t *testing.T) {
	for doc, want := range map[string]bool{
		withGuard: true,
		settings:  false,
		`{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "small-hook guard --agent gemini"}]}]}}`: true,
		`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo small-hook guard"}]}]}}`:           false,
		`not json`:      false,
		`{"hooks": []}`: false,
	} {
		if got := Guarded([]byte(doc)); got != want {
			t.Errorf("Guarded(%.60q) = %v", doc, got)
		}
	}
}
