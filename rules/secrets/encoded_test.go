package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/rulestest"
)

// TestSecretsGitleaksDecodesAreFound writes a token as the texts gitleaks'
// decoder reads (the gitleaks CLI decodes to depth 5 before it matches): a
// base64 or hex value in a TOML file of .awp/, a YAML !!binary value, \u
// escapes in TOML. Each is reported once, at its line, staged and with
// --all, and the message says how it was written.
func TestSecretsGitleaksDecodesAreFound(t *testing.T) {
	ws := workspace(t).With(".awp/workspace.json", "{}\n")
	const toml = ".awp/settings.toml"
	b64 := base64.StdEncoding.EncodeToString([]byte(fakeGitHub))
	var escaped strings.Builder
	for _, r := range fakeGitHub {
		fmt.Fprintf(&escaped, `\\u%04x`, r)
	}
	cases := []struct {
		name, path, before, after, needle, want, encoding string
	}{
		{"base64 in TOML", toml, "name = \"x\"\n", "name = \"x\"\nvalue = \"" + b64 + "\"\n", b64, "secrets/github-pat", "base64"},
		{"hex in TOML", toml, "", "name = \"x\"\nvalue = \"" + hex.EncodeToString([]byte(fakeGitHub)) + "\"\n", "value", "secrets/github-pat", "hex"},
		{"\\u escapes in TOML", toml, "", "name = \"x\"\nvalue = \"" + escaped.String() + "\"\n", "value", "secrets/github-pat", "unicode"},
		{"YAML !!binary in a plan", plan, ws[plan], ws[plan] + "    - id: task-4\n      title: !!binary " + base64.StdEncoding.EncodeToString([]byte("deploy with "+fakeAWS)) + "\n", "!!binary", "secrets/aws-access-token", "base64"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{}, rulestest.Staged(ws.With(tc.path, tc.before), ws.With(tc.path, tc.after)))
			if err != nil {
				t.Fatal(err)
			}
			line := lineOf(t, tc.after, tc.needle)
			var got []string
			for _, f := range found {
				if f.Rule == tc.want {
					got = append(got, fmt.Sprintf("%s:%d", f.Path, f.Line))
					if !strings.Contains(f.Message, "decoded from "+tc.encoding) {
						t.Errorf("message %q does not say it was decoded from %s", f.Message, tc.encoding)
					}
				}
			}
			if want := fmt.Sprintf("%s:%d", tc.path, line); strings.Join(got, " ") != want {
				t.Fatalf("%s at %v, want %s (all: %s)", tc.want, got, want, summary(found))
			}
			tree, err := check(t, env{}, rulestest.Tree(ws.With(tc.path, tc.after)))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(summary(tree), fmt.Sprintf("%s:%d:%s", tc.path, line, tc.want)) {
				t.Errorf("--all: got %q", summary(tree))
			}
		})
	}
}
