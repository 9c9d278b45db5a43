package registry_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// TestEveryRuleIsInTheFileItsIDNames: rule family/name is declared in
// rules/<family>/<name>.go, and a rule whose ID is its family's name
// (secrets) in rules/<family>/<family>.go: that file, and no other, holds
// the rules.Rule literal whose ID is the rule's, and the rule's Run
// function is written there. Every other file of a family is named in the
// package's documentation, which says what it holds, and every rule ID a
// family declares is registered.
func TestEveryRuleIsInTheFileItsIDNames(t *testing.T) {
	all := registry.All()
	families := map[string]bool{}
	for _, r := range all {
		family, name, ok := strings.Cut(r.ID, "/")
		if !ok {
			name = family
		}
		families[family] = true
		want := name + ".go"
		files := declaredIn(t, filepath.Join("..", family))[r.ID]
		if !slices.Equal(files, []string{want}) {
			t.Errorf("%s is declared in %q of rules/%s, want only in %s", r.ID, files, family, want)
		}
		if r.Run == nil {
			continue
		}
		file, _ := runtime.FuncForPC(reflect.ValueOf(r.Run).Pointer()).FileLine(reflect.ValueOf(r.Run).Pointer())
		if got := filepath.ToSlash(file); !strings.HasSuffix(got, "/rules/"+family+"/"+want) {
			t.Errorf("%s runs code written in %s, want rules/%s/%s", r.ID, got, family, want)
		}
	}
	for family := range families {
		dir := filepath.Join("..", family)
		for id := range declaredIn(t, dir) {
			if rules.Lookup(all, id) == nil || rules.Lookup(all, id).ID != id {
				t.Errorf("rules/%s declares %s, which the registry does not list", family, id)
			}
		}
		doc, files := packageDoc(t, dir)
		for _, f := range files {
			name := strings.TrimSuffix(f, ".go")
			id := family + "/" + name
			if name == family {
				id = family
			}
			if f == "rules.go" || rules.Lookup(all, id) != nil && rules.Lookup(all, id).ID == id {
				continue
			}
			if !strings.Contains(doc, f) {
				t.Errorf("rules/%s/%s is no rule's file, and the package documentation does not say what it holds", family, f)
			}
		}
	}
}

// TestLeavesAreRegisteredRules: a rule leaves consequences only to rules
// the registry lists, by the very value it registers, so that
// rules.Pass.Reports sees whether that rule runs.
func TestLeavesAreRegisteredRules(t *testing.T) {
	all := registry.All()
	for _, r := range all {
		for _, l := range r.Leaves {
			if !slices.Contains(all, l) {
				t.Errorf("%s leaves consequences to %s, which is not the registered rule of that ID", r.ID, l.ID)
			}
		}
	}
}

// declaredIn returns, for each rule ID that a rules.Rule literal of the
// package in dir declares, the files that declare it.
func declaredIn(t *testing.T, dir string) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	files := parseDir(t, fset, dir)
	consts := map[string]ast.Expr{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				for i, n := range v.Names {
					if i < len(v.Values) {
						consts[n.Name] = v.Values[i]
					}
				}
			}
		}
	}
	out := map[string][]string{}
	for name, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !isRuleType(lit.Type) {
				return true
			}
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if key, _ := kv.Key.(*ast.Ident); ok && key != nil && key.Name == "ID" {
					id, err := constant(kv.Value, consts)
					if err != "" {
						t.Errorf("%s: the ID of a rule is %s", fset.Position(kv.Pos()), err)
						continue
					}
					out[id] = append(out[id], name)
				}
			}
			return true
		})
	}
	for id := range out {
		slices.Sort(out[id])
	}
	return out
}

// isRuleType reports the type rules.Rule.
func isRuleType(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "rules" && sel.Sel.Name == "Rule"
}

// constant evaluates a string constant expression: a literal, a constant
// of the package, or a sum of them; else it says why not.
func constant(e ast.Expr, consts map[string]ast.Expr) (string, string) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if s, err := strconv.Unquote(e.Value); err == nil && e.Kind == token.STRING {
			return s, ""
		}
	case *ast.Ident:
		if v, ok := consts[e.Name]; ok {
			return constant(v, consts)
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			x, errX := constant(e.X, consts)
			y, errY := constant(e.Y, consts)
			return x + y, errX + errY
		}
	}
	return "", "not a string constant of the package"
}

// parseDir parses the Go files of a package that are not tests, by file
// name.
func parseDir(t *testing.T, fset *token.FileSet, dir string) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ast.File{}
	for _, p := range names {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = f
	}
	return out
}

// packageDoc returns the documentation of the package in dir and the
// names of its files that are not tests.
func packageDoc(t *testing.T, dir string) (string, []string) {
	t.Helper()
	files := parseDir(t, token.NewFileSet(), dir)
	var doc string
	var names []string
	for name, f := range files {
		names = append(names, name)
		if f.Doc != nil {
			doc += f.Doc.Text()
		}
	}
	slices.Sort(names)
	return doc, names
}
