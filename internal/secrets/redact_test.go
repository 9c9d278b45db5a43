package secrets

import (
	"strconv"
	"strings"
	"testing"
)

// leaks reports the parts of secret, pieceLen bytes or longer, that out
// still holds.
func leaks(out, secret string) bool {
	for i := 0; i+pieceLen <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+pieceLen]) {
			return true
		}
	}
	return len(secret) < pieceLen && strings.Contains(out, secret)
}

func TestRedactFindsSecretsInText(t *testing.T) {
	key := strings.TrimSuffix(fakeKey, "\n")
	cases := []struct {
		name, text, secret, want string
	}{
		{"aws key id in a version message", `small_version is "` + fakeAWS + `", want "1.0.0"`, fakeAWS,
			`small_version is "[REDACTED AKIA…(20 chars)]", want "1.0.0"`},
		{"github token in a trailer error", "bad Small-Actor: value " + fakeGitHub + ": want agent or human", fakeGitHub,
			"bad Small-Actor: value [REDACTED ghp_…(40 chars)]: want agent or human"},
		{"generic api key in a schema message", `/entries/3/notes: 'api_key = "` + fakePass + `"' does not match pattern`, fakePass,
			`/entries/3/notes: 'api_key = "[REDACTED Tr0u…(21 chars)]"' does not match pattern`},
		// The newline after the key goes too: "TE KEY-----\n" is also a
		// piece of the secret (its BEGIN line).
		{"private key block in an error", "cannot parse:\n" + key + "\nend of input", key,
			"cannot parse:\n[REDACTED ----…(" + strconv.Itoa(len(key)) + " chars)]end of input"},
		{"two secrets in one message", fakeStripe + " and " + fakeSlack, fakeStripe,
			"[REDACTED sk_l…(" + strconv.Itoa(len(fakeStripe)) + " chars)] and [REDACTED xoxb…(" + strconv.Itoa(len(fakeSlack)) + " chars)]"},
		{"nothing secret", "entry 5 (task_id task-2) of the previous version was changed", "", "entry 5 (task_id task-2) of the previous version was changed"},
		{"a finding's own preview", "possible secret (AWS): AKIA…(20 chars); add a:aws-access-token:3 to .gitleaksignore", "",
			"possible secret (AWS): AKIA…(20 chars); add a:aws-access-token:3 to .gitleaksignore"},
		{"empty", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			got := s.Redact(tc.text)
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if tc.secret != "" && leaks(got, tc.secret) {
				t.Errorf("%q holds the secret", got)
			}
		})
	}
}

