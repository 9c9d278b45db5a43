package schemas

import (
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/small-hook/small-hook/internal/words"
)

// describe words one violation in plain language. It never repeats the
// value that failed (a value in a governed file may be a secret), only
// what the schema wants.
func (s *Set) describe(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		var alts []string
		for _, c := range e.Causes {
			alts = append(alts, want(c))
		}
		return "must be " + strings.Join(dedupe(alts), " or ")
	case *kind.OneOf:
		return "must match exactly one of its allowed forms"
	case *kind.AdditionalProperties:
		return fmt.Sprintf("has %s %s, which is not allowed here", words.Plural(len(k.Properties), "key", "keys"), quoteAll(k.Properties))
	case *kind.Required:
		return fmt.Sprintf("is missing the required %s %s", words.Plural(len(k.Missing), "key", "keys"), quoteAll(k.Missing))
	case *kind.Type:
		return fmt.Sprintf("must be %s, not %s", typeWords(k.Want), article(jsonType(k.Got)))
	case *kind.FalseSchema:
		return "is not allowed here"
	}
	return "must be " + want(e)
}

// want says what a failed keyword wants, as a noun phrase: "a non-empty
// string", "one of error, warn", "64 hexadecimal digits".
func want(e *jsonschema.ValidationError) string {
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return typeWords(k.Want)
	case *kind.Enum:
		var vals []string
		for _, v := range k.Want {
			vals = append(vals, fmt.Sprint(v))
		}
		return "one of " + strings.Join(vals, ", ")
	case *kind.Const:
		return fmt.Sprintf("%q", fmt.Sprint(k.Want))
	case *kind.MinLength:
		if k.Want == 1 {
			return "a non-empty string"
		}
		return fmt.Sprintf("at least %d characters long", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("at most %d characters long", k.Want)
	case *kind.Pattern:
		return patternWords(k.Want)
	case *kind.MinItems:
		if k.Want == 1 {
			return "a non-empty list"
		}
		return fmt.Sprintf("a list of at least %d items", k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("a list of at most %d items", k.Want)
	case *kind.Minimum:
		return "at least " + k.Want.RatString()
	case *kind.Maximum:
		return "at most " + k.Want.RatString()
	case *kind.ExclusiveMinimum:
		return "more than " + k.Want.RatString()
	case *kind.ExclusiveMaximum:
		return "less than " + k.Want.RatString()
	case *kind.MinProperties:
		return fmt.Sprintf("a mapping with at least %d keys", k.Want)
	case *kind.Format:
		return "a valid " + k.Want
	case *kind.AnyOf:
		var alts []string
		for _, c := range e.Causes {
			alts = append(alts, want(c))
		}
		return strings.Join(dedupe(alts), " or ")
	case *kind.Group, *kind.AllOf, *kind.Schema:
		if len(e.Causes) > 0 {
			var parts []string
			for _, c := range e.Causes {
				parts = append(parts, want(c))
			}
			return strings.Join(dedupe(parts), " and ")
		}
	}
	return "valid here"
}

// patternWords names the forms the embedded schemas ask for.
func patternWords(p string) string {
	switch p {
	case "^[a-fA-F0-9]{64}$":
		return "64 hexadecimal digits"
	case "^[a-f0-9]{64}$":
		return "64 lower-case hexadecimal digits"
	case "^[a-f0-9]{7,40}$":
		return "a commit id: 7 to 40 lower-case hexadecimal digits"
	case "^artifact:[a-z0-9][a-z0-9-]*$":
		return "artifact:<slug>, the slug in lower-case letters, digits and dashes"
	case `^\d+\.\d+\.\d+$`:
		return "a version like 1.2.3"
	case `^\d+\.\d+$`:
		return "a version like 1.0"
	}
	return "of the form " + p
}

// jsonType names a JSON type the way YAML users know it.
func jsonType(t string) string {
	switch t {
	case "object":
		return "mapping"
	case "array":
		return "list"
	case "null":
		return "null"
	}
	return t
}

func typeWords(types []string) string {
	var out []string
	for _, t := range types {
		out = append(out, article(jsonType(t)))
	}
	sort.Strings(out)
	return strings.Join(out, " or ")
}

func article(noun string) string {
	switch noun {
	case "null":
		return "null"
	case "integer", "array", "object":
		return "an " + noun
	}
	return "a " + noun
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// maxKey bounds how much of a key name from the file a message repeats.
const maxKey = 24

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		if r := []rune(n); len(r) > maxKey {
			q[i] = fmt.Sprintf("%q…", string(r[:maxKey]))
			continue
		}
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
