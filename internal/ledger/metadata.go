package ledger

import (
	"fmt"
	"slices"
	"time"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
	ledgerrules "github.com/small-hook/small-hook/rules/ledger"
	"github.com/small-hook/small-hook/rules/smp"
)

// metadataFinding is a ledger/artifact-metadata finding about a key of an
// artifact's frontmatter, placed at the key's line of the head's version
// once the walk is over.
type metadataFinding struct {
	key     string
	finding rules.Finding
}

// bumps are the provenance actions that mean the artifact's content was
// modified by the entry's agent (awp sets lastModified and modifiedBy with
// each of them; a synced entry may come from another workspace's clock).
func bumps() []string { return []string{"created", "updated", "merged"} }

// checkMetadata judges what the step's commit did to an artifact's
// version, lastModified and modifiedBy, against the entries it recorded
// and the commit itself. prev is the version it changed (nil for a new
// file). A boundary commit made nothing the clone can see.
func (w *walkStep) checkMetadata(path string, prev, v *version) error {
	if w.n.Boundary {
		return nil
	}
	var recorded []int
	for i, s := range v.slots {
		if s.commit == w.n && slices.Contains(bumps(), text(field(s.value, "action"))) {
			recorded = append(recorded, i)
		}
	}
	changed := func(key string) bool { return prev == nil || !yamldoc.Equal(prev.top[key], v.top[key]) }
	if len(recorded) == 0 && !changed("version") && !changed("lastModified") && !changed("modifiedBy") {
		return nil
	}
	c, err := w.commit()
	if err != nil {
		return err
	}
	report := func(key, format string, args ...any) {
		w.b.metadata[path] = append(w.b.metadata[path], metadataFinding{key: key, finding: rules.Finding{
			Rule: ledgerrules.ArtifactMetadataID, Severity: rules.Error, Path: path, Commit: c.Hash,
			Message: fmt.Sprintf(format, args...),
		}})
	}
	cur := v.values()
	switch {
	case prev == nil && !smp.VersionCovers(v.top["version"], cur):
		report("version", "commit %s added the artifact at version %s, below its created, updated and merged provenance entries: each of them raised the version by one", words.ShortID(c.Hash), shownValue(v.top["version"]))
	case prev != nil && !smp.VersionFollows(prev.top["version"], v.top["version"], prev.values(), cur):
		report("version", "commit %s changed version from %s to %s while recording %d updated or merged provenance %s: the version rises by exactly one per recorded change", words.ShortID(c.Hash), shownValue(prev.top["version"]), shownValue(v.top["version"]), countActions(v, recorded, "updated", "merged"), words.Plural(countActions(v, recorded, "updated", "merged"), "entry", "entries"))
	}
	if lm, ok := timeOf(v.top["lastModified"]); ok {
		if changed("lastModified") && lm.After(c.Date.Add(w.b.cfg.ClockSkew)) {
			report("lastModified", "lastModified %s is %s later than commit %s that set it (committer date %s; ledger.clock-skew allows %s): the artifact cannot have been modified after the commit that records it", shownValue(v.top["lastModified"]), span(lm.Sub(c.Date)), words.ShortID(c.Hash), stamp(c.Date), config.FormatDuration(w.b.cfg.ClockSkew))
		}
		if i, t, ok := newest(v, recorded); ok && lm.Before(t) {
			report("lastModified", "lastModified %s is earlier than %s that commit %s recorded: awp sets lastModified with each entry; the metadata does not say when the artifact was last modified", shownValue(v.top["lastModified"]), entryName(Provenance, Entry{Position: i, Claim: claimOf(Provenance, v.slots[i].value)}), words.ShortID(c.Hash))
		}
	}
	mb, ok := v.top["modifiedBy"].(string)
	if !ok {
		return nil
	}
	if len(recorded) > 0 {
		last := recorded[len(recorded)-1]
		if agent := text(field(v.slots[last].value, "agent")); agent != mb {
			report("modifiedBy", "modifiedBy %s is not the agent of %s, the last entry commit %s recorded: awp sets modifiedBy to the agent of each entry it writes", rules.Quote(mb), entryName(Provenance, Entry{Position: last, Claim: claimOf(Provenance, v.slots[last].value)}), words.ShortID(c.Hash))
		}
	}
	if emails := w.b.cfg.Emails(mb); changed("modifiedBy") && len(emails) > 0 && !names(c, emails) {
		report("modifiedBy", "modifiedBy %s, which commits as %s, was set by commit %s, which is %s's (%s): the metadata claims one identity while the commit says another", rules.Quote(mb), listed(emails), words.ShortID(c.Hash), c.Verdict.Actor, rules.Cut(who(c)))
	}
	return nil
}

// field reads a key of an entry's mapping.
func field(e any, key string) any {
	m, _ := e.(map[string]any)
	return m[key]
}

// countActions counts the entries among list whose action is one of
// actions.
func countActions(v *version, list []int, actions ...string) int {
	n := 0
	for _, i := range list {
		if slices.Contains(actions, text(field(v.slots[i].value, "action"))) {
			n++
		}
	}
	return n
}

// newest returns the entry of list with the latest timestamp, and that
// timestamp.
func newest(v *version, list []int) (int, time.Time, bool) {
	best, found := -1, false
	var at time.Time
	for _, i := range list {
		if t, ok := timeOf(field(v.slots[i].value, "timestamp")); ok && (!found || t.After(at)) {
			best, at, found = i, t, true
		}
	}
	return best, at, found
}

// shownValue writes a frontmatter value for a message: a string quoted
// and bounded, a timestamp as written, anything else as Go prints it.
func shownValue(v any) string {
	if s, ok := v.(string); ok {
		return rules.Quote(s)
	}
	if s := text(v); s != "" {
		return rules.Cut(s)
	}
	return rules.Show(v)
}
