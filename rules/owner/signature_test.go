package owner

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules/rulestest"
	"github.com/small-hook/small-hook/signature"
)

const (
	allowedSigners = ".github/allowed_signers"
	signingKeys    = ".github/signing-keys.asc"
)

// signing returns the configuration with a signatures section.
func signing(require string, exclude ...string) *config.Config {
	cfg := config.Default()
	cfg.Signatures = config.Signatures{AllowedSigners: allowedSigners, OpenPGPKeys: signingKeys, Require: require}
	cfg.Exclude = exclude
	return cfg
}

// statuses are one signature status per verdict, as signature.Verify
// writes them.
var statuses = map[signature.Verdict]*signature.Status{
	signature.Valid:             {Format: signature.FormatSSH, Verdict: signature.Valid, Signer: "alice@example.com", Key: "SHA256:alice", Entry: allowedSigners + ":1"},
	signature.Unsigned:          {Format: signature.FormatNone, Verdict: signature.Unsigned, Detail: "the commit is not signed"},
	signature.UnknownKey:        {Format: signature.FormatSSH, Verdict: signature.UnknownKey, Key: "SHA256:mallory", Detail: "the SSH key SHA256:mallory is not in " + allowedSigners},
	signature.PrincipalMismatch: {Format: signature.FormatSSH, Verdict: signature.PrincipalMismatch, Key: "SHA256:bob", Detail: "the key is allowed for \"bob@example.com\", not for the committer e-mail \"alice@example.com\""},
	signature.KeyExpired:        {Format: signature.FormatSSH, Verdict: signature.KeyExpired, Key: "SHA256:alice", Detail: "the key has expired at the committer time"},
	signature.BadSignature:      {Format: signature.FormatOpenPGP, Verdict: signature.BadSignature, Detail: "the OpenPGP signature does not match the commit"},
}

// signedAs returns verdict v with the signature status of verdict sv.
func signedAs(v attribution.Verdict, sv signature.Verdict) attribution.Verdict {
	v.Signature = statuses[sv]
	if sv == signature.Valid {
		v.Actor, v.Evidence = attribution.Human, v.Signature.String()
	}
	return v
}

