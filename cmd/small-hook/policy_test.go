package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The tests in this file run the configuration users tune (.small-hook.yml
// rules: and exclude:), the `small-hook rules` listing, and merges of
// knowledge artifacts through the real command over real repositories.

func TestRulesCommandNamesDefaultsAndSettings(t *testing.T) {
	r := newTestRepo(t)
	code, out, _ := r.check(nil, "rules")
	if code != exitOK {
		t.Fatalf("rules: exit %d", code)
	}
	for _, want := range []string{
		"rules:\n      <rule id>: off | warning | error",
		"exclude:",
		"small/ownership (error): ",
		"Default: error. Change it with rules: {small/ownership: off | warning | error}.",
		"small/human-edit (off): ",
		"Default: off (its findings are warnings when turned on). Turn it on with rules: {small/human-edit: warning}",
		"attribution/claim (warning): ",
		"secrets (error): ",
		"Change the family with rules: {secrets: off | warning | error}, one member with rules: {secrets/<name>: off | warning | error}.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rules output lacks %q", want)
		}
	}
	code, out, _ = r.check(nil, "rules", "--format", "json")
	var docs []ruleDoc
	if err := json.Unmarshal([]byte(out), &docs); code != exitOK || err != nil {
		t.Fatalf("rules --format json: exit %d, %v", code, err)
	}
	defaults := map[string]string{}
	for _, d := range docs {
		defaults[d.ID] = d.Default
		if d.Configure == "" || d.Title == "" || d.Severity == "" {
			t.Errorf("%s: %+v", d.ID, d)
		}
	}
	if defaults["small/human-edit"] != "off" || defaults["small/ownership"] != "error" || defaults["smp/merge"] != "warning" || defaults["secrets"] != "error" {
		t.Errorf("defaults %v", defaults)
	}
}

