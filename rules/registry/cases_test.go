package registry_test

import (
	"path/filepath"
	"testing"

	"github.com/small-hook/small-hook/rules/registry"
	"github.com/small-hook/small-hook/rules/rulestest"
)

// fakeSecrets are the secrets the secrets family's cases write as
// @@NAME@@, assembled at run time so that the repository never holds one.
func fakeSecrets() map[string]string {
	return map[string]string{
		"aws-access-key":   "AKIA" + "Z7QF4M2XK6PLR3TB",
		"aws-secret-key":   "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8Lm2vB7Tr0",
		"github-token":     "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
		"slack-token":      "xoxb-" + "1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
		"stripe-key":       "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9Xk2",
		"password":         "Tr0ub4dor3xq9" + "Lm2vB7zQ",
		"private-key-body": "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u",
	}
}

// TestCases runs the cases of every family (rules/<family>/testdata) with
// every rule, as a check runs them.
func TestCases(t *testing.T) {
	for _, family := range []string{"attribution", "path", "push", "secrets", "small", "smp"} {
		t.Run(family, func(t *testing.T) {
			rulestest.Run(t, filepath.Join("..", family, "testdata"), rulestest.Options{Family: family, Rules: registry.All(), Values: fakeSecrets()})
		})
	}
}
