package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const (
	progressPath = ".small/progress.small.yml"
	fixtureInit  = "../../testdata/small/reference-init/.small"
	fixtureLarge = "../../testdata/small/reference-repo/.small"
)

// appendedEntry is a valid progress entry in the reference CLI's layout.
const appendedEntry = `    - evidence: go vet ./... is clean
      replayId: ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2
      status: completed
      task_id: task-3
      timestamp: "2026-11-22T10:20:00.000000001Z"
`

// jsonReport is the JSON output contract.
type jsonReport struct {
	Tool     string        `json:"tool"`
	Version  string        `json:"version"`
	Mode     string        `json:"mode"`
	Findings []jsonFinding `json:"findings"`
	Summary  struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Files    int `json:"files"`
		Commits  int `json:"commits"`
	} `json:"summary"`
	Reader string `json:"reader"`
}

// jsonFinding is one finding of the JSON contract.
type jsonFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
	Commit   string `json:"commit"`
	Hint     string `json:"hint"`
}

// Text is the message with its hint, as a reader of the finding alone
// sees it.
func (f jsonFinding) Text() string {
	if f.Hint == "" {
		return f.Message
	}
	return f.Message + ": " + f.Hint
}

func decodeReport(t *testing.T, out string) jsonReport {
	t.Helper()
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not the JSON report: %v\n%s", err, out)
	}
	return rep
}

// rulesOf lists the rule IDs of a report's error findings.
func rulesOf(rep jsonReport) []string {
	var ids []string
	for _, f := range rep.Findings {
		if f.Severity == "error" {
			ids = append(ids, f.Rule)
		}
	}
	return ids
}

// workspaceRepo returns a repository whose first commit holds the
// reference-written workspace.
func workspaceRepo(t *testing.T) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	r.copyDir(fixtureInit, ".small")
	r.Commit("small init")
	return r
}

// reencode re-serialises a YAML file with another indentation, letting
// edit change the document first.
func reencode(t *testing.T, data string, indent int, edit func(doc *yaml.Node)) string {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&doc)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(indent)
	if err := enc.Encode(&doc); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// entries returns the sequence node of a progress document's entries.
func entries(doc *yaml.Node) *yaml.Node {
	top := doc.Content[0]
	for i := 0; i < len(top.Content); i += 2 {
		if top.Content[i].Value == "entries" {
			return top.Content[i+1]
		}
	}
	return nil
}

