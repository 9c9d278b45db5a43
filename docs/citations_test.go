// Package docs holds the user documentation. Its test checks that every Go
// test a page cites as proof exists.
package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the module root, relative to this package's directory.
const root = ".."

// citedPages are the pages whose citations are checked: docs/*.md and
// the project's top-level documents.
func citedPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"README.md", "CONTRIBUTING.md", "SECURITY.md"} {
		path := filepath.Join(root, name)
		if _, err := os.Stat(path); err == nil {
			pages = append(pages, path)
		}
	}
	return pages
}

// testPackage is one directory's tests: the names of its package (the
// external test package's without _test) and the test, fuzz and benchmark
// functions its _test.go files declare.
type testPackage struct {
	dir   string
	names []string
	funcs map[string]bool
}

// declaredTests parses every _test.go file of the module, whatever its
// build tags, and returns its test functions by directory.
func declaredTests(t *testing.T) map[string]*testPackage {
	t.Helper()
	pkgs := map[string]*testPackage{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(rel)
		p := pkgs[dir]
		if p == nil {
			p = &testPackage{dir: dir, funcs: map[string]bool{}}
			pkgs[dir] = p
		}
		if name := strings.TrimSuffix(file.Name.Name, "_test"); !slices.Contains(p.names, name) {
			p.names = append(p.names, name)
		}
		for _, decl := range file.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && testName.MatchString(fn.Name.Name) {
				p.funcs[fn.Name.Name] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// testName matches the name of a test, fuzz or benchmark function as go
// test finds them: the prefix, then anything but a lower-case letter.
var testName = regexp.MustCompile(`^(?:Test|Fuzz|Benchmark)(?:[^a-z].*)?$`)

// citationPattern finds a cited test in code: an optional package (a
// directory of the module such as cmd/small-hook or rules/scope, or a
// package name such as main or gitdiff) and a dot, the function's name,
// and an optional /subtest.
var citationPattern = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])(?:([A-Za-z0-9_][A-Za-z0-9_/-]*)\.)?((?:Test|Fuzz|Benchmark)[A-Z0-9_][A-Za-z0-9_]*)`)

// citation is one test a page names.
type citation struct {
	line int
	pkg  string
	name string
}

func (c citation) String() string {
	if c.pkg == "" {
		return c.name
	}
	return c.pkg + "." + c.name
}

// citations returns the tests named in the code of a Markdown page: its
// `code spans` and fenced code blocks.
func citations(text string) []citation {
	var out []citation
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		var code []string
		switch {
		case fence != "" && strings.HasPrefix(trimmed, fence):
			fence = ""
		case fence != "":
			code = []string{line}
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		default:
			code = codeSpans(line)
		}
		for _, c := range code {
			for _, m := range citationPattern.FindAllStringSubmatch(c, -1) {
				out = append(out, citation{line: i + 1, pkg: m[1], name: m[2]})
			}
		}
	}
	return out
}

// codeSpans returns the contents of the code spans of one line: text
// between a run of backticks and the next run of the same length.
func codeSpans(line string) []string {
	var out []string
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := 1
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		delim := line[i : i+n]
		end := -1
		for j := i + n; j < len(line); {
			k := strings.Index(line[j:], delim)
			if k < 0 {
				break
			}
			k += j
			if k+n == len(line) || line[k+n] != '`' {
				end = k
				break
			}
			for k < len(line) && line[k] == '`' {
				k++
			}
			j = k
		}
		if end < 0 {
			i += n
			continue
		}
		out = append(out, line[i+n:end])
		i = end + n
	}
	return out
}

