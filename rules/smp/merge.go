package smp

import (
	"fmt"

	"github.com/small-hook/small-hook/rules"
)

func mergeRule(appendOnly *rules.Rule) *rules.Rule {
	sep := separatorPattern()
	return &rules.Rule{
		ID:           "smp/merge",
		Severity:     rules.Warning,
		PerWorkspace: true,
		Doc: `A merge is visible in the body and names an artifact that exists
SMP's additive merge appends the source body after a separator line "*Merged from artifact:<slug> (version N) on <timestamp>*". A new merged provenance entry whose separator is not newly in the body, or a separator naming an artifact that does not exist in the repository, is reported as a warning: the merge cannot be traced to its source.`,
		Leaves: []*rules.Rule{appendOnly},
		Run: func(pass *rules.Pass) error {
			var failed error
			eachArtifact(pass, func(v versions) {
				if failed != nil {
					return
				}
				newEntries, at := judgedEntries(pass, appendOnly, v)
				merged, start := 0, 0
				for k, e := range newEntries {
					if action(e) == "merged" {
						merged++
						if merged == 1 {
							start = at[k]
						}
					}
				}
				if merged == 0 {
					return
				}
				oldSeps := map[string]bool{}
				if v.old != nil {
					for _, m := range sep.FindAllString(v.old.body, -1) {
						oldSeps[m] = true
					}
				}
				var fresh [][]string
				for _, m := range sep.FindAllStringSubmatch(v.cur.body, -1) {
					if !oldSeps[m[0]] {
						fresh = append(fresh, m)
					}
				}
				if len(fresh) < merged {
					pass.Report(v.path, v.cur.entryLine(start), "%d new `merged` provenance entries but only %d new merge separators in the body", merged, len(fresh)).
						Hint("append each merged source's body after a line *Merged from artifact:<slug> (version N) on <timestamp>*, as awp artifact merge does")
				}
				for _, m := range fresh {
					source := v.change.Place.Workspace.Path(m[1] + ".md")
					b, err := pass.Unit.Files.Read(source)
					if err != nil {
						failed = fmt.Errorf("reading %s, the source of a merge into %s: %w", source, v.path, err)
						return
					}
					if b == nil {
						pass.Report(v.path, v.cur.entryLine(start), "merged from artifact:%s, but %s does not exist", clip(m[1], valueLength), clip(source, 3*valueLength)).
							Hint("commit the source artifact too, so the merge can be traced")
					}
				}
			})
			return failed
		},
	}
}