// TestRulesCommandLooksUpOneRule: `small-hook rules ID` prints what a
// finding names, a family member prints its family, and a mistyped ID
// gets a suggestion that works.
func TestRulesCommandLooksUpOneRule(t *testing.T) {
	r := newTestRepo(t)
	code, out, errOut := r.check(nil, "rules", "small/append-only")
	if code != exitOK || !strings.HasPrefix(out, "small/append-only (error): progress.small.yml is append-only\n") || strings.Count(out, " (error): ") != 1 {
		t.Errorf("rules small/append-only: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = r.check(nil, "rules", "secrets/aws-access-token")
	if code != exitOK || !strings.HasPrefix(out, "secrets/aws-access-token is a member of the family secrets:\nsecrets (error): ") {
		t.Errorf("rules secrets/aws-access-token: exit %d\n%s", code, out)
	}
	code, out, _ = r.check(nil, "rules", "secrets/credential-key", "--format", "json")
	var docs []ruleDoc
	if err := json.Unmarshal([]byte(out), &docs); code != exitOK || err != nil || len(docs) != 1 || docs[0].ID != "secrets/credential-key" {
		t.Errorf("rules secrets/credential-key --format json: exit %d, %v\n%s", code, err, out)
	}
	code, out, errOut = r.check(nil, "rules", "small/apend-only")
	if code != exitFailure || out != "" || !strings.Contains(errOut, `small-hook: "small/apend-only" is not a rule small-hook knows; did you mean "small/append-only"?`) {
		t.Errorf("a mistyped rule: exit %d\n%s%s", code, out, errOut)
	}
}

// TestRulesCommandShowsTheConfiguredSeverity: `small-hook rules ID` says
// what the .small-hook.yml of HEAD (what the next commit is judged by)
// sets, with the default beside it, in text and JSON; a member of a family
// its own setting; a configuration not yet committed sets nothing.
func TestRulesCommandShowsTheConfiguredSeverity(t *testing.T) {
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "rules:\n  small/human-edit: error\n  smp/merge: off\n  secrets/generic-api-key: warning\n")
	if code, out, _ := r.check(nil, "rules", "small/human-edit"); code != exitOK || !strings.HasPrefix(out, "small/human-edit (off): ") {
		t.Errorf("a staged configuration applies from the next commit, not now: exit %d\n%s", code, out)
	}
	r.Commit("configure")
	for id, want := range map[string]string{
		"small/human-edit":        "small/human-edit (error, as the .small-hook.yml of HEAD sets it; default off): ",
		"smp/merge":               "smp/merge (off, as the .small-hook.yml of HEAD sets it; default warning): ",
		"small/append-only":       "small/append-only (error): ",
		"secrets/generic-api-key": "secrets/generic-api-key is a member of the family secrets (warning, as the .small-hook.yml of HEAD sets it; default error):\nsecrets (error): ",
	} {
		if code, out, errOut := r.check(nil, "rules", id); code != exitOK || !strings.HasPrefix(out, want) {
			t.Errorf("rules %s: exit %d, want %q first\n%s%s", id, code, want, out, errOut)
		}
	}
	code, out, _ := r.check(nil, "rules", "--format", "json")
	var docs []ruleDoc
	if err := json.Unmarshal([]byte(out), &docs); code != exitOK || err != nil {
		t.Fatalf("rules --format json: exit %d, %v", code, err)
	}
	got := map[string]string{}
	for _, d := range docs {
		got[d.ID] = d.Severity + "/" + d.Configured + "/" + d.Default
	}
	for id, want := range map[string]string{"small/human-edit": "error/error/off", "smp/merge": "warning/off/warning", "small/append-only": "error//error"} {
		if got[id] != want {
			t.Errorf("%s: severity/configured/default %s, want %s", id, got[id], want)
		}
	}
	r.Write(".small-hook.yml", "rules:\n  small/nope: error\n")
	r.Commit("a mistake")
	if code, _, errOut := r.check(nil, "rules"); code != exitFailure || !strings.Contains(errOut, "line 2 of the .small-hook.yml of HEAD") {
		t.Errorf("a configuration that names no rule: exit %d\n%s", code, errOut)
	}
}

// TestRulesCommandFindsFamilies: a family's name lists its rules, whether
// the family is one rule (secrets) or a group of them (attribution,
// ledger, small).
func TestRulesCommandFindsFamilies(t *testing.T) {
	r := newTestRepo(t)
	for family, want := range map[string][]string{
		"attribution": {"attribution/claim", "attribution/unknown", "attribution/signature"},
		"ledger":      {"ledger/future-entry", "ledger/backfilled", "ledger/evidence-commit", "ledger/human-recorded", "ledger/agent-identity", "ledger/artifact-metadata", "ledger/rewritten"},
		"push":        {"push/not-a-commit", "push/protected", "push/replace"},
		"secrets":     {"secrets"},
	} {
		code, out, errOut := r.check(nil, "rules", family, "--format", "json")
		var docs []ruleDoc
		if err := json.Unmarshal([]byte(out), &docs); code != exitOK || err != nil {
			t.Fatalf("rules %s: exit %d, %v\n%s", family, code, err, errOut)
		}
		var ids []string
		for _, d := range docs {
			ids = append(ids, d.ID)
		}
		if strings.Join(ids, " ") != strings.Join(want, " ") {
			t.Errorf("rules %s: %v, want %v", family, ids, want)
		}
	}
	if code, out, _ := r.check(nil, "rules", "small"); code != exitOK || !strings.Contains(out, "\nsmall/ownership (error): ") || strings.Contains(out, "smp/") {
		t.Errorf("rules small: exit %d\n%s", code, out)
	}
}

// TestConfigHumansRunningTheCLIAreNotNoise: a human commit of what the
// small CLI wrote to plan and progress is silent unless turned on.
func TestConfigHumansRunningTheCLIAreNotNoise(t *testing.T) {
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Commit("small progress add")
	code, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
	if rep := decodeReport(t, out); code != exitOK || len(rep.Findings) != 0 {
		t.Fatalf("a human commit of CLI output: exit %d\n%s", code, out)
	}
	r.Write(".small-hook.yml", "rules:\n  small/human-edit: warning\n")
	r.Commit("opt in")
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(appendedEntry, "10:20:00", "10:21:00", 1))
	r.Commit("more progress")
	code, out, _ = r.check(nil, "check", "--base", "HEAD~1", "--format", "json")
	rep := decodeReport(t, out)
	if code != exitOK || len(rep.Findings) != 1 || rep.Findings[0].Rule != "small/human-edit" || rep.Findings[0].Severity != "warning" {
		t.Fatalf("opted in: exit %d\n%s", code, out)
	}
}

func TestConfigSeverityAndUnknownRuleEndToEnd(t *testing.T) {
	r := workspaceRepo(t)
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "go test ./parser passed", "rewritten", 1))
	r.Git("add", "-A")
	if code, _, _ := r.check(nil, "check"); code != exitFindings {
		t.Fatalf("a rewrite of progress: exit %d, want %d", code, exitFindings)
	}
	// A policy change applies from the next commit: the setting is
	// committed on its own, the rewrite stays staged.
	r.Write(".small-hook.yml", "rules:\n  small/append-only: warning\n")
	commitPolicy(r, ".small-hook.yml")
	code, out, _ := r.check(nil, "check", "--format", "json")
	if rep := decodeReport(t, out); code != exitOK || rep.Summary.Warnings != 1 || rep.Findings[0].Rule != "small/append-only" {
		t.Fatalf("small/append-only: warning: exit %d\n%s", code, out)
	}
	r.Write(".small-hook.yml", "# tuning\nrules:\n  small/append-only: warning\n  small/apend-only: off\n")
	r.Git("add", "-A")
	code, out, errOut := r.check(nil, "check")
	if code != exitFailure || !strings.Contains(errOut, "line 4") || !strings.Contains(errOut, `"small/apend-only" is not a rule small-hook knows; did you mean "small/append-only"?`) {
		t.Fatalf("an unknown rule ID: exit %d\n%s%s", code, out, errOut)
	}
	// The suggestion works.
	r.Write(".small-hook.yml", "# tuning\nrules:\n  small/append-only: warning\n")
	r.Git("add", "-A")
	if code, out, errOut := r.check(nil, "check"); code != exitOK {
		t.Fatalf("the suggested rule ID: exit %d\n%s%s", code, out, errOut)
	}
	r.Write(".small-hook.yml", "rules:\n  small/append-only: lenient\n")
	r.Git("add", "-A")
	if code, _, errOut := r.check(nil, "check"); code != exitFailure || !strings.Contains(errOut, "line 2 of the staged .small-hook.yml") {
		t.Fatalf("an unknown severity: exit %d\n%s", code, errOut)
	}
}

