package baseline

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/rules"
)

const commitA = "0123456789abcdef0123456789abcdef01234567"

// TestFormatThenParseAcceptsExactlyTheFindings: what Format writes, Parse
// reads back, and the baseline accepts each recorded finding and nothing
// that differs from one in its commit, path, rule or line.
func TestFormatThenParseAcceptsExactlyTheFindings(t *testing.T) {
	recorded := []rules.Finding{
		{Rule: "small/append-only", Path: ".small/progress.small.yml", Line: 27, Commit: commitA},
		{Rule: "smp/append-only", Path: "artifacts/a:b.md", Line: 0, Commit: commitA},
		{Rule: "secrets/generic-api-key", Path: ".awp/notes.md", Line: 3, Commit: commitA},
	}
	var fps []string
	for _, f := range recorded {
		fp, ok := Fingerprint(f)
		if !ok {
			t.Fatalf("no fingerprint for %+v", f)
		}
		fps = append(fps, fp, fp)
	}
	data := Format(fps)
	b, err := Parse(data)
	if err != nil {
		t.Fatalf("Parse(Format(...)): %v\n%s", err, data)
	}
	if got := len(b.Fingerprints()); got != len(recorded) {
		t.Errorf("%d fingerprints, want %d (each once):\n%s", got, len(recorded), data)
	}
	if !slices.IsSorted(b.Fingerprints()) {
		t.Errorf("fingerprints not sorted: %v", b.Fingerprints())
	}
	for _, f := range recorded {
		if !b.Accepts(f) {
			t.Errorf("the baseline does not accept %+v", f)
		}
		for _, other := range []rules.Finding{
			{Rule: f.Rule, Path: f.Path, Line: f.Line, Commit: strings.Repeat("f", 40)},
			{Rule: f.Rule, Path: f.Path + "x", Line: f.Line, Commit: f.Commit},
			{Rule: f.Rule + "x", Path: f.Path, Line: f.Line, Commit: f.Commit},
			{Rule: f.Rule, Path: f.Path, Line: f.Line + 1, Commit: f.Commit},
			{Rule: f.Rule, Path: f.Path, Line: f.Line},
		} {
			if b.Accepts(other) {
				t.Errorf("the baseline accepts %+v, which it does not record", other)
			}
		}
	}
}

// TestParseRefusesWhatIsNotAFingerprint: a line that could name more than
// one commit (an abbreviated id, a pattern) or is not a fingerprint is an
// error naming its line; comments, blank lines, CRLF and surrounding space
// are not.
func TestParseRefusesWhatIsNotAFingerprint(t *testing.T) {
	good := commitA + ":.small/progress.small.yml:small/append-only:27"
	b, err := Parse([]byte("# comment\r\n\r\n  " + good + "  \r\n"))
	if err != nil || !b.Accepts(rules.Finding{Rule: "small/append-only", Path: ".small/progress.small.yml", Line: 27, Commit: commitA}) {
		t.Fatalf("a fingerprint among comments and CRLF: %v", err)
	}
	for _, line := range []string{
		commitA[:12] + ":.small/progress.small.yml:small/append-only:27",
		"*:.small/progress.small.yml:small/append-only:27",
		strings.ToUpper(commitA) + ":.small/progress.small.yml:small/append-only:27",
		commitA + ":.small/progress.small.yml:small/append-only:*",
		commitA + ":.small/progress.small.yml:small/append-only",
		commitA + ":.small/progress.small.yml:small/append-only:027",
		commitA + "::small/append-only:27",
		commitA + ":.small/progress.small.yml::27",
		".small/progress.small.yml:small/append-only:27",
	} {
		_, err := Parse([]byte("# header\n" + good + "\n" + line + "\n"))
		var be *Error
		if !errors.As(err, &be) || be.Line != 3 {
			t.Errorf("%q: %v, want an error at line 3", line, err)
		}
	}
}

// TestFingerprintOnlyForWhatALineHolds: findings on no commit, and those a
// line cannot hold, have no fingerprint (they stay reported).
func TestFingerprintOnlyForWhatALineHolds(t *testing.T) {
	for _, f := range []rules.Finding{
		{Rule: "small/append-only", Path: ".small/progress.small.yml", Line: 27},
		{Rule: "small/parse", Path: ".awp/a\nb.md", Line: 1, Commit: commitA},
		{Rule: "secrets/a:b", Path: ".awp/x.md", Line: 1, Commit: commitA},
		{Rule: "small/parse", Path: ".awp/x.md\r", Line: 1, Commit: commitA},
	} {
		if fp, ok := Fingerprint(f); ok {
			t.Errorf("%+v has the fingerprint %q", f, fp)
		}
	}
}
