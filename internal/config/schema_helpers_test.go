package config_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// schemaFile is the schema, relative to this package's directory.
const schemaFile = "../../schemas/small-hook.schema.json"

// configSchema is the schema decoded, and compiled for validation.
type configSchema struct {
	raw      map[string]any
	compiled *jsonschema.Schema
}

func loadConfigSchema(t *testing.T) configSchema {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	id, _ := raw["$id"].(string)
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	compiled, err := c.Compile(id)
	if err != nil {
		t.Fatalf("%s does not compile (draft 2020-12): %v", schemaFile, err)
	}
	return configSchema{raw: raw, compiled: compiled}
}

// node is one place in the schema: the keys that lead to it ("0" for a
// list's items) and its sub-schema.
type node struct {
	path   []string
	schema map[string]any
}

// nodes lists every place of the schema, parents before children, but
// not the rule IDs under rules (their own test covers them).
func (s configSchema) nodes() []node {
	var out []node
	var walk func(path []string, sch map[string]any)
	walk = func(path []string, sch map[string]any) {
		out = append(out, node{path: path, schema: sch})
		if slices.Equal(path, []string{"rules"}) {
			return
		}
		props, _ := sch["properties"].(map[string]any)
		for _, k := range sortedKeys(props) {
			walk(append(slices.Clip(path), k), props[k].(map[string]any))
		}
		if items, ok := sch["items"].(map[string]any); ok {
			walk(append(slices.Clip(path), "0"), items)
		}
	}
	walk(nil, s.raw)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// verdict is what one side says of a configuration: nil when it accepts
// it.
type verdict struct{ schema, loader error }

// judge asks both sides about the configuration value doc (a tree of
// map[string]any, []any, string, int64, bool and nil): the schema
// validates it, the loader loads it written as YAML and the rules driver
// checks its rule IDs, as a check does.
func (s configSchema) judge(t *testing.T, doc any) (verdict, string) {
	t.Helper()
	text := yamlText(doc)
	decoded, err := yamldoc.Decode([]byte(text))
	if err != nil || !reflect.DeepEqual(decoded.Value, doc) {
		t.Fatalf("the test writes %#v as YAML that does not read back: %q (%v)", doc, text, err)
	}
	var v verdict
	v.schema = s.compiled.Validate(doc)
	cfg, err := config.Load([]byte(text))
	if err == nil {
		err = rules.ValidateSettings(cfg, registry.All())
	}
	v.loader = err
	return v, text
}

// yamlText writes v as YAML in flow style, strings double-quoted with Go's
// escapes, which YAML's double-quoted scalars share.
func yamlText(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		return strconv.FormatBool(v)
	case []any:
		var parts []string
		for _, x := range v {
			parts = append(parts, yamlText(x))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var parts []string
		for _, k := range sortedKeys(v) {
			parts = append(parts, strconv.Quote(k)+": "+yamlText(v[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	panic(fmt.Sprintf("yamlText: %T", v))
}

// place returns a document that holds value at path, inside the schema's
// example of the nearest list above it, so that a value is judged beside
// the keys its neighbours need (an agent identity, a DID's e-mail).
func (s configSchema) place(path []string, value any) any {
	if len(path) == 0 {
		return value
	}
	key := path[len(path)-1]
	var inner any
	switch {
	case key == "0":
		inner = []any{value}
	default:
		m := map[string]any{}
		if item := s.exampleItem(path[:len(path)-1], key); item != nil {
			for k, v := range item {
				m[k] = v
			}
		}
		m[key] = value
		inner = m
	}
	return s.place(path[:len(path)-1], inner)
}

// at returns the sub-schema at path.
func (s configSchema) at(path []string) map[string]any {
	sch := s.raw
	for _, k := range path {
		if k == "0" {
			sch = sch["items"].(map[string]any)
			continue
		}
		sch = sch["properties"].(map[string]any)[k].(map[string]any)
	}
	return sch
}

// exampleItem returns, when path is a list's items, the first item of the
// list's example that holds key.
func (s configSchema) exampleItem(path []string, key string) map[string]any {
	if len(path) == 0 || path[len(path)-1] != "0" {
		return nil
	}
	examples, _ := s.at(path[:len(path)-1])["examples"].([]any)
	for _, ex := range examples {
		list, _ := ex.([]any)
		for _, item := range list {
			if m, ok := item.(map[string]any); ok && m[key] != nil {
				return m
			}
		}
	}
	return nil
}

// fromJSON turns the numbers of a decoded JSON value into the int64 that
// YAML reads.
func fromJSON(v any) any {
	switch v := v.(type) {
	case float64:
		return int64(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = fromJSON(x)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = fromJSON(x)
		}
		return out
	}
	return v
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}

func setAt(m map[string]any, path []string, v any) {
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}
