package ledger

import "github.com/small-hook/small-hook/rules"

// FutureEntryID is the ID of ledger/future-entry.
const FutureEntryID = "ledger/future-entry"

func futureEntryRule() *rules.Rule {
	return &rules.Rule{
		ID:       FutureEntryID,
		Severity: rules.Error,
		Ledger:   true,
		Doc: `An entry is not recorded before it happened
small-hook log: a progress or provenance entry whose timestamp is later than the committer date of the commit that recorded it, by more than ledger.clock-skew (default 5m), claims a time that had not come when git recorded it. The commit's date is what the committer's clock said (a signed commit signs it); the entry's timestamp is what the writer claims. Entries present before the history the clone holds are not judged. Fix the clock of the machine that writes the entries; correct the entry by appending one that supersedes it.`,
	}
}
