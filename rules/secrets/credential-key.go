package secrets

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

// credentialKeyID is the rule that warns about credential-named keys with
// literal values. No gitleaks finding is reported under it: a gitleaks
// rule of the same id is reported as secrets/gitleaks:credential-key.
const credentialKeyID = family + "/credential-key"

func credentialKeyRule() *rules.Rule {
	return &rules.Rule{
		ID:           credentialKeyID,
		Severity:     rules.Warning,
		PerWorkspace: true,
		Doc: `No literal passwords, tokens or keys under credential-named keys
SMALL: no passwords or API keys may be stored in agent state, and implementations SHOULD detect them. gitleaks' rules see only values that look like secrets; this rule warns about a mapping key whose name says credential — its last word is password, passwd, passphrase, secret, token, credential(s) or apikey, or it ends in api key, access key, private key, secret key, signing key, encryption key, client key, master key, auth key, ssh key, deploy key or license key (github_token, apiKey, client-secret, DB_PASSWORD; not token_count, max_tokens, secretary) — that holds a literal non-empty string, however weak (api_key: abc). Numbers, booleans and null are not judged, nor are references: ${ENV_VAR}, $ENV_VAR, {{ template }} and values made only of asterisks. Governed YAML files and the frontmatter of artifacts are read (every staged file with secrets.scope: staged); in staged and range modes only pairs written on an added line, with --all every pair. The value is never shown. Fix: store a reference (an environment variable, the name of the secret in your secret manager) instead of the value, and rotate the credential if it was real. The rule is off with --no-secrets.`,
		Run:   runCredentialKeys,
		Apart: true,
	}
}

func runCredentialKeys(pass *rules.Pass) error {
	if pass.Secrets == nil {
		return nil
	}
	for _, ch := range pass.Unit.Changes {
		if ch.New == nil || ch.New.Regular() != nil || (pass.Config.Secrets.Scope != "staged" && !governed(ch)) {
			continue
		}
		for _, s := range decodedAdded(pass, ch) {
			if s.key == "" || !credentialName(s.key) || reference(s.value) {
				continue
			}
			if pass.Unit.Mode != changes.ModeTree && !spanAdded(ch, s.line, s.end) {
				continue
			}
			pass.Secrets.Remember(s.value)
			pass.Report(ch.Path, s.line, "%q holds a literal value (%d characters, not shown)", s.key, len([]rune(s.value))).Hint("%s", credentialHint(s))
		}
	}
	return nil
}

// credentialHint says why the value may not be there and what to store
// instead.
func credentialHint(s scalar) string {
	return fmt.Sprintf("SMALL forbids storing passwords, API keys and tokens in agent state; "+
		"store a reference instead (an environment variable such as ${%s}, or the secret's name in your secret manager) and rotate the credential if it was real",
		envName(s.key))
}

// envName suggests an environment variable name for a key.
func envName(key string) string {
	return strings.ToUpper(strings.Join(words(key), "_"))
}

// credentialName reports whether a mapping key names a credential by its
// last word (or its last two: api key, access key, …).
func credentialName(key string) bool {
	w := words(key)
	if len(w) == 0 {
		return false
	}
	switch last := w[len(w)-1]; last {
	case "password", "passwd", "passphrase", "secret", "token", "credential", "credentials",
		"apikey", "privatekey", "accesskey", "secretkey", "clientsecret", "authtoken", "accesstoken":
		return true
	case "key":
		if len(w) == 1 {
			return false
		}
		switch w[len(w)-2] {
		case "api", "access", "private", "secret", "signing", "encryption", "client", "master", "auth", "ssh", "deploy", "license":
			return true
		}
	}
	return false
}

// words splits a key into lower-case words at separators and at camelCase
// boundaries: "githubToken", "API_KEY" and "client-secret" give
// [github token], [api key] and [client secret].
func words(key string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	r := []rune(key)
	for i, c := range r {
		switch {
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			flush()
			continue
		case unicode.IsUpper(c) && i > 0 && (unicode.IsLower(r[i-1]) || (i+1 < len(r) && unicode.IsLower(r[i+1]) && unicode.IsUpper(r[i-1]))):
			flush()
		}
		cur = append(cur, c)
	}
	flush()
	return out
}

// reference reports whether a value only refers to a secret kept
// elsewhere: ${ENV_VAR}, $ENV_VAR, {{ template }}, or a mask of asterisks.
func reference(v string) bool {
	v = strings.TrimSpace(v)
	inner := func(open, close string) (string, bool) {
		if !strings.HasPrefix(v, open) || !strings.HasSuffix(v, close) || len(v) < len(open)+len(close) {
			return "", false
		}
		return v[len(open) : len(v)-len(close)], true
	}
	if name, ok := inner("${", "}"); ok {
		return name != "" && !strings.ContainsAny(name, "{}")
	}
	if tmpl, ok := inner("{{", "}}"); ok {
		return !strings.Contains(tmpl, "}}")
	}
	if name, ok := strings.CutPrefix(v, "$"); ok {
		return envVariable(name)
	}
	return strings.Trim(v, "*") == ""
}

// envVariable reports whether name is a shell variable name.
func envVariable(name string) bool {
	for i, c := range name {
		if !(c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return name != ""
}
