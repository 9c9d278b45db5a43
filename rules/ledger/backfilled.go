package ledger

import "github.com/small-hook/small-hook/rules"

// BackfilledID is the ID of ledger/backfilled.
const BackfilledID = "ledger/backfilled"

func backfilledRule() *rules.Rule {
	return &rules.Rule{
		ID:       BackfilledID,
		Severity: rules.Warning,
		Ledger:   true,
		Doc: `An entry is recorded soon after the time it claims
small-hook log: a progress or provenance entry appended to an existing file by a commit authored more than ledger.backfill (default 7d) after the entry's timestamp was written long after the fact, or dated into the past. One finding per commit and file, naming the entries. Entries that arrived with the first version of their file (a workspace committed for the first time, first adoption) were written before git held them and are not judged. Commit progress as it is made; set ledger.backfill in .small-hook.yml to the delay your workflow allows.`,
	}
}
