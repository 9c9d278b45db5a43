package ledger

import "github.com/small-hook/small-hook/rules"

// AgentIdentityID is the ID of ledger/agent-identity.
const AgentIdentityID = "ledger/agent-identity"

func agentIdentityRule() *rules.Rule {
	return &rules.Rule{
		ID:       AgentIdentityID,
		Severity: rules.Error,
		Ledger:   true,
		Doc: `A provenance entry's agent is the one that committed it
small-hook log: where ledger.identities in .small-hook.yml maps a DID to the e-mail addresses its agent commits with, a provenance entry whose agent is that DID must be recorded by a commit that names one of them (as author, committer, signer, or a co-author that attribution recognises as an agent: the known agents and attribution.agents). Otherwise the entry claims one identity while the commit says another. Entries whose DID is not mapped remain claims and are not judged. Record the entry under the committing agent's DID, or commit as the agent the entry names.`,
	}
}
