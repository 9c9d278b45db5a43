package secrets

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzSharedValues scans one string standing at several places (an
// anchored string and its aliases), each on a line of its own under one of
// a few keys, once, and compares with scanning it at each place apart:
// every finding is at one of the places; a string under one key gives
// exactly what its first place gives alone; and whatever a place gives
// alone, the shared scan gives at the first place under the same key or
// at the first place of all (the string's own findings, reported once).
func FuzzSharedValues(f *testing.F) {
	s := New(Options{})
	f.Add("deployed with "+fakeAWS+" today", "notes,notes,title")
	f.Add(fakePass, "title,db_password,notes,db_password")
	f.Add("push with "+fakeGitHub, "title,notes")
	f.Add("rotated "+fakeStripe+" and "+fakeSlack, ",api_token,")
	f.Add(strings.TrimSuffix(fakeKey, "\n"), "key,private_key")
	f.Fuzz(func(t *testing.T, text, keyList string) {
		keys := strings.Split(keyList, ",")
		if len(text) > keyReach-100 || len(keys) > 6 || len(keyList) > 120 || strings.ContainsAny(keyList, "\n\x00") {
			return
		}
		places := make([]Place, len(keys))
		for i, k := range keys {
			places[i] = Place{Key: k, Line: i + 1, EndLine: i + 1}
		}
		shared := scanValues(t, s, Value{Text: text, Places: places})
		lines := map[int]bool{}
		for _, f := range shared {
			if f.Line < 1 || f.Line > len(places) {
				t.Fatalf("a finding at line %d, where no place is: %s", f.Line, rulesAt(shared))
			}
			lines[f.Line] = true
		}
		firstUnder := map[string]int{}
		for _, p := range places {
			if _, ok := firstUnder[p.Key]; !ok {
				firstUnder[p.Key] = p.Line
			}
		}
		if len(firstUnder) == 1 {
			if alone := scanValues(t, s, Value{Text: text, Places: places[:1]}); rulesAt(alone) != rulesAt(shared) {
				t.Fatalf("under one key: %s shared, %s at its first place alone", rulesAt(shared), rulesAt(alone))
			}
			return
		}
		for _, p := range places {
			for _, f := range scanValues(t, s, Value{Text: text, Places: []Place{p}}) {
				want := []string{fmt.Sprintf("%s@%d", f.RuleID, firstUnder[p.Key]), fmt.Sprintf("%s@1", f.RuleID)}
				if !strings.Contains(","+rulesAt(shared)+",", ","+want[0]+",") && !strings.Contains(","+rulesAt(shared)+",", ","+want[1]+",") {
					t.Fatalf("under %q alone: %s@%d; shared: %s", p.Key, f.RuleID, f.Line, rulesAt(shared))
				}
			}
		}
	})
}

func scanValues(t *testing.T, s *Scanner, values ...Value) []Finding {
	t.Helper()
	found, err := s.ScanValues("notes.yml", "", true, values)
	if err != nil {
		t.Fatal(err)
	}
	return found
}
