package small

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/workspace"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

// The canonical files, by name within a workspace's .small/ directory.
const (
	Intent      = "intent.small.yml"
	Constraints = "constraints.small.yml"
	Plan        = "plan.small.yml"
	Progress    = "progress.small.yml"
	Handoff     = "handoff.small.yml"
	Workspace   = "workspace.small.yml"
)

// Owner is who may change a file, by SMALL's ownership table.
type Owner string

// The owners of SMALL's ownership table.
const (
	// Human: agents MUST NOT modify the file (small/ownership).
	Human Owner = "human"
	// Agent: humans SHOULD NOT edit the file by hand (small/human-edit).
	Agent Owner = "agent"
	// Shared: humans and agents both write the file.
	Shared Owner = "shared"
)

// canonicalFile is one canonical file of a SMALL workspace.
type canonicalFile struct {
	// name is the file's name in .small/.
	name string
	// owner is who may change it.
	owner Owner
	// required is set for the five artifacts every workspace must have.
	required bool
}

// canonicalFiles declares SMALL's canonical files and the protocol's
// ownership table: intent and constraints are human-owned, plan and
// progress agent-owned, the handoff shared; workspace.small.yml, which the
// small CLI writes for whoever runs it and which the table does not name,
// is shared too. Each is validated by the schema of its name without
// .small.yml.
func canonicalFiles() []canonicalFile {
	return []canonicalFile{
		{name: Intent, owner: Human, required: true},
		{name: Constraints, owner: Human, required: true},
		{name: Plan, owner: Agent, required: true},
		{name: Progress, owner: Agent, required: true},
		{name: Handoff, owner: Shared, required: true},
		{name: Workspace, owner: Shared},
	}
}

// policyOwner owns small-hook's policy files (config.Config.PolicyFiles):
// they decide what every later check trusts, so they are human-owned, and
// no exclude: pattern takes them out.
const policyOwner = Human

// requiredFiles lists the five artifacts every workspace must have.
func requiredFiles() []string {
	var out []string
	for _, f := range canonicalFiles() {
		if f.required {
			out = append(out, f.name)
		}
	}
	return out
}

// canonicalFileNamed returns the canonical file of a name in .small/.
func canonicalFileNamed(name string) (canonicalFile, bool) {
	for _, f := range canonicalFiles() {
		if f.name == name {
			return f, true
		}
	}
	return canonicalFile{}, false
}

// schemaName returns the schema of a canonical file, by its name in the
// workspace, or "" for any other name.
func schemaName(name string) string {
	if _, ok := canonicalFileNamed(name); !ok {
		return ""
	}
	return strings.TrimSuffix(name, ".small.yml")
}

// canonical returns the name of the canonical file a change is to, or ""
// when it is to anything else (including a path that only folds to one).
func canonical(ch *changes.Change) string {
	if ch.Place.Area != workspace.Files || ch.Place.Folded || schemaName(ch.Place.Rel) == "" {
		return ""
	}
	return ch.Place.Rel
}

// OwnerOf returns who owns the file a change is to: the owner the table
// gives a canonical file of a SMALL workspace, or policyOwner for one of
// small-hook's policy files; "" for any other file.
func OwnerOf(cfg *config.Config, ch changes.Change) Owner {
	if PolicyFile(cfg, ch.Path) {
		return policyOwner
	}
	if f, ok := canonicalFileNamed(canonical(&ch)); ok {
		return f.owner
	}
	return ""
}

// PolicyFile reports whether path is one of small-hook's policy files (see
// config.Config.PolicyFiles).
func PolicyFile(cfg *config.Config, path string) bool {
	return slices.Contains(cfg.PolicyFiles(), path)
}

// HumanOwned reports whether a change's file is human-owned: a policy
// file, which no exclude: pattern can take out, or a file the ownership
// table gives to humans in a workspace the configuration does not exclude.
func HumanOwned(cfg *config.Config, ch changes.Change) bool {
	return PolicyFile(cfg, ch.Path) || OwnerOf(cfg, ch) == Human && !cfg.Excluded(ch.Path)
}

// space is one SMALL workspace, as the rules of one pass see it.
type space struct {
	pass *rules.Pass
	ws   workspace.Workspace
}

// spaces lists the SMALL workspaces the pass's unit touches (every one in
// tree mode).
func spaces(pass *rules.Pass) []space {
	var out []space
	for _, ws := range pass.Unit.Workspaces(workspace.SMALL) {
		out = append(out, space{pass: pass, ws: ws})
	}
	return out
}

// path is the repository path of a canonical file of the workspace.
func (s space) path(name string) string { return s.ws.Path(name) }

// changed returns the unit's change to a canonical file, or nil.
func (s space) changed(name string) *changes.Change { return s.pass.Unit.Changed(s.path(name)) }

// touches reports whether the unit changes one of the named files (always
// in tree mode).
func (s space) touches(names ...string) bool {
	if s.pass.Unit.Mode == changes.ModeTree {
		return true
	}
	for _, n := range names {
		if s.changed(n) != nil {
			return true
		}
	}
	return false
}

// current decodes the new version of a canonical file; nil when absent or
// undecodable (small/parse reports that).
func (s space) current(name string) (*parsed, error) {
	p := s.path(name)
	b, err := s.pass.Unit.Files.Read(p)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	if b == nil {
		return nil, nil
	}
	f := decode(s.pass, b)
	if f.err != nil {
		return nil, nil
	}
	return f, nil
}

// parsed is a decoded version of a canonical file.
type parsed struct {
	doc *yamldoc.Doc
	// top is the top-level mapping; nil when err is set.
	top map[string]any
	// err is why the file could not be decoded, with its line.
	err  error
	line int
}

// decode decodes a blob once per run. The entry's kind is checked first:
// only a regular file is decoded.
func decode(pass *rules.Pass, b *changes.Blob) *parsed {
	if err := b.Regular(); err != nil {
		return &parsed{err: err}
	}
	return canonicalVersions.Get(pass, b)
}

// canonicalVersions is the fact of a version decoded as a canonical file.
var canonicalVersions = rules.BlobFact(func(pass *rules.Pass, b *changes.Blob) *parsed {
	doc, err := pass.YAML(b, b.Data, 0)
	return parsedFrom(b, doc, err)
})

// parsedFrom judges blob b, which decoded to doc or failed with err, as a
// canonical file.
func parsedFrom(b *changes.Blob, doc *yamldoc.Doc, err error) *parsed {
	if len(strings.TrimSpace(string(b.Data))) == 0 {
		return &parsed{err: errors.New("is empty; a SMALL artifact is a YAML mapping"), line: 1}
	}
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
	case int64, float64, *big.Int:
		return "a number"
	case yamldoc.Timestamp:
		return "an unquoted timestamp"
	}
	return fmt.Sprintf("%T", v)
}
