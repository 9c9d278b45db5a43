// Package leakstest writes secrets the ways gitleaks' decoder reads them,
// for the tests that hold small-hook's secret detection to gitleaks'
// (the differential tests of rules/secrets and cmd/small-hook).
package leakstest

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
)

// Forms returns secret as it is and written in every form the gitleaks
// CLI's decoder reads (to its default depth, 5): standard and URL-safe
// base64 (the latter of a "key: " line), hex, percent-encoding, \u
// escapes, U+ escapes one a line, and base64 of hex (two decodings).
func Forms(secret string) []string {
	var escaped, plus strings.Builder
	for _, r := range secret {
		fmt.Fprintf(&escaped, `\\u%04x`, r)
		fmt.Fprintf(&plus, "U+%04X\n", r)
	}
	return []string{
		secret,
		base64.StdEncoding.EncodeToString([]byte(secret)),
		base64.RawURLEncoding.EncodeToString([]byte("key: " + secret)),
		hex.EncodeToString([]byte(secret)),
		url.PathEscape(secret[:4]) + "%2F" + secret[4:],
		escaped.String(),
		plus.String(),
		base64.StdEncoding.EncodeToString([]byte(hex.EncodeToString([]byte(secret)))),
	}
}
