package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/rules/registry"
)

// schemaPath is the JSON Schema of .small-hook.yml, from the module root.
const schemaPath = "schemas/small-hook.schema.json"

// severities are what rules: can set a rule to.
var severities = []any{config.SeverityOff, config.SeverityWarning, config.SeverityError}

// generatedSchema returns schemas/small-hook.schema.json with the rule IDs
// of the registry under rules, formatted as encoding/json writes it.
func generatedSchema(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", schemaPath))
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&schema); err != nil {
		t.Fatalf("%s: %v", schemaPath, err)
	}
	section, ok := jsonPath(schema, "properties", "rules").(map[string]any)
	if !ok {
		t.Fatalf("%s has no properties.rules", schemaPath)
	}
	props, patterns := map[string]any{}, map[string]any{}
	for _, r := range registry.All() {
		title, _, _ := strings.Cut(strings.TrimSpace(r.Doc), "\n")
		props[r.ID] = map[string]any{
			"description": fmt.Sprintf("%s. Default: %s (see docs/rules.md).", title, defaultSeverity(r)),
			"enum":        severities,
			"default":     defaultSeverity(r),
		}
		if isFamily(r) {
			patterns["^"+regexp.QuoteMeta(r.ID)+"/[A-Za-z0-9][A-Za-z0-9._-]*$"] = map[string]any{
				"description": fmt.Sprintf("A member of the family %s: %s/<name>. Default: the family's severity.", r.ID, r.ID),
				"enum":        severities,
			}
		}
	}
	section["properties"], section["patternProperties"] = props, patterns
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(schema); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// jsonPath returns the value under keys in a decoded JSON object, or nil.
func jsonPath(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// schemaKey is one key of the configuration as the schema describes it.
type schemaKey struct {
	// name is the key's dotted path: attribution.agents,
	// attribution.agents[].email.
	name   string
	schema map[string]any
	// required is set for a key every item of its list must have.
	required bool
}

// schemaKeys lists the keys of the schema under the object sch, depth
// first in the order of their names, the keys of a list's items after
// the list; rule IDs are not listed.
func schemaKeys(sch map[string]any, prefix string) []schemaKey {
	props, _ := sch["properties"].(map[string]any)
	var out []schemaKey
	for _, name := range sortedNames(props) {
		key := schemaKey{name: prefix + name, schema: props[name].(map[string]any)}
		out = append(out, key)
		if key.name == "rules" {
			continue
		}
		out = append(out, schemaKeys(key.schema, key.name+".")...)
		if items, ok := key.schema["items"].(map[string]any); ok {
			for _, item := range schemaKeys(items, key.name+"[].") {
				_, leaf, _ := strings.Cut(item.name, "[].")
				item.required = slices.Contains(asStrings(items["required"]), leaf)
				out = append(out, item)
			}
		}
	}
	return out
}

func asStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sortedNames(m map[string]any) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// typeName says in words what a key holds.
func (k schemaKey) typeName() string {
	types := schemaTypes(k.schema)
	switch {
	case slices.Contains(types, "array"):
		items, _ := k.schema["items"].(map[string]any)
		if slices.Contains(schemaTypes(items), "object") {
			return "list of mappings"
		}
		return "list of strings"
	case slices.Contains(types, "object") && k.name == "rules":
		return "mapping of rule ID to severity"
	case slices.Contains(types, "object"):
		return "mapping"
	}
	return strings.Join(types, " or ")
}

func schemaTypes(sch map[string]any) []string {
	switch t := sch["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if x != "null" {
				out = append(out, x.(string))
			}
		}
		return out
	}
	return nil
}

// allowedValues lists the values of an enum, for rules those of each
// rule ID; "" when the key is not an enum.
func (k schemaKey) allowedValues() string {
	enum, _ := k.schema["enum"].([]any)
	suffix := ""
	if props, ok := k.schema["properties"].(map[string]any); ok && k.name == "rules" {
		for _, p := range props {
			enum, suffix = p.(map[string]any)["enum"].([]any), ", for each rule ID"
			break
		}
	}
	var names []string
	for _, e := range enum {
		names = append(names, fmt.Sprintf("`%v`", e))
	}
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, ", ") + suffix
}

// defaultText is the key's default as the page shows it.
func (k schemaKey) defaultText() string {
	if d, ok := k.schema["default"]; ok {
		return fmt.Sprintf("`%v`", d)
	}
	switch {
	case k.name == "rules":
		return "each rule's own"
	case strings.Contains(k.name, "[]."):
		return "none"
	case slices.Contains(schemaTypes(k.schema), "object"):
		return "—"
	}
	return "none"
}

