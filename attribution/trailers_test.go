package attribution

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// gitTrailers asks git itself which trailers a message has.
func gitTrailers(t *testing.T, msg string) string {
	t.Helper()
	cmd := exec.Command("git", "interpret-trailers", "--parse")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	cmd.Stdin = strings.NewReader(msg)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git interpret-trailers: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func TestTrailersAgreeWithGit(t *testing.T) {
	messages := []string{
		"Subject\n\nBody text.\n\nCo-authored-by: Claude <noreply@anthropic.com>\n",
		"Subject\n\nCo-authored-by: A <a@example.com>\nAssisted-by: claude:opus\n",
		"Co-authored-by: only a subject <a@example.com>\n",
		"Subject\n\nAssisted-by: in the middle\n\nmore body text\n",
		"Subject\n\nBody.\n\nKey: value\n  continued here\nOther: x\n",
		"Subject\n\nBody.\n\nthis is prose\nSigned-off-by: A <a@example.com>\nCo-authored-by: B <b@example.com>\nand prose\n",
		"Subject\n\nBody.\n\nthis is prose\nmore prose\nmore prose\nmore prose\nCo-authored-by: B <b@example.com>\n",
		"Subject\n\nBody.\n\nCo-authored-by: B <b@example.com>\n\n\n",
		"Subject\n\nKey : spaced\n",
	}
	for _, msg := range messages {
		var got []string
		for _, tr := range ParseTrailers(msg) {
			got = append(got, tr.Key+": "+tr.Value)
		}
		if want := gitTrailers(t, msg); strings.Join(got, "\n") != want {
			t.Errorf("message %q:\ngot  %q\ngit  %q", msg, strings.Join(got, "\n"), want)
		}
	}
}

func TestCleanupLikeGitCommit(t *testing.T) {
	msg := "Subject\n\nBody.\n\nCo-authored-by: B <b@example.com>\n# Please enter the commit message\n" + scissors + "\ndiff --git a/x b/x\nAssisted-by: not a trailer\n"
	got := ParseTrailers(msg)
	if len(got) != 1 || got[0].Key != "Co-authored-by" {
		t.Errorf("trailers %+v", got)
	}
}