// commit turns a staged unit into the unit of commit 1a2b…, committed by
// alice@example.com.
func commit(u changes.Unit) changes.Unit {
	u.Mode = changes.ModeRange
	u.Commit = &changes.Commit{Hash: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d", Message: "x\n", Committer: changes.Identity{Name: "Alice", Email: "alice@example.com"}}
	return u
}

func TestSignatureRequiredOnHumanOwnedFiles(t *testing.T) {
	base := rulestest.Snapshot{intent: intentV1, constraints: constraintsV1, plan: planV1, progress: progressV1, config.FileName: "signatures: {}\n", allowedSigners: "a\n", signingKeys: "k\n"}
	with := base.With
	cases := []struct {
		name    string
		cfg     *config.Config
		verdict attribution.Verdict
		after   rulestest.Snapshot
		want    []string
		says    []string
	}{
		{"unsigned intent edit", signing("human-owned"), signedAs(human, signature.Unsigned), with(intent, intentV2),
			[]string{"attribution/signature error " + intent}, []string{"commit 1a2b3c4d5e6f edits human-owned " + intent, "unsigned: the commit is not signed", "alice@example.com", "signatures.require: human-owned", allowedSigners + " or " + signingKeys}},
		{"signed intent edit", signing("human-owned"), signedAs(human, signature.Valid), with(intent, intentV2), nil, nil},
		{"unknown key", signing("human-owned"), signedAs(human, signature.UnknownKey), with(intent, intentV2),
			[]string{"attribution/signature error " + intent}, []string{"unknown-key ssh signature: the SSH key SHA256:mallory is not in " + allowedSigners}},
		{"principal mismatch", signing("human-owned"), signedAs(human, signature.PrincipalMismatch), with(constraints, ""),
			[]string{"attribution/signature error " + constraints}, []string{"deletes human-owned " + constraints, "principal-mismatch ssh signature"}},
		{"key expired", signing("human"), signedAs(human, signature.KeyExpired), with(intent, intentV2),
			[]string{"attribution/signature error " + intent}, []string{"key-expired ssh signature: the key has expired"}},
		{"bad signature", signing("human-owned"), signedAs(human, signature.BadSignature), with(intent, intentV2),
			[]string{"attribution/signature error " + intent}, []string{"bad-signature openpgp signature"}},
		{"each human-owned file", signing("human-owned"), signedAs(human, signature.Unsigned), with(config.FileName, "signatures: {require: off}\n"),
			[]string{"attribution/signature error " + config.FileName}, []string{"edits human-owned " + config.FileName}},
		{"the allowed signers", signing("human-owned"), signedAs(human, signature.UnknownKey), with(allowedSigners, "a\nmallory\n"),
			[]string{"attribution/signature error " + allowedSigners}, nil},
		{"the OpenPGP keys", signing("human-owned"), signedAs(human, signature.Unsigned), with(signingKeys, ""),
			[]string{"attribution/signature error " + signingKeys}, nil},
		{"an excluded key file is still policy", signing("human-owned", ".github"), signedAs(human, signature.Unsigned), with(allowedSigners, "b\n"),
			[]string{"attribution/signature error " + allowedSigners}, nil},
		{"an excluded intent is not governed", signing("human-owned", ".small"), signedAs(human, signature.Unsigned), with(intent, intentV2), nil, nil},
		{"human-owned: progress needs none", signing("human-owned"), signedAs(human, signature.Unsigned), with(progress, progressV2), nil, nil},
		{"human: progress needs one", signing("human"), signedAs(human, signature.Unsigned), with(progress, progressV2),
			[]string{"attribution/signature error " + progress}, []string{"commit 1a2b3c4d5e6f is human (no agent marker) and edits " + progress, "signatures.require: human"}},
		{"human: an unknown actor needs one", signing("human"), signedAs(unknown, signature.Unsigned), with(plan, planV2),
			[]string{"attribution/signature error " + plan}, nil},
		{"human: an agent needs none", signing("human"), signedAs(agentClaude, signature.Unsigned), with(progress, progressV2), nil, nil},
		{"human: an agent on intent is ownership's", signing("human"), signedAs(agentClaude, signature.Unsigned), with(intent, intentV2),
			[]string{"small/ownership error " + intent}, nil},
		{"human-owned: an agent on intent is ownership's", signing("human-owned"), signedAs(agentClaude, signature.UnknownKey), with(intent, intentV2),
			[]string{"small/ownership error " + intent}, nil},
		{"off", signing("off"), signedAs(human, signature.Unsigned), with(intent, intentV2), nil, nil},
		{"no policy", config.Default(), human, with(intent, intentV2), nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, tc.cfg, tc.verdict, commit(rulestest.Staged(base, tc.after)))
			expect(t, got, tc.want, tc.says)
		})
	}
}

// TestOwnershipRuleOffLeavesTheSignatureRequirement: with small/ownership
// turned off, an agent's unsigned intent edit still needs a signature.
func TestOwnershipRuleOffLeavesTheSignatureRequirement(t *testing.T) {
	cfg := signing("human-owned")
	cfg.Rules = map[string]config.RuleSetting{"small/ownership": {Severity: config.SeverityOff}}
	u := commit(rulestest.Staged(rulestest.Snapshot{intent: intentV1}, rulestest.Snapshot{intent: intentV2}))
	got := run(t, cfg, signedAs(agentClaude, signature.Unsigned), u)
	if !same(summary(got), []string{"attribution/claim error " + intent, "attribution/signature error " + intent}) && !same(summary(got), []string{"attribution/signature error " + intent}) {
		t.Errorf("got:%s", dump(got))
	}
}

// TestSignatureMergeTakesFromParents: a merge that takes the intent as a
// parent has it needs no signature of its own; one that writes its own
// intent does.
func TestSignatureMergeTakesFromParents(t *testing.T) {
	const theirs = "small_version: \"1.0.0\"\nowner: human\nintent: Theirs\n"
	merge := func(result string) changes.Unit {
		u := commit(rulestest.Staged(rulestest.Snapshot{intent: intentV1}, rulestest.Snapshot{intent: result}))
		u.Commit.Parents = []string{"1", "2"}
		u.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(intentV1), Parents: []*changes.Blob{rulestest.Blob(intentV1), rulestest.Blob(theirs)}}
		return u
	}
	v := signedAs(human, signature.UnknownKey)
	if got := run(t, signing("human"), v, merge(theirs)); len(got) != 0 {
		t.Errorf("a merge taking a parent's intent:%s", dump(got))
	}
	if got := run(t, signing("human"), v, merge(intentV2)); !same(summary(got), []string{"attribution/signature error " + intent}) {
		t.Errorf("a merge writing its own intent:%s", dump(got))
	}
}

