// Package small holds the rules for SMALL protocol v1.0.0 workspaces: the
// five canonical .small/*.small.yml artifacts and workspace.small.yml.
package small

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/yamldoc"
)

// Dir is the workspace directory, with its trailing slash.
const Dir = ".small/"

// The canonical files and their schema names.
const (
	Intent      = Dir + "intent.small.yml"
	Constraints = Dir + "constraints.small.yml"
	Plan        = Dir + "plan.small.yml"
	Progress    = Dir + "progress.small.yml"
	Handoff     = Dir + "handoff.small.yml"
	Workspace   = Dir + "workspace.small.yml"
)

// requiredFiles lists the five artifacts every workspace must have.
func requiredFiles() []string {
	return []string{Intent, Constraints, Plan, Progress, Handoff}
}

// schemaName returns the schema of a canonical file, or "" for any other
// path.
func schemaName(p string) string {
	switch p {
	case Intent, Constraints, Plan, Progress, Handoff, Workspace:
		return strings.TrimSuffix(path.Base(p), ".small.yml")
	}
	return ""
}

// inWorkspace reports whether p is under .small/.
func inWorkspace(p string) bool { return strings.HasPrefix(p, Dir) }

// parsed is a decoded version of a canonical file.
type parsed struct {
	doc *yamldoc.Doc
	// top is the top-level mapping; nil when err is set.
	top map[string]any
	// err is why the file could not be decoded, with its line.
	err  error
	line int
}

// decode decodes a blob once per run. The entry's kind is checked before
// the cache is asked: a symbolic link whose target reads like a file's
// content has the same object id as that file.
func decode(pass *rules.Pass, b *gitdiff.Blob) *parsed {
	if err := b.Regular(); err != nil {
		return &parsed{err: err}
	}
	return pass.Memo("small/yaml:"+b.Hash, func() any { return decodeBlob(b) }).(*parsed)
}

func decodeBlob(b *gitdiff.Blob) *parsed {
	if err := b.Regular(); err != nil {
		return &parsed{err: err}
	}
	if len(strings.TrimSpace(string(b.Data))) == 0 {
		return &parsed{err: errors.New("is empty; a SMALL artifact is a YAML mapping"), line: 1}
	}
	doc, err := yamldoc.Decode(b.Data)
	if err != nil {
		var ye *yamldoc.Error
		if errors.As(err, &ye) {
			return &parsed{err: errors.New(ye.Msg), line: ye.Line}
		}
		return &parsed{err: err}
	}
	if doc.Value == nil {
		return &parsed{err: errors.New("holds no YAML value (only comments?); a SMALL artifact is a YAML mapping"), line: 1}
	}
	top, ok := doc.Value.(map[string]any)
	if !ok {
		return &parsed{err: fmt.Errorf("top level is %s, not a mapping", describe(doc.Value)), line: doc.Line()}
	}
	return &parsed{doc: doc, top: top}
}

// describe names the YAML type of a value for messages.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case []any:
		return "a sequence"
	case map[string]any:
		return "a mapping"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case yamldoc.Timestamp:
		return "an unquoted timestamp"
	}
	return fmt.Sprintf("%T", v)
}

// changed returns the unit's change to path, or nil.
func changed(u *gitdiff.Unit, p string) *gitdiff.Change {
	for i := range u.Changes {
		if u.Changes[i].Path == p {
			return &u.Changes[i]
		}
	}
	return nil
}

// touchesWorkspace reports whether the unit changes anything under .small/.
func touchesWorkspace(u *gitdiff.Unit) bool {
	for _, ch := range u.Changes {
		if inWorkspace(ch.Path) {
			return true
		}
	}
	return false
}

// current decodes the new version of path from the unit's files; nil when
// absent or undecodable.
func current(pass *rules.Pass, p string) (*parsed, error) {
	b, err := pass.Unit.Files.Read(p)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	if b == nil {
		return nil, nil
	}
	f := decode(pass, b)
	if f.err != nil {
		return nil, nil
	}
	return f, nil
}
