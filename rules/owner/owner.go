// Package owner holds the rules that need to know who made a change: the
// SMALL ownership table, undecided attribution, and SMP provenance written
// under another agent's name.
package owner

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/workspace"
	"github.com/small-hook/small-hook/yamldoc"
)

// Rules returns the attribution rules, freshly built.
func Rules() []*rules.Rule {
	return []*rules.Rule{ownershipRule(), unknownRule(), provenanceAgentRule()}
}

// owner returns who owns a change's file by SMALL's ownership table:
// "human" for intent and constraints, "agent" for plan and progress, ""
// for anything else.
func owner(ch changes.Change) string {
	p := ch.Place
	if p.Area != workspace.Files || p.Folded {
		return ""
	}
	switch p.Rel {
	case "intent.small.yml", "constraints.small.yml":
		return "human"
	case "plan.small.yml", "progress.small.yml":
		return "agent"
	}
	return ""
}

// judged reports whether a rule that needs the change's actor applies to
// the pass: not in tree mode (a tree has no change and no author) and not
// while the actor is pending (the commit-msg stage decides).
func judged(pass *rules.Pass) bool {
	return pass.Unit.Mode != changes.ModeTree && !pass.Actor.Pending
}

// who names the change for messages: "commit 1a2b3c4d5e6f" or "this commit".
func who(pass *rules.Pass) string {
	if c := pass.Unit.Commit; c != nil {
		return "commit " + c.Hash[:min(12, len(c.Hash))]
	}
	return "this commit"
}

func verb(ch changes.Change) string {
	switch {
	case ch.Old == nil:
		return "adds"
	case ch.New == nil:
		return "deletes"
	}
	return "edits"
}

func ownershipRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/ownership",
		Severity: rules.Error,
		Doc: `Agents do not touch human-owned intent and constraints
SMALL's ownership table: intent.small.yml and constraints.small.yml are human-owned and agents MUST NOT modify them; plan.small.yml and progress.small.yml are agent-owned and humans SHOULD NOT edit them by hand. The actor comes from the commit (Small-Actor trailer, agent co-author trailers, Assisted-by/Generated-by, agent author or committer identities, .small-hook.yml): an agent change that adds, edits or deletes intent or constraints is an error; a human edit of plan or progress is a warning. In the pre-commit stage the actor is not known yet, so this rule waits for the commit-msg stage (install both hooks); a tree (--all) has no actor and is not judged.`,
		Run: func(pass *rules.Pass) error {
			if !judged(pass) {
				return nil
			}
			for _, ch := range pass.Unit.Changes {
				switch {
				case pass.Actor.Actor == attribution.Agent && owner(ch) == "human":
					pass.Report(ch.Path, 0, "%s is agent-authored (%s) and %s human-owned %s: agents must not change it; a human commits intent and constraint changes, agents propose them in `small draft` files or a pull request comment (if a human made this commit, add the trailer Small-Actor: human)",
						who(pass), pass.Actor.Evidence, verb(ch), ch.Path)
				case pass.Actor.Actor == attribution.Human && ch.Old != nil && owner(ch) == "agent":
					pass.ReportSeverity(rules.Warning, ch.Path, 0, "%s is human-authored (%s) and %s agent-owned %s: humans should not edit it by hand (it may be regenerated); let the agent record the change (if an agent made this commit, add the trailer Small-Actor: agent)",
						who(pass), pass.Actor.Evidence, verb(ch), ch.Path)
				}
			}
			return nil
		},
	}
}

// governed reports a change to agent state: a SMALL workspace's files or
// an AWP workspace's artifacts.
func governed(ch changes.Change) bool {
	return ch.Place.Area == workspace.Files || ch.Place.Area == workspace.Artifacts
}

func unknownRule() *rules.Rule {
	return &rules.Rule{
		ID:       "attribution/unknown",
		Severity: rules.Error,
		Doc: `Every change to agent state is attributed (only with attribution.unknown: error)
When .small-hook.yml sets attribution.unknown: error, a change to .small/ or artifacts/ must say who made it: an agent marker, or the trailer Small-Actor: human or Small-Actor: agent. Add the trailer to the commit message.`,
		Run: func(pass *rules.Pass) error {
			if !judged(pass) || pass.Actor.Actor != attribution.Unknown || pass.Config.Attribution.Unknown != "error" {
				return nil
			}
			for _, ch := range pass.Unit.Changes {
				if governed(ch) {
					pass.Report(ch.Path, 0, "%s changes governed files but does not say whether a human or an agent made it (%s): add the trailer Small-Actor: human or Small-Actor: agent", who(pass), pass.Actor.Evidence)
					return nil
				}
			}
			return nil
		},
	}
}

