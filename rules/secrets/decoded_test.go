package secrets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/rulestest"
)

// TestSecretsHiddenByYAMLEncodingAreFound writes secrets that YAML decodes
// into being but whose raw text no rule matches: escapes, a double-quoted
// scalar continued with a backslash, block scalars, an alias that brings a
// value under a credential key. Each is reported once, at its first line.
func TestSecretsHiddenByYAMLEncodingAreFound(t *testing.T) {
	ws := workspace(t)
	entry := "    - evidence: deployed\n      task_id: task-3\n      timestamp: \"2026-11-22T10:17:12.322718254Z\"\n      notes: %s\n"
	hexAWS := `"\x41` + fakeAWS[1:] + `"`
	cases := []struct {
		name, path, before, after, needle, want string
	}{
		{"\\x escape in a double-quoted scalar", progress, ws[progress], ws[progress] + fmt.Sprintf(entry, hexAWS), `\x41`, "secrets/aws-access-token"},
		{"\\u escape", progress, ws[progress], ws[progress] + fmt.Sprintf(entry, `"used \u0041`+fakeAWS[1:]+` today"`), `\u0041`, "secrets/aws-access-token"},
		{"escaped newline splitting a key", progress, ws[progress], ws[progress] + fmt.Sprintf(entry, `"used `+fakeAWS[:9]+"\\\n        "+fakeAWS[9:]+` today"`), fakeAWS[:9], "secrets/aws-access-token"},
		{"escapes in a plan title", plan, ws[plan], ws[plan] + "    - id: task-4\n      title: \"push with \\x67hp_" + fakeGitHub[4:] + "\"\n", `\x67hp_`, "secrets/github-pat"},
		{"escapes in artifact frontmatter", artifact, ws[artifact], strings.Replace(ws[artifact], "title: ", "notes: \"key \\x41"+fakeAWS[1:]+"\"\ntitle: ", 1), `\x41`, "secrets/aws-access-token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{}, rulestest.Staged(with(ws, tc.path, tc.before), with(ws, tc.path, tc.after)))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%s:%d:%s", tc.path, lineOf(t, tc.after, tc.needle), tc.want); summary(found) != want {
				t.Fatalf("got %q, want %q", summary(found), want)
			}
		})
	}
}

// TestDecodedValuesWithTheirKeys finds what gitleaks only recognises with
// its key: a password in a folded block scalar, and one brought under a
// password key by an alias. The credential-key rule warns as well.
func TestDecodedValuesWithTheirKeys(t *testing.T) {
	ws := workspace(t)
	base := ws[plan] + "    - id: task-4\n      title: rotate\n"
	folded := base + "      db_password: >-\n        " + fakePass + "\n"
	anchored := ws[plan] + "    - id: task-4\n      title: &pw " + fakePass + "\n"
	aliased := anchored + "    - id: task-5\n      title: again\n      db_password: *pw\n"
	amongOthers := anchored + "    - id: task-5\n      title: *pw\n      notes: *pw\n      db_password: *pw\n"
	cases := []struct {
		name, before, after, needle string
	}{
		{"folded block scalar", ws[plan], folded, "db_password"},
		{"alias under a password key", anchored, aliased, "db_password"},
		{"aliases under a password key and others", anchored, amongOthers, "db_password"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{}, rulestest.Staged(with(ws, plan, tc.before), with(ws, plan, tc.after)))
			if err != nil {
				t.Fatal(err)
			}
			line := lineOf(t, tc.after, tc.needle)
			want := fmt.Sprintf("%[1]s:%[2]d:secrets/credential-key %[1]s:%[2]d:secrets/generic-api-key", plan, line)
			if summary(found) != want {
				t.Fatalf("got %q, want %q", summary(found), want)
			}
		})
	}
}

// TestAnAliasedSecretIsReportedOnce: a token hidden by an escape in an
// anchored string is one secret wherever aliases repeat it, under
// whatever keys: reported once, at the first alias the change adds (the
// anchor was committed before).
func TestAnAliasedSecretIsReportedOnce(t *testing.T) {
	ws := workspace(t)
	anchored := ws[plan] + "    - id: task-4\n      title: &tok \"push with \\x67hp_" + fakeGitHub[4:] + "\"\n"
	aliased := anchored + "    - id: task-5\n      title: *tok\n      notes: *tok\n    - id: task-6\n      title: *tok\n"
	found, err := check(t, env{}, rulestest.Staged(with(ws, plan, anchored), with(ws, plan, aliased)))
	want := fmt.Sprintf("%s:%d:secrets/github-pat", plan, lineOf(t, aliased, "title: *tok"))
	if err != nil || summary(found) != want {
		t.Fatalf("got %q (%v), want %q", summary(found), err, want)
	}
}

