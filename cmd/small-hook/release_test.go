//go:build e2e

package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// moduleRoot is the root of this checkout: the action's own directory.
const moduleRoot = "../.."

// buildSmallHook builds cmd/small-hook into dir with the extra go build
// flags and returns the binary's path.
func buildSmallHook(t testing.TB, dir string, flags ...string) string {
	t.Helper()
	bin := filepath.Join(dir, "small-hook"+exeSuffix())
	args := append(append([]string{"build", "-trimpath"}, flags...), "-o", bin, ".")
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// versionOf runs `small-hook --version`.
func versionOf(t testing.TB, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	return strings.TrimSpace(string(out))
}

// TestVersionStampedAtLinkTime: a release build sets the version with
// -ldflags, and it is what --version and the JSON report say.
func TestVersionStampedAtLinkTime(t *testing.T) {
	bin := buildSmallHook(t, t.TempDir(), "-buildvcs=false", "-ldflags=-X main.stampedVersion=v1.2.3")
	if got := versionOf(t, bin); got != "small-hook v1.2.3" {
		t.Fatalf("--version of a build stamped v1.2.3 says %q", got)
	}
	r := workspaceRepo(t)
	out, _ := runIn(t, r.Dir, cleanEnv(), bin, "check", "--all", "--format", "json")
	if rep := decodeReport(t, out); rep.Version != "v1.2.3" {
		t.Errorf("the JSON report's version is %q, want v1.2.3", rep.Version)
	}
}

func TestVersionOfAnUnstampedBuildIsDevel(t *testing.T) {
	bin := buildSmallHook(t, t.TempDir(), "-buildvcs=false")
	if got := versionOf(t, bin); got != "small-hook devel" {
		t.Fatalf("--version of a build without version information says %q", got)
	}
}

// TestVersionFromModuleVersion: without a stamp, the version is the one
// the go command recorded, here from a checkout at the tag v1.2.3 (as `go
// install …@v1.2.3` records the module's version).
func TestVersionFromModuleVersion(t *testing.T) {
	src := t.TempDir()
	copyModule(t, moduleRoot, src)
	r := repoAt(t, src)
	r.Git("init", "-q", "-b", "main")
	if top, real := r.Git("rev-parse", "--show-toplevel"), mustEvalSymlinks(t, src); top != real {
		t.Fatalf("the copy's git commands reach the repository at %s", top)
	}
	r.Commit("release")
	r.Git("tag", "v1.2.3")
	bin := filepath.Join(t.TempDir(), "small-hook"+exeSuffix())
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/small-hook")
	cmd.Dir = src
	cmd.Env = append(cleanEnv(), "GOFLAGS=-buildvcs=true", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if got := versionOf(t, bin); got != "small-hook v1.2.3" {
		t.Fatalf("--version of a build at the tag v1.2.3 says %q", got)
	}
}

func mustEvalSymlinks(t *testing.T, path string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// copyModule copies what building small-hook needs: every file of the
// module but tests, test data, git metadata and release output.
func copyModule(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			// A directory, or in a linked worktree a file naming the
			// git directory: git in the copy must never reach this
			// checkout's repository.
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "dist", "out":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(d.Name(), "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// releaseArchiveName is the name GoReleaser gives the archive of a
// release for one platform (.goreleaser.yaml: archives.name_template).
func releaseArchiveName(tag, goos, goarch string) string {
	format := "tar.gz"
	if goos == "windows" {
		format = "zip"
	}
	return "small-hook_" + strings.TrimPrefix(tag, "v") + "_" + goos + "_" + goarch + "." + format
}

// packArchive packs a release archive for this platform as GoReleaser
// does: the binary, LICENSE and README.md at the top level.
func packArchive(t testing.TB, binary []byte) []byte {
	t.Helper()
	files := []struct {
		name string
		mode int64
		data []byte
	}{{"small-hook" + exeSuffix(), 0o755, binary}}
	for _, name := range []string{"LICENSE", "README.md"} {
		data, err := os.ReadFile(filepath.Join(moduleRoot, name))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, struct {
			name string
			mode int64
			data []byte
		}{name, 0o644, data})
	}
	var buf bytes.Buffer
	if runtime.GOOS == "windows" {
		zw := zip.NewWriter(&buf)
		for _, f := range files {
			w, err := zw.Create(f.name)
			if err == nil {
				_, err = w.Write(f.data)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// releaseBinary builds small-hook stamped with tag, as the release build
// does, and returns the binary's content.
func releaseBinary(t testing.TB, tag string) []byte {
	t.Helper()
	bin := buildSmallHook(t, t.TempDir(), "-buildvcs=false", "-ldflags=-s -w -X main.stampedVersion="+tag)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checksumLine is one line of GoReleaser's checksums.txt.
func checksumLine(name string, data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]) + "  " + name + "\n"
}

// releaseServer serves release assets as GitHub does, under
// /<tag>/<name>, and records the paths it was asked for.
type releaseServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
}

// serveRelease serves files (name → content) as the assets of tag; a
// status in statuses (name → HTTP status) answers that name instead.
// Everything else is 404.
func serveRelease(t testing.TB, tag string, files map[string][]byte, statuses map[string]int) *releaseServer {
	t.Helper()
	s := &releaseServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, req.URL.Path)
		s.mu.Unlock()
		name, ok := strings.CutPrefix(req.URL.Path, "/"+tag+"/")
		if status, found := statuses[name]; ok && found {
			http.Error(w, http.StatusText(status), status)
			return
		}
		data, found := files[name]
		if !ok || !found {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data)
	}))
	t.Cleanup(s.Close)
	return s
}

// asked returns the paths the server was asked for.
func (s *releaseServer) asked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// actionCheckout returns a directory named as the runner names the
// checkout of the action at ref (…/_actions/small-hook/small-hook/<ref>),
// holding this checkout.
func actionCheckout(t testing.TB, ref string) string {
	t.Helper()
	root, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "_actions", "small-hook", "small-hook")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ref)
	if err := os.Symlink(root, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// useRelease is a workflow using the action at tag, with the releases
// served by s.
func useRelease(t testing.TB, tag string, s *releaseServer) actionUse {
	return actionUse{ref: tag, path: actionCheckout(t, tag), env: []string{"SMALL_HOOK_RELEASES_URL=" + s.URL}}
}

// pullRequest makes a repository with a pull request whose commit is
// made by change, and returns the repository and the event payload.
func pullRequest(t *testing.T, change func(*testRepo)) (*testRepo, string) {
	t.Helper()
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	change(r)
	head := r.Commit("pull request change")
	return r, pullRequestEvent(base, head)
}

// writeAppendedEntry appends an entry to progress, uncommitted.
func writeAppendedEntry(r *testRepo) { r.Write(progressPath, r.Read(progressPath)+appendedEntry) }

// sarifVersion returns tool.driver.version of a SARIF file.
func sarifVersion(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string `json:"version"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%s is not a SARIF log with one run: %v", file, err)
	}
	return log.Runs[0].Tool.Driver.Version
}

const releaseTag = "v1.2.3"

func TestGitHubActionDownloadsVerifiedRelease(t *testing.T) {
	archive := releaseArchiveName(releaseTag, runtime.GOOS, runtime.GOARCH)
	data := packArchive(t, releaseBinary(t, releaseTag))
	server := serveRelease(t, releaseTag, map[string][]byte{
		archive:         data,
		"checksums.txt": []byte(checksumLine("small-hook_1.2.3_other_os.tar.gz", []byte("other")) + checksumLine(archive, data)),
	}, nil)
	cases := []struct {
		name     string
		change   func(*testRepo)
		exitCode string
	}{
		{"a rewrite of progress history fails", rewriteProgress, "1"},
		{"an append passes", writeAppendedEntry, "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, event := pullRequest(t, c.change)
			run := runActionAs(t, useRelease(t, releaseTag, server), r.Dir, map[string]string{"sarif-file": "results.sarif"}, "pull_request", event)
			if run.outputs["exit-code"] != c.exitCode || strconv.Itoa(run.status) != c.exitCode {
				t.Fatalf("exit-code output %q, status %d, want %s:\n%s", run.outputs["exit-code"], run.status, c.exitCode, run.log)
			}
			if run.didRun("Build small-hook") || !slices.Contains(run.skipped, "actions/setup-go@v5") {
				t.Errorf("a verified release download still set up Go or built small-hook (ran %v)", run.ran)
			}
			if !strings.Contains(run.log, "small-hook: "+releaseTag+" for "+runtime.GOOS+"/"+runtime.GOARCH) ||
				!strings.Contains(run.log, "SHA-256 verified") {
				t.Errorf("the log does not say which release was verified:\n%s", run.log)
			}
			if v := sarifVersion(t, filepath.Join(r.Dir, "results.sarif")); v != releaseTag {
				t.Errorf("the check ran small-hook %q, not the downloaded %s", v, releaseTag)
			}
		})
	}
	once := []string{"/" + releaseTag + "/checksums.txt", "/" + releaseTag + "/" + archive}
	if got, want := server.asked(), slices.Concat(once, once); !slices.Equal(got, want) {
		t.Errorf("the action asked for %v, want %v (checksums first, once per run)", got, want)
	}
}

// TestGitHubActionRefusesUntrustedRelease: a release that exists but
// cannot be verified fails the step; nothing from it runs and small-hook
// is not built instead.
func TestGitHubActionRefusesUntrustedRelease(t *testing.T) {
	archive := releaseArchiveName(releaseTag, runtime.GOOS, runtime.GOARCH)
	genuine := packArchive(t, releaseBinary(t, releaseTag))
	// What a hostile mirror would serve: a binary that passes every check.
	hostile := packArchive(t, []byte("#!/bin/sh\necho HOSTILE BINARY RAN\necho exit-code=0 >> \"$GITHUB_OUTPUT\"\nexit 0\n"))
	binDirBinary, err := os.ReadFile(smallHook.path(t))
	if err != nil {
		t.Fatal(err)
	}
	otherVersion := packArchive(t, binDirBinary)
	cases := []struct {
		name      string
		files     map[string][]byte
		statuses  map[string]int
		wantError string
	}{
		{"a tampered archive", map[string][]byte{
			archive: hostile, "checksums.txt": []byte(checksumLine(archive, genuine)),
		}, nil, "SHA-256 mismatch for " + archive},
		{"a corrupted download", map[string][]byte{
			archive: genuine[:len(genuine)/2], "checksums.txt": []byte(checksumLine(archive, genuine)),
		}, nil, "SHA-256 mismatch for " + archive},
		{"checksums.txt that does not list the archive", map[string][]byte{
			archive: hostile, "checksums.txt": []byte(checksumLine(archive+".sig", hostile)),
		}, nil, "does not list " + archive + " exactly once"},
		{"checksums.txt listing the archive twice", map[string][]byte{
			archive: hostile, "checksums.txt": []byte(checksumLine(archive, genuine) + checksumLine(archive, hostile)),
		}, nil, "does not list " + archive + " exactly once"},
		{"a checksum that is not a SHA-256", map[string][]byte{
			archive: hostile, "checksums.txt": []byte("da39a3ee5e6b4b0d3255bfef95601890afd80709  " + archive + "\n"),
		}, nil, "not a SHA-256"},
		{"an archive of another version with its own checksum", map[string][]byte{
			archive: otherVersion, "checksums.txt": []byte(checksumLine(archive, otherVersion)),
		}, nil, "not 'small-hook " + releaseTag + "'"},
		{"checksums.txt forbidden", nil, map[string]int{"checksums.txt": http.StatusForbidden}, "HTTP 403"},
		{"the archive forbidden", map[string][]byte{"checksums.txt": []byte(checksumLine(archive, genuine))},
			map[string]int{archive: http.StatusForbidden}, "HTTP 403"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			server := serveRelease(t, releaseTag, c.files, c.statuses)
			r, event := pullRequest(t, rewriteProgress)
			run := runActionAs(t, useRelease(t, releaseTag, server), r.Dir, nil, "pull_request", event)
			if run.status == 0 {
				t.Fatalf("the action succeeded with an untrusted release:\n%s", run.log)
			}
			if !strings.Contains(run.log, "::error title=small-hook release download::") || !strings.Contains(run.log, c.wantError) {
				t.Errorf("the failure does not say %q as an error annotation:\n%s", c.wantError, run.log)
			}
			if strings.Contains(run.log, "HOSTILE BINARY RAN") {
				t.Errorf("the unverified binary ran:\n%s", run.log)
			}
			if !slices.Equal(run.ran, []string{"Download the release binary"}) {
				t.Errorf("steps after the failed download ran: %v", run.ran)
			}
			if run.outputs["exit-code"] != "" {
				t.Errorf("an exit-code %q was reported although no check ran", run.outputs["exit-code"])
			}
		})
	}
}

// TestGitHubActionBuildsWhenThereIsNoRelease: refs that name no release,
// and releases that do not exist, build small-hook from the action's
// checkout and check with it.
func TestGitHubActionBuildsWhenThereIsNoRelease(t *testing.T) {
	archive := releaseArchiveName(releaseTag, runtime.GOOS, runtime.GOARCH)
	cases := []struct {
		name string
		use  func(t *testing.T, s *releaseServer) actionUse
		// files are the release's assets; asked is what the action may
		// ask the server for.
		files map[string][]byte
		asked []string
		says  string
	}{
		{"a release tag without a release (HTTP 404)", func(t *testing.T, s *releaseServer) actionUse {
			return useRelease(t, releaseTag, s)
		}, nil, []string{"/" + releaseTag + "/checksums.txt"}, "HTTP 404"},
		{"a release without an archive for this runner", func(t *testing.T, s *releaseServer) actionUse {
			return useRelease(t, releaseTag, s)
		}, map[string][]byte{"checksums.txt": []byte(checksumLine("small-hook_1.2.3_plan9_mips.tar.gz", []byte("x")))},
			[]string{"/" + releaseTag + "/checksums.txt", "/" + releaseTag + "/" + archive}, "has no " + archive},
		{"a branch", func(t *testing.T, s *releaseServer) actionUse {
			return actionUse{ref: "main", path: actionCheckout(t, "main"), env: []string{"SMALL_HOOK_RELEASES_URL=" + s.URL}}
		}, nil, nil, "is not a release version"},
		{"a commit SHA", func(t *testing.T, s *releaseServer) actionUse {
			sha := strings.Repeat("0123456789", 4)
			return actionUse{ref: sha, path: actionCheckout(t, sha), env: []string{"SMALL_HOOK_RELEASES_URL=" + s.URL}}
		}, nil, nil, "is not a release version"},
		{"a moving major tag", func(t *testing.T, s *releaseServer) actionUse {
			return actionUse{ref: "v1", path: actionCheckout(t, "v1"), env: []string{"SMALL_HOOK_RELEASES_URL=" + s.URL}}
		}, nil, nil, "is not a release version"},
		{"a release ref that is not the checkout's (a composite action inside another)", func(t *testing.T, s *releaseServer) actionUse {
			return actionUse{ref: releaseTag, path: actionCheckout(t, "v9.9.9"), env: []string{"SMALL_HOOK_RELEASES_URL=" + s.URL}}
		}, nil, nil, "is not the name of its checkout"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			server := serveRelease(t, releaseTag, c.files, nil)
			r, event := pullRequest(t, rewriteProgress)
			run := runActionAs(t, c.use(t, server), r.Dir, nil, "pull_request", event)
			if !run.didRun("actions/setup-go@v5") || !run.didRun("Build small-hook") {
				t.Fatalf("small-hook was not built (ran %v):\n%s", run.ran, run.log)
			}
			if !strings.Contains(run.log, c.says) || !strings.Contains(run.log, "building small-hook from the action's source") {
				t.Errorf("the log does not say %q and that small-hook is built:\n%s", c.says, run.log)
			}
			if run.outputs["exit-code"] != "1" || run.status != 1 {
				t.Errorf("the built small-hook did not fail the rewrite: exit-code %q, status %d\n%s", run.outputs["exit-code"], run.status, run.log)
			}
			if got := server.asked(); !slices.Equal(got, c.asked) {
				t.Errorf("the action asked the release server for %v, want %v", got, c.asked)
			}
		})
	}
}

// goreleaserConfig is the part of .goreleaser.yaml the action and
// --version rely on.
type goreleaserConfig struct {
	Version     int    `yaml:"version"`
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
		ModTime string   `yaml:"mod_timestamp"`
	} `yaml:"builds"`
	Archives []struct {
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
		NameTemplate string `yaml:"name_template"`
		Files        []struct {
			Src string `yaml:"src"`
		} `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
}

// TestReleaseConfigIsWhatTheActionDownloads: the archives GoReleaser
// builds are the ones the action's download step asks for (the names
// releaseArchiveName gives, which the download tests serve), and the
// version is stamped into the variable --version reads.
func TestReleaseConfigIsWhatTheActionDownloads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c goreleaserConfig
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if c.Version != 2 || c.ProjectName != "small-hook" || len(c.Builds) != 1 || len(c.Archives) != 1 {
		t.Fatalf("not one GoReleaser v2 build and archive of small-hook: %+v", c)
	}
	b, a := c.Builds[0], c.Archives[0]
	if b.Main != "./cmd/small-hook" || b.Binary != "small-hook" || !slices.Contains(b.Env, "CGO_ENABLED=0") ||
		!slices.Contains(b.Flags, "-trimpath") || b.ModTime != "{{ .CommitTimestamp }}" {
		t.Errorf("the build is not a static, reproducible build of cmd/small-hook: %+v", b)
	}
	if !slices.Equal(b.Goos, []string{"linux", "darwin", "windows"}) || !slices.Equal(b.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("platforms %v × %v", b.Goos, b.Goarch)
	}
	if len(b.Ldflags) != 1 || !strings.Contains(b.Ldflags[0], "-X main.stampedVersion=v{{ .Version }}") {
		t.Errorf("ldflags %v do not stamp main.stampedVersion with the tag", b.Ldflags)
	}
	if a.NameTemplate != "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}" ||
		releaseArchiveName("v1.2.3", "linux", "arm64") != "small-hook_1.2.3_linux_arm64.tar.gz" {
		t.Errorf("archive names %q differ from the ones the action downloads", a.NameTemplate)
	}
	if !slices.Equal(a.Formats, []string{"tar.gz"}) || len(a.FormatOverrides) != 1 ||
		a.FormatOverrides[0].Goos != "windows" || !slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"}) {
		t.Errorf("formats %v %+v, want tar.gz and zip on windows", a.Formats, a.FormatOverrides)
	}
	var files []string
	for _, f := range a.Files {
		files = append(files, f.Src)
	}
	if !slices.Equal(files, []string{"LICENSE", "README.md"}) {
		t.Errorf("archives hold %v besides the binary, want LICENSE and README.md", files)
	}
	if c.Checksum.NameTemplate != "checksums.txt" || c.Checksum.Algorithm != "sha256" {
		t.Errorf("checksums %+v, want a SHA-256 checksums.txt", c.Checksum)
	}
	script, err := os.ReadFile(filepath.Join(moduleRoot, "action", "download-release.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), `archive="small-hook_${ref#v}_${os}_${arch}.${format}"`) {
		t.Error("the download step no longer names archives as .goreleaser.yaml does")
	}
}

// benchPullRequest is a repository with a pull request appending progress,
// and its event payload.
func benchPullRequest(b *testing.B) (*testRepo, string) {
	b.Helper()
	r := newTestRepo(b)
	r.copyDir(fixtureInit, ".small")
	base := r.Commit("small init")
	writeAppendedEntry(r)
	return r, pullRequestEvent(base, r.Commit("progress"))
}

// reportSteps reports the time a run spent getting small-hook (download,
// or setting up Go and building) and checking, in milliseconds.
func reportSteps(b *testing.B, runs []actionRun) {
	b.Helper()
	var obtain, check time.Duration
	for _, run := range runs {
		for label, took := range run.took {
			if label == "Check" {
				check += took
			} else {
				obtain += took
			}
		}
	}
	n := float64(len(runs))
	b.ReportMetric(float64(obtain.Milliseconds())/n, "obtain-ms/op")
	b.ReportMetric(float64(check.Milliseconds())/n, "check-ms/op")
}

// BenchmarkGitHubActionReleaseDownload runs the action at a release tag
// against a local release server: download, verification, extraction
// and the check.
func BenchmarkGitHubActionReleaseDownload(b *testing.B) {
	archive := releaseArchiveName(releaseTag, runtime.GOOS, runtime.GOARCH)
	data := packArchive(b, releaseBinary(b, releaseTag))
	server := serveRelease(b, releaseTag, map[string][]byte{archive: data, "checksums.txt": []byte(checksumLine(archive, data))}, nil)
	r, event := benchPullRequest(b)
	use := useRelease(b, releaseTag, server)
	var runs []actionRun
	for b.Loop() {
		run := runActionAs(b, use, r.Dir, nil, "pull_request", event)
		if run.status != 0 || run.didRun("Build small-hook") {
			b.Fatalf("the download path failed or built:\n%s", run.log)
		}
		runs = append(runs, run)
	}
	reportSteps(b, runs)
}

// BenchmarkGitHubActionBuildFromSource runs the action at a branch, as on
// a fresh runner: empty module and build caches, so the build downloads
// every module from the module proxy and compiles everything.
func BenchmarkGitHubActionBuildFromSource(b *testing.B) {
	r, event := benchPullRequest(b)
	var runs []actionRun
	for b.Loop() {
		b.StopTimer()
		caches := b.TempDir()
		use := actionUse{ref: "main", env: []string{
			"GOCACHE=" + filepath.Join(caches, "build"), "GOMODCACHE=" + filepath.Join(caches, "mod"),
			// The module cache is read-only unless -modcacherw; the
			// action's checkout of a release has no VCS information.
			"GOFLAGS=-modcacherw -buildvcs=false",
		}}
		b.StartTimer()
		run := runActionAs(b, use, r.Dir, nil, "pull_request", event)
		if run.status != 0 || !run.didRun("Build small-hook") {
			b.Fatalf("the build path failed or did not build:\n%s", run.log)
		}
		runs = append(runs, run)
	}
	reportSteps(b, runs)
}

// didRun reports whether the step with this label ran.
func (r actionRun) didRun(label string) bool { return slices.Contains(r.ran, label) }
