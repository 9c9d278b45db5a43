// Package ledger declares the rules that `small-hook log` reports: checks
// of what progress and provenance entries claim against the commits that
// recorded them. They are rules like any other (listed by `small-hook
// rules`, set in .small-hook.yml), but they judge a whole history at once,
// so check never runs them (rules.Rule.Ledger): the ledger package applies
// them and reports their findings.
package ledger

import "github.com/small-hook/small-hook/rules"

// The ledger rules' IDs. They are public: users write them into
// configuration.
const (
	FutureEntryID      = "ledger/future-entry"
	BackfilledID       = "ledger/backfilled"
	EvidenceCommitID   = "ledger/evidence-commit"
	HumanRecordedID    = "ledger/human-recorded"
	AgentIdentityID    = "ledger/agent-identity"
	ArtifactMetadataID = "ledger/artifact-metadata"
)

// Rules returns the ledger rules, freshly built.
func Rules() []*rules.Rule {
	return []*rules.Rule{
		{
			ID: FutureEntryID, Severity: rules.Error, Ledger: true,
			Doc: `An entry is not recorded before it happened
small-hook log: a progress or provenance entry whose timestamp is later than the committer date of the commit that recorded it, by more than ledger.clock-skew (default 5m), claims a time that had not come when git recorded it. The commit's date is what the committer's clock said (a signed commit signs it); the entry's timestamp is what the writer claims. Entries present before the history the clone holds are not judged. Fix the clock of the machine that writes the entries; correct the entry by appending one that supersedes it.`,
		},
		{
			ID: BackfilledID, Severity: rules.Warning, Ledger: true,
			Doc: `An entry is recorded soon after the time it claims
small-hook log: a progress or provenance entry appended to an existing file by a commit authored more than ledger.backfill (default 7d) after the entry's timestamp was written long after the fact, or dated into the past. One finding per commit and file, naming the entries. Entries that arrived with the first version of their file (a workspace committed for the first time, first adoption) were written before git held them and are not judged. Commit progress as it is made; set ledger.backfill in .small-hook.yml to the delay your workflow allows.`,
		},
		{
			ID: EvidenceCommitID, Severity: rules.Error, Ledger: true,
			Doc: `Evidence that names a commit names an earlier commit of this history
small-hook log: SMALL invariant 2 makes progress verifiable through its evidence. Where an entry says its evidence is a commit (a commit field; a commit, commit_sha, commit_ref, commit_id or commit_hash key of an evidence, verification or test object) holding 7 to 40 hexadecimal digits, that commit must be an ancestor of the commit that recorded the entry: a commit that is not in the history, that several commits match, or that came later cannot prove the entry. In a shallow clone a commit the clone does not hold is left undecided. Name the commit that did the work, with enough digits to be unique, and record the entry after it.`,
		},
		{
			ID: HumanRecordedID, Severity: rules.Warning, Ledger: true, OffByDefault: true,
			Doc: `Agent-owned progress is recorded by an agent's commit
small-hook log, off by default: progress.small.yml is agent-owned, and this rule reports a commit attributed to a human that records progress entries (one finding per commit and file). Humans commit what the small CLI writes in the usual workflow, so the finding only means something where agents commit their own progress: turn it on there. The ledger shows every entry's actor either way.`,
		},
		{
			ID: AgentIdentityID, Severity: rules.Error, Ledger: true,
			Doc: `A provenance entry's agent is the one that committed it
small-hook log: where ledger.identities in .small-hook.yml maps a DID to the e-mail addresses its agent commits with, a provenance entry whose agent is that DID must be recorded by a commit that names one of them (as author, committer, signer, or a co-author that attribution recognises as an agent: the known agents and attribution.agents). Otherwise the entry claims one identity while the commit says another. Entries whose DID is not mapped remain claims and are not judged. Record the entry under the committing agent's DID, or commit as the agent the entry names.`,
		},
		{
			ID: ArtifactMetadataID, Severity: rules.Error, Ledger: true,
			Doc: `An artifact's version, lastModified and modifiedBy agree with the commits that changed them
small-hook log: for each commit that changed a knowledge artifact (merge commits aside), the version step follows from the provenance entries the commit recorded (as smp/version counts them); lastModified is not later than the commit's date (beyond ledger.clock-skew) and not earlier than the newest entry the commit recorded; modifiedBy is the agent of the last entry the commit recorded and, where ledger.identities maps it, names an identity of the commit (as ledger/agent-identity judges it). awp writes all three with each entry: a disagreement means the metadata was edited by hand or the history rewritten. Record changes with awp, which keeps them in step.`,
		},
	}
}
