package small

import (
	"fmt"
	"slices"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/parallel"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
)

func schemaRule(set *schemas.Set) *rules.Rule {
	return &rules.Rule{
		ID:           "small/schema",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `SMALL artifacts must match their JSON Schema
Each canonical file is validated against its schema in schemas/ (draft 2020-12): required keys, no unexpected keys where the protocol forbids them, enums, patterns such as 64-hex replay ids and lower-case commit hashes. YAML typing counts: an unquoted timestamp or a number where a string is required is an error, as in the reference CLI. One finding per violation, worded in the protocol's terms (progress entry 5 (task_id task-3): status must be one of …), at the line of the offending key, never repeating the value that failed; a blank evidence field of an entry without any evidence is left to small/evidence, and small_version to small/version.`,
		Run: func(pass *rules.Pass) error {
			type job struct {
				ch   *changes.Change
				file string
			}
			var jobs []job
			if err := canonicalChanges(pass, func(ch *changes.Change, file string) error {
				jobs = append(jobs, job{ch, file})
				return nil
			}); err != nil {
				return err
			}
			// Validating is independent per file and most of the rule's
			// cost: on every processor, then reported in order.
			reports := make([]func(), len(jobs))
			errs := make([]error, len(jobs))
			parallel.Each(len(jobs), func(i int) {
				reports[i], errs[i] = validateChange(pass, set, jobs[i].ch, jobs[i].file)
			})
			for i := range jobs {
				if errs[i] != nil {
					return errs[i]
				}
				reports[i]()
			}
			return nil
		},
	}
}

// validateChange validates the new version of a canonical file against
// its schema (for an append to progress, the appended entries) and
// returns what reports its violations.
func validateChange(pass *rules.Pass, set *schemas.Set, ch *changes.Change, file string) (func(), error) {
	name := schemaName(file)
	if file == Progress {
		if v := viewProgress(pass, ch); v.appendOnly {
			var found [][]schemas.Violation
			for _, e := range v.appended {
				violations, err := set.Validate(name, "#/$defs/entry", e.value)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", ch.Path, err)
				}
				found = append(found, violations)
			}
			return func() {
				for i, e := range v.appended {
					for _, x := range found[i] {
						subject := e.name()
						if len(x.Path) > 0 {
							subject += ": " + keyPath(x.Path)
						}
						reportViolation(pass, ch.Path, e.doc, e.path, x, subject, e.value)
					}
				}
			}, nil
		}
	}
	f := decode(pass, ch.New)
	if f.err != nil {
		return func() {}, nil
	}
	violations, err := set.Validate(name, "", f.top)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ch.Path, err)
	}
	return func() {
		for _, x := range violations {
			if len(x.Path) > 0 && x.Path[0] == "small_version" {
				continue // small/version reports it
			}
			subject, entryValue := where(file, f.top, x.Path)
			reportViolation(pass, ch.Path, f.doc, nil, x, subject, entryValue)
		}
	}, nil
}

// reportViolation reports one schema violation of a node of doc at base +
// the violation's path, named subject in the message. entry is the
// progress entry the violation lies in (nil when none): an entry without
// any evidence is small/evidence's finding, so the schema's complaint
// about a blank evidence field is not repeated.
func reportViolation(pass *rules.Pass, file string, doc *yamldoc.Doc, base []string, v schemas.Violation, subject string, entry any) {
	full := append(append([]string{}, base...), v.Path...)
	if entry != nil && !hasEvidence(entry) && len(v.Path) > 0 && slices.Contains(evidenceFields(), v.Path[len(v.Path)-1]) {
		return
	}
	line := doc.Line(full...)
	if len(v.Keys) > 0 {
		line = doc.KeyLine(append(full, v.Keys[0])...)
	}
	pass.Report(file, line, "%s %s", subject, v.Explain(doc.Node(full...)))
}
