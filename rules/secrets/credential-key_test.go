package secrets

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	leaks "github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/rules"
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

// TestCredentialValuesAreRedactedFromLaterMessages: a literal value under
// a credential-named key is never shown, and the scanner remembers it, so
// that the output boundary redacts it from any later message too. (Which
// keys and values the rule reports are cases: testdata/credential-key.)
func TestCredentialValuesAreRedactedFromLaterMessages(t *testing.T) {
	ws := workspace(t)
	const value = "S3cure-Passw0rd!"
	after := with(ws, plan, ws[plan]+"    - id: task-4\n      title: connect\n      password: \""+value+"\"\n")
	s := leaks.New(leaks.Options{})
	found, err := rules.Check([]changes.Unit{rulestest.Staged(ws, after)}, rules.Options{Rules: Rules(), Config: config.Default(), Secrets: s})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Rule != credentialKeyID || strings.Contains(found[0].Text(), value) {
		t.Fatalf("findings %+v", found)
	}
	if strings.Contains(s.Redact("schema: '"+value+"' is bad"), value) {
		t.Error("the value is not redacted from later messages")
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