// TestSignedCommitWithAgentMarkers: a valid signature outweighs agent
// markers, and the contradiction is reported, not resolved silently.
func TestSignedCommitWithAgentMarkers(t *testing.T) {
	v := signedAs(human, signature.Valid)
	v.Disputed = "trailer Co-Authored-By: Claude <noreply@anthropic.com>"
	for _, require := range []string{"off", "human-owned"} {
		got := run(t, signing(require), v, commit(rulestest.Staged(rulestest.Snapshot{intent: intentV1, progress: progressV1}, rulestest.Snapshot{intent: intentV2, progress: progressV2})))
		if !same(summary(got), []string{"attribution/signature error " + intent}) {
			t.Fatalf("require %s, intent and progress:%s", require, dump(got))
		}
		for _, s := range []string{"commit 1a2b3c4d5e6f is signed (valid ssh signature by alice@example.com", "evidence of an agent (trailer Co-Authored-By: Claude"} {
			if !strings.Contains(got[0].Text(), s) {
				t.Errorf("message lacks %q: %s", s, got[0].Text())
			}
		}
		got = run(t, signing(require), v, commit(rulestest.Staged(rulestest.Snapshot{progress: progressV1}, rulestest.Snapshot{progress: progressV2, "src/x.go": "x"})))
		if !same(summary(got), []string{"attribution/signature warning " + progress}) {
			t.Errorf("require %s, progress:%s", require, dump(got))
		}
	}
}

// TestPolicyFilesAreHumanOwned: an agent that changes the configuration or
// a key file it names is refused, even when exclude: covers the file.
func TestPolicyFilesAreHumanOwned(t *testing.T) {
	for _, path := range []string{config.FileName, allowedSigners, signingKeys} {
		u := rulestest.Staged(rulestest.Snapshot{path: "a\n"}, rulestest.Snapshot{path: "b\n"})
		got := run(t, signing("off", ".github", ".small-hook.yml"), agentClaude, u)
		if !same(summary(got), []string{"small/ownership error " + path}) || !strings.Contains(got[0].Text(), "policy files") {
			t.Errorf("%s:%s", path, dump(got))
		}
		if got := run(t, nil, agentClaude, u); path != config.FileName && len(got) != 0 {
			t.Errorf("%s is no policy file without a signatures section:%s", path, dump(got))
		}
	}
}

// TestReadinessWarnsBeforeTheCommit: the staged stages warn when git will
// not sign a change that needs a signature.
func TestReadinessWarnsBeforeTheCommit(t *testing.T) {
	unready := &signature.Readiness{Advice: "commits are not signed: run `git config commit.gpgsign true`"}
	ready := &signature.Readiness{Signed: true, Key: "SHA256:alice"}
	with := func(v attribution.Verdict, r *signature.Readiness) attribution.Verdict { v.Readiness = r; return v }
	intentEdit := rulestest.Staged(rulestest.Snapshot{intent: intentV1}, rulestest.Snapshot{intent: intentV2})
	progressEdit := rulestest.Staged(rulestest.Snapshot{progress: progressV1}, rulestest.Snapshot{progress: progressV2})
	cases := []struct {
		name string
		cfg  *config.Config
		v    attribution.Verdict
		u    changes.Unit
		want []string
	}{
		{"pre-commit, intent, not set up", signing("human-owned"), with(pending, unready), intentEdit, []string{"attribution/signature warning " + intent}},
		{"commit-msg, intent, not set up", signing("human-owned"), with(human, unready), intentEdit, []string{"attribution/signature warning " + intent}},
		{"set up", signing("human-owned"), with(human, ready), intentEdit, nil},
		{"progress needs none", signing("human-owned"), with(human, unready), progressEdit, nil},
		{"human: progress needs one", signing("human"), with(pending, unready), progressEdit, []string{"attribution/signature warning " + progress}},
		{"an agent's commit is ownership's", signing("human-owned"), with(agentClaude, unready), intentEdit, []string{"small/ownership error " + intent}},
		{"not judged", signing("human-owned"), pending, intentEdit, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, tc.cfg, tc.v, tc.u)
			if !same(summary(got), tc.want) {
				t.Fatalf("got:%s", dump(got))
			}
			for _, f := range got {
				if f.Rule == SignatureID && (!strings.Contains(f.Text(), "git commit -S") || !strings.Contains(f.Text(), unready.Advice) || !strings.Contains(f.Text(), "this commit edits human-owned") && !strings.Contains(f.Text(), "this commit is")) {
					t.Errorf("message: %s", f.Text())
				}
			}
		})
	}
}
