package config

import (
	"slices"
	"testing"
)

func TestPolicyFiles(t *testing.T) {
	cases := []struct {
		name string
		cfg  *Config
		want []string
	}{
		{"defaults", Default(), []string{FileName, GitleaksConfig, GitleaksIgnore, Baseline}},
		{"key files and a configuration elsewhere", &Config{File: ".github/small-hook.yml", Signatures: Signatures{AllowedSigners: ".github/allowed_signers", OpenPGPKeys: ".github/keys.asc"}},
			[]string{FileName, GitleaksConfig, GitleaksIgnore, Baseline, ".github/small-hook.yml", ".github/allowed_signers", ".github/keys.asc"}},
		{"a key file named like a policy file", &Config{Signatures: Signatures{AllowedSigners: GitleaksIgnore}}, []string{FileName, GitleaksConfig, GitleaksIgnore, Baseline}},
	}
	for _, tc := range cases {
		if got := tc.cfg.PolicyFiles(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
