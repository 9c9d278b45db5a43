package ledger

import "github.com/small-hook/small-hook/rules"

// EvidenceCommitID is the ID of ledger/evidence-commit.
const EvidenceCommitID = "ledger/evidence-commit"

func evidenceCommitRule() *rules.Rule {
	return &rules.Rule{
		ID:       EvidenceCommitID,
		Severity: rules.Error,
		Ledger:   true,
		Doc: `Evidence that names a commit names an earlier commit of this history
small-hook log: SMALL invariant 2 makes progress verifiable through its evidence. Where an entry says its evidence is a commit (a commit field; a commit, commit_sha, commit_ref, commit_id or commit_hash key of an evidence, verification or test object) holding 7 to 40 hexadecimal digits, that commit must be an ancestor of the commit that recorded the entry: a commit that is not in the history, that several commits match, or that came later cannot prove the entry. In a shallow clone a commit the clone does not hold is left undecided. Name the commit that did the work, with enough digits to be unique, and record the entry after it.`,
	}
}
