package secrets

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
	leaks "github.com/small-hook/small-hook/secrets"
)

func TestCredentialName(t *testing.T) {
	cases := map[string]bool{
		"password": true, "db_password": true, "DB_PASSWORD": true, "passwd": true, "passphrase": true,
		"secret": true, "client-secret": true, "clientSecret": true, "client_secret": true,
		"token": true, "github_token": true, "githubToken": true, "GITHUB_TOKEN": true, "accessToken": true, "authtoken": true,
		"api_key": true, "apiKey": true, "API_KEY": true, "apikey": true, "api-key": true, "APIKey": true,
		"access_key": true, "aws.secret_key": true, "private_key": true, "privateKey": true, "ssh_key": true,
		"signing key": true, "credentials": true, "credential": true,
		"token_count": false, "max_tokens": false, "tokens": false, "tokenizer": false, "secretary": false,
		"secret_name": false, "password_file": false, "passwordHash": false, "key": false, "sort_key": false,
		"public_key": false, "keys": false, "access_key_id": false, "author": false, "authors": false,
		"replayId": false, "command_sha256": false, "": false, "monkey": false,
	}
	for key, want := range cases {
		if got := credentialName(key); got != want {
			t.Errorf("credentialName(%q) = %v, want %v (words %v)", key, got, want, words(key))
		}
	}
}

func TestReference(t *testing.T) {
	cases := map[string]bool{
		"${DB_PASSWORD}": true, "$DB_PASSWORD": true, "{{ secrets.GITHUB_TOKEN }}": true, "********": true, "": true, "  ": true,
		"abc": false, "S3cure-Passw0rd!": false, "$": false, "${}": false, "${A}B": false, "$1abc": false, "pa$$word": false,
		"{{ a }} b": false, "*a*": false,
	}
	for v, want := range cases {
		if got := reference(v); got != want {
			t.Errorf("reference(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestCredentialKeysWithLiteralValues(t *testing.T) {
	ws := workspace(t)
	task := ws[plan] + "    - id: task-4\n      title: connect\n      %s\n"
	frontmatter := func(line string) string { return strings.Replace(ws[artifact], "title: ", line+"\ntitle: ", 1) }
	cases := []struct {
		name, path, after, needle string
		warn                      bool
	}{
		{"weak api key", plan, fmt.Sprintf(task, "api_key: abc"), "api_key", true},
		{"quoted password", plan, fmt.Sprintf(task, `password: "S3cure-Passw0rd!"`), "password", true},
		{"camelCase token", plan, fmt.Sprintf(task, "githubToken: 'x1'"), "githubToken", true},
		{"quoted number", plan, fmt.Sprintf(task, `db_password: "1234"`), "db_password", true},
		{"value on the next line", plan, fmt.Sprintf(task, "client-secret:\n        hunter2"), "client-secret", true},
		{"in artifact frontmatter", artifact, frontmatter("client_secret: hunter2"), "client_secret", true},
		{"number", plan, fmt.Sprintf(task, "api_key: 12345"), "", false},
		{"boolean", plan, fmt.Sprintf(task, "password: true"), "", false},
		{"null", plan, fmt.Sprintf(task, "token: null"), "", false},
		{"empty", plan, fmt.Sprintf(task, `token: ""`), "", false},
		{"environment reference", plan, fmt.Sprintf(task, "password: ${DB_PASSWORD}"), "", false},
		{"template reference", plan, fmt.Sprintf(task, "github_token: '{{ secrets.GITHUB_TOKEN }}'"), "", false},
		{"not a credential name", plan, fmt.Sprintf(task, "token_count: twelve"), "", false},
		{"a mapping under a credential name", plan, fmt.Sprintf(task, "credentials:\n        user: alice"), "", false},
		{"in an artifact body", artifact, ws[artifact] + "\npassword: hunter2\n", "", false},
		{"in a file that is not YAML", ".awp/notes.txt", "password: hunter2\n", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := leaks.New(leaks.Options{})
			found, err := rules.Check([]changes.Unit{rulestest.Staged(ws, with(ws, tc.path, tc.after))},
				rules.Options{Rules: Rules(), Config: config.Default(), Secrets: s})
			if err != nil {
				t.Fatal(err)
			}
			var warned []rules.Finding
			for _, f := range found {
				if f.Rule == credentialKeyID {
					warned = append(warned, f)
				}
			}
			if !tc.warn {
				if len(warned) != 0 {
					t.Fatalf("got %q", summary(warned))
				}
				return
			}
			if want := fmt.Sprintf("%s:%d:%s", tc.path, lineOf(t, tc.after, tc.needle), credentialKeyID); summary(warned) != want {
				t.Fatalf("got %q, want %q", summary(warned), want)
			}
			f := warned[0]
			for _, value := range []string{"abc", "S3cure-Passw0rd!", "x1", "1234", "hunter2"} {
				if strings.Contains(tc.after, value) && strings.Contains(f.Message, value) {
					t.Errorf("the message shows the value: %s", f.Message)
				}
			}
			if f.Severity != rules.Warning || !strings.Contains(f.Message, "not shown") {
				t.Errorf("finding %+v", f)
			}
			if v := "S3cure-Passw0rd!"; strings.Contains(tc.after, v) && strings.Contains(s.Redact("schema: '"+v+"' is bad"), v) {
				t.Error("the value is not redacted from later messages")
			}
		})
	}
}

// TestCredentialKeysAreJudgedWhereAdded judges pairs written on added
// lines in staged and range modes, and every pair in tree mode.
func TestCredentialKeysAreJudgedWhereAdded(t *testing.T) {
	ws := workspace(t)
	old := with(ws, plan, ws[plan]+"    - id: task-4\n      title: connect\n      api_key: abc\n")
	line := lineOf(t, old[plan], "api_key")
	cases := []struct {
		name string
		unit changes.Unit
		want string
	}{
		{"already committed", rulestest.Staged(old, with(old, plan, old[plan]+"    - id: task-5\n      title: more\n")), ""},
		{"value changed", rulestest.Staged(old, with(old, plan, strings.Replace(old[plan], "api_key: abc", "api_key: abd", 1))), fmt.Sprintf("%s:%d:%s", plan, line, credentialKeyID)},
		{"tree mode", rulestest.Tree(old), fmt.Sprintf("%s:%d:%s", plan, line, credentialKeyID)},
		{"secret detection off", rulestest.Tree(old), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{noScanner: tc.name == "secret detection off"}, tc.unit)
			if err != nil || summary(found) != tc.want {
				t.Fatalf("got %q (%v), want %q", summary(found), err, tc.want)
			}
		})
	}
}