// TestDecodedValuesAreReportedOnce reports a secret that the raw scan and
// the decoded scan both see once, and does not report again a decoded
// secret of the old version when lines are added after it.
func TestDecodedValuesAreReportedOnce(t *testing.T) {
	ws := workspace(t)
	block := ws[progress] + "    - evidence: deployed\n      notes: |\n        deployed with " + fakeAWS + "\n        and more\n      task_id: task-3\n"
	escaped := ws[progress] + "    - evidence: deployed\n      notes: \"\\x41" + fakeAWS[1:] + "\"\n      task_id: task-3\n"
	appended := escaped + "    - evidence: go test ./... passed\n      notes: |\n        fine\n      task_id: task-4\n"
	cases := []struct {
		name   string
		before string
		after  string
		want   string
	}{
		{"raw and decoded see the same key", ws[progress], block, fmt.Sprintf("%s:%d:secrets/aws-access-token", progress, lineOf(t, block, fakeAWS))},
		{"an escaped key committed before", escaped, appended, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{}, rulestest.Staged(with(ws, progress, tc.before), with(ws, progress, tc.after)))
			if err != nil || summary(found) != tc.want {
				t.Fatalf("got %q (%v), want %q", summary(found), err, tc.want)
			}
		})
	}
	found, err := check(t, env{}, rulestest.Tree(with(ws, progress, escaped)))
	if want := fmt.Sprintf("%s:%d:secrets/aws-access-token", progress, lineOf(t, escaped, `\x41`)); err != nil || summary(found) != want {
		t.Fatalf("tree mode: got %q (%v), want %q", summary(found), err, want)
	}
}

func TestPlainLine(t *testing.T) {
	cases := map[string]bool{
		"":                                     true,
		"    # a comment":                      true,
		"---":                                  true,
		"    - evidence: go test ./... passed": true,
		"      timestamp: \"2026-11-22T10:17:12.322718254Z\"":            true,
		"  - 'did:key:z6Mko64x75DDgiVmhP2DoegyEgiq5tVejzcqzYB8tJt4VR2q'": true,
		"      notes: it's fine # ok":                                    true,
		"tags: [a, b, \"c\"]":                                            true,
		"  \"quoted key\": value":                                        true,
		"  - item":                                                       true,
		"      notes: \"\\x41KIA\"":                                      false,
		"      notes: |":                                                 false,
		"      message: >-":                                              false,
		"      notes: |2-":                                               false,
		"        continued text":                                         false,
		"      db_password: *pw":                                         false,
		"      notes: \"open":                                            false,
		"      notes: 'open":                                             false,
		"tags: [a,":                                                      false,
		"  b, c]":                                                        false,
		"? complex key":                                                  false,
		"*alias : value":                                                 false,
	}
	for line, want := range cases {
		if got := plainLine(line); got != want {
			t.Errorf("plainLine(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestWorthDecoding(t *testing.T) {
	data := []byte("a: 1\nb: \"\\x41\"\nc: 3\nd: |\n  x\napi_key: y\n")
	cases := []struct {
		lines []int
		want  bool
	}{
		{[]int{1}, false},
		{[]int{3}, false},
		{[]int{2}, true},
		{[]int{4}, true},
		{[]int{5}, true},
		{[]int{6}, true},
		{[]int{}, false},
		{nil, true},
	}
	for _, tc := range cases {
		if got := worthDecoding(data, 1, tc.lines, 1, 7); got != tc.want {
			t.Errorf("lines %v: %v, want %v", tc.lines, got, tc.want)
		}
	}
	if worthDecoding(data, 1, nil, 3, 3) {
		t.Error("a plain line outside the region made it worth decoding")
	}
}

// TestValueFarBelowItsKey finds a password that gitleaks misses in the raw
// text because too much indentation separates it from its key.
func TestValueFarBelowItsKey(t *testing.T) {
	ws := workspace(t)
	after := ws[plan] + "    - id: task-4\n      title: connect\n      db_password:\n                " + fakePass + "\n"
	found, err := check(t, env{}, rulestest.Staged(ws, with(ws, plan, after)))
	line := lineOf(t, after, "db_password")
	if want := fmt.Sprintf("%[1]s:%[2]d:secrets/credential-key %[1]s:%[2]d:secrets/generic-api-key", plan, line); err != nil || summary(found) != want {
		t.Fatalf("got %q (%v), want %q", summary(found), err, want)
	}
}
