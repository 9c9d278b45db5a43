package config_test

// The JSON Schema of .small-hook.yml (schemas/small-hook.schema.json) is
// for editors; the loader has the last word. These tests walk the schema
// and the loader together, so that an editor never flags a file small-hook
// accepts nor passes one it refuses: the same keys in every mapping, the
// same verdict on every value of a corpus at every key, and the same
// defaults.

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/rules/registry"
)

// TestConfigSchemaKnowsTheLoadersKeys: in every mapping the schema
// describes, the loader knows exactly the schema's keys (the keys its
// message for an unknown key lists), and both refuse any other key.
func TestConfigSchemaKnowsTheLoadersKeys(t *testing.T) {
	s := loadConfigSchema(t)
	known := regexp.MustCompile(`\(known: ([^)]*)\)$`)
	mappings := 0
	for _, n := range s.nodes() {
		props, ok := n.schema["properties"].(map[string]any)
		if !ok || slices.Equal(n.path, []string{"rules"}) {
			continue
		}
		mappings++
		if n.schema["additionalProperties"] != false {
			t.Errorf("%v: the schema allows keys it does not describe", n.path)
		}
		base := map[string]any{}
		if item := s.exampleItem(n.path, sortedKeys(props)[0]); item != nil {
			for k, v := range item {
				base[k] = v
			}
		}
		base["zz-unknown"] = "x"
		v, text := s.judge(t, s.place(n.path, base))
		if v.schema == nil {
			t.Errorf("%s: the schema accepts an unknown key", text)
		}
		m := known.FindStringSubmatch(fmt.Sprint(v.loader))
		if m == nil {
			t.Errorf("%s: the loader does not refuse the unknown key with the keys it knows: %v", text, v.loader)
			continue
		}
		loaderKeys := strings.Split(m[1], ", ")
		sort.Strings(loaderKeys)
		if !slices.Equal(loaderKeys, sortedKeys(props)) {
			t.Errorf("%v: the loader knows %v, the schema %v", n.path, loaderKeys, sortedKeys(props))
		}
	}
	if mappings < 5 {
		t.Errorf("walked %d mappings: the test no longer reads the schema", mappings)
	}
}

// probes are the values every place of the schema is tried with: what a
// user writes there, right or wrong, and the edges of each rule the
// loader applies (blank strings in Unicode, paths that leave the
// repository, duration limits, ref names, patterns that ** cannot match).
func probes() []any {
	strs := []string{
		"", " ", "\t", "\v", "\u00a0", "\u3000 ", "x", " x ",
		"human", "agent", "error", "warning", "off", "governed", "staged", "human-owned", "Human",
		"X-Agent", "X Agent", "X-Agent:", "Co-Authored-By",
		"*", "*[bot]", "*@bots.example", "ci-agent",
		"main", "release/*", "refs/heads/main", "refs/", "refs", "ref/x", "xrefs/",
		"did:key:z6Mk", "did:", "did: x", "did:x\ty", "xdid:x", "a@b.example", "a <b>", "a\tb@c",
		"5m", "0m", "0", "7d", "90s", "36h", "05m", "+5m", "-5m", "5", "m", "5x", "1.5h", "5 m",
		"36500d", "36501d", "0036500d", "876000h", "876001h", "52560000m", "52560001m",
		"3153600000s", "3153600001s", "99999999999999999999d",
		".github/allowed_signers", "keys.asc", "/abs", `a\b`, "~/x", "x~", "C:/x", "c:", "1:x", "a//b", "a/",
		"./a", "a/./b", "a/../b", "..", ".", "..a", ".a/b", "a.", "a\x01b", "a\x7fb", "a\nb",
		"**", "a/**/b", "**/x/**", "a**", "***", "a/**b", "spec/", "/", "//",
	}
	out := []any{nil, true, int64(5), []any{}, map[string]any{}, []any{"x"}, map[string]any{"x": "y"}}
	for _, s := range strs {
		out = append(out, s)
	}
	return out
}

