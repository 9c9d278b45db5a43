package attribution

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// cleanupCases are commits made through real git: the configuration, how
// the message is given, and the trailers git records.
var cleanupCases = []struct {
	name string
	// config is set with git config before the commit.
	config map[string]string
	// args are added to `git commit`; edit, when set, is what the editor
	// writes above the template git gives it.
	args []string
	edit string
	want []string
}{
	{
		name:   "core.commentChar=; with the editor: the template's block is comments",
		config: map[string]string{"core.commentChar": ";"},
		edit:   "Fix a typo\n\nSmall-Rewrite: typo\n",
		want:   []string{"Small-Rewrite: typo"},
	},
	{
		name:   "core.commentChar=; with -m: a # line is message",
		config: map[string]string{"core.commentChar": ";"},
		args:   []string{"-m", "Fix a typo", "-m", "# not a comment\n\nSmall-Actor: agent"},
		want:   []string{"Small-Actor: agent"},
	},
	{
		name:   "core.commentChar=auto, the message starts lines with #",
		config: map[string]string{"core.commentChar": "auto"},
		args:   []string{"-e", "-m", "# Heading\n\nSmall-Actor: agent"},
		edit:   "",
		want:   []string{"Small-Actor: agent"},
	},
	{
		name:   "core.commentChar=auto, the message holds no #",
		config: map[string]string{"core.commentChar": "auto"},
		edit:   "Subject\n\nSmall-Actor: agent\n",
		want:   []string{"Small-Actor: agent"},
	},
	{
		name:   "core.commentChar=auto, # and ; both start lines",
		config: map[string]string{"core.commentChar": "auto"},
		args:   []string{"-e", "-m", "# one\n; two\n\nSmall-Actor: agent"},
		edit:   "",
		want:   []string{"Small-Actor: agent"},
	},
	{
		name:   "core.commentChar=auto with -v: the scissors line names the character",
		config: map[string]string{"core.commentChar": "auto"},
		args:   []string{"-v", "-e", "-m", "# Heading\n\nSmall-Rewrite: reason"},
		edit:   "",
		want:   []string{"Small-Rewrite: reason"},
	},
	{
		name:   "commit.cleanup=whitespace keeps the template's comments: they end the message",
		config: map[string]string{"commit.cleanup": "whitespace", "core.commentChar": ";"},
		edit:   "Subject\n\nSmall-Actor: agent\n",
	},
	{
		name:   "commit.cleanup=strip with -m drops # lines",
		config: map[string]string{"commit.cleanup": "strip"},
		args:   []string{"-m", "Subject\n\nSmall-Actor: agent\n# a note"},
		want:   []string{"Small-Actor: agent"},
	},
	{
		name:   "commit.cleanup=verbatim with -m keeps blank lines at the end",
		config: map[string]string{"commit.cleanup": "verbatim"},
		args:   []string{"-m", "Subject\n\nSmall-Actor: agent\n\n\n"},
		want:   []string{"Small-Actor: agent"},
	},
	{
		name:   "commit.cleanup=scissors with the editor: the template starts below a scissors line",
		config: map[string]string{"commit.cleanup": "scissors", "core.commentChar": ";"},
		edit:   "Subject\n\nSmall-Actor: agent\n",
		want:   []string{"Small-Actor: agent"},
	},
	{
		name: "-v with the default mode",
		args: []string{"-v"},
		edit: "Subject\n\nSmall-Rewrite: typo\n",
		want: []string{"Small-Rewrite: typo"},
	},
	{
		name: "-F keeps # lines by default",
		args: []string{"-F", "MSG"},
		want: []string{"Small-Actor: agent"},
	},
}

// cleanupHook is a commit-msg hook that keeps the message file git hands it
// and whether git ran the editor, in the work tree, where git runs hooks.
const cleanupHook = `#!/bin/sh
cp "$1" hook-message
printf '%s' "${GIT_EDITOR-}" > hook-editor
`

// TestCommittedIsWhatGitCommits commits each case through real git with a
// commit-msg hook that keeps the file it is handed, and compares
// Cleanup.Committed of that file with the message git committed, and the
// trailers small-hook reads from it with the ones git reads from the
// commit.
func TestCommittedIsWhatGitCommits(t *testing.T) {
	needGit(t)
	editor := filepath.Join(t.TempDir(), "editor")
	// The editor puts $EDIT above what git gave it.
	if err := os.WriteFile(editor, []byte("#!/bin/sh\n{ printf '%s' \"$EDIT\"; cat \"$1\"; } > \"$1.new\" && mv \"$1.new\" \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range cleanupCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			gitLines(t, dir, "", "init", "-q")
			for k, v := range c.config {
				gitLines(t, dir, "", "config", k, v)
			}
			if err := os.WriteFile(filepath.Join(dir, ".git", "hooks", "commit-msg"), []byte(cleanupHook), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "MSG"), []byte("Subject\n\n# kept by -F\n\nSmall-Actor: agent\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			gitLines(t, dir, "", "add", "MSG")
			if _, err := gittest.Run(dir, gittest.Env("GIT_EDITOR="+editor, "EDIT="+c.edit), nil, append([]string{"commit", "-q"}, c.args...)...); err != nil {
				t.Fatal(err)
			}
			file, err := os.ReadFile(filepath.Join(dir, "hook-message"))
			if err != nil {
				t.Fatal(err)
			}
			ed, err := os.ReadFile(filepath.Join(dir, "hook-editor"))
			if err != nil {
				t.Fatal(err)
			}
			cleanup := Cleanup{Mode: c.config["commit.cleanup"], CommentChar: c.config["core.commentChar"], Editor: string(ed) != ":"}
			got, err := cleanup.Committed(string(file))
			if err != nil {
				t.Fatal(err)
			}
			raw := gitRaw(t, dir, "cat-file", "commit", "HEAD")
			_, committed, _ := strings.Cut(raw, "\n\n")
			if got != committed {
				t.Errorf("Committed = %q\ngit committed %q\nfrom the hook's file %q", got, committed, file)
			}
			if trailers := format(ParseTrailers(got)); !reflect.DeepEqual(trailers, c.want) {
				t.Errorf("trailers %q, want %q", trailers, c.want)
			}
			// Where the commit is checked later (CI) git reads it with the
			// default comment character.
			if fromGit := gitLines(t, dir, "", "-c", "core.commentChar=#", "log", "-1", "--format=%(trailers:only,unfold)"); !reflect.DeepEqual(fromGit, c.want) {
				t.Errorf("git log reads the trailers %q, the table says %q", fromGit, c.want)
			}
		})
	}
}

// gitRaw runs git in dir, as gittest runs it, and returns its output as
// it is.
func gitRaw(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gittest.Run(dir, gittest.Env(), nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCleanupRefusesAModeGitDoesNotKnow(t *testing.T) {
	_, err := Cleanup{Mode: "tidy"}.Committed("Subject\n")
	if err == nil || !strings.Contains(err.Error(), "commit.cleanup") {
		t.Fatalf("error %v", err)
	}
}
