package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/cmd/scm"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/sources"

	"github.com/small-hook/small-hook/internal/gittest"
	"github.com/small-hook/small-hook/internal/leakstest"
)

// gitleaksCLI runs gitleaks, the module small-hook imports, as its CLI
// runs with its default settings in the repository at dir: its default
// rules (the corpus has no .gitleaks.toml), its decoder to depth 5, on the
// source the CLI reads for the arguments (`git --pre-commit --staged`,
// `git --log-opts=<range>`, `dir`). It returns the findings in governed
// files, as path:line:secrets/rule.
func gitleaksCLI(t *testing.T, dir, source, logOpts string) []string {
	t.Helper()
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	d.MaxDecodeDepth = 5
	d.Config.Path = filepath.Join(dir, ".gitleaks.toml")
	ctx := context.Background()
	var src sources.Source
	switch source {
	case "staged", "log":
		var cmd *sources.GitCmd
		if source == "staged" {
			cmd, err = sources.NewGitDiffCmdContext(ctx, dir, true)
		} else {
			cmd, err = sources.NewGitLogCmdContext(ctx, dir, logOpts)
		}
		if err != nil {
			t.Fatal(err)
		}
		src = &sources.Git{Cmd: cmd, Config: &d.Config, Remote: sources.NewRemoteInfoContext(ctx, scm.NoPlatform, dir), Sema: d.Sema}
	case "dir":
		src = &sources.Files{Config: &d.Config, Path: dir, Sema: d.Sema}
	}
	found, err := d.DetectSource(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range found {
		path := filepath.ToSlash(strings.TrimPrefix(f.File, dir+string(filepath.Separator)))
		if strings.Contains(f.Line, "did:key:"+f.Secret) {
			// The one difference by design: gitleaks' generic rule takes
			// awp's did:key identifiers, public keys, for keys.
			continue
		}
		if governedPath(path) {
			out = append(out, fmt.Sprintf("%s:%d:secrets/%s", path, f.StartLine, f.RuleID))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// governedPath reports the paths of the differential corpus's workspaces.
func governedPath(p string) bool {
	return strings.HasPrefix(p, ".small/") || strings.HasPrefix(p, ".awp/") || strings.HasPrefix(p, "artifacts/")
}

// gitOnlyIsolated cuts the git commands gitleaks runs (with this
// process's environment) off from the user's configuration and from a
// repository the environment names, as internal/gittest does for its own.
func gitOnlyIsolated(t *testing.T) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "GIT_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	for _, kv := range gittest.Isolation() {
		name, value, _ := strings.Cut(kv, "=")
		t.Setenv(name, value)
	}
}

// differentialFiles returns the files of the corpus, by path: every fake
// secret in every encoding gitleaks' decoder reads, in the formats of
// protocol state (Markdown, TOML, JSON, YAML), split by Markdown markup,
// behind YAML and JSON escapes, on a long line; and the targets of links.
func differentialFiles() (files, links map[string]string) {
	files, links = map[string]string{}, map[string]string{}
	formats := []struct{ path, text string }{
		{".awp/notes-%d.md", "# Notes\n\ndeployed with %s today\n"},
		{".awp/settings-%d.toml", "name = \"x\"\ntoken = \"%s\"\n"},
		{".awp/state-%d.json", "{\n  \"name\": \"x\",\n  \"token\": \"%s\"\n}\n"},
		{".small/ext/tool-%d.yml", "notes: %s\n"},
	}
	n := 0
	for _, secret := range []string{fakeAWS, fakeGitHub, fakeSlack, fakeStripe, fakeKey} {
		forms := leakstest.Forms(secret)
		for _, form := range forms {
			f := formats[n%len(formats)]
			files[fmt.Sprintf(f.path, n)] = fmt.Sprintf(f.text, form)
			n++
		}
		half := len(secret) / 2
		files[fmt.Sprintf("artifacts/split-%d.md", n)] = "# Notes\n\n" + secret[:half] + "<!--\n-->" + secret[half:] + "\n\nx **" + secret[:half] + "**" + secret[half:] + "\n"
		files[fmt.Sprintf(".small/ext/escaped-%d.yml", n)] = "notes: \"\\x" + hex.EncodeToString([]byte(secret[:1])) + secret[1:] + "\"\n"
		files[fmt.Sprintf(".awp/escaped-%d.json", n)] = "{\"token\": \"\\u00" + hex.EncodeToString([]byte(secret[:1])) + secret[1:] + "\"}\n"
		files[fmt.Sprintf(".awp/long-%d.md", n)] = "a\n" + strings.Repeat("lorem ipsum ", 200) + secret + " " + strings.Repeat("dolor ", 300) + "\nb\n"
		links[fmt.Sprintf(".awp/link-%d", n)] = strings.SplitN(forms[n%2], "\n", 2)[0]
		n++
	}
	return files, links
}

// TestNeverWeakerThanGitleaksThroughGit holds small-hook to gitleaks
// through real git, on the secret corpus and on changes to the
// reference workspaces' files: staged (`gitleaks git --pre-commit
// --staged`), in a range (`gitleaks git --log-opts=<base>..HEAD`) and as
// a tree (`gitleaks dir`, which does not follow links), whatever gitleaks
// reports in a governed file small-hook reports at the same line, under
// the same rule.
func TestNeverWeakerThanGitleaksThroughGit(t *testing.T) {
	gitOnlyIsolated(t)
	r := workspaceRepo(t)
	r.Write(".awp/workspace.json", "{}\n")
	r.Write(artifactPath, smpFixture(t, "llm-context-research.v1.md"))
	base := r.Commit("an AWP workspace")
	files, links := differentialFiles()
	// Changes to files that were there: an entry appended, a line
	// inserted, a paragraph added.
	files[progressPath] = r.Read(progressPath) + strings.Replace(appendedEntry, "go vet ./... is clean", "deployed with "+hex.EncodeToString([]byte(fakeGitHub)), 1)
	files[".small/plan.small.yml"] = strings.Replace(r.Read(".small/plan.small.yml"), "tasks:\n", "tasks:\n    - id: task-0\n      title: "+base64.StdEncoding.EncodeToString([]byte(fakeStripe))+"\n", 1)
	files[artifactPath] = r.Read(artifactPath) + "\npushed with " + fakeSlack[:10] + "<span></span>" + fakeSlack[10:] + "\n"
	for p, content := range files {
		r.Write(p, content)
	}
	for p, target := range links {
		stageLink(r, p, target)
	}
	r.Git("add", "-A")
	compare := func(name string, want []string, args ...string) {
		t.Helper()
		if len(want) < 40 {
			t.Fatalf("%s: gitleaks reports %d findings: the corpus proves little\n%s", name, len(want), strings.Join(want, "\n"))
		}
		code, out, errOut := r.check(nil, append(args, "--format", "json")...)
		if code != exitFindings {
			t.Fatalf("%s: exit %d\n%s%s", name, code, out, errOut)
		}
		got := map[string]bool{}
		for _, f := range decodeReport(t, out).Findings {
			got[fmt.Sprintf("%s:%d:%s", f.Path, f.Line, strings.Replace(f.Rule, "secrets/gitleaks:", "secrets/", 1))] = true
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("%s: gitleaks reports %s, small-hook does not", name, w)
			}
		}
	}
	compare("staged", gitleaksCLI(t, r.Dir, "staged", ""), "check")
	r.Git("commit", "-q", "--no-verify", "-m", "the corpus")
	compare("range", gitleaksCLI(t, r.Dir, "log", base+"..HEAD"), "check", "--base", base)
	compare("tree", gitleaksCLI(t, r.Dir, "dir", ""), "check", "--all")
}
