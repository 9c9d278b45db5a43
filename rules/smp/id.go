package smp

import (
	"regexp"

	"github.com/small-hook/small-hook/rules"
)

// slugPattern is SMP's slug: the file name of artifacts/<slug>.md and the
// part of the id after artifact:.
func slugPattern() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`) }

func idRule() *rules.Rule {
	valid := slugPattern()
	return &rules.Rule{
		ID:           "smp/id",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `An artifact's id matches its file name and never changes
SMP: the slug (lower-case letters, digits and dashes) doubles as the file name, artifacts/<slug>.md holds id artifact:<slug>, and an artifact keeps its id for life; renaming an artifact means creating a new one. One finding per artifact, the first that applies: a file name that is not a slug, an id that changed, an id that does not match the file name. A missing id, or one that is not a string, is reported by smp/schema.`,
		Continuity: true,
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				id, ok := v.cur.top["id"].(string)
				if !ok {
					return
				}
				line := v.cur.doc.Line("id")
				name := slug(v.path)
				want := "artifact:" + name
				oldID := ""
				if v.old != nil {
					oldID, _ = v.old.top["id"].(string)
				}
				switch {
				case !valid.MatchString(name):
					pass.Report(v.path, line, "the file name %s is not an SMP slug (lower-case letters, digits and dashes)", shown(name+".md")).
						Hint("rename the file to artifacts/<slug>.md with id artifact:<slug>; on a case-insensitive file system a name that differs only in case is the same file")
				case oldID != "" && oldID != id:
					pass.Report(v.path, line, "id changed from %s to %s", shown(oldID), shown(id)).
						Hint("an artifact keeps its id for life; restore id: %s (a renamed artifact is a new artifact)", shown(oldID))
				case id != want:
					pass.Report(v.path, line, "id is %s but the file is %s", shown(id), v.path).Hint("the id must be %s", shown(want))
				}
			})
			return nil
		},
	}
}