// TestRedactHidesWhatWasFound hides the secrets the scanner found and the
// values it was told to remember, whole or in part: messages echo values
// cut short (a replay id's first 12 characters, a truncated schema value),
// where no rule could recognise them.
func TestRedactHidesWhatWasFound(t *testing.T) {
	s := New(Options{})
	file := "notes: " + fakeAWSSecret + "\naws_secret_access_key = " + fakeAWSSecret + "\nid: " + fakeGitHub + "\n"
	if found := scan(t, s, "a.yml", file, nil); len(found) != 2 {
		t.Fatalf("found %s", rulesAt(found))
	}
	s.Remember("S3cure-Passw0rd!")
	s.Remember("abc")
	cases := []struct {
		name, text, want string
	}{
		{"whole", "value " + fakeAWSSecret + " rejected", "value [REDACTED wJal…(42 chars)] rejected"},
		{"first 12 characters", "replayId " + fakeAWSSecret[:12] + "… differs", "replayId [REDACTED wJal…(42 chars)]… differs"},
		{"a middle part", "'" + fakeAWSSecret[10:30] + "' is too long", "'[REDACTED wJal…(42 chars)]' is too long"},
		{"eleven characters are left", "id " + fakeGitHub[:11] + " is short", "id " + fakeGitHub[:11] + " is short"},
		{"a remembered password", `password is "S3cure-Passw0rd!"`, `password is "[REDACTED S3cu…(16 chars)]"`},
		{"part of a remembered password", "value S3cure-Passw0 cut", "value [REDACTED S3cu…(16 chars)] cut"},
		{"a short remembered value is left", "abc is fine", "abc is fine"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := s.Redact(tc.text); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestRedactWithoutAUsableConfiguration still hides what gitleaks' default
// rules find: a broken .gitleaks.toml is reported in an error message, and
// that message must be redacted too.
func TestRedactWithoutAUsableConfiguration(t *testing.T) {
	for _, config := range []string{"not toml [", "[[rules]]\nid = \"x\"\nregex = '''([a-z'''\nkeywords = [\"ghp_\"]\n"} {
		s := New(Options{Config: []byte(config), ConfigPath: ".gitleaks.toml"})
		if got := s.Redact("token " + fakeGitHub); got != "token [REDACTED ghp_…(40 chars)]" {
			t.Errorf("config %q: got %q", config, got)
		}
		if _, err := s.Scan("a", []byte("ghp_ x\n"), nil); err == nil {
			t.Errorf("config %q: scanning works after redacting", config)
		}
	}
}

// TestRedactWithTheRepositoryRules hides what a repository's own rules
// find.
func TestRedactWithTheRepositoryRules(t *testing.T) {
	s := New(Options{Config: []byte("[[rules]]\nid = \"corp\"\nregex = '''corp_[a-z0-9]{24}'''\nkeywords = [\"corp_\"]\n"), ConfigPath: ".gitleaks.toml"})
	if got := s.Redact("rotate corp_" + "abcdefghijklmnopqrstuvwx now"); got != "rotate [REDACTED corp…(29 chars)] now" {
		t.Errorf("got %q", got)
	}
}

func BenchmarkRedactPlainMessage(b *testing.B) {
	s := New(Options{})
	msg := "entry 5 (task_id task-2) of the previous version was changed (evidence differs): progress is append-only"
	for b.Loop() {
		s.Redact(msg)
	}
}

// TestRedactMemoryIsBounded remembers secrets up to a budget; past it,
// what the detector recognises is still hidden.
func TestRedactMemoryIsBounded(t *testing.T) {
	s := New(Options{})
	for i := range 2 * knownBudget / 40 {
		s.Remember(strconv.Itoa(i) + strings.Repeat("s", 40))
	}
	if k := &s.found; k.size > knownBudget || len(k.pieces) > knownBudget {
		t.Errorf("%d bytes remembered, %d pieces", k.size, len(k.pieces))
	}
	if got := s.Redact("token " + fakeGitHub); got != "token [REDACTED ghp_…(40 chars)]" {
		t.Errorf("past the budget: %q", got)
	}
}

// anthropicKey is a secret that gitleaks' rule only recognises when a
// blank, a quote or the end of the text follows it.
func anthropicKey() string {
	return "sk-ant-api03-" + strings.Repeat("Zq8Lm2vB7Tr0wJalrXUtnFEM", 4)[:93] + "AA"
}

// TestRedactFindsSecretsInAnyContext hides a secret that a rule only
// recognises at the end of a word where something else follows it: a file
// name's extension, a regular expression's parenthesis, a clipped echo's
// ellipsis, a co-author's e-mail address.
func TestRedactFindsSecretsInAnyContext(t *testing.T) {
	key, stripe := anthropicKey(), fakeStripe
	jwt := "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	cases := []struct{ name, text, secret string }{
		{"a file name", ".small/" + key + ".yml is not a SMALL artifact", key},
		{"a directory", "artifacts/" + key + "/notes.md", key},
		{"a name with a suffix", ".small/ext/" + stripe + "-backup.json", stripe},
		{"a regular expression", "the staged .gitleaks.toml: error parsing regexp: missing closing ): `(?i)(" + key + "|x(`", key},
		{"a value in parentheses", "(" + stripe + ")", stripe},
		{"a clipped echo", "trailer Small-Actor: " + key + "… (a bad value)", key},
		{"an e-mail address", "Co-authored-by: Bot <" + stripe + "@example.com>", stripe},
		{"a JWT with an extension", ".small/" + jwt + ".yml", jwt},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := New(Options{}).Redact(tc.text)
			if leaks(got, tc.secret) || !strings.Contains(got, "[REDACTED ") {
				t.Errorf("got %q", got)
			}
		})
	}
	plain := "small/append-only: .small/progress.small.yml:12 (entry 3, task_id task-2.1) was changed; see docs/history.md#rewrites"
	if got := New(Options{}).Redact(plain); got != plain {
		t.Errorf("a text without secrets changed: %q", got)
	}
}

