package secrets

import (
	"fmt"
	"strings"
	"testing"
)

// records returns n JSON records of about size bytes each, every one with
// a distinct token that gitleaks' generic rule reports: the content of a
// minified export, where gitleaks' cost per line grows with the line's
// length squared.
func records(n, size int) []string {
	samples := strings.Repeat("1024, 2048, 4096, 8192, ", size/24+1)
	out := make([]string, n)
	for i := range out {
		rec := fmt.Sprintf(`{"id":"rec-%05d","api_token":"%s%04d","samples":[`, i, fakePass, i)
		out[i] = rec + samples[:max(size-len(rec)-8, 0)] + `16384]},`
	}
	return out
}

// TestHugeLineIsScannedInBoundedTime scans a 2.5 MB one-line file, which
// gitleaks alone does not finish in minutes: every secret in it is found
// once, at its column.
func TestHugeLineIsScannedInBoundedTime(t *testing.T) {
	recs := records(1000, 2500)
	half := len(recs) / 2
	line := strings.Join(recs[:half], "") + `{"deployed_with":"` + fakeAWS + `"},` + strings.Join(recs[half:], "")
	if len(line) < 2500_000 {
		t.Fatalf("line of %d bytes", len(line))
	}
	found := scan(t, New(Options{}), "artifacts/export.md", "# Export\n"+line+"\n", nil)
	want := map[string]int{"aws-access-token": strings.Index(line, fakeAWS) + 1}
	for at, off := 0, 0; len(want) <= len(recs); {
		i := strings.Index(line[off:], "api_token")
		if i < 0 {
			break
		}
		at, off = off+i+1, off+i+1
		want[fmt.Sprint("generic-api-key@", at)] = at
	}
	if len(found) != len(want) {
		t.Fatalf("got %d findings, want %d", len(found), len(want))
	}
	for _, f := range found {
		key := f.RuleID
		if f.RuleID == "generic-api-key" {
			key = fmt.Sprint(f.RuleID, "@", f.Column)
		}
		if column, ok := want[key]; !ok || f.Line != 2 || f.EndLine != 2 || f.Column != column {
			t.Fatalf("unexpected finding %+v", f)
		}
		delete(want, key)
	}
}

// TestSecretAcrossAWindowEdgeIsFoundOnce places secrets at every offset
// around the edges between a long line's windows.
func TestSecretAcrossAWindowEdgeIsFoundOnce(t *testing.T) {
	stride := maxLine - windowOverlap
	pad := strings.Repeat("x", 3*maxLine)
	s := New(Options{})
	for _, secret := range []struct{ rule, text string }{
		{"aws-access-token", fakeAWS},
		{"github-pat", fakeGitHub},
		{"generic-api-key", "db_password = " + fakePass},
	} {
		for _, edge := range []int{maxLine, stride + maxLine, 2 * stride} {
			n := len(secret.text)
			for _, at := range []int{edge - n - 3, edge - n - 2, edge - n - 1, edge - n/2 - 1, edge - 3, edge - 2, edge - 1, edge} {
				line := pad[:at] + " " + secret.text + " " + pad[at:]
				found := scan(t, s, "a.md", line+"\n", nil)
				column := at + 2
				if len(found) != 1 || found[0].RuleID != secret.rule || found[0].Column != column || found[0].Line != 1 {
					t.Fatalf("%s at %d (edge %d): got %+v, want one at column %d", secret.rule, at, edge, found, column)
				}
				if want := preview(strings.TrimPrefix(secret.text, "db_password = ")); found[0].Preview != want {
					t.Fatalf("%s at %d: preview %q, want %q", secret.rule, at, found[0].Preview, want)
				}
			}
		}
	}
}

// TestLongLineSpecialCases covers what windows could lose: a key on the
// line before a long line, a private key written on one line (as JSON
// holds it) across many windows, and gitleaks:allow far from the secret
// (kept: the caller judges the marker).
func TestLongLineSpecialCases(t *testing.T) {
	body := strings.Repeat(strings.Split(fakeKey, "\n")[1]+`\n`, 40)
	oneLineKey := "-----BEGIN " + "RSA PRIVATE KEY-----" + `\n` + body + "-----END " + "RSA PRIVATE KEY-----"
	pad := strings.Repeat("lorem ipsum ", 500)
	cases := []struct {
		name, content, want string
	}{
		{"value at the start of a long line", "password:\n  " + fakePass + " " + pad + "\n", "generic-api-key@1-2"},
		{"one-line private key across windows", `{"type":"service_account","private_key":"` + pad[:700] + oneLineKey + `\n","x":"` + pad + "\"}\n", "private-key@1-1"},
		{"private key with a long body line", "# k\n-----BEGIN " + "RSA PRIVATE KEY-----\n" + strings.ReplaceAll(body, `\n`, "") + "\n-----END " + "RSA PRIVATE KEY-----\n", "private-key@2-4"},
		{"gitleaks:allow at the end of a long line", "token: " + fakeGitHub + " " + pad + " # gitleaks:allow\n", "github-pat@1-1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range scan(t, New(Options{}), "a.md", tc.content, nil) {
				got = append(got, fmt.Sprintf("%s@%d-%d", f.RuleID, f.Line, f.EndLine))
			}
			if strings.Join(got, ",") != tc.want {
				t.Errorf("got %v, want %q", got, tc.want)
			}
		})
	}
}

func BenchmarkLongLine(b *testing.B) {
	content := []byte(strings.Join(records(100, 2500), "") + "\n")
	for b.Loop() {
		if _, err := New(Options{}).Scan("a.md", content, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLongLineWithoutKeywords(b *testing.B) {
	content := []byte(strings.Repeat("QUFBQUFBQUFBQUFBQUFB", 128<<10) + " " + fakeAWS + "\n")
	s := New(Options{})
	for b.Loop() {
		if _, err := s.Scan("a.md", content, nil); err != nil {
			b.Fatal(err)
		}
	}
}
