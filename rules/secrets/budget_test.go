package secrets

import (
	"fmt"
	"testing"

	"github.com/small-hook/small-hook/internal/budgettest"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	leaks "github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/rules"
)

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
			small, large := string(budgettest.AliasedProgress(16<<10, 40, ownKeys)), string(budgettest.AliasedProgress(32<<10, 80, ownKeys))
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
