package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestLoadSignatures(t *testing.T) {
	cases := []struct {
		input string
		want  Signatures
	}{
		{"signatures:\n  allowed-signers: .github/allowed_signers\n",
			Signatures{AllowedSigners: ".github/allowed_signers", Require: "off"}},
		{"signatures:\n  openpgp-keys: keys/signing-keys.asc\n",
			Signatures{OpenPGPKeys: "keys/signing-keys.asc", Require: "off"}},
		{"signatures:\n  allowed-signers: allowed_signers\n  require: human-owned\n",
			Signatures{AllowedSigners: "allowed_signers", Require: "human-owned"}},
		{"signatures:\n  openpgp-keys: k.asc\n  require: human\n",
			Signatures{OpenPGPKeys: "k.asc", Require: "human"}},
		{"signatures:\n  allowed-signers: a\n  openpgp-keys: b\n  require: 'human'\n",
			Signatures{AllowedSigners: "a", OpenPGPKeys: "b", Require: "human"}},
		{"signatures: {allowed-signers: .github/allowed_signers, require: human-owned}\n",
			Signatures{AllowedSigners: ".github/allowed_signers", Require: "human-owned"}},
		{"signatures:\r\n  allowed-signers: \".github/allowed signers\"\r\n",
			Signatures{AllowedSigners: ".github/allowed signers", Require: "off"}},
		{"signatures:\n  allowed-signers: .github/..allowed\n",
			Signatures{AllowedSigners: ".github/..allowed", Require: "off"}},
		{"signatures:\n  require: off\n  allowed-signers: x\n",
			Signatures{AllowedSigners: "x", Require: "off"}},
	}
	for _, tc := range cases {
		want := Default()
		want.Signatures = tc.want
		cfg, err := Load([]byte(tc.input))
		if err != nil {
			t.Errorf("%q: %v", tc.input, err)
			continue
		}
		if !reflect.DeepEqual(cfg, want) {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tc.input, cfg.Signatures, want.Signatures)
		}
	}
}

// TestLoadSignaturesErrors holds the ways a hostile or careless
// configuration could point small-hook at keys outside the repository, or
// require signatures without saying whose.
func TestLoadSignaturesErrors(t *testing.T) {
	cases := []struct {
		name, input string
		line        int
		mention     string
	}{
		{"unknown key", "signatures:\n  allowed-signers: a\n  allowed_signers: b\n", 3, `"allowed_signers"`},
		{"gpg.ssh spelling", "signatures:\n  allowedSignersFile: a\n", 2, `"allowedSignersFile"`},
		{"section a list", "signatures:\n  - a\n", 1, "signatures must be a mapping"},
		{"section a string", "signatures: .github/allowed_signers\n", 1, "signatures must be a mapping"},
		{"require unknown", "signatures:\n  allowed-signers: a\n  require: always\n", 3, "signatures.require must be one of off, human-owned, human"},
		{"require case", "signatures:\n  allowed-signers: a\n  require: Human\n", 3, "signatures.require"},
		{"require a bool", "signatures:\n  allowed-signers: a\n  require: true\n", 3, "signatures.require"},
		{"require no", "signatures:\n  require: no\n", 2, "signatures.require"},
		{"require null", "signatures:\n  allowed-signers: a\n  require:\n", 3, "signatures.require"},
		{"require without keys", "signatures:\n  require: human-owned\n", 2, "needs the keys that may sign"},
		{"require human without keys", "\nsignatures:\n  require: human\n", 3, "needs the keys that may sign"},
		{"absolute path", "signatures:\n  allowed-signers: /etc/ssh/allowed_signers\n", 2, "is absolute"},
		{"parent directory", "signatures:\n  allowed-signers: ../keys/allowed\n", 2, `".." segment`},
		{"parent in the middle", "signatures:\n  openpgp-keys: a/../../b\n", 2, `".." segment`},
		{"trailing parent", "signatures:\n  openpgp-keys: a/..\n", 2, `".." segment`},
		{"dot segment", "signatures:\n  openpgp-keys: ./keys.asc\n", 2, `"." segment`},
		{"backslash", "signatures:\n  allowed-signers: '.github\\allowed'\n", 2, "backslash"},
		{"double slash", "signatures:\n  allowed-signers: .github//allowed\n", 2, "empty path segment"},
		{"trailing slash", "signatures:\n  allowed-signers: .github/\n", 2, "empty path segment"},
		{"empty", "signatures:\n  allowed-signers: ''\n", 2, "is empty"},
		{"home", "signatures:\n  allowed-signers: ~/.ssh/allowed_signers\n", 2, "starts with ~"},
		{"drive letter", "signatures:\n  openpgp-keys: 'C:/keys.asc'\n", 2, "drive letter"},
		{"control character", "signatures:\n  openpgp-keys: \"a\\tb\"\n", 2, "control character"},
		{"path a list", "signatures:\n  allowed-signers: [a, b]\n", 2, "signatures.allowed-signers must be a path"},
		{"path a number", "signatures:\n  openpgp-keys: 7\n", 2, "signatures.openpgp-keys must be a path"},
		{"path null", "signatures:\n  openpgp-keys:\n", 2, "signatures.openpgp-keys must be a path"},
		{"duplicate key", "signatures:\n  require: off\n  require: human\n", 3, "duplicate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ce := loadErr(t, tc.input)
			if ce.Line != tc.line || !strings.Contains(ce.Msg, tc.mention) {
				t.Errorf("%q: %v, want line %d mentioning %q", tc.input, ce, tc.line, tc.mention)
			}
		})
	}
}

func TestBadRepoPath(t *testing.T) {
	for p, bad := range map[string]bool{
		".github/allowed_signers": false,
		"allowed_signers":         false,
		"a/b/c.asc":               false,
		"..a/b..":                 false,
		"a.b/.c":                  false,
		"1:x":                     false,
		"":                        true,
		"/a":                      true,
		"a/":                      true,
		"a//b":                    true,
		"./a":                     true,
		"a/./b":                   true,
		"..":                      true,
		"a/..":                    true,
		`a\b`:                     true,
		"c:x":                     true,
		"~":                       true,
		"a\nb":                    true,
		"a\x7fb":                  true,
	} {
		if got := badRepoPath(p) != ""; got != bad {
			t.Errorf("badRepoPath(%q) = %q, want bad=%v", p, badRepoPath(p), bad)
		}
	}
}
