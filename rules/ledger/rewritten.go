package ledger

import "github.com/small-hook/small-hook/rules"

// RewrittenID is the ID of ledger/rewritten.
const RewrittenID = "ledger/rewritten"

func rewrittenRule() *rules.Rule {
	return &rules.Rule{
		ID:       RewrittenID,
		Severity: rules.Error,
		Ledger:   true,
		Doc: `Every entry was appended, or rewritten by a human on purpose
small-hook log: an entry the ledger shows as inserted (put before entries an earlier version held, or in place of one it dropped or changed) or renamed (its task_id rewritten by the reference CLI's small fix --orphan-progress) came from a rewrite of history, so the ledger cannot verify it as recorded. Such an entry passes only where a human made the rewrite on purpose: a commit decided human, with the trailer Small-Rewrite: <reason> and no agent marker (as small/append-only and smp/append-only accept a rewrite). One finding per commit and file, naming the entries. With --verify, log then exits 1. A human commit with the trailer Small-Rewrite: <reason> that restores the entries as they were before the rewriting commit (or removes them) makes the ledger verifiable again; an entry it restores is recorded by that commit.`,
	}
}