// problem says why c names no test of the module, or returns "".
func problem(c citation, pkgs map[string]*testPackage) string {
	var declaredIn []string
	for dir, p := range pkgs {
		if p.funcs[c.name] {
			declaredIn = append(declaredIn, dir)
		}
	}
	slices.Sort(declaredIn)
	if c.pkg == "" {
		if len(declaredIn) == 0 {
			return "no _test.go file of the module declares it"
		}
		return ""
	}
	var candidates []string
	for dir, p := range pkgs {
		if dir == c.pkg || slices.Contains(p.names, c.pkg) || filepath.Base(dir) == c.pkg {
			candidates = append(candidates, dir)
		}
	}
	if len(candidates) == 0 {
		return fmt.Sprintf("%s is no package with tests in the module", c.pkg)
	}
	for _, dir := range candidates {
		if pkgs[dir].funcs[c.name] {
			return ""
		}
	}
	if len(declaredIn) == 0 {
		return "no _test.go file of the module declares it"
	}
	return "it is declared in " + strings.Join(declaredIn, ", ") + ", not in " + c.pkg
}

// TestDocsCiteTestsThatExist: every Go test, fuzz target or benchmark the
// documentation names in code — package.TestName (main. for
// cmd/small-hook), TestName alone, TestName/subtest — is declared in the
// module (a subtest by its top-level test).
func TestDocsCiteTestsThatExist(t *testing.T) {
	pkgs := declaredTests(t)
	total := 0
	for _, page := range citedPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range citations(string(data)) {
			total++
			if why := problem(c, pkgs); why != "" {
				t.Errorf("%s:%d cites `%s`: %s", filepath.ToSlash(page), c.line, c, why)
			}
		}
	}
	if total < 100 {
		t.Errorf("found %d citations: the test no longer reads the pages", total)
	}
}

func TestCitationsAreReadFromCode(t *testing.T) {
	page := "Proved by `main.TestA`, `cmd/small-hook.TestB/sub_test` and `TestC`.\n" +
		"Not by TestD in prose, `newTestRepo`, `Testdata` or `xTestE`.\n" +
		"```sh\ngo test ./rules/scope -run 'TestG|FuzzH' -bench BenchmarkI\n```\n" +
		"`` a `TestJ` inside a double span `` and an unclosed `TestK\n"
	var got []string
	for _, c := range citations(page) {
		got = append(got, fmt.Sprintf("%d:%s", c.line, c))
	}
	want := []string{"1:main.TestA", "1:cmd/small-hook.TestB", "1:TestC", "4:TestG", "4:FuzzH", "4:BenchmarkI", "6:TestJ"}
	if !slices.Equal(got, want) {
		t.Errorf("citations:\n got %v\nwant %v", got, want)
	}
}

func TestCitationProblems(t *testing.T) {
	pkgs := map[string]*testPackage{
		"cmd/small-hook": {dir: "cmd/small-hook", names: []string{"main"}, funcs: map[string]bool{"TestCLI": true}},
		"rules/scope":    {dir: "rules/scope", names: []string{"scope"}, funcs: map[string]bool{"TestUndeclared": true}},
		"hooks":          {dir: "hooks", names: []string{"hooks"}, funcs: map[string]bool{"TestInstall": true}},
	}
	cases := []struct {
		c    citation
		want string
	}{
		{citation{pkg: "main", name: "TestCLI"}, ""},
		{citation{pkg: "cmd/small-hook", name: "TestCLI"}, ""},
		{citation{pkg: "rules/scope", name: "TestUndeclared"}, ""},
		{citation{pkg: "scope", name: "TestUndeclared"}, ""},
		{citation{name: "TestInstall"}, ""},
		{citation{pkg: "hooks", name: "TestHooksPathAndWorktrees"}, "no _test.go file of the module declares it"},
		{citation{name: "TestGone"}, "no _test.go file of the module declares it"},
		{citation{pkg: "hooks", name: "TestCLI"}, "it is declared in cmd/small-hook, not in hooks"},
		{citation{pkg: "nowhere", name: "TestCLI"}, "nowhere is no package with tests in the module"},
	}
	for _, tc := range cases {
		if got := problem(tc.c, pkgs); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.c, got, tc.want)
		}
	}
}
