package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// exampleFile is a configuration that sets every key of the schema: its
// example, or else its default. Enums list their values in a comment.
func exampleFile(schema map[string]any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# yaml-language-server: $schema=%s\n", schema["$id"])
	props, _ := schema["properties"].(map[string]any)
	for _, name := range sortedNames(props) {
		writeExample(&b, name, props[name].(map[string]any), "")
	}
	return b.String()
}

// writeExample writes key name with its example value at indent.
func writeExample(b *strings.Builder, name string, sch map[string]any, indent string) {
	value, ok := any(nil), false
	if examples, has := sch["examples"].([]any); has && len(examples) > 0 {
		value, ok = examples[0], true
	} else if d, has := sch["default"]; has {
		value, ok = d, true
	}
	props, isObject := sch["properties"].(map[string]any)
	switch {
	case ok:
		b.WriteString(indent + yamlScalar(name) + ":")
		writeValue(b, value, indent)
		if enum, has := sch["enum"].([]any); has {
			var names []string
			for _, e := range enum {
				names = append(names, fmt.Sprint(e))
			}
			b.WriteString(" # " + strings.Join(names, " | "))
		}
		b.WriteString("\n")
	case isObject:
		b.WriteString(indent + yamlScalar(name) + ":\n")
		for _, sub := range sortedNames(props) {
			writeExample(b, sub, props[sub].(map[string]any), indent+"  ")
		}
	}
}

// writeValue writes v after a key (or a list's dash) at indent: a scalar
// on the same line, a mapping or list on the lines below.
func writeValue(b *strings.Builder, v any, indent string) {
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			b.WriteString("\n" + indent + "  -")
			if m, ok := item.(map[string]any); ok {
				for i, k := range sortedNames(m) {
					if i > 0 {
						b.WriteString("\n" + indent + "   ")
					}
					b.WriteString(" " + yamlScalar(k) + ":")
					writeValue(b, m[k], indent+"    ")
				}
				continue
			}
			writeValue(b, item, indent+"  ")
		}
	case map[string]any:
		for _, k := range sortedNames(v) {
			b.WriteString("\n" + indent + "  " + yamlScalar(k) + ":")
			writeValue(b, v[k], indent+"  ")
		}
	default:
		b.WriteString(" " + yamlScalar(fmt.Sprint(v)))
	}
}

// yamlScalar writes s plain when YAML reads it back as the same string,
// quoted otherwise.
func yamlScalar(s string) string {
	if strings.ContainsAny(s, "#'\"") {
		return strconv.Quote(s)
	}
	doc, err := yamldoc.Decode([]byte("k: " + s + "\n"))
	if err != nil {
		return strconv.Quote(s)
	}
	if m, ok := doc.Value.(map[string]any); !ok || m["k"] != s {
		return strconv.Quote(s)
	}
	return s
}

// TestConfigurationExampleLoads: the example of docs/configuration.md is a
// configuration small-hook accepts, rule IDs included, and it sets every
// key the schema describes.
func TestConfigurationExampleLoads(t *testing.T) {
	schemaJSON := generatedSchema(t)
	page := string(configurationPage(t, schemaJSON))
	start := strings.Index(page, "```yaml\n# yaml-language-server:")
	if start < 0 {
		t.Fatal("the page has no example")
	}
	example := page[start+len("```yaml\n"):]
	example = example[:strings.Index(example, "```")]
	cfg, err := config.Load([]byte(example))
	if err == nil {
		err = rules.ValidateSettings(cfg, registry.All())
	}
	if err != nil {
		t.Fatalf("the example does not load: %v\n%s", err, example)
	}
	doc, err := yamldoc.Decode([]byte(example))
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(schemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	for _, k := range schemaKeys(schema, "") {
		if !setsKey(doc.Value, strings.Split(strings.ReplaceAll(k.name, "[]", ""), ".")) {
			t.Errorf("the example does not set %s", k.name)
		}
	}
	if len(cfg.Rules) == 0 || len(cfg.Exclude) == 0 || len(cfg.Attribution.Agents) == 0 || cfg.Signatures.Require == "off" {
		t.Errorf("the example loads as %+v", cfg)
	}
}

// setsKey reports whether v holds the key path, looking into every item
// of a list on the way.
func setsKey(v any, path []string) bool {
	if len(path) == 0 {
		return true
	}
	switch v := v.(type) {
	case map[string]any:
		x, ok := v[path[0]]
		return ok && setsKey(x, path[1:])
	case []any:
		for _, item := range v {
			if setsKey(item, path) {
				return true
			}
		}
	}
	return false
}
