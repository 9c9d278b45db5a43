package small

import (
	"strings"

	"github.com/small-hook/small-hook/rules"
)

func handoffRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/handoff",
		Severity:     rules.Error,
		PerWorkspace: true,
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
	s.pass.Report(s.path(Handoff), h.doc.Line("resume", "current_task_id"), "resume.current_task_id %q is not a task of %s", id, s.path(Plan)).
		Hint("point it at a plan task id (or a meta/ entry), or clear it")
	return nil
}
