package schemas

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

func decode(t *testing.T, text string) any {
	t.Helper()
	doc, err := yamldoc.Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return doc.Value
}

func TestEveryReferenceFileIsValid(t *testing.T) {
	set := New()
	for _, ws := range []string{"reference-init", "reference-repo"} {
		dir := filepath.Join("..", "testdata", "small", ws, ".small")
		files, _ := filepath.Glob(filepath.Join(dir, "*.small.yml"))
		if len(files) != 6 {
			t.Fatalf("%s: %d files", ws, len(files))
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(f), ".small.yml")
			v, err := set.Validate(name, "", decode(t, string(data)))
			if err != nil || len(v) > 0 {
				t.Errorf("%s/%s: %v %+v", ws, name, err, v)
			}
		}
	}
	for _, f := range []string{"llm-context-research.v4-merged.md", "quick-note.anonymous.md"} {
		data, _ := os.ReadFile(filepath.Join("..", "testdata", "smp", f))
		fm, err := yamldoc.SplitFrontmatter(data)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := set.Validate("knowledge-artifact", "", decode(t, string(fm.YAML))); err != nil || len(v) > 0 {
			t.Errorf("%s: %v %+v", f, err, v)
		}
	}
}

func TestViolations(t *testing.T) {
	set := New()
	cases := []struct {
		schema, fragment, doc, pointer, message string
		wantsType                               bool
	}{
		{"progress", "#/$defs/entry", "task_id: t\ntimestamp: 2026-01-01T00:00:00Z\n", "/timestamp", "must be a string, not a number", true},
		{"progress", "#/$defs/entry", "task_id: t\nstatus: done\n", "/status", "must be one of", false},
		{"progress", "#/$defs/entry", "task_id: t\nsummary: x\n", "/", `has key "summary", which is not allowed here`, false},
		{"progress", "#/$defs/entry", "task_id: t\ncommit: ABCDEF1\n", "/commit", "must be a commit id: 7 to 40 lower-case hexadecimal digits", false},
		{"handoff", "", "small_version: \"1.0.0\"\nowner: agent\nsummary: s\nresume: {next_steps: []}\nlinks: []\nreplayId: {value: abc, source: auto}\n", "/replayId/value", "must be 64 hexadecimal digits", false},
		{"intent", "", "small_version: \"1.0.0\"\nowner: agent\nintent: x\nscope: {include: [], exclude: []}\nsuccess_criteria: []\n", "/owner", "human", false},
		{"constraints", "", "small_version: \"1.0.0\"\nowner: human\nconstraints: []\n", "/constraints", "must be a non-empty list", false},
		{"knowledge-artifact", "", "awp: 0.4.0\nsmp: '1.0'\ntype: knowledge-artifact\nid: 'artifact:x'\ntitle: T\nauthors: [a]\nversion: 1\ncreated: c\nconfidence: 1.5\nprovenance: [{agent: a, action: created, timestamp: t}]\n", "/confidence", "must be at most 1", false},
	}
	for _, tc := range cases {
		v, err := set.Validate(tc.schema, tc.fragment, decode(t, tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, x := range v {
			if x.Pointer() == tc.pointer && strings.Contains(x.Message, tc.message) && x.WantsType == tc.wantsType {
				found = true
			}
		}
		if !found {
			t.Errorf("%s %q: %+v, want %s %q", tc.schema, tc.doc, v, tc.pointer, tc.message)
		}
	}
	// A message never repeats the value that failed: it may be a secret.
	planted := "ghp_" + "planted0value1that2fails3the4pattern"
	for _, doc := range []string{
		"task_id: t\ncommit: " + planted + "\n",
		"task_id: t\nstatus: " + planted + "\n",
		"task_id: t\nevidence: 7\ntimestamp: " + planted + "\n",
		"task_id: t\n" + planted + ": x\n",
	} {
		v, err := set.Validate("progress", "#/$defs/entry", decode(t, doc))
		if err != nil || len(v) == 0 {
			t.Fatalf("%q: %v %v", doc, v, err)
		}
		for _, x := range v {
			if strings.Contains(x.Message, planted[4:16]) && !strings.Contains(doc, planted+":") {
				t.Errorf("the message repeats the value: %s", x.Message)
			}
		}
	}
	if got := len(set.Names()); got != 7 {
		t.Errorf("%d schemas embedded", got)
	}
}

func TestIntegersReachTheValidatorExactly(t *testing.T) {
	set := New()
	big := "123456789012345678901234567890"
	v, err := set.Validate("progress", "#/$defs/entry", decode(t, "task_id: "+big+"\nstatus: completed\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != 1 || v[0].Pointer() != "/task_id" || !v[0].WantsType {
		t.Errorf("a big integer where a string belongs: %+v", v)
	}
	artifact := "awp: 0.4.0\nsmp: '1.0'\ntype: knowledge-artifact\nid: 'artifact:x'\ntitle: T\nauthors: [a]\n" +
		"created: c\nprovenance: [{agent: a, action: created, timestamp: t}]\nversion: "
	for _, version := range []string{big, "12345678901234567890", "9223372036854775807"} {
		v, err := set.Validate("knowledge-artifact", "", decode(t, artifact+version+"\n"))
		if err != nil || len(v) > 0 {
			t.Errorf("version %s: %v %+v", version, err, v)
		}
	}
	if n := jsonValue(decode(t, "n: "+big+"\n")).(map[string]any)["n"]; n != json.Number(big) {
		t.Errorf("the validator receives %#v, not the exact number", n)
	}
	v, err = set.Validate("knowledge-artifact", "", decode(t, artifact+"-"+big+"\n"))
	if err != nil || len(v) != 1 || v[0].Pointer() != "/version" || !strings.Contains(v[0].Message, "must be at least 1") {
		t.Errorf("a negative big version: %v %+v", err, v)
	}
}

func TestSharedValuesAreNotCopied(t *testing.T) {
	doc := decode(t, "a: &a {k: [1, 2], t: x}\nb: *a\nc: [*a, *a]\nd: {when: 2026-01-01T00:00:00Z, shared: *a}\n")
	out := jsonValue(doc).(map[string]any)
	in := doc.(map[string]any)
	if !sameMap(out["a"], in["a"]) || !sameMap(out["b"], in["a"]) || !sameMap(out["c"].([]any)[1], in["a"]) {
		t.Error("a value that needs no conversion was copied")
	}
	d := out["d"].(map[string]any)
	if _, ok := d["when"].(float64); !ok || !sameMap(d["shared"], in["a"]) {
		t.Errorf("converted %#v", d)
	}
	if _, ok := in["d"].(map[string]any)["when"].(yamldoc.Timestamp); !ok {
		t.Error("conversion changed the decoded value")
	}
}

func sameMap(a, b any) bool {
	am, ok1 := a.(map[string]any)
	bm, ok2 := b.(map[string]any)
	return ok1 && ok2 && reflect.ValueOf(am).Pointer() == reflect.ValueOf(bm).Pointer()
}

// TestUnexpectedKeysInOneOrder: the keys a mapping may not hold are named
// in one order, whatever order the validator found them in (it walks a
// map), so that output is the same from run to run.
func TestUnexpectedKeysInOneOrder(t *testing.T) {
	set := New()
	doc := decode(t, "task_id: t\nzeta: 1\nalpha: 2\nmid: 3\nbeta: 4\n")
	for range 20 {
		v, err := set.Validate("progress", "#/$defs/entry", doc)
		if err != nil {
			t.Fatal(err)
		}
		want := `has keys "alpha", "beta", "mid", "zeta", which is not allowed here`
		if len(v) != 1 || v[0].Message != want || !slices.Equal(v[0].Keys, []string{"alpha", "beta", "mid", "zeta"}) {
			t.Fatalf("got %+v, want one violation: %s", v, want)
		}
	}
}
