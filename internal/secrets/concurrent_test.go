package secrets

import (
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestScannerIsSafeForConcurrentUse scans, redacts and remembers from
// many goroutines at once, each piece of content calling for rules of its
// own, so that detectors are compiled while others scan with the ones
// built before. Run under the race detector, it fails on shared state;
// everywhere, the findings must be those one Scanner finds alone.
func TestScannerIsSafeForConcurrentUse(t *testing.T) {
	contents := []string{
		"notes: deployed with " + fakeAWS + " today\n",
		"evidence: pushed with " + fakeGitHub + "\n",
		"title: post to " + fakeSlack + "\n",
		"intent: charge cards with " + fakeStripe + "\n",
		"db_password: " + fakePass + "\n",
		"# Keys\n" + fakeKey,
		strings.Repeat("evidence: the api key rotation is done\n", 3000) + "token: " + fakeGitHub + "\n",
	}
	want := make([][]Finding, len(contents))
	for i, c := range contents {
		want[i] = scan(t, New(Options{}), "artifacts/notes.md", c, nil)
		if len(want[i]) == 0 {
			t.Fatalf("content %d: nothing found alone", i)
		}
	}
	s := New(Options{})
	var wg sync.WaitGroup
	for round := range 4 {
		for i, c := range contents {
			wg.Go(func() {
				got, err := s.Scan("artifacts/notes.md", []byte(c), nil)
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(got, want[i]) {
					t.Errorf("round %d, content %d: %+v, alone %+v", round, i, got, want[i])
				}
			})
			wg.Go(func() { s.Remember(fakePass + "-" + c[:4]) })
			wg.Go(func() {
				if out := s.Redact("seen " + fakeStripe); strings.Contains(out, fakeStripe) {
					t.Errorf("not redacted: %s", out)
				}
			})
		}
	}
	wg.Wait()
}
