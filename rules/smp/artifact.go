package smp

import (
	"errors"
	"fmt"
	"math/big"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

// isArtifact reports whether a change is to <workspace>/artifacts/<slug>.md
// (awp's .md.bak backups and files in subdirectories are not artifacts,
// a path that only folds to an artifacts directory is refused, not
// judged, and a change that strips an artifact's declaration is
// smp/undeclared's).
func isArtifact(ch *changes.Change) bool {
	p := ch.Place
	return p.Area == workspace.Artifacts && !p.Folded && !p.Undeclared && !strings.Contains(p.Rel, "/") && strings.HasSuffix(p.Rel, ".md") && len(p.Rel) > len(".md")
}

// slug is the artifact's file name without .md.
func slug(p string) string { return strings.TrimSuffix(path.Base(p), ".md") }

// artifact is one parsed version of a knowledge artifact.
type artifact struct {
	doc  *yamldoc.Doc
	top  map[string]any
	body string
	err  error
	line int
	// declares says the version declares itself a knowledge artifact
	// (workspace.DeclaresArtifact).
	declares bool
}

// parse parses a blob once per run. The entry kind is checked first: only
// a regular file is parsed.
func parse(pass *rules.Pass, b *changes.Blob) *artifact {
	if err := b.Regular(); err != nil {
		return &artifact{err: err}
	}
	return artifactVersions.Get(pass, b)
}

// artifactVersions is the fact of a version parsed as a knowledge
// artifact.
var artifactVersions = rules.BlobFact(func(_ *rules.Pass, b *changes.Blob) *artifact { return parseBlob(b) })

func parseBlob(b *changes.Blob) *artifact {
	fm, err := yamldoc.SplitFrontmatter(b.Data)
	if err != nil {
		return &artifact{err: err, line: 1}
	}
	doc, err := yamldoc.DecodeAt(fm.YAML, fm.Line-1)
	if err != nil {
		var ye *yamldoc.Error
		if errors.As(err, &ye) {
			return &artifact{err: fmt.Errorf("frontmatter %s", ye.Msg), line: ye.Line}
		}
		return &artifact{err: err, line: fm.Line}
	}
	top, ok := doc.Value.(map[string]any)
	if !ok {
		return &artifact{err: errors.New("frontmatter is not a YAML mapping"), line: fm.Line}
	}
	return &artifact{doc: doc, top: top, body: string(fm.Body), declares: workspace.DeclaresArtifact(b.Data)}
}

// earlier parses an earlier version of an artifact, which a change is
// judged against: nil when it does not parse, or does not declare itself
// a knowledge artifact. A file that starts to declare itself (another
// tool's page that gains an SMP frontmatter) is a new artifact; an
// artifact that stops declaring itself is smp/undeclared's, and an
// earlier state that declared it keeps the path governed, so no change is
// judged against nothing that was not already reported.
func earlier(pass *rules.Pass, b *changes.Blob) *artifact {
	if b == nil {
		return nil
	}
	if a := parse(pass, b); a.err == nil && a.declares {
		return a
	}
	return nil
}

// version returns the artifact's version by value, whatever its spelling
// (3, 3.0, 3e0) and Go type; false when it is not an integer (smp/schema
// reports that).
func (a *artifact) version() (*big.Int, bool) {
	return integer(a.top["version"])
}

// written returns the scalar at the top-level key as written in the file,
// bounded.
func (a *artifact) written(key string) string {
	if n := a.doc.Node(key); n != nil && n.Value != "" {
		return clip(n.Value, valueLength)
	}
	return shown(a.top[key])
}

// provenance returns the provenance entries.
func (a *artifact) provenance() []any {
	p, _ := a.top["provenance"].([]any)
	return p
}

// strings returns a list of strings under key.
func (a *artifact) strings(key string) []string {
	list, _ := a.top[key].([]any)
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// entryLine is the line of provenance entry i.
func (a *artifact) entryLine(i int) int {
	return a.doc.Line("provenance", fmt.Sprint(i))
}

// field reads a key of a provenance entry.
func field(e any, key string) any {
	m, _ := e.(map[string]any)
	return m[key]
}

func action(e any) string {
	s, _ := field(e, "action").(string)
	return s
}

func agent(e any) string {
	s, _ := field(e, "agent").(string)
	return s
}

// when parses an entry's timestamp; ok is false when it has none that
// parses.
func when(e any) (time.Time, bool) {
	switch v := field(e, "timestamp").(type) {
	case string:
		t, err := time.Parse(time.RFC3339Nano, v)
		return t, err == nil
	case yamldoc.Timestamp:
		return v.Time, true
	}
	return time.Time{}, false
}

// describeEntry names provenance entry i for messages, one way
// everywhere: "provenance entry 3 (updated by did:key:z6MkvmWSVtpUTrKQ…)".
func describeEntry(i int, e any) string {
	return fmt.Sprintf("provenance entry %d (%s by %s)", i+1, clip(action(e), 16), clip(agent(e), 24))
}

// valueLength bounds how much of a value from a file a message repeats.
const valueLength = 40

// clip returns s, or its first n characters and "…".
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// shown writes a decoded value for a message, bounded: a string quoted, a
// timestamp as written, a number as a number, and lists and mappings by
// their size only.
func shown(v any) string {
	switch v := v.(type) {
	case nil:
		return "nothing"
	case string:
		return strconv.Quote(clip(v, valueLength))
	case yamldoc.Timestamp:
		return clip(v.Text, valueLength)
	case []any:
		return fmt.Sprintf("a list of %d", len(v))
	case map[string]any:
		return fmt.Sprintf("a mapping of %d keys", len(v))
	}
	if r, ok := number(v); ok {
		return clip(r.RatString(), valueLength)
	}
	return clip(fmt.Sprint(v), valueLength)
}

// versions is a change's old and new parsed artifact; old is nil for a
// new file (and in tree mode), and when the old version is no earlier
// version of an artifact (see earlier).
type versions struct {
	path     string
	old, cur *artifact
	change   *changes.Change
}

// eachArtifact calls f for every change to an artifact whose new version
// parsed.
func eachArtifact(pass *rules.Pass, f func(v versions)) {
	for i := range pass.Unit.Changes {
		ch := &pass.Unit.Changes[i]
		if !isArtifact(ch) || ch.New == nil {
			continue
		}
		if v, ok := versionsOf(pass, ch); ok {
			f(v)
		}
	}
}

// versionsOf parses a change's versions; false when the new one does not
// parse.
func versionsOf(pass *rules.Pass, ch *changes.Change) (versions, bool) {
	cur := parse(pass, ch.New)
	if cur.err != nil {
		return versions{}, false
	}
	v := versions{path: ch.Path, cur: cur, change: ch}
	v.old = earlier(pass, ch.Old)
	return v, true
}

// previous returns the earlier versions a change is judged against: every
// parent of a merge commit, else the old version; none for a new file.
func previous(pass *rules.Pass, v versions) []*artifact {
	m := v.change.Merge
	if m == nil {
		if v.old == nil {
			return nil
		}
		return []*artifact{v.old}
	}
	var out []*artifact
	for _, p := range m.Parents {
		if a := earlier(pass, p); a != nil {
			out = append(out, a)
		}
	}
	return out
}

// added returns the provenance entries the change added: those after the
// old list when it is a prefix (the usual case, checked in one pass), else
// those equal to no old entry (for a merge: to no entry of any parent) and
// not an old entry rewritten in place (smp/append-only reports those).
// at holds each entry's index in the new provenance. It is computed once
// per change.
func added(pass *rules.Pass, v versions) (entries []any, at []int) {
	r := addedProvenance.Get(pass, v.change)
	return r.entries, r.at
}

// addedEntries is what added returns.
type addedEntries struct {
	entries []any
	at      []int
}

// addedProvenance is the fact of the provenance entries a change to an
// artifact whose new version parses added.
var addedProvenance = rules.ChangeFact(func(pass *rules.Pass, ch *changes.Change) addedEntries {
	v, _ := versionsOf(pass, ch)
	e, at := computeAdded(pass, v)
	return addedEntries{e, at}
})

func computeAdded(pass *rules.Pass, v versions) (entries []any, at []int) {
	cur := v.cur.provenance()
	var olds [][]any
	for _, prev := range previous(pass, v) {
		olds = append(olds, prev.provenance())
	}
	from := -1
	switch {
	case len(olds) == 0:
		from = 0
	case len(olds) == 1 && isPrefix(olds[0], cur):
		from = len(olds[0])
	}
	for i, e := range cur {
		if from >= 0 {
			if i < from {
				continue
			}
		} else if inAny(e, olds) || v.change.Merge == nil && rewritten(olds[0], cur, i) {
			continue
		}
		entries = append(entries, e)
		at = append(at, i)
	}
	return entries, at
}

// isPrefix reports whether old is an unchanged prefix of cur.
func isPrefix(old, cur []any) bool {
	if len(old) > len(cur) {
		return false
	}
	for i := range old {
		if !yamldoc.Equal(old[i], cur[i]) {
			return false
		}
	}
	return true
}

// rewritten reports whether cur[i] stands where an old entry of the same
// action and agent was, and that old entry is gone: an edit of history, not
// a new record. awp's replacement of a trailing synced entry does record a
// new sync, so it is not counted as an edit.
func rewritten(old, cur []any, i int) bool {
	if i >= len(old) || syncReplaced(old, cur, i) {
		return false
	}
	if action(old[i]) != action(cur[i]) || agent(old[i]) != agent(cur[i]) {
		return false
	}
	return index(cur, old[i]) < 0
}

// index is the position of the first entry of list equal to e, or -1.
func index(list []any, e any) int {
	for i, x := range list {
		if yamldoc.Equal(e, x) {
			return i
		}
	}
	return -1
}

func inAny(e any, lists [][]any) bool {
	for _, l := range lists {
		if index(l, e) >= 0 {
			return true
		}
	}
	return false
}

// separatorPattern matches SMP's merge separator line.
func separatorPattern() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\*Merged from artifact:([a-z0-9][a-z0-9-]*) \(version \d+\) on [^*]+\*\s*$`)
}