// TestConfigSchemaAgreesWithTheLoader tries every value of the corpus, the
// schema's examples, enums and defaults at every place of the schema: the
// schema and the loader must accept and refuse the same ones, and each
// place must take some value and refuse another.
func TestConfigSchemaAgreesWithTheLoader(t *testing.T) {
	s := loadConfigSchema(t)
	for _, n := range s.nodes() {
		values := probes()
		for _, key := range []string{"enum", "examples"} {
			list, _ := n.schema[key].([]any)
			values = append(values, list...)
		}
		if d, ok := n.schema["default"]; ok {
			values = append(values, d)
		}
		if len(n.path) > 0 && n.path[len(n.path)-1] == "0" {
			// The list's example items, and one that holds all of their
			// keys at once (an identity with both email and pusher).
			union := map[string]any{}
			for _, ex := range asList(s.at(n.path[:len(n.path)-1])["examples"]) {
				for _, item := range asList(ex) {
					values = append(values, item)
					if m, ok := item.(map[string]any); ok {
						for k, v := range m {
							union[k] = v
						}
					}
				}
			}
			if len(union) > 0 {
				values = append(values, union)
			}
		}
		accepted, refused := 0, 0
		for _, value := range values {
			value = fromJSON(value)
			v, text := s.judge(t, s.place(n.path, value))
			if (v.schema == nil) != (v.loader == nil) {
				t.Errorf("%s\n  schema: %v\n  loader: %v", text, v.schema, v.loader)
			}
			if v.loader == nil {
				accepted++
			} else {
				refused++
			}
		}
		if enum := asList(n.schema["enum"]); len(enum) > 0 {
			s.sameChoices(t, n, enum)
		}
		if accepted == 0 || refused == 0 {
			t.Errorf("%v: %d values accepted, %d refused: the corpus does not reach both verdicts", n.path, accepted, refused)
		}
	}
}

// sameChoices checks that the loader, refusing a value outside the enum
// of n, lists exactly the enum's values.
func (s configSchema) sameChoices(t *testing.T, n node, enum []any) {
	t.Helper()
	v, text := s.judge(t, s.place(n.path, "zz-not-a-choice"))
	m := regexp.MustCompile(`must be one of (.*)$`).FindStringSubmatch(fmt.Sprint(v.loader))
	if m == nil {
		t.Errorf("%s: the loader does not list the values it takes: %v", text, v.loader)
		return
	}
	var want []string
	for _, e := range enum {
		want = append(want, fmt.Sprint(e))
	}
	if got := strings.Split(m[1], ", "); !slices.Equal(got, want) {
		t.Errorf("%v: the loader takes %v, the schema %v", n.path, got, want)
	}
}

// TestConfigSchemaExamplesAgree: a file that sets every key to its
// example (or its default) satisfies both sides, the rules that tie keys
// together included (signatures.require with its key files).
func TestConfigSchemaExamplesAgree(t *testing.T) {
	s := loadConfigSchema(t)
	complete := map[string]any{}
	for _, n := range s.nodes() {
		if len(n.path) == 0 || slices.Contains(n.path, "0") {
			continue
		}
		if examples := asList(n.schema["examples"]); len(examples) > 0 {
			setAt(complete, n.path, fromJSON(examples[0]))
		} else if d, ok := n.schema["default"]; ok {
			setAt(complete, n.path, d)
		}
	}
	v, text := s.judge(t, complete)
	if v.schema != nil || v.loader != nil || !strings.Contains(text, `"require": "human-owned"`) {
		t.Errorf("%s\n  schema: %v\n  loader: %v", text, v.schema, v.loader)
	}
}

// TestConfigSchemaRuleIDs: under rules, the schema and the rules driver
// take the same IDs: every rule of the registry, a member of a family, and
// nothing else, each with the same severities.
func TestConfigSchemaRuleIDs(t *testing.T) {
	s := loadConfigSchema(t)
	ids := []string{
		"secrets/aws-access-token", "secrets/Foo.Bar_baz", "secrets/gitleaks:credential-key", "secrets/-x", "secrets/",
		"secrets/a/b", "smp/nonexistent", "nonexistent", "small", "Small/parse", "small/parse/x", "small/", "/parse",
	}
	for _, r := range registry.All() {
		ids = append(ids, r.ID)
	}
	values := []any{"off", "warning", "error", "Error", "", nil, int64(1), true}
	for _, id := range ids {
		for _, value := range values {
			v, text := s.judge(t, map[string]any{"rules": map[string]any{id: value}})
			if (v.schema == nil) != (v.loader == nil) {
				t.Errorf("%s\n  schema: %v\n  loader: %v", text, v.schema, v.loader)
			}
		}
	}
}

