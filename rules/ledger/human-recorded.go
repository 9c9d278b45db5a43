package ledger

import "github.com/small-hook/small-hook/rules"

// HumanRecordedID is the ID of ledger/human-recorded.
const HumanRecordedID = "ledger/human-recorded"

func humanRecordedRule() *rules.Rule {
	return &rules.Rule{
		ID:           HumanRecordedID,
		Severity:     rules.Warning,
		Ledger:       true,
		OffByDefault: true,
		Doc: `Agent-owned progress is recorded by an agent's commit
small-hook log, off by default: progress.small.yml is agent-owned, and this rule reports a commit attributed to a human that records progress entries (one finding per commit and file). Humans commit what the small CLI writes in the usual workflow, so the finding only means something where agents commit their own progress: turn it on there. The ledger shows every entry's actor either way.`,
	}
}
