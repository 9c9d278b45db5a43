package secrets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/rulestest"
)

// TestMultiLineSecretsAreJudgedWithTheirBlock covers secrets whose first
// line was already committed: a private key whose placeholder BEGIN and END
// lines were committed before its body, a second key whose BEGIN line text
// the file already holds, and a password added under an existing key.
func TestMultiLineSecretsAreJudgedWithTheirBlock(t *testing.T) {
	ws := workspace(t)
	begin, end := "-----BEGIN "+"RSA PRIVATE KEY-----", "-----END "+"RSA PRIVATE KEY-----"
	placeholder := ws[artifact] + "\n```\n" + begin + "\n(paste the key here)\n" + end + "\n```\n"
	filled := strings.Replace(placeholder, "(paste the key here)", keyBody, 1)
	firstKey := ws[artifact] + "\n```\n" + fakeKey + "```\n"
	secondKey := firstKey + "\nAnd the deploy key:\n\n```\n" + begin + "\n" + strings.ToUpper(keyBody[:40]) + keyBody[40:] + "\n" + end + "\n```\n"
	longBody := ws[artifact] + "\n```\n" + begin + "\n" + strings.Repeat(keyBody, 30) + "\n" + end + "\n```\n"
	longPlaceholder := ws[artifact] + "\n```\n" + begin + "\n" + strings.Repeat("x", 3000) + "\n" + end + "\n```\n"
	passwordKey := ws[artifact] + "\nConnect with:\n\n```yaml\ndb_password:\n  changeme\n```\n"
	passwordSet := strings.Replace(passwordKey, "changeme", fakePass, 1)
	cases := []struct {
		name, before, after, needle, rule string
	}{
		{"key body pasted between committed BEGIN and END lines", placeholder, filled, begin, "secrets/private-key"},
		{"second key whose BEGIN line is already in the file", firstKey, secondKey, "And the deploy key", "secrets/private-key"},
		{"key body on one long line", longPlaceholder, longBody, begin, "secrets/private-key"},
		{"password added under an existing key", passwordKey, passwordSet, "db_password", "secrets/generic-api-key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{}, rulestest.Staged(with(ws, artifact, tc.before), with(ws, artifact, tc.after)))
			if err != nil {
				t.Fatal(err)
			}
			line := lineOf(t, tc.after, tc.needle)
			if tc.needle == "And the deploy key" {
				line = lineOf(t, tc.after[strings.Index(tc.after, tc.needle):], begin) + line - 1
			}
			if want := fmt.Sprintf("%s:%d:%s", artifact, line, tc.rule); summary(found) != want {
				t.Fatalf("got %q, want %q", summary(found), want)
			}
		})
	}
}

// TestOldBlockSecretsStayJudged keeps what was committed out of the report:
// a key that the old version held whole, and lines added after it.
func TestOldBlockSecretsStayJudged(t *testing.T) {
	ws := workspace(t)
	before := ws[artifact] + "\n```\n" + fakeKey + "```\n"
	cases := []struct{ name, after string }{
		{"a line added after the key", before + "\nMore notes.\n"},
		{"a line added before the key", strings.Replace(before, "\n```\n-----BEGIN", "\nNotes.\n```\n-----BEGIN", 1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{}, rulestest.Staged(with(ws, artifact, before), with(ws, artifact, tc.after)))
			if err != nil || len(found) != 0 {
				t.Fatalf("got %q (%v), want nothing", summary(found), err)
			}
		})
	}
	merge := changes.Change{Path: artifact, Old: rulestest.Blob(before), New: rulestest.Blob(before + "\nMerged.\n"),
		Merge: &changes.Merge{Parents: []*changes.Blob{rulestest.Blob(before), rulestest.Blob(ws[artifact])}}}
	u := changes.Unit{Mode: changes.ModeRange, Commit: &changes.Commit{Hash: "ab12"}, Changes: []changes.Change{merge}, Files: rulestest.Snapshot{artifact: before}}
	if found, err := check(t, env{}, u); err != nil || len(found) != 0 {
		t.Fatalf("merge keeping a parent's key: got %q (%v)", summary(found), err)
	}
}
