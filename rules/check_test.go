package rules_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
)

// TestRulesApartRunBesideTheOthers: a rule marked Apart runs on its own
// goroutine while the others run; its findings join theirs, sorted as
// always, both lanes share the cache, and an error of either lane ends the
// check.
func TestRulesApartRunBesideTheOthers(t *testing.T) {
	u := rulestest.Staged(rulestest.Snapshot{}, rulestest.Snapshot{".small/a.yml": "a: 1\n", ".small/b.yml": "b: 1\n"})
	var built atomic.Int32
	shared := rules.BlobFact(func(*rules.Pass, *changes.Blob) bool { built.Add(1); return true })
	report := func(id string, apart bool, fail error) *rules.Rule {
		return &rules.Rule{ID: id, Severity: rules.Error, Doc: "Probe\nReports every change.", Apart: apart, Run: func(pass *rules.Pass) error {
			for _, ch := range pass.Unit.Changes {
				shared.Get(pass, ch.New)
				pass.Report(ch.Path, 1, "%s saw it", id)
			}
			return fail
		}}
	}
	found, err := rules.Check([]changes.Unit{u}, rules.Options{Config: config.Default(),
		Rules: []*rules.Rule{report("test/main", false, nil), report("test/apart", true, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.Path+" "+f.Rule)
	}
	want := ".small/a.yml test/apart,.small/a.yml test/main,.small/b.yml test/apart,.small/b.yml test/main"
	if strings.Join(got, ",") != want {
		t.Errorf("findings %v, want %s", got, want)
	}
	if n := built.Load(); n != 2 {
		t.Errorf("the shared values were built %d times, want 2", n)
	}
	broken := errors.New("broken")
	for _, apart := range []bool{false, true} {
		_, err := rules.Check([]changes.Unit{u}, rules.Options{Config: config.Default(),
			Rules: []*rules.Rule{report("test/main", false, nil), report("test/fails", apart, broken)}})
		if !errors.Is(err, broken) {
			t.Errorf("apart %v: error %v", apart, err)
		}
	}
}
