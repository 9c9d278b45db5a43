package rulestest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

// Options says how Run runs the cases of a family.
type Options struct {
	// Family is the family the cases are about: the cases of rule
	// Family/<name> are in <dir>/<name>/, those of a rule whose ID is the
	// family's name (secrets) in <dir>/<family>/.
	Family string
	// Rules are the rules every case runs: all of them, as a check does,
	// so that a case shows every finding the change gives.
	Rules []*rules.Rule
	// Values are the texts @@NAME@@ stands for in the files of a case:
	// secrets built at run time, which the repository never holds whole.
	Values map[string]string
}

// Run runs every case of a family under dir (a testdata directory), one
// subtest <rule name>/<case name> each: the check of the case's unit must
// give exactly the findings its want lines name. What Load finds missing
// fails the test.
func Run(t *testing.T, dir string, opts Options) {
	t.Helper()
	cases, problems := Load(dir, opts)
	for _, p := range problems {
		t.Error(p)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			problems, err := Check(c, opts.Rules)
			if err != nil {
				t.Fatalf("%s: %v", c.File, err)
			}
			for _, p := range problems {
				t.Errorf("%s: %s", c.File, p)
			}
		})
	}
}

// Load reads the cases of a family under dir, dir/<rule name>/*.txtar,
// and says what is wrong with them: a case that does not parse, a
// directory that names no rule of the family, a rule of the family that a
// check runs without a case where it reports a finding and one where it
// reports none.
func Load(dir string, opts Options) ([]*Case, []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, []string{err.Error()}
	}
	var cases []*Case
	var problems []string
	reports, silent := map[string]bool{}, map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "fuzz" {
			continue
		}
		rule := ruleNamed(opts, e.Name())
		if rule == nil {
			problems = append(problems, fmt.Sprintf("%s: no rule of the family %s is named %s", filepath.Join(dir, e.Name()), opts.Family, e.Name()))
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, e.Name(), "*.txtar"))
		if err != nil {
			return nil, []string{err.Error()}
		}
		for _, file := range files {
			c, err := parseFile(file, opts.Values)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", file, err))
				continue
			}
			c.Name, c.File = e.Name()+"/"+strings.TrimSuffix(filepath.Base(file), ".txtar"), file
			cases = append(cases, c)
			if slices.ContainsFunc(c.Wants, func(w Want) bool { return rules.Lookup(opts.Rules, w.Rule) == rule }) {
				reports[rule.ID] = true
			} else {
				silent[rule.ID] = true
			}
		}
	}
	for _, r := range opts.Rules {
		if r.Ledger || familyOf(r.ID) != opts.Family {
			continue
		}
		if !reports[r.ID] {
			problems = append(problems, fmt.Sprintf("%s: no case in %s where %s reports a finding", r.ID, filepath.Join(dir, nameOf(r.ID)), r.ID))
		}
		if !silent[r.ID] {
			problems = append(problems, fmt.Sprintf("%s: no case in %s where %s reports nothing", r.ID, filepath.Join(dir, nameOf(r.ID)), r.ID))
		}
	}
	return cases, problems
}

// parseFile reads the case in file.
func parseFile(file string, values map[string]string) (*Case, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return ParseCase(data, values)
}

// ruleNamed returns the rule of the family that a testdata directory
// names, or nil.
func ruleNamed(opts Options, name string) *rules.Rule {
	for _, r := range opts.Rules {
		if !r.Ledger && familyOf(r.ID) == opts.Family && nameOf(r.ID) == name {
			return r
		}
	}
	return nil
}

// familyOf is the family of a rule ID: the part before the slash, or the
// ID of a rule that names a family.
func familyOf(id string) string {
	family, _, _ := strings.Cut(id, "/")
	return family
}

// nameOf is the name of a rule ID within its family: the part after the
// slash, or the ID of a rule that names a family.
func nameOf(id string) string {
	if _, name, ok := strings.Cut(id, "/"); ok {
		return name
	}
	return id
}

// Check runs the rules over the case's unit and returns what differs from
// the case's want lines: a finding no want line names, a want line no
// finding matches. It runs them again with every workspace of the unit in
// a slice of its own (rules.Options.SliceBytes) and every version left
// unread until its slice is read (see Unread), and says so when the
// findings differ: a rule marked PerWorkspace must judge each workspace
// on its own, and any other rule must not read a version. An error means
// the check could not be done.
func Check(c *Case, all []*rules.Rule) ([]string, error) {
	opts := rules.Options{Rules: all, Config: c.Config, Secrets: c.Secrets}
	if c.Actor != nil {
		v := *c.Actor
		opts.Actor = func(*changes.Unit) (attribution.Verdict, error) { return v, nil }
	}
	found, err := rules.Check([]changes.Unit{c.Unit}, opts)
	if err != nil {
		return nil, err
	}
	problems := Compare(found, c.Wants)
	opts.SliceBytes = 1
	sliced, err := rules.Check([]changes.Unit{Unread(c.Unit)}, opts)
	if err != nil {
		return nil, fmt.Errorf("with a slice per workspace: %w", err)
	}
	if !slices.Equal(found, sliced) {
		problems = append(problems, fmt.Sprintf("the findings differ with a slice per workspace, its versions read for it: %v instead of %v", sliced, found))
	}
	return problems, nil
}

// Compare matches findings with want lines, each want line with one
// finding at its path, line, severity and rule whose text holds the want's
// text, and returns the findings and want lines left over.
func Compare(found []rules.Finding, wants []Want) []string {
	used := make([]bool, len(wants))
	var problems []string
	for _, f := range found {
		matched := false
		for i, w := range wants {
			if !used[i] && w.Path == f.Path && w.Line == f.Line && w.Severity == f.Severity && w.Rule == f.Rule && strings.Contains(f.Text(), w.Text) {
				used[i], matched = true, true
				break
			}
		}
		if !matched {
			problems = append(problems, fmt.Sprintf("unexpected finding: want %s:%d: %s %s: %s", f.Path, f.Line, f.Severity, f.Rule, f.Message))
		}
	}
	for i, w := range wants {
		if !used[i] {
			problems = append(problems, fmt.Sprintf("line %d: no finding matches want %s", w.Source, w))
		}
	}
	return problems
}