// TestConfigSchemaDefaultsAreTheLoaders: a file that writes every default
// of the schema loads as config.Default(); each key with a default, set
// to another value beside its neighbours' examples, changes one field of
// the configuration, its own; and those fields are every field
// config.Default() sets.
func TestConfigSchemaDefaultsAreTheLoaders(t *testing.T) {
	s := loadConfigSchema(t)
	all := map[string]any{}
	fields := map[string][]string{}
	for _, n := range s.nodes() {
		d, ok := n.schema["default"]
		if !ok {
			continue
		}
		if slices.Contains(n.path, "0") || len(n.path) != 2 {
			t.Errorf("%v: a default that is not a section's key", n.path)
			continue
		}
		setAt(all, n.path, d)
		other := otherValue(n)
		if other == nil {
			t.Errorf("%v: no other value to try", n.path)
			continue
		}
		var loaded [2]*config.Config
		for i, value := range []any{d, other} {
			section := s.neighbours(n.path)
			section[n.path[1]] = value
			cfg, err := config.Load([]byte(yamlText(map[string]any{n.path[0]: section})))
			if err != nil {
				t.Fatalf("%v: %q: %v", n.path, value, err)
			}
			loaded[i] = cfg
		}
		changed := diffFields(reflect.ValueOf(*loaded[0]), reflect.ValueOf(*loaded[1]), "")
		if len(changed) != 1 {
			t.Errorf("%v: %q instead of %q changes %v, want one field", n.path, other, d, changed)
			continue
		}
		fields[changed[0]] = n.path
	}
	cfg, err := config.Load([]byte(yamlText(all)))
	if err != nil || !reflect.DeepEqual(cfg, config.Default()) {
		t.Errorf("the schema's defaults %s load as %+v (%v), want config.Default() %+v", yamlText(all), cfg, err, config.Default())
	}
	if set := nonZeroFields(reflect.ValueOf(*config.Default()), ""); !slices.Equal(sortedKeys(fields), set) {
		t.Errorf("the schema's defaults set %v; config.Default() sets %v", sortedKeys(fields), set)
	}
}

// neighbours returns the section of the key at path with the example of
// every other key that has no default (the key files beside
// signatures.require).
func (s configSchema) neighbours(path []string) map[string]any {
	out := map[string]any{}
	props, _ := s.at(path[:1])["properties"].(map[string]any)
	for k, p := range props {
		p := p.(map[string]any)
		if _, hasDefault := p["default"]; k == path[1] || hasDefault {
			continue
		}
		if examples := asList(p["examples"]); len(examples) > 0 {
			out[k] = fromJSON(examples[0])
		}
	}
	return out
}

// otherValue is a value for n that is not its default: another member of
// its enum, or another duration.
func otherValue(n node) any {
	for _, e := range asList(n.schema["enum"]) {
		if e != n.schema["default"] {
			return e
		}
	}
	if _, ok := n.schema["pattern"]; ok && n.schema["default"] != "1s" {
		return "1s"
	}
	return nil
}

// diffFields lists the paths of the leaf fields in which a and b differ.
func diffFields(a, b reflect.Value, at string) []string {
	if a.Kind() == reflect.Struct {
		var out []string
		for i := range a.NumField() {
			out = append(out, diffFields(a.Field(i), b.Field(i), at+"."+a.Type().Field(i).Name)...)
		}
		return out
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return []string{at}
	}
	return nil
}

// nonZeroFields lists the paths of the leaf fields of v that are set.
func nonZeroFields(v reflect.Value, at string) []string {
	if v.Kind() == reflect.Struct && v.Type() != reflect.TypeOf(time.Duration(0)) {
		var out []string
		for i := range v.NumField() {
			out = append(out, nonZeroFields(v.Field(i), at+"."+v.Type().Field(i).Name)...)
		}
		sort.Strings(out)
		return out
	}
	if v.IsZero() {
		return nil
	}
	return []string{at}
}