func TestCheckStagedProgress(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(t *testing.T, old string) string
		want  int
		rules []string
	}{
		{"pure append passes", func(t *testing.T, old string) string { return old + appendedEntry }, exitOK, nil},
		{"re-serialised with other key order and indentation passes", func(t *testing.T, old string) string {
			return reencode(t, old, 2, func(doc *yaml.Node) {
				top := doc.Content[0]
				top.Content[0], top.Content[2] = top.Content[2], top.Content[0]
				top.Content[1], top.Content[3] = top.Content[3], top.Content[1]
			})
		}, exitOK, nil},
		{"editing an entry fails", func(t *testing.T, old string) string {
			return strings.Replace(old, "go test ./parser passed", "go test ./parser failed", 1)
		}, exitFindings, []string{"small/append-only"}},
		{"deleting an entry fails", func(t *testing.T, old string) string {
			return reencode(t, old, 4, func(doc *yaml.Node) {
				e := entries(doc)
				e.Content = append(e.Content[:2], e.Content[3:]...)
			})
		}, exitFindings, []string{"small/append-only"}},
		{"reordering entries fails", func(t *testing.T, old string) string {
			return reencode(t, old, 4, func(doc *yaml.Node) {
				e := entries(doc)
				e.Content[1], e.Content[2] = e.Content[2], e.Content[1]
			})
		}, exitFindings, []string{"small/append-only"}},
		{"an appended entry without evidence fails", func(t *testing.T, old string) string {
			return old + strings.Replace(appendedEntry, "evidence: go vet ./... is clean", "notes: nothing to show", 1)
		}, exitFindings, []string{"small/evidence"}},
		{"an appended entry older than the last fails", func(t *testing.T, old string) string {
			return old + strings.Replace(appendedEntry, "2026-11-22T10:20:00", "2026-11-22T09:00:00", 1)
		}, exitFindings, []string{"small/timestamp"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := workspaceRepo(t)
			r.Write(progressPath, tc.edit(t, r.Read(progressPath)))
			r.Git("add", "-A")
			code, out, errOut := r.check(nil, "check", "--format", "json")
			if code != tc.want {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.want, out, errOut)
			}
			rep := decodeReport(t, out)
			if rep.Mode != "staged" || rep.Tool != "small-hook" {
				t.Errorf("mode %q tool %q", rep.Mode, rep.Tool)
			}
			got := rulesOf(rep)
			for _, want := range tc.rules {
				if !contains(got, want) {
					t.Errorf("findings %v lack %s\n%s", got, want, out)
				}
			}
			for _, f := range rep.Findings {
				if f.Path != progressPath || f.Line < 1 {
					t.Errorf("finding without file and line: %+v", f)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCheckDeletedProgressFails(t *testing.T) {
	r := workspaceRepo(t)
	r.Git("rm", "-q", progressPath)
	code, out, _ := r.check(nil, "check", "--format", "json")
	if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/append-only") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestCheckReferenceWorkspacesPassAll(t *testing.T) {
	for _, fixture := range []string{fixtureInit, fixtureLarge} {
		t.Run(filepath.Base(filepath.Dir(fixture)), func(t *testing.T) {
			r := newTestRepo(t)
			r.copyDir(fixture, ".small")
			r.Commit("workspace")
			for _, args := range [][]string{{"check", "--all"}, {"check", "--all", "--rev", "HEAD"}} {
				code, out, errOut := r.check(nil, args...)
				if code != exitOK {
					t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
				}
			}
		})
	}
}

func TestCheckFirstCommit(t *testing.T) {
	r := newTestRepo(t)
	r.copyDir(fixtureInit, ".small")
	r.Git("add", "-A")
	code, out, errOut := r.check(nil, "check")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestCheckLargeProgressAppend(t *testing.T) {
	r := newTestRepo(t)
	r.copyDir(fixtureLarge, ".small")
	r.Commit("workspace")
	entry := strings.Replace(appendedEntry, "2026-11-22", "2027-01-01", 1)
	entry = strings.Replace(entry, "ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2", "22980d19369cecba5c57ddcc5ad3b8d34e4b3eb41b03dfe3fae06ef1ea2dab52", 1)
	r.Write(progressPath, r.Read(progressPath)+entry)
	r.Git("add", "-A")
	if code, out, errOut := r.check(nil, "check"); code != exitOK {
		t.Fatalf("append: exit %d\n%s%s", code, out, errOut)
	}
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "task_id: task-2", "task_id: task-02", 1))
	r.Git("add", "-A")
	if code, out, _ := r.check(nil, "check", "--format", "json"); code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/append-only") {
		t.Fatalf("edit: exit %d\n%s", code, out)
	}
}

func TestCheckHonoursGitIndexFile(t *testing.T) {
	r := workspaceRepo(t)
	// The repository's own index holds a clean append...
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	// ...while the index git hands to the hook rewrites history.
	alt := filepath.Join(t.TempDir(), "next-index.lock")
	data, err := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alt, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "go test ./parser passed", "rewritten", 1))
	r.GitEnv([]string{"GIT_INDEX_FILE=" + alt}, "add", progressPath)

	if code, out, errOut := r.check(nil, "check"); code != exitOK {
		t.Fatalf("repository index: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := r.check(map[string]string{"GIT_INDEX_FILE": alt}, "check", "--format", "json"); code != exitFindings {
		t.Fatalf("GIT_INDEX_FILE: exit %d\n%s", code, out)
	}
}

func TestCheckLinkedWorktree(t *testing.T) {
	r := workspaceRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "-b", "feature", wt)
	w := repoAt(t, wt)
	w.Write(progressPath, w.Read(progressPath)+appendedEntry)
	w.Git("add", "-A")
	if code, out, errOut := w.check(nil, "check"); code != exitOK {
		t.Fatalf("append in worktree: exit %d\n%s%s", code, out, errOut)
	}
	w.Write(progressPath, strings.Replace(w.Read(progressPath), "go test ./parser passed", "rewritten", 1))
	w.Git("add", "-A")
	if code, out, _ := w.check(nil, "check"); code != exitFindings {
		t.Fatalf("edit in worktree: exit %d\n%s", code, out)
	}
}

