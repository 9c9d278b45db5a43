package smp

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/rules"
)

func TestUndeclaredIsDocumented(t *testing.T) {
	r := undeclaredRule()
	if r.ID != "smp/undeclared" || r.Severity != rules.Error || !r.Continuity {
		t.Errorf("rule %s %s continuity %v", r.ID, r.Severity, r.Continuity)
	}
	title, rest, _ := strings.Cut(r.Doc, "\n")
	if title == "" || !strings.Contains(rest, "Small-Rewrite") || !strings.Contains(rest, ".awp/workspace.json") {
		t.Errorf("doc %q", r.Doc)
	}
}