// TestConfigExcludeEndToEnd: the reference repository's deprecated v0.1
// examples are not governed once excluded; everything else still is.
func TestConfigExcludeEndToEnd(t *testing.T) {
	r := workspaceRepo(t)
	r.Write("spec/small/v0.1/examples/.small/intent.small.yml", "small_version: \"0.1\"\nowner: human\nintent: An old example\n")
	r.Write("spec/small/v0.1/examples/.small/notes.txt", "not a canonical file\n")
	r.Git("add", "-A")
	code, out, _ := r.check(nil, "check", "--format", "json")
	if code != exitFindings {
		t.Fatalf("v0.1 examples without exclude: exit %d\n%s", code, out)
	}
	r.Write(".small-hook.yml", "exclude:\n  - spec/small/v0.1/examples/\n")
	commitPolicy(r, ".small-hook.yml")
	if code, out, _ := r.check(nil, "check", "--format", "json"); code != exitOK || len(decodeReport(t, out).Findings) != 0 {
		t.Fatalf("v0.1 examples excluded: exit %d\n%s", code, out)
	}
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "go test ./parser passed", "rewritten", 1))
	r.Git("add", "-A")
	if code, out, _ := r.check(nil, "check", "--all", "--format", "json"); code != exitOK {
		t.Fatalf("--all with the examples excluded: exit %d\n%s", code, out)
	}
	if code, _, _ := r.check(nil, "check"); code != exitFindings {
		t.Fatalf("the governed workspace is still judged: exit %d", code)
	}
}

// TestConfigInAPullRequestCannotRelaxItsOwnCheck: the range check reads
// rules: and exclude: from the base revision.
func TestConfigInAPullRequestCannotRelaxItsOwnCheck(t *testing.T) {
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	r.Write(".small-hook.yml", "rules:\n  small/ownership: off\nexclude:\n  - .small/\n")
	editIntent(r, "rewritten by an agent")
	commitAs(r, "Test Human", "human@example.com", "Relax the rules\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	code, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
	if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/ownership") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// TestArtifactMergeCommitsEndToEnd: real merge commits of an artifact
// edited on two branches. A merge that takes both sides passes; one that
// slips in content of its own, or a version of its own, fails on the
// merge commit.
func TestArtifactMergeCommitsEndToEnd(t *testing.T) {
	v2 := smpFixture(t, "llm-context-research.v2.md")
	v3 := smpFixture(t, "llm-context-research.v3.md")
	theirEntry := "  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: updated\n    timestamp: '2026-11-22T10:09:03.500Z'\n    message: Their note\n"
	withEntry := func(s string) string {
		return strings.Replace(s, "\n---\n\n# LLM", "\n"+theirEntry+"---\n\n# LLM", 1)
	}
	theirs := strings.Replace(withEntry(v2), "version: 2", "version: 3", 1) + "\n## Notes\n\nTheir note.\n"
	merged := strings.Replace(withEntry(v3), "version: 3", "version: 4", 1) + "\n## Notes\n\nTheir note.\n"
	cases := []struct {
		name, result, rule string
	}{
		{"both sides", merged, ""},
		{"a line of its own", merged + "\nSlipped in by the merge.\n", "smp/unrecorded-change"},
		{"version 99.0", strings.Replace(merged, "version: 4", "version: 99.0", 1), "smp/version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.Write(artifactPath, v2)
			base := r.Commit("v2")
			r.Git("checkout", "-q", "-b", "theirs")
			r.Write(artifactPath, theirs)
			r.Commit("their note")
			r.Git("checkout", "-q", "main")
			r.Write(artifactPath, v3)
			r.Commit("benchmarks")
			r.Git("merge", "-q", "--no-commit", "-s", "ours", "theirs")
			r.Write(artifactPath, c.result)
			mergeCommit := r.Commit("Merge branch 'theirs'")
			code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
			rep := decodeReport(t, out)
			if c.rule == "" {
				if code != exitOK || len(rep.Findings) != 0 {
					t.Fatalf("exit %d\n%s%s", code, out, errOut)
				}
				return
			}
			if code != exitFindings || len(rep.Findings) != 1 || rep.Findings[0].Rule != c.rule || rep.Findings[0].Commit != mergeCommit {
				t.Fatalf("want one %s on the merge commit %s; exit %d\n%s%s", c.rule, mergeCommit, code, out, errOut)
			}
		})
	}
}

// commitPolicy commits a policy file on its own, as a human, leaving the
// rest of what is staged staged: a policy change applies from the next
// commit.
func commitPolicy(r *testRepo, path string) {
	r.T.Helper()
	r.Git("add", path)
	r.Git("commit", "-q", "--no-verify", "-m", "tune small-hook", "--", path)
}
