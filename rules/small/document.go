package small

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
	"github.com/small-hook/small-hook/yamldoc"
	"gopkg.in/yaml.v3"
)

func parseRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/parse",
		Severity: rules.Error,
		Doc: `SMALL artifacts must be YAML mappings
A canonical file under .small/ must be valid UTF-8 YAML, hold exactly one document whose top level is a mapping, and have no duplicate keys. A symbolic link or a submodule where an artifact should be is reported too: small-hook never follows links. Fix the file at the line named; tools that write SMALL files never produce these errors.`,
		Run: func(pass *rules.Pass) error {
			return canonicalChanges(pass, func(ch *changes.Change, name string) error {
				if name == Progress {
					if v := viewProgress(pass, ch); v.appendOnly {
						return nil
					}
				}
				if f := decode(pass, ch.New); f.err != nil {
					pass.Report(ch.Path, f.line, "%s %s", ch.Path, f.err)
				}
				return nil
			})
		},
	}
}

func schemaRule(set *schemas.Set) *rules.Rule {
	return &rules.Rule{
		ID:       "small/schema",
		Severity: rules.Error,
		Doc: `SMALL artifacts must match their JSON Schema
Each canonical file is validated against its schema in schemas/ (draft 2020-12): required keys, no unexpected keys where the protocol forbids them, enums, patterns such as 64-hex replay ids and lower-case commit hashes. YAML typing counts: an unquoted timestamp or a number where a string is required is an error, as in the reference CLI. One finding per violation, with the JSON pointer of the value. small_version is left to small/version.`,
		Run: func(pass *rules.Pass) error {
			return canonicalChanges(pass, func(ch *changes.Change, file string) error {
				name := schemaName(file)
				if file == Progress {
					if v := viewProgress(pass, ch); v.appendOnly {
						for i, e := range v.added {
							if err := validate(pass, set, ch.Path, name, "#/$defs/entry", e.value, e.doc, e.path, []string{"entries", fmt.Sprintf("+%d", i+1)}); err != nil {
								return err
							}
						}
						return nil
					}
				}
				f := decode(pass, ch.New)
				if f.err != nil {
					return nil
				}
				return validate(pass, set, ch.Path, name, "", f.top, f.doc, nil, nil)
			})
		},
	}
}

// validate reports the schema violations of value, a node of doc at path.
// shown replaces path in messages when the node's own path would mislead
// (an appended entry decoded on its own).
func validate(pass *rules.Pass, set *schemas.Set, file, name, fragment string, value any, doc *yamldoc.Doc, path, shown []string) error {
	violations, err := set.Validate(name, fragment, value)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	for _, v := range violations {
		full := append(append([]string{}, path...), v.Path...)
		if len(full) > 0 && full[0] == "small_version" && len(path) == 0 {
			continue
		}
		pointer := "/" + strings.Join(append(append([]string{}, shown...), v.Path...), "/")
		if len(shown) == 0 {
			pointer = v.Pointer()
		}
		pass.Report(file, doc.Line(full...), "%s: %s", pointer, explain(v, doc.Node(full...)))
	}
	return nil
}

// explain words a violation, naming YAML typing mistakes for what they are.
func explain(v schemas.Violation, n *yaml.Node) string {
	if !v.WantsType || n == nil || n.Kind != yaml.ScalarNode {
		return v.Message
	}
	switch n.ShortTag() {
	case "!!timestamp":
		return fmt.Sprintf("%s is an unquoted YAML timestamp, not a string (%s): quote it", n.Value, v.Message)
	case "!!int", "!!float":
		return fmt.Sprintf("%s is a YAML number, not a string (%s): quote it", n.Value, v.Message)
	case "!!bool":
		return fmt.Sprintf("%s is a YAML boolean, not a string (%s): quote it", n.Value, v.Message)
	}
	return v.Message
}

func versionRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/version",
		Severity: rules.Error,
		Doc: `small_version must be exactly the string "1.0.0"
SMALL invariant 5: every artifact carries small_version "1.0.0", an exact string match; a version mismatch must fail validation. An unquoted 1.0 is a number and "1.0" is another version. Write small_version: "1.0.0".`,
		Run: func(pass *rules.Pass) error {
			return canonicalChanges(pass, func(ch *changes.Change, name string) error {
				if name == Progress && viewProgress(pass, ch).appendOnly {
					return nil
				}
				f := decode(pass, ch.New)
				if f.err != nil {
					return nil
				}
				v, ok := f.top["small_version"]
				switch {
				case !ok:
					pass.Report(ch.Path, 1, `small_version is missing: add small_version: "1.0.0"`)
				case v != "1.0.0":
					pass.Report(ch.Path, f.doc.Line("small_version"), `small_version is %s, not the string "1.0.0": write small_version: "1.0.0"`, show(v))
				}
				return nil
			})
		},
	}
}

// show renders a value and its YAML type for messages.
func show(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	if t, ok := v.(yamldoc.Timestamp); ok {
		return t.Text + " (an unquoted timestamp)"
	}
	return fmt.Sprintf("%v (%s)", v, describe(v))
}