// TestRedactAllHidesPiecesWhateverTheOrder: a text that holds only a cut
// piece of a secret is redacted when another text of the same output holds
// it whole, even when the piece comes first.
func TestRedactAllHidesPiecesWhateverTheOrder(t *testing.T) {
	key := anthropicKey()
	got := New(Options{}).RedactAll([]string{"claims " + key[:72] + "…", ".small/" + key + ".yml"})
	for _, g := range got {
		if leaks(g, key) {
			t.Errorf("%q holds a piece of the secret", g)
		}
	}
}

// TestLearnedSecretsAreHiddenWhenCut: a secret learned from a commit
// message is hidden where a message echoes it cut short.
func TestLearnedSecretsAreHiddenWhenCut(t *testing.T) {
	key := anthropicKey()
	s := New(Options{})
	// A middle piece, which no rule and no keyword recognises.
	clipped := "reason " + key[20:72] + "…"
	if got := s.Redact(clipped); !leaks(got, key) {
		t.Fatalf("the clipped key is redacted before it was learned (%q): the test shows nothing", got)
	}
	s.Learn("Fix the parser\n\nSmall-Actor: " + key + "\n")
	if got := s.Redact(clipped); leaks(got, key) {
		t.Errorf("got %q", got)
	}
}

// TestRedactUsesTheDefaultRulesBesideTheRepository: a repository whose
// .gitleaks.toml replaces the default rules still has what the default
// rules recognise hidden from the output.
func TestRedactUsesTheDefaultRulesBesideTheRepository(t *testing.T) {
	s := New(Options{Config: []byte("[[rules]]\nid = \"corp\"\nregex = '''corp_[a-z0-9]{24}'''\nkeywords = [\"corp_\"]\n"), ConfigPath: ".gitleaks.toml"})
	if got := s.Redact("token " + fakeGitHub); got != "token [REDACTED ghp_…(40 chars)]" {
		t.Errorf("got %q", got)
	}
}

func BenchmarkRedactPathsAndMessages(b *testing.B) {
	s := New(Options{})
	texts := []string{".small/progress.small.yml", "artifacts/llm-context-research.md",
		"entry 5 (task_id task-2) of the previous version was changed (evidence differs): progress is append-only",
		"commit 0123456789ab is agent-authored (trailer Co-authored-by: Claude <noreply@anthropic.com>) and edits human-owned .small/intent.small.yml"}
	for b.Loop() {
		s.RedactAll(texts)
	}
}

// TestRedactHidesTheBeginningOfASecretCutShort: a message that echoes a
// value cut short ("…") shows no beginning of a token that no rule can
// match any more, even one the run never found; ordinary words cut short
// stay.
func TestRedactHidesTheBeginningOfASecretCutShort(t *testing.T) {
	key := anthropicKey()
	cases := []struct{ name, text, secret string }{
		{"a quoted id", `id changed from "artifact:` + key[:30] + `…" to "artifact:notes"`, key[:30]},
		{"an unquoted echo", "task_id " + fakeGitHub[:20] + "… is not a task", fakeGitHub[:20]},
		{"an AWS key id", `small_version is "` + fakeAWS[:14] + `…"`, fakeAWS[:14]},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := New(Options{}).Redact(tc.text)
			if strings.Contains(got, tc.secret[4:]) || !strings.Contains(got, "[REDACTED ") {
				t.Errorf("got %q", got)
			}
		})
	}
	for _, plain := range []string{
		`id changed from "artifact:deploy-heroku-app-config-for-the…" to "artifact:x"`,
		"replayId ab1497cf5afa… of entry 3 differs",
		`task_id "task-2026-11-22-refactor-parser…"`,
		"trailer Co-Authored-By: Claude <noreply@anthropic.com…",
	} {
		if got := New(Options{}).Redact(plain); got != plain {
			t.Errorf("%q became %q", plain, got)
		}
	}
}
