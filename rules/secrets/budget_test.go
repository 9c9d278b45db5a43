package secrets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/budgettest"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	leaks "github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/rules"
)

// aliasedProgress is a new progress file whose first entry anchors an
// evidence text of about length bytes, rich in the words gitleaks' rules
// look for, and whose next aliases entries repeat it: under the anchor's
// key, or each under a key of its own.
func aliasedProgress(length, aliases int, ownKeys bool) string {
	var evidence strings.Builder
	for i := 0; evidence.Len() < length; i++ {
		fmt.Fprintf(&evidence, "ok pkg/auth%d token refresh passed, api key rotation passed; ", i)
	}
	var b strings.Builder
	b.WriteString("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	for i := 0; i <= aliases; i++ {
		key, value := "evidence", "*e"
		if i == 0 {
			value = "&e \"" + evidence.String() + "\""
		} else if ownKeys {
			key = fmt.Sprintf("evidence_%d", i)
		}
		fmt.Fprintf(&b, "  - task_id: task-%d\n    status: completed\n    %s: %s\n    timestamp: \"2027-01-01T00:00:%02d.000000000Z\"\n", i, key, value, i%60)
	}
	return b.String()
}

// scannedBytes runs the secret rules over the staged addition of a
// progress file and returns how many bytes gitleaks was handed.
func scannedBytes(t *testing.T, progressFile string) float64 {
	t.Helper()
	ws := workspace(t)
	scanner := leaks.New(leaks.Options{})
	_, err := rules.Check([]changes.Unit{rulestest.Staged(without(ws, progress), with(ws, progress, progressFile))},
		rules.Options{Rules: Rules(), Config: config.Default(), Secrets: scanner})
	if err != nil {
		t.Fatal(err)
	}
	return float64(scanner.Scanned())
}

// TestAliasedStringsAreScannedOnce is the work budget of the secret scan
// of decoded YAML: an anchored string that aliases repeat is one string,
// scanned once, however many aliases repeat it and under whatever keys.
// Doubling both the string and the aliases doubles the file; the bytes
// handed to gitleaks must not grow faster (they grew with string ×
// aliases).
func TestAliasedStringsAreScannedOnce(t *testing.T) {
	for _, ownKeys := range []bool{false, true} {
		t.Run(fmt.Sprintf("own keys %v", ownKeys), func(t *testing.T) {
			small, large := aliasedProgress(16<<10, 40, ownKeys), aliasedProgress(32<<10, 80, ownKeys)
			n := scannedBytes(t, small)
			if n < 16<<10 {
				t.Fatalf("only %.0f bytes scanned: the evidence was not", n)
			}
			budgettest.Linear(t, "the bytes scanned", [2]float64{float64(len(small)), float64(len(large))}, [2]float64{n, scannedBytes(t, large)})
		})
	}
}

// without returns a copy of s without path.
func without(s rulestest.Snapshot, path string) rulestest.Snapshot {
	out := with(s)
	delete(out, path)
	return out
}