// configurationPage is docs/configuration.md, written from the schema.
func configurationPage(t *testing.T, schemaJSON []byte) []byte {
	t.Helper()
	var schema map[string]any
	if err := json.Unmarshal(schemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	keys := schemaKeys(schema, "")
	var b strings.Builder
	fmt.Fprintf(&b, generatedNote+"\n\n", schemaPath)
	fmt.Fprintf(&b, "# Configuration: `%s`\n\n%s\n\n", config.FileName, pageText(schema["description"]))
	b.WriteString("Every key is optional; a section or list left empty (`exclude:` alone) is the same as leaving it out.\n\n")
	b.WriteString("| key | type | default |\n| --- | --- | --- |\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", k.name, anchor(k.name), k.typeName(), k.defaultText())
	}
	b.WriteString("\n## A complete example\n\n```yaml\n" + exampleFile(schema) + "```\n")
	fmt.Fprintf(&b, editorSupport, config.FileName, schema["$id"], schema["$id"], config.FileName)
	for _, k := range keys {
		level := "###"
		if !strings.Contains(k.name, ".") {
			level = "##"
		}
		fmt.Fprintf(&b, "\n%s `%s`\n\n", level, k.name)
		fmt.Fprintf(&b, "- Type: %s.\n", k.typeName())
		if values := k.allowedValues(); values != "" {
			fmt.Fprintf(&b, "- Allowed values: %s.\n", values)
		}
		switch {
		case k.required:
			b.WriteString("- Required in every entry.\n")
		case k.typeName() != "mapping":
			fmt.Fprintf(&b, "- Default: %s.\n", k.defaultText())
		}
		fmt.Fprintf(&b, "\n%s\n", pageText(k.schema["description"]))
	}
	b.WriteString("\n" + configurationFailureModes)
	return []byte(b.String())
}

// editorSupport says how an editor finds the schema.
const editorSupport = `
## Editors

[schemas/small-hook.schema.json](../schemas/small-hook.schema.json) is the file's JSON Schema (draft
2020-12): an editor that reads it completes keys, rule IDs and values as you type and flags what
small-hook would refuse. With the YAML language server (VS Code's YAML extension, Neovim, Helix, Zed
and others), name it on the first line of ` + "`%s`" + `:

` + "```yaml" + `
# yaml-language-server: $schema=%s
` + "```" + `

or map it once in VS Code's settings:

` + "```json" + `
"yaml.schemas": { "%s": "%s" }
` + "```" + `

JetBrains IDEs map it under Settings › Languages & Frameworks › Schemas and DTDs › JSON Schema Mappings.
The schema and small-hook accept the same files; small-hook's messages still name the line and say
what is wrong in more words.
`

// configurationFailureModes is the end of docs/configuration.md.
const configurationFailureModes = `## Failure modes

| the user does | small-hook does | proved by |
| --- | --- | --- |
| misspells a key (` + "`atribution:`" + `) | exit 2 naming the line and the keys it knows | ` + "`config.TestLoadUnknownKeys`, `config.TestConfigSchemaKnowsTheLoadersKeys`" + ` |
| gives a value of the wrong type or outside its set | exit 2 naming the line and what the key takes | ` + "`config.TestLoadBadValues`, `config.TestLoadErrors`" + ` |
| writes a rule ID that names no rule | exit 2 naming the line and the closest ID; the suggested ID works | ` + "`main.TestConfigSeverityAndUnknownRuleEndToEnd`" + ` |
| sets ` + "`signatures.require`" + ` without a key file | exit 2: it needs the keys that may sign | ` + "`config.TestLoadSignaturesErrors`" + ` |
| edits the file with the schema in the editor | the editor flags exactly what small-hook refuses, and accepts what it accepts | ` + "`config.TestConfigSchemaAgreesWithTheLoader`, `config.TestConfigSchemaRuleIDs`" + ` |
| leaves a key out | the default this page names applies | ` + "`config.TestConfigSchemaDefaultsAreTheLoaders`" + ` |
| copies the example above | it loads, and every key is in it | ` + "`main.TestConfigurationExampleLoads`" + ` |
| stages a change to the file | it is validated now and applies from the next commit | ` + "`main.TestStagedPolicyChangeAppliesFromTheNextCommit`" + ` |
| commits past the hooks a file no check can load, then commits | every commit is refused, naming the line and the way out (fix the file, ` + "`git add .small-hook.yml`" + `); the commit that repairs it passes, judged with the built-in configuration (an agent's repair is still ` + "`small/ownership`" + `); the same for a ` + "`.gitleaks.toml`" + ` whose rules do not compile and a key file the signatures section names | ` + "`main.TestAMalformedConfigurationCanBeRepaired`" + `, ` + "`main.TestAMalformedGitleaksConfigurationCanBeRepaired`" + `, ` + "`main.TestAMalformedKeyFileCanBeRepaired`" + ` |
| commits a change to the file as an agent | ` + "`small/ownership`" + `: the file is human-owned | ` + "`small.TestCases/ownership/an-agent-edits-the-configuration`" + ` |
`

// docLink matches a page of docs/ named in a description.
var docLink = regexp.MustCompile(`docs/([a-z-]+)\.md`)

// pageText is a description as the page shows it: Markdown, the pages it
// names linked.
func pageText(v any) string {
	s, _ := v.(string)
	return docLink.ReplaceAllString(markdownText(s), "[$1.md]($1.md)")
}
