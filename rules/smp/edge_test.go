package smp

import (
	"errors"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
)

// The tests in this file pin what the messages say and the cases at the
// edges: links at artifact paths, edits of history that must not also be
// counted as new entries, merge commits, and a snapshot that fails.

func edgeCheck(t *testing.T, cfg *config.Config, u changes.Unit) []rules.Finding {
	t.Helper()
	got, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: Rules(), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// failingSnapshot is a new state that cannot be read.
type failingSnapshot struct{}

func (failingSnapshot) List(string) ([]string, error) {
	return nil, errors.New("object store unreadable")
}

func (failingSnapshot) Read(string) (*changes.Blob, error) {
	return nil, errors.New("object store unreadable")
}

func TestMergeSourceUnreadableIsAnError(t *testing.T) {
	u := rulestest.Staged(
		rulestest.Snapshot{artifactPath: fixture(t, "llm-context-research.v3.md")},
		rulestest.Snapshot{artifactPath: fixture(t, "llm-context-research.v4-merged.md")})
	u.Files = failingSnapshot{}
	_, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: Rules(), Config: config.Default()})
	if err == nil || !strings.Contains(err.Error(), "artifacts/transformer-analysis.md") || !strings.Contains(err.Error(), "object store unreadable") {
		t.Fatalf("got %v, want the read error of the merge source", err)
	}
}
