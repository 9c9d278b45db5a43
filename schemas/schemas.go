// Package schemas holds the JSON Schemas (draft 2020-12) small-hook
// validates governed files against, embedded in the binary and compiled
// lazily, each at most once per Set.
package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// files are the protocol's schemas. small-hook.schema.json, the schema of
// small-hook's own configuration for editors, is not one of them.
//
//go:embed intent.schema.json constraints.schema.json plan.schema.json progress.schema.json handoff.schema.json workspace.schema.json knowledge-artifact.schema.json
var files embed.FS

// Violation is one way a value fails its schema.
type Violation struct {
	// Path is the instance location as JSON pointer tokens ("entries", "3",
	// "status"); resolve its line with yamldoc.Doc.Line(Path...).
	Path []string
	// Message says what is wrong, e.g. "value must be one of ...".
	Message string
	// WantsType is set when the violation is a type mismatch.
	WantsType bool
	// Keys are the keys a mapping holds but may not (an "unexpected key"
	// violation), so that a message can point at the key's own line.
	Keys []string
}

// Pointer is the violation's location as a JSON pointer ("/entries/3").
func (v Violation) Pointer() string {
	if len(v.Path) == 0 {
		return "/"
	}
	return "/" + strings.Join(v.Path, "/")
}

// Set compiles the embedded schemas on first use; keep one for a run. A
// Set is safe for concurrent use.
type Set struct {
	// mu guards the compiler and compiled: a Set compiles schemas as they
	// are first used, and validates on several goroutines.
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
}

// New returns a Set. It reads and compiles nothing until a schema is used.
func New() *Set {
	return &Set{compiled: map[string]*jsonschema.Schema{}}
}

// Names lists the embedded schemas ("intent", "knowledge-artifact", ...).
func (s *Set) Names() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".schema.json"))
	}
	sort.Strings(names)
	return names
}

// Validate checks value, a yamldoc value, against schema name, or against
// the sub-schema at fragment ("#/$defs/entry") when fragment is not empty.
// Violations come sorted by location and message.
func (s *Set) Validate(name, fragment string, value any) ([]Violation, error) {
	sch, err := s.schema(name + ".schema.json" + fragment)
	if err != nil {
		return nil, err
	}
	err = sch.Validate(jsonValue(value))
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("validating against %s: %w", name, err)
	}
	var out []Violation
	s.collect(ve, &out)
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := out[i].Pointer(), out[j].Pointer(); a != b {
			return a < b
		}
		return out[i].Message < out[j].Message
	})
	return out, nil
}

func (s *Set) schema(loc string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.compiled[loc]; ok {
		return sch, nil
	}
	if s.compiler == nil {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		entries, err := files.ReadDir(".")
		if err != nil {
			return nil, fmt.Errorf("reading embedded schemas: %w", err)
		}
		for _, e := range entries {
			data, err := files.ReadFile(e.Name())
			if err != nil {
				return nil, fmt.Errorf("reading schema %s: %w", e.Name(), err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("schema %s: %w", e.Name(), err)
			}
			if err := c.AddResource(e.Name(), doc); err != nil {
				return nil, fmt.Errorf("schema %s: %w", e.Name(), err)
			}
		}
		s.compiler = c
	}
	sch, err := s.compiler.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("compiling schema %s: %w", loc, err)
	}
	s.compiled[loc] = sch
	return sch, nil
}

// collect flattens a validation error into its leaf causes. A failed
// anyOf/oneOf whose branches all fail is reported once, as itself.
func (s *Set) collect(e *jsonschema.ValidationError, out *[]Violation) {
	if len(e.Causes) == 0 || isAlternatives(e) {
		if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
			// jsonschema lists them in map order: one order for every run.
			slices.Sort(k.Properties)
		}
		v := Violation{Path: e.InstanceLocation, Message: s.describe(e), WantsType: wantsType(e)}
		if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
			v.Keys = k.Properties
		}
		*out = append(*out, v)
		return
	}
	for _, c := range e.Causes {
		s.collect(c, out)
	}
}

// isAlternatives reports an anyOf or oneOf that no branch satisfied.
func isAlternatives(e *jsonschema.ValidationError) bool {
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		return true
	}
	return false
}

// wantsType reports a type mismatch, directly or in every branch of a
// failed anyOf.
func wantsType(e *jsonschema.ValidationError) bool {
	if _, ok := e.ErrorKind.(*kind.Type); ok {
		return true
	}
	if !isAlternatives(e) || len(e.Causes) == 0 {
		return false
	}
	for _, c := range e.Causes {
		if !wantsType(c) {
			return false
		}
	}
	return true
}

// jsonValue converts a yamldoc value into what the validator accepts. An
// unquoted YAML timestamp becomes a number, so that a schema that wants a
// string rejects it as the reference tools do; an integer beyond int64
// becomes a json.Number, which the validator reads exactly. Containers
// that need no conversion are passed as they are, and a container shared
// by several places (an anchored value) is converted once.
func jsonValue(v any) any {
	c := jsonConverter{done: map[any]converted{}}
	out, _ := c.convert(v)
	return out
}

// jsonConverter remembers the containers it has converted, by their identity
// (identity or sliceID), for the length of one conversion.
type jsonConverter struct {
	done map[any]converted
}

type converted struct {
	value   any
	changed bool
}

// convert returns v as the validator takes it, and whether that differs
// from v.
func (c jsonConverter) convert(v any) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		id := identity(v)
		if r, ok := c.done[id]; ok {
			return r.value, r.changed
		}
		var out map[string]any
		for k, x := range v {
			if cx, changed := c.convert(x); changed {
				if out == nil {
					out = maps.Clone(v)
				}
				out[k] = cx
			}
		}
		if out == nil {
			return c.remember(id, v, false)
		}
		return c.remember(id, out, true)
	case []any:
		if len(v) == 0 {
			return v, false
		}
		id := sliceID{&v[0], len(v)}
		if r, ok := c.done[id]; ok {
			return r.value, r.changed
		}
		var out []any
		for i, x := range v {
			if cx, changed := c.convert(x); changed {
				if out == nil {
					out = slices.Clone(v)
				}
				out[i] = cx
			}
		}
		if out == nil {
			return c.remember(id, v, false)
		}
		return c.remember(id, out, true)
	case yamldoc.Timestamp:
		return float64(v.Time.Unix()), true
	case *big.Int:
		return json.Number(v.String()), true
	}
	return v, false
}

// remember records what a container converted to.
func (c jsonConverter) remember(id, value any, changed bool) (any, bool) {
	c.done[id] = converted{value: value, changed: changed}
	return value, changed
}

// sliceID names a sequence for jsonConverter.done: its storage and length.
type sliceID struct {
	first *any
	n     int
}

// identity names a mapping for jsonConverter.done: its storage's address.
func identity(m map[string]any) any {
	return reflect.ValueOf(m).Pointer()
}