// TestReferenceFilesAreClean runs every secret rule over the files the
// reference tools write, as a tree: none may fire.
func TestReferenceFilesAreClean(t *testing.T) {
	roots, err := filepath.Glob("../../testdata/small/*")
	if err != nil || len(roots) < 2 {
		t.Fatalf("workspaces %v %v", roots, err)
	}
	trees := map[string]rulestest.Snapshot{}
	for _, root := range roots {
		files := rulestest.Snapshot{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if err != nil || len(files) < 5 {
			t.Fatalf("%s: %d files, %v", root, len(files), err)
		}
		trees[root] = files
	}
	artifacts, err := filepath.Glob("../../testdata/smp/*.md")
	if err != nil || len(artifacts) < 4 {
		t.Fatalf("artifacts %v %v", artifacts, err)
	}
	for _, p := range artifacts {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		trees[p] = rulestest.Snapshot{"artifacts/" + filepath.Base(p): string(data)}
	}
	for name, files := range trees {
		found, err := check(t, env{}, rulestest.Tree(files))
		if err != nil || len(found) != 0 {
			t.Errorf("%s: %q %v", name, summary(found), err)
		}
	}
}

// TestGitleaksRuleCannotTakeThecredentialKeyID reports a repository rule
// named credential-key apart from small-hook's own rule.
func TestGitleaksRuleCannotTakeThecredentialKeyID(t *testing.T) {
	ws := workspace(t)
	after := with(ws, plan, ws[plan]+"    - id: task-4\n      title: rotate corp_"+"abcdefghijklmnopqrstuvwx\n")
	toml := "[[rules]]\nid = \"credential-key\"\nregex = '''corp_[a-z0-9]{24}'''\nkeywords = [\"corp_\"]\n"
	found, err := check(t, env{gitleaksToml: toml}, rulestest.Staged(ws, after))
	if want := fmt.Sprintf("%s:%d:secrets/gitleaks:credential-key", plan, lineOf(t, after[plan], "corp_")); err != nil || summary(found) != want {
		t.Fatalf("got %q (%v), want %q", summary(found), err, want)
	}
}
