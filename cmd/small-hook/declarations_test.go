package main

import (
	"strings"
	"testing"
)

// did is the identity the awp-written fixtures record.
const did = "'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'"

// spelledDeclarations are the awp-written artifact (testdata/smp, v1)
// with its declaration written as YAML allows and awp's reader (js-yaml)
// and yaml.v3 read it, though no line of it reads "smp: …" or "type:
// knowledge-artifact".
func spelledDeclarations(t *testing.T) map[string]string {
	v1 := smpFixture(t, "llm-context-research.v1.md")
	const plain = "smp: '1.0'\ntype: knowledge-artifact\n"
	if !strings.Contains(v1, plain) {
		t.Fatal("the fixture no longer declares itself as awp writes it")
	}
	spell := func(with string) string { return strings.Replace(v1, plain, with, 1) }
	return map[string]string{
		"a flow mapping": "---\n{awp: 0.4.0, smp: '1.0', type: knowledge-artifact, id: 'artifact:llm-context-research',\n" +
			"  title: LLM Context Window Research, authors: [" + did + "], version: 1, confidence: 0.6,\n" +
			"  tags: [ai-research, context-windows], created: '2026-11-22T10:09:02.571Z',\n" +
			"  lastModified: '2026-11-22T10:09:02.571Z', modifiedBy: " + did + ",\n" +
			"  provenance: [{agent: " + did + ", action: created, timestamp: '2026-11-22T10:09:02.571Z'}]}\n" +
			"---\n\n# LLM Context Window Research\n",
		"explicit keys": spell("? smp\n: '1.0'\n? type\n: knowledge-artifact\n"),
		"tags":          spell("!!str smp: '1.0'\ntype: !!str knowledge-artifact\n"),
		// awp's reader asks for type alone; smp/schema reports the missing
		// smp besides.
		"a tab before a comment": spell("type: knowledge-artifact\t# written by awp\n"),
	}
}

// TestDeclarationsAsYAMLReadsThem: an artifact that declares itself in
// any spelling YAML readers accept is governed: an agent's rewrite of its
// provenance is refused staged, in a range and over the whole history.
func TestDeclarationsAsYAMLReadsThem(t *testing.T) {
	for name, content := range spelledDeclarations(t) {
		t.Run(name, func(t *testing.T) {
			r := newTestRepo(t)
			r.Write("README.md", "x\n")
			base := r.Commit("start")
			r.Write("artifacts/llm-context-research.md", content)
			r.Commit("add the artifact")
			rewritten := strings.Replace(content, "action: created", "action: updated", 1)
			if rewritten == content {
				t.Fatal("nothing to rewrite")
			}
			r.Write("artifacts/llm-context-research.md", rewritten)
			r.Git("add", "-A")
			want := "smp/append-only artifacts/llm-context-research.md"
			expectError(t, "staged", r, want, "check", "--format", "json")
			r.Git("commit", "-q", "--no-verify", "-m", "tidy\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
			expectError(t, "range", r, want, "check", "--base", base, "--format", "json")
			expectError(t, "history", r, want, "check", "--history", "--format", "json")
		})
	}
}

// TestSMPFalseDeclaresNothing: a page whose frontmatter says smp: false
// (another tool's page kept in artifacts/) is not governed: not judged,
// not counted, in any mode.
func TestSMPFalseDeclaresNothing(t *testing.T) {
	r := newTestRepo(t)
	page := "---\nlayout: post\ntitle: Release notes\nsmp: false\n---\n\nNotes.\n"
	r.Write("artifacts/release-notes.md", page)
	base := r.Commit("a page")
	r.Write("artifacts/release-notes.md", strings.Replace(page, "Notes.", "More notes.", 1))
	r.Git("add", "-A")
	for _, args := range [][]string{{"check"}, {"check", "--all"}} {
		code, out, errOut := r.check(nil, append(args, "--format", "json")...)
		if rep := decodeReport(t, out); code != exitOK || rep.Summary.Files != 0 {
			t.Errorf("%s: exit %d, %d files checked, findings %+v\n%s", strings.Join(args, " "), code, rep.Summary.Files, rep.Findings, errOut)
		}
	}
	r.Commit("edit the page")
	for _, args := range [][]string{{"check", "--base", base}, {"check", "--history"}} {
		code, out, errOut := r.check(nil, append(args, "--format", "json")...)
		if rep := decodeReport(t, out); code != exitOK || rep.Summary.Files != 0 {
			t.Errorf("%s: exit %d, %d files checked, findings %+v\n%s", strings.Join(args, " "), code, rep.Summary.Files, rep.Findings, errOut)
		}
	}
}

// jekyllPage is another tool's page: a frontmatter that declares nothing.
const jekyllPage = "---\nlayout: post\ntitle: LLM Context Window Research\ndate: 2026-11-01\n---\n\n# LLM Context Window Research\n"

// TestAdoptingSMPForAPage: another tool's page in artifacts/ that gains a
// complete SMP frontmatter is a new artifact, staged and in a range, on
// its own and in an AWP workspace (which governed the page before).
func TestAdoptingSMPForAPage(t *testing.T) {
	v1 := smpFixture(t, "llm-context-research.v1.md")
	for _, marker := range []bool{false, true} {
		r := newTestRepo(t)
		if marker {
			r.Write(".awp/workspace.json", "{}\n")
		}
		r.Write("artifacts/llm-context-research.md", jekyllPage)
		base := r.Commit("a page")
		r.Write("artifacts/llm-context-research.md", v1)
		r.Git("add", "-A")
		expectError(t, "staged", r, "", "check", "--format", "json")
		r.Commit("adopt SMP for the page")
		expectError(t, "range", r, "", "check", "--base", base, "--format", "json")
		expectError(t, "push", r, "", "check", "--previous", base, "--format", "json")
	}
}

// TestStartingToDeclareRestartsNothing: an agent cannot give an artifact
// a new history by stripping its declaration (another tool's
// frontmatter) and declaring it again: the strip is smp/undeclared in
// every check of a range.
func TestStartingToDeclareRestartsNothing(t *testing.T) {
	r := newTestRepo(t)
	path := "docs/artifacts/llm-context-research.md"
	v1 := smpFixture(t, "llm-context-research.v1.md")
	r.Write(path, v1)
	base := r.Commit("artifact")
	r.Write(path, jekyllPage)
	r.Commit("strip\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	r.Write(path, strings.ReplaceAll(v1, "2026-11-22T10:09:02.571Z", "2026-10-01T00:00:00.000Z"))
	r.Commit("declare again\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	expectError(t, "range", r, "smp/undeclared "+path, "check", "--base", base, "--format", "json")
	expectError(t, "history", r, "smp/undeclared "+path, "check", "--history", "--format", "json")
	expectError(t, "push", r, "smp/undeclared "+path, "check", "--previous", base, "--format", "json")
}