func provenanceAgentRule() *rules.Rule {
	return &rules.Rule{
		ID:       "smp/attribution",
		Severity: rules.Warning,
		Doc: `New provenance names the agent that made the commit
When an agent-attributed commit appends provenance entries to a knowledge artifact, each new entry's agent should be one of the commit's agent identities or one of the artifact's authors. Anything else means the provenance was written under another agent's name. Entries that the file already held before the commit (at any parent of a merge) are not judged again, and a tree (--all) has no actor to compare with. Record the change with the committing agent's identity, or add that agent to authors.`,
		Run: func(pass *rules.Pass) error {
			if !judged(pass) || pass.Actor.Actor != attribution.Agent {
				return nil
			}
			for _, ch := range pass.Unit.Changes {
				if !isArtifact(ch) || ch.New == nil || ch.New.Kind != changes.KindFile {
					continue
				}
				cur, err := frontmatter(ch.New)
				if err != nil {
					continue // smp/parse reports it
				}
				known := map[string]bool{}
				for _, a := range pass.Actor.Agents {
					known[strings.ToLower(a)] = true
				}
				for _, a := range stringsOf(cur, "authors") {
					known[strings.ToLower(a)] = true
				}
				entries := listOf(cur, "provenance")
				for _, i := range appended(entries, earlierProvenance(ch)) {
					e := entries[i]
					m, _ := e.(map[string]any)
					agent, _ := m["agent"].(string)
					if agent != "" && !known[strings.ToLower(agent)] {
						pass.Report(ch.Path, cur.Line("provenance", fmt.Sprint(i)), "%s (%s) appends provenance entry %d by %q, which is neither an agent of the commit nor an author of the artifact: record changes under the committing agent's identity, or add that agent to the artifact's authors", who(pass), pass.Actor.Evidence, i+1, agent)
					}
				}
			}
			return nil
		},
	}
}

// earlierProvenance returns the provenance of the file before the change:
// at the first parent and, for a merge, at every other parent.
func earlierProvenance(ch changes.Change) [][]any {
	blobs := []*changes.Blob{ch.Old}
	if ch.Merge != nil && len(ch.Merge.Parents) > 1 {
		blobs = append(blobs, ch.Merge.Parents[1:]...) // Parents[0] is Old
	}
	var out [][]any
	for _, b := range blobs {
		if b == nil || b.Kind != changes.KindFile {
			continue
		}
		if d, err := frontmatter(b); err == nil {
			out = append(out, listOf(d, "provenance"))
		}
	}
	return out
}

// appended returns the indexes of the entries that no earlier version
// holds. Entries are compared as values, so re-quoting by awp is no change;
// an entry moved or kept in place is not new.
func appended(entries []any, earlier [][]any) []int {
	start := 0
	if len(earlier) > 0 {
		for start < len(entries) && start < len(earlier[0]) && yamldoc.Equal(entries[start], earlier[0][start]) {
			start++
		}
	}
	var out []int
	for i := start; i < len(entries); i++ {
		if !holds(earlier, entries[i]) {
			out = append(out, i)
		}
	}
	return out
}

func holds(versions [][]any, e any) bool {
	for _, v := range versions {
		for _, x := range v {
			if yamldoc.Equal(x, e) {
				return true
			}
		}
	}
	return false
}

// isArtifact reports a change to a knowledge artifact.
func isArtifact(ch changes.Change) bool {
	p := ch.Place
	return p.Area == workspace.Artifacts && !p.Folded && !strings.Contains(p.Rel, "/") && strings.HasSuffix(p.Rel, ".md")
}

func frontmatter(b *changes.Blob) (*yamldoc.Doc, error) {
	fm, err := yamldoc.SplitFrontmatter(b.Data)
	if err != nil {
		return nil, err
	}
	return yamldoc.DecodeAt(fm.YAML, fm.Line-1)
}

func listOf(d *yamldoc.Doc, key string) []any {
	m, _ := d.Value.(map[string]any)
	l, _ := m[key].([]any)
	return l
}

func stringsOf(d *yamldoc.Doc, key string) []string {
	var out []string
	for _, v := range listOf(d, key) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
