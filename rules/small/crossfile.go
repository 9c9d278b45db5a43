package small

import (
	"fmt"
	"sort"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
)

func handoffRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/handoff",
		Severity: rules.Error,
		Doc: `The handoff resumes a task that exists
handoff.small.yml is the only resume entrypoint: when resume.current_task_id is set it must name a task of plan.small.yml or an operational meta/ entry. Judged when the handoff or the plan changes. Point current_task_id at a plan task, or clear it.`,
		Run: func(pass *rules.Pass) error {
			for _, s := range spaces(pass) {
				if err := checkHandoff(s); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// checkHandoff judges one workspace's handoff against its plan.
func checkHandoff(s space) error {
	if !s.touches(Handoff, Plan) {
		return nil
	}
	h, err := s.current(Handoff)
	if err != nil || h == nil {
		return err
	}
	resume, _ := h.top["resume"].(map[string]any)
	id, _ := resume["current_task_id"].(string)
	if id == "" || strings.HasPrefix(id, "meta/") {
		return nil
	}
	p, err := s.current(Plan)
	if err != nil || p == nil {
		return err
	}
	tasks, _ := p.top["tasks"].([]any)
	for _, t := range tasks {
		if m, ok := t.(map[string]any); ok && m["id"] == id {
			return nil
		}
	}
	s.pass.Report(s.path(Handoff), h.doc.Line("resume", "current_task_id"), "resume.current_task_id %q is not a task of %s: point it at a plan task id (or a meta/ entry), or clear it", id, s.path(Plan))
	return nil
}

func replayIDRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/replay-id",
		Severity: rules.Warning,
		Doc: `Replay ids agree across handoff, workspace and new progress
The current run's replay id is stored in workspace.small.yml run.replay_id; handoff replayId.value and each newly appended progress entry's replayId carry it. When they disagree the run that produced the new state cannot be replayed. Judged when one of the three files changes; absent values are not compared. Regenerate the handoff with the small CLI, or record entries under the current run.`,
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

// checkReplayIDs compares one workspace's replay ids.
func checkReplayIDs(s space) error {
	if !s.touches(Handoff, Workspace, Progress) {
		return nil
	}
	seen := map[string][]string{}
	line := 0
	if h, err := s.current(Handoff); err != nil {
		return err
	} else if h != nil {
		if r, ok := h.top["replayId"].(map[string]any); ok {
			if v, ok := r["value"].(string); ok {
				seen[v] = append(seen[v], "handoff replayId.value")
				line = h.doc.Line("replayId", "value")
			}
		}
	}
	if w, err := s.current(Workspace); err != nil {
		return err
	} else if w != nil {
		if r, ok := w.top["run"].(map[string]any); ok {
			if v, ok := r["replay_id"].(string); ok {
				seen[v] = append(seen[v], "workspace run.replay_id")
			}
		}
	}
	var runBound []entry
	addedEntries(s, func(_ string, _ *progressView, _ int, e entry) {
		if v, ok := e.field("replayId"); ok {
			if _, ok := v.(string); ok {
				runBound = append(runBound, e)
			}
		}
	})
	if s.pass.Unit.Mode == changes.ModeTree && len(runBound) > 1 {
		// Without history, only the latest entry speaks for the
		// current run; older ones belong to earlier runs.
		runBound = runBound[len(runBound)-1:]
	}
	for _, e := range runBound {
		v, _ := e.field("replayId")
		seen[v.(string)] = append(seen[v.(string)], fmt.Sprintf("progress entry (task_id %s) at line %d", e.taskID(), e.line()))
	}
	if len(seen) < 2 {
		return nil
	}
	var parts []string
	for v, where := range seen {
		parts = append(parts, fmt.Sprintf("%s… in %s", v[:min(12, len(v))], strings.Join(where, ", ")))
	}
	sort.Strings(parts)
	path := s.path(Handoff)
	if line == 0 {
		path = s.path(Workspace)
	}
	s.pass.Report(path, line, "replay ids disagree: %s; the current run's id is workspace run.replay_id: regenerate the handoff or record entries under the current run", strings.Join(parts, "; "))
	return nil
}
