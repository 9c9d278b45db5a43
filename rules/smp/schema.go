package smp

import (
	"strings"

	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
)

func schemaRule(set *schemas.Set, id *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:           "smp/schema",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `Knowledge artifact frontmatter matches its schema
The frontmatter is validated against schemas/knowledge-artifact.schema.json: required awp, smp, type, id, title, authors, version, created and provenance; version an integer of at least 1 (3.0 is the integer 3; 3.5 is reported); confidence between 0 and 1; provenance entries with agent, action (created, updated, merged, synced) and timestamp. One finding per violation, with its JSON pointer. An id that is a string is judged by smp/id.`,
		Leaves: []*rules.Rule{id},
		Run: func(pass *rules.Pass) error {
			var err error
			eachArtifact(pass, func(v versions) {
				if err != nil {
					return
				}
				var violations []schemas.Violation
				violations, err = set.Validate("knowledge-artifact", "", v.cur.top)
				_, idIsString := v.cur.top["id"].(string)
				for _, x := range violations {
					if x.Pointer() == "/id" && idIsString && pass.Reports(id) {
						continue
					}
					pass.Report(v.path, v.cur.doc.Line(x.Path...), "%s: %s", x.Pointer(), clipWords(x.Explain(v.cur.doc.Node(x.Path...))))
				}
			})
			return err
		},
	}
}

// clipWords bounds every long run of non-blank characters in a message
// that may repeat values from the file (a schema validator's messages do).
func clipWords(msg string) string {
	words := strings.Split(msg, " ")
	for i, w := range words {
		words[i] = clip(w, 2*valueLength)
	}
	return clip(strings.Join(words, " "), 8*valueLength)
}
