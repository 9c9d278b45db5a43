package small

import (
	"strings"

	"github.com/small-hook/small-hook/rules"
)

// evidenceFields are the keys that make a progress entry verifiable.
func evidenceFields() []string {
	return []string{"evidence", "verification", "command", "test", "link", "commit"}
}

func evidenceRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/evidence",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `Every progress entry carries evidence
SMALL invariant 2: each progress entry needs at least one of evidence, verification, command, test, link or commit, present and not blank (notes does not count). In staged and range modes the entries the change adds are judged; with --all, every entry. Add the command that was run, the test, a link or the commit that proves the claim.`,
		Run: func(pass *rules.Pass) error {
			eachAdded(pass, func(path string, _ *progressView, _ int, e entry) {
				if hasEvidence(e.value) {
					return
				}
				pass.Report(path, e.line(), "%s has no evidence", e.name()).Hint("add one of %s (notes does not count)", strings.Join(evidenceFields(), ", "))
			})
			return nil
		},
	}
}

// hasEvidence reports whether a progress entry holds a non-blank
// evidence field.
func hasEvidence(e any) bool {
	m, _ := e.(map[string]any)
	for _, k := range evidenceFields() {
		if v, ok := m[k]; ok && !blank(v) {
			return true
		}
	}
	return false
}

// blank reports a value that proves nothing: null, an empty or
// whitespace-only string, an empty mapping or list.
func blank(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(v) == ""
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}
