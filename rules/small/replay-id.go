package small

import (
	"fmt"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

func replayIDRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/replay-id",
		Severity:     rules.Warning,
		PerWorkspace: true,
		Doc: `New progress entries and a regenerated handoff carry the current run's replay id
The current run's replay id is workspace.small.yml run.replay_id. Each progress entry a change adds with a replayId must carry it, and a change that sets a new handoff replayId.value must set it to it; otherwise the run that produced the new state cannot be replayed. Only what a change adds is compared: entries from earlier runs legitimately carry earlier ids (a progress file added with its history is judged by its newest entry), and a handoff written before the latest plan change keeps its id until the next ` + "`small handoff`" + `, as the reference CLI does. With --all, the newest run-bound progress entry is compared. Record entries under the current run, or regenerate the handoff with the small CLI.`,
		Run: func(pass *rules.Pass) error {
			for _, s := range spaces(pass) {
				if err := checkReplayIDs(s); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// replayIDOf reads a string at a path of a decoded file.
func replayIDOf(f *parsed, key, field string) (string, bool) {
	if f == nil {
		return "", false
	}
	m, _ := f.top[key].(map[string]any)
	v, ok := m[field].(string)
	return v, ok && v != ""
}

// shortID shows the start of a replay id.
func shortID(id string) string { return bounded(words.ShortID(id)) + "…" }

// checkReplayIDs compares what one change adds to a workspace with the
// current run's replay id.
func checkReplayIDs(s space) error {
	if !s.touches(Handoff, Workspace, Progress) {
		return nil
	}
	w, err := s.current(Workspace)
	if err != nil {
		return err
	}
	run, ok := replayIDOf(w, "run", "replay_id")
	if !ok {
		return nil
	}
	why := fmt.Sprintf("the current run's id (%s run.replay_id) is %s", s.path(Workspace), shortID(run))
	if ch := s.changed(Handoff); ch != nil && ch.New != nil && s.pass.Unit.Mode != changes.ModeTree {
		h, err := s.current(Handoff)
		if err != nil {
			return err
		}
		value, ok := replayIDOf(h, "replayId", "value")
		var before string
		if ch.Old != nil && ch.Old.Kind == changes.KindFile {
			if old := decode(s.pass, ch.Old); old.err == nil {
				before, _ = replayIDOf(old, "replayId", "value")
			}
		}
		if ok && value != before && value != run {
			s.pass.Report(ch.Path, h.doc.Line("replayId", "value"), "handoff replayId.value is set to %s, but %s", shortID(value), why).
				Hint("regenerate the handoff with `small handoff`")
		}
	}
	var bound []entry
	ch := s.changed(Progress)
	addedEntries(s, func(_ string, _ *progressView, _ int, e entry) {
		if v, ok := e.field("replayId"); ok {
			if _, ok := v.(string); ok {
				bound = append(bound, e)
			}
		}
	})
	if len(bound) > 1 && (s.pass.Unit.Mode == changes.ModeTree || (ch.Old == nil && ch.Merge == nil)) {
		// Without history (or for a file added with its history), only
		// the newest entry speaks for the current run.
		bound = bound[len(bound)-1:]
	}
	r := newLimiter(s.pass, s.path(Progress))
	for _, e := range bound {
		v, _ := e.field("replayId")
		if id := v.(string); id != run {
			r.report(e.line("replayId"), "record new entries under the current run", "%s carries replay id %s, but %s", e.name(), shortID(id), why)
		}
	}
	return nil
}

// maxEntryFindings bounds how many findings of one kind one file gives;
// the rest are counted in a last finding.
const maxEntryFindings = 20

// limiter reports at most maxEntryFindings findings for one file, then
// one that says how many more there were.
type limiter struct {
	pass *rules.Pass
	path string
	n    int
}

func newLimiter(pass *rules.Pass, path string) *limiter { return &limiter{pass: pass, path: path} }

func (l *limiter) report(line int, hint, format string, args ...any) {
	l.n++
	switch {
	case l.n <= maxEntryFindings:
		l.pass.Report(l.path, line, format, args...).Hint("%s", hint)
	case l.n == maxEntryFindings+1:
		l.pass.Report(l.path, line, "more findings of this kind in %s (only the first %d are listed)", l.path, maxEntryFindings).Hint("%s", hint)
	}
}
