package ledger

import "github.com/small-hook/small-hook/rules"

// ArtifactMetadataID is the ID of ledger/artifact-metadata.
const ArtifactMetadataID = "ledger/artifact-metadata"

func artifactMetadataRule() *rules.Rule {
	return &rules.Rule{
		ID:       ArtifactMetadataID,
		Severity: rules.Error,
		Ledger:   true,
		Doc: `An artifact's version, lastModified and modifiedBy agree with the commits that changed them
small-hook log: for each commit that changed a knowledge artifact (merge commits aside), the version step follows from the provenance entries the commit recorded (as smp/version counts them); lastModified is not later than the commit's date (beyond ledger.clock-skew) and not earlier than the newest entry the commit recorded; modifiedBy is the agent of the last entry the commit recorded and, where ledger.identities maps it, names an identity of the commit (as ledger/agent-identity judges it). awp writes all three with each entry: a disagreement means the metadata was edited by hand or the history rewritten. Record changes with awp, which keeps them in step.`,
	}
}
