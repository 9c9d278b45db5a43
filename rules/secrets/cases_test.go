package secrets_test

import (
	"encoding/base64"
	"testing"

	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules/registry"
)

// TestCases runs the cases in testdata/<rule name>/*.txtar (see
// rulestest), every rule of the registry running, as a check runs them.
// The cases write each fake secret as @@name@@: the secrets are assembled
// here at run time, so that the repository never holds one.
func TestCases(t *testing.T) {
	rulestest.Run(t, "testdata", rulestest.Options{Family: "secrets", Rules: registry.All(), Values: map[string]string{
		"aws-access-key":      "AKIA" + "Z7QF4M2XK6PLR3TB",
		"aws-secret-key":      "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8Lm2vB7Tr0",
		"github-token":        "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
		"github-token-base64": base64.StdEncoding.EncodeToString([]byte("ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")),
		"slack-token":         "xoxb-" + "1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
		"stripe-key":          "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9Xk2",
		"password":            "Tr0ub4dor3xq9" + "Lm2vB7zQ",
		"private-key-body":    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u",
	}})
}
