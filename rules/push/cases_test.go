package push_test

import (
	"testing"

	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules/registry"
)

// TestCases runs the cases in testdata/<rule name>/*.txtar (see
// rulestest), every rule of the registry running, as a check runs them.
func TestCases(t *testing.T) {
	rulestest.Run(t, "testdata", rulestest.Options{Family: "push", Rules: registry.All()})
}