func TestCheckRangeReportsCommit(t *testing.T) {
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Commit("append progress")
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "go test ./parser passed", "rewritten", 1))
	bad := r.Commit("rewrite progress")
	r.Write("README.md", "unrelated\n")
	r.Commit("docs")

	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	if code != exitFindings {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	rep := decodeReport(t, out)
	if rep.Mode != "range" || rep.Summary.Commits != 3 {
		t.Errorf("mode %q commits %d", rep.Mode, rep.Summary.Commits)
	}
	for _, f := range rep.Findings {
		if f.Severity == "error" && f.Commit != bad {
			t.Errorf("finding attributed to %s, want %s: %+v", f.Commit, bad, f)
		}
	}
	code, out, _ = r.check(nil, "check", "--base", base, "--head", bad+"~1")
	if code != exitOK {
		t.Fatalf("clean prefix of the range: exit %d\n%s", code, out)
	}
}

func TestCheckCannotCheck(t *testing.T) {
	r := workspaceRepo(t)
	notRepo := t.TempDir()
	cases := []struct {
		name string
		dir  string
		args []string
	}{
		{"misspelt flag", r.Dir, []string{"check", "--bsae", "HEAD"}},
		{"unknown format", r.Dir, []string{"check", "--format", "xml"}},
		{"not a repository", notRepo, []string{"check"}},
		{"unknown revision", r.Dir, []string{"check", "--base", "no-such-branch"}},
		{"conflicting modes", r.Dir, []string{"check", "--all", "--base", "HEAD"}},
		{"bad output spec", r.Dir, []string{"check", "--output", "sarif"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rr := repoAt(t, tc.dir)
			code, out, errOut := rr.check(nil, tc.args...)
			if code != exitFailure {
				t.Fatalf("exit %d, want %d\n%s%s", code, exitFailure, out, errOut)
			}
			if errOut == "" {
				t.Error("no message on stderr")
			}
		})
	}
}

func TestTextOutputNamesFileLineAndRule(t *testing.T) {
	r := workspaceRepo(t)
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "go test ./parser passed", "rewritten", 1))
	r.Git("add", "-A")
	code, out, _ := r.check(nil, "check")
	if code != exitFindings {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if !strings.Contains(out, progressPath+":") || !strings.Contains(out, "error small/append-only:") {
		t.Errorf("text output lacks path:line: severity rule:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour codes in output that is not a terminal")
	}
}

func TestVersionAndRules(t *testing.T) {
	r := newTestRepo(t)
	code, out, _ := r.check(nil, "--version")
	if code != exitOK || !strings.HasPrefix(out, "small-hook ") {
		t.Errorf("--version: exit %d %q", code, out)
	}
	code, out, _ = r.check(nil, "rules")
	if code != exitOK {
		t.Fatalf("rules: exit %d", code)
	}
	for _, id := range []string{"small/append-only", "small/schema", "smp/append-only", "small/ownership", "secrets"} {
		if !strings.Contains(out, id+" (") {
			t.Errorf("rules output lacks %s", id)
		}
	}
}
