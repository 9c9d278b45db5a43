package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// ledgerOut is the JSON contract of `small-hook log --format json`, as a
// consumer reads it.
type ledgerOut struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	Rev     string `json:"rev"`
	Head    string `json:"head"`
	Config  string `json:"config"`
	Shallow bool   `json:"shallow"`
	Files   []struct {
		Path    string       `json:"path"`
		Kind    string       `json:"kind"`
		Entries []ledgerItem `json:"entries"`
	} `json:"files"`
	Findings []struct {
		Rule     string `json:"rule"`
		Severity string `json:"severity"`
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Message  string `json:"message"`
		Commit   string `json:"commit"`
	} `json:"findings"`
	Summary struct {
		Files    int `json:"files"`
		Entries  int `json:"entries"`
		Commits  int `json:"commits"`
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
	} `json:"summary"`
}

// ledgerItem is one entry of the JSON ledger.
type ledgerItem struct {
	Position int `json:"position"`
	Line     int `json:"line"`
	Claim    struct {
		TaskID    *string `json:"task_id"`
		Status    *string `json:"status"`
		Agent     *string `json:"agent"`
		Action    *string `json:"action"`
		Message   string  `json:"message"`
		Timestamp string  `json:"timestamp"`
	} `json:"claim"`
	Recorded struct {
		Commit     string `json:"commit"`
		Origin     string `json:"origin"`
		Date       string `json:"date"`
		AuthorDate string `json:"author_date"`
		Author     string `json:"author"`
		Committer  string `json:"committer"`
		Actor      string `json:"actor"`
		Evidence   string `json:"evidence"`
		Signature  *struct {
			Status, Format, Signer, Key, Entry, Detail string
		} `json:"signature"`
	} `json:"recorded"`
	Evidence []struct {
		Field, Ref, Commit, Status string
	} `json:"evidence"`
	Renamed *struct {
		Commit, From, Actor, Evidence string
	} `json:"renamed"`
}

// file returns the ledger of path, failing the test when it has none.
func (l ledgerOut) file(t *testing.T, path string) []ledgerItem {
	t.Helper()
	for _, f := range l.Files {
		if f.Path == path {
			return f.Entries
		}
	}
	t.Fatalf("the ledger has no file %s: %+v", path, l.Files)
	return nil
}

// rules lists "severity rule" for each finding.
func (l ledgerOut) rules() []string {
	var out []string
	for _, f := range l.Findings {
		out = append(out, f.Severity+" "+f.Rule)
	}
	return out
}

// log runs `small-hook log --format json` in the repository and decodes
// its output; a run that prints no JSON (exit code 2) returns a zero
// ledger.
func (r *testRepo) log(args ...string) (int, ledgerOut, string) {
	r.T.Helper()
	code, out, errOut := r.check(nil, append([]string{"log", "--format", "json"}, args...)...)
	var l ledgerOut
	if code != exitFailure {
		if err := json.Unmarshal([]byte(out), &l); err != nil {
			r.T.Fatalf("log printed no JSON ledger (exit %d): %v\n%s%s", code, err, out, errOut)
		}
	}
	return code, l, errOut
}

// day0 is when the test histories start.
var day0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// progressHeader starts a progress file as the reference CLI writes it.
const progressHeader = "small_version: \"1.0.0\"\nowner: agent\nentries:\n"

// ledgerEntry is a progress entry in the reference CLI's layout; more are
// extra lines of it ("      commit: abc1234\n").
func ledgerEntry(task string, at time.Time, more ...string) string {
	return fmt.Sprintf("    - evidence: worked on %s\n      status: completed\n      task_id: %s\n      timestamp: %q\n%s",
		task, task, at.UTC().Format("2006-01-02T15:04:05.000000000Z"), strings.Join(more, ""))
}

// appendTo appends text to a file of the repository (created when
// missing).
func (r *testRepo) appendTo(path, text string) {
	r.T.Helper()
	old := ""
	if r.exists(path) {
		old = r.Read(path)
	}
	r.Write(path, old+text)
}

// exists reports whether a file of the work tree exists.
func (r *testRepo) exists(path string) bool {
	r.T.Helper()
	_, err := os.Stat(r.Path(path))
	return err == nil
}

// artifact is a knowledge artifact as awp writes it: version, lastModified
// and modifiedBy follow its last entry; entries are provenance entries
// (see provenanceEntry).
func artifact(slug string, version int, entries ...string) string {
	last := entries[len(entries)-1]
	agentOf := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(last, "\n", 2)[0], "  - agent: '"), "'")
	at := ""
	for _, line := range strings.Split(last, "\n") {
		if v, ok := strings.CutPrefix(line, "    timestamp: '"); ok {
			at = strings.TrimSuffix(v, "'")
		}
	}
	return fmt.Sprintf(`---
awp: 0.4.0
smp: '1.0'
type: knowledge-artifact
id: 'artifact:%s'
title: Test artifact
authors:
  - '%s'
version: %d
created: '2026-03-01T09:00:00.000Z'
lastModified: '%s'
modifiedBy: '%s'
provenance:
%s---

# %s

Body.
`, slug, agentOf, version, at, agentOf, strings.Join(entries, ""), slug)
}

// provenanceEntry is one provenance entry as awp writes it.
func provenanceEntry(agent, action string, at time.Time) string {
	return fmt.Sprintf("  - agent: '%s'\n    action: %s\n    timestamp: '%s'\n", agent, action, at.UTC().Format("2006-01-02T15:04:05.000Z"))
}
