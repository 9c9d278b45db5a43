package rulestest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/internal/signature"
	"github.com/small-hook/small-hook/rules"
)

// Case is one test case read from a .txtar file (see the package doc for
// its format): the unit of change, who made it, the configuration the
// check applies, and the findings it must give.
type Case struct {
	// Name is <rule name>/<case name>, File the case's file; both empty
	// for a case ParseCase read.
	Name, File string
	// Unit is the change the rules judge.
	Unit changes.Unit
	// Actor is who made the change; nil when the case names no actor (the
	// check then attributes nothing, as rules.Check does without an Actor).
	Actor *attribution.Verdict
	// Config is the configuration of the trusted revision.
	Config *config.Config
	// Secrets finds secrets; nil unless the case asks for a scan.
	Secrets *secrets.Scanner
	// Wants are the findings the case must give, and no others.
	Wants []Want
}

// Want is one expected finding: a want line of a case,
// "want path:line: severity rule: text".
type Want struct {
	Path     string
	Line     int
	Severity rules.Severity
	Rule     string
	// Text is a part of the finding's text (its message, then ": " and
	// its hint; see rules.Finding.Text).
	Text string
	// Source is the line of the case file the want is written on.
	Source int
}

// String writes the want as its line says it.
func (w Want) String() string {
	return fmt.Sprintf("%s:%d: %s %s: %s", w.Path, w.Line, w.Severity, w.Rule, w.Text)
}

// wantLine is the syntax of a want line after "want ".
var wantLine = regexp.MustCompile(`^(\S+):(\d+): (error|warning) (\S+):(?: (.*))?$`)

// The names of the states a file section can belong to, as the prefix of
// its name: "before/.small/progress.small.yml".
const (
	beforeState = "before"
	afterState  = "after"
	baseState   = "base"
	parentState = "parent"
	ontoState   = "onto"
)

// ParseCase reads a case from data, the text of a .txtar file; @@NAME@@ in
// its files stands for values[NAME].
func ParseCase(data []byte, values map[string]string) (*Case, error) {
	a := parseArchive(data)
	b := newBuilder()
	for n, line := range strings.Split(a.comment, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := b.directive(line, n+1); err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
	}
	for _, f := range a.files {
		text, err := expand(string(f.data), values)
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", f.line, f.name, err)
		}
		if err := b.file(f.name, text); err != nil {
			return nil, fmt.Errorf("line %d: %w", f.line, err)
		}
	}
	return b.build()
}

// expand replaces @@NAME@@ with values[NAME].
func expand(text string, values map[string]string) (string, error) {
	var out strings.Builder
	for {
		i := strings.Index(text, "@@")
		if i < 0 {
			out.WriteString(text)
			return out.String(), nil
		}
		j := strings.Index(text[i+2:], "@@")
		if j < 0 {
			return "", fmt.Errorf("@@ without its closing @@")
		}
		name := text[i+2 : i+2+j]
		v, ok := values[name]
		if !ok {
			return "", fmt.Errorf("@@%s@@ names no value the test gives", name)
		}
		out.WriteString(text[:i])
		out.WriteString(v)
		text = text[i+2+j+2:]
	}
}

// builder gathers what a case says, then builds its unit.
type builder struct {
	mode    changes.Mode
	commit  *changes.Commit
	ref     string
	isDef   bool
	target  *changes.Target
	actor   *attribution.Verdict
	secrets bool
	merge   bool
	kinds   map[string]changes.Kind
	wants   []Want
	// context holds the files of every state; states the files of one
	// state that differ from the context ("before", "after", "base",
	// "base2", "parent2", …).
	context map[string]string
	states  map[string]map[string]string
}

func newBuilder() *builder {
	return &builder{mode: changes.ModeStaged, kinds: map[string]changes.Kind{}, context: map[string]string{}, states: map[string]map[string]string{}}
}

// directive applies one line of the comment.
func (b *builder) directive(line string, n int) error {
	name, value, _ := strings.Cut(line, " ")
	value = strings.TrimSpace(value)
	switch name {
	case "mode":
		switch m := changes.Mode(value); m {
		case changes.ModeStaged, changes.ModeRange, changes.ModeTree, changes.ModeTip, changes.ModeRef:
			b.mode = m
		default:
			return fmt.Errorf("mode %q is none of staged, range, tree, tip, ref", value)
		}
	case "commit":
		b.commitOf().Hash = value
	case "parents":
		b.commitOf().Parents = strings.Fields(value)
	case "author", "committer":
		id, err := identity(value)
		if err != nil {
			return err
		}
		if name == "author" {
			b.commitOf().Author = id
		} else {
			b.commitOf().Committer = id
		}
	case "ref":
		b.ref = value
	case "default-branch":
		b.isDef = true
	case "object":
		types := strings.Fields(value)
		if len(types) == 0 || len(types) > 2 {
			return fmt.Errorf("object %q is not TYPE or TYPE PEELED", value)
		}
		b.target = &changes.Target{ID: strings.Repeat("1", 40), Type: types[0], Peeled: types[len(types)-1]}
	case "symlink", "submodule":
		kind := changes.KindSymlink
		if name == "submodule" {
			kind = changes.KindSubmodule
		}
		b.kinds[value] = kind
	case "secrets":
		b.secrets = true
	case "merge":
		b.merge = true
	case "want":
		m := wantLine.FindStringSubmatch(value)
		if m == nil {
			return fmt.Errorf("want %q is not path:line: severity rule: text", value)
		}
		line, _ := strconv.Atoi(m[2])
		b.wants = append(b.wants, Want{Path: m[1], Line: line, Severity: rules.Severity(m[3]), Rule: m[4], Text: m[5], Source: n})
	default:
		return b.actorDirective(name, value)
	}
	return nil
}

// actorDirective applies a line that says who made the change.
func (b *builder) actorDirective(name, value string) error {
	if b.actor == nil {
		b.actor = &attribution.Verdict{Actor: attribution.Unknown}
	}
	v := b.actor
	switch name {
	case "actor":
		switch a := attribution.Actor(value); a {
		case attribution.Human, attribution.Agent, attribution.Unknown:
			v.Actor = a
		default:
			return fmt.Errorf("actor %q is none of human, agent, unknown", value)
		}
	case "evidence":
		v.Evidence = value
	case "agents":
		v.Agents = strings.Fields(value)
	case "contradicted":
		v.Contradicted = value
	case "disputed":
		v.Disputed = value
	case "pending":
		v.Pending = true
	case "rewrite":
		v.Rewrite = value
	case "setup":
		setup := &attribution.Setup{}
		v.Setup = func() *attribution.Setup { return setup }
		for _, flag := range strings.Fields(value) {
			switch flag {
			case "in-commit":
				setup.InCommit = true
			case "commit-msg":
				setup.CommitMsg = true
			default:
				return fmt.Errorf("setup %q: only in-commit and commit-msg", flag)
			}
		}
	case "install":
		setup := v.HookSetup()
		if setup == nil {
			return fmt.Errorf("install before setup")
		}
		setup.Install = value
	case "signature":
		return signatureDirective(v, value)
	case "signer", "key", "entry", "detail":
		if v.Signature == nil {
			return fmt.Errorf("%s before signature", name)
		}
		switch name {
		case "signer":
			v.Signature.Signer = value
		case "key":
			v.Signature.Key = value
		case "entry":
			v.Signature.Entry = value
		default:
			v.Signature.Detail = value
		}
	case "ready":
		v.Readiness = &signature.Readiness{Signed: true, Key: value}
	case "unready":
		v.Readiness = &signature.Readiness{Advice: value}
	default:
		return fmt.Errorf("unknown directive %q", name)
	}
	return nil
}

// signatureDirective reads "signature VERDICT FORMAT".
func signatureDirective(v *attribution.Verdict, value string) error {
	fields := strings.Fields(value)
	if len(fields) != 2 {
		return fmt.Errorf("signature %q is not VERDICT FORMAT", value)
	}
	st := &signature.Status{Format: signature.Format(fields[1])}
	for verdict := signature.Unsigned; verdict <= signature.PrincipalMismatch; verdict++ {
		if verdict.String() == fields[0] {
			st.Verdict = verdict
			v.Signature = st
			return nil
		}
	}
	return fmt.Errorf("signature verdict %q is unknown", fields[0])
}

// identity reads "Name <email>".
func identity(s string) (changes.Identity, error) {
	name, email, ok := strings.Cut(s, "<")
	if !ok || !strings.HasSuffix(email, ">") {
		return changes.Identity{}, fmt.Errorf("identity %q is not Name <email>", s)
	}
	return changes.Identity{Name: strings.TrimSpace(name), Email: strings.TrimSuffix(email, ">")}, nil
}

// commitOf returns the case's commit, made on the first directive that
// describes it.
func (b *builder) commitOf() *changes.Commit {
	if b.commit == nil {
		b.commit = &changes.Commit{}
	}
	return b.commit
}

// file records one file section.
func (b *builder) file(name, text string) error {
	state, path, ok := strings.Cut(name, "/")
	if !ok || !isState(state) {
		state, path = "", name
	}
	files := b.context
	if state != "" {
		if b.states[state] == nil {
			b.states[state] = map[string]string{}
		}
		files = b.states[state]
	}
	if _, dup := files[path]; dup {
		return fmt.Errorf("%s is given twice", name)
	}
	files[path] = text
	return nil
}

// isState reports whether a section name's first element names a state.
func isState(s string) bool {
	switch {
	case s == beforeState, s == afterState, s == baseState, s == ontoState:
		return true
	case strings.HasPrefix(s, baseState), strings.HasPrefix(s, parentState):
		n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(s, baseState), parentState))
		return err == nil && n >= 2
	}
	return false
}

// state returns the files of a state: the context, and what the state
// gives of its own. A path the state gives and the context too is an
// error.
func (b *builder) state(name string) (Snapshot, error) {
	out := Snapshot{}
	for p, v := range b.context {
		out[p] = v
	}
	for p, v := range b.states[name] {
		if _, ok := b.context[p]; ok {
			return nil, fmt.Errorf("%s/%s is also given as %s, which every state holds", name, p, p)
		}
		out[p] = v
	}
	return out, nil
}

// build makes the case's unit: every path whose version after the change
// differs from its version before (from any parent's, for a merge) is a
// change.
func (b *builder) build() (*Case, error) {
	for name := range b.states {
		if b.mode == changes.ModeTree {
			return nil, fmt.Errorf("a tree has no %s/ state: give its files without a prefix", name)
		}
	}
	before, err := b.state(beforeState)
	if err != nil {
		return nil, err
	}
	after, err := b.state(afterState)
	if err != nil {
		return nil, err
	}
	parents := []Snapshot{before}
	for n := 2; b.states[parentState+strconv.Itoa(n)] != nil || n == 2 && b.merge; n++ {
		p, err := b.state(parentState + strconv.Itoa(n))
		if err != nil {
			return nil, err
		}
		parents = append(parents, p)
	}
	var bases []Snapshot
	if b.states[baseState] != nil || len(parents) > 1 {
		base, err := b.state(baseState)
		if err != nil {
			return nil, err
		}
		bases = append(bases, base)
		for n := 2; b.states[baseState+strconv.Itoa(n)] != nil; n++ {
			more, err := b.state(baseState + strconv.Itoa(n))
			if err != nil {
				return nil, err
			}
			bases = append(bases, more)
		}
	}
	c := &Case{Actor: b.actor, Wants: b.wants}
	trusted := before
	switch b.mode {
	case changes.ModeTree:
		c.Unit = changes.Unit{Mode: b.mode, Files: kinded{after, b.kinds}, Declared: Declared(after)}
		for _, p := range after.paths() {
			c.Unit.Changes = append(c.Unit.Changes, changes.Change{Path: p, New: b.blob(after, p)})
		}
		trusted = after
	case changes.ModeRef:
		c.Unit = changes.Unit{Mode: b.mode, Ref: b.ref, DefaultBranch: b.isDef, Target: b.target, Declared: Declared(after)}
	default:
		c.Unit = changes.Unit{Mode: b.mode, Files: kinded{after, b.kinds}, Before: before, Declared: Declared(append(append([]Snapshot{after}, parents...), bases...)...)}
		c.Unit.Changes = b.changes(after, parents, bases)
		if err := b.onto(c.Unit.Changes); err != nil {
			return nil, err
		}
	}
	c.Unit.Commit = b.commit
	if c.Config, err = loadConfig(trusted); err != nil {
		return nil, err
	}
	if b.secrets {
		opts := secrets.Options{ConfigPath: config.GitleaksConfig}
		if s, ok := trusted[config.GitleaksConfig]; ok {
			opts.Config = []byte(s)
		}
		if s, ok := trusted[config.GitleaksIgnore]; ok {
			opts.Ignore = []byte(s)
		}
		c.Secrets = secrets.New(opts)
	}
	return c, nil
}

// changes lists the paths whose version in after differs from the version
// of a parent; each is a merge's change when there are several parents.
// In tip mode, every change is a merge whose one parent is the previous
// tip, as gitdiff builds it.
func (b *builder) changes(after Snapshot, parents, bases []Snapshot) []changes.Change {
	var paths []string
	for _, s := range append([]Snapshot{after}, parents...) {
		paths = append(paths, s.paths()...)
	}
	slices.Sort(paths)
	var out []changes.Change
	for _, p := range slices.Compact(paths) {
		differs := false
		for _, parent := range parents {
			o, hadOld := parent[p]
			n, hasNew := after[p]
			differs = differs || hadOld != hasNew || o != n || hasNew && b.kinds[p] != ""
		}
		if !differs {
			continue
		}
		ch := changes.Change{Path: p, Old: blobOf(parents[0], p), New: b.blob(after, p)}
		switch {
		case len(parents) > 1:
			ch.Merge = &changes.Merge{}
			for _, parent := range parents {
				ch.Merge.Parents = append(ch.Merge.Parents, blobOf(parent, p))
			}
			for _, base := range bases {
				ch.Merge.Bases = append(ch.Merge.Bases, blobOf(base, p))
			}
			ch.Merge.Base = ch.Merge.Bases[0]
			if len(bases) == 1 {
				ch.Merge.Bases = nil
			}
		case b.mode == changes.ModeTip:
			ch.Merge = &changes.Merge{Parents: []*changes.Blob{ch.Old}}
		}
		out = append(out, ch)
	}
	return out
}

// onto gives every change of a tip the file at the trusted revision a
// rebase moved the branch onto: the onto/ state, when the case has one.
func (b *builder) onto(list []changes.Change) error {
	if b.states[ontoState] == nil {
		return nil
	}
	if b.mode != changes.ModeTip {
		return fmt.Errorf("only a tip (mode tip) has an onto/ state")
	}
	onto, err := b.state(ontoState)
	if err != nil {
		return err
	}
	for i := range list {
		if list[i].Merge != nil {
			list[i].Merge.Onto = blobOf(onto, list[i].Path)
		}
	}
	return nil
}

// blob is the version of path in s, with its kind; nil when absent.
func (b *builder) blob(s Snapshot, path string) *changes.Blob {
	x := blobOf(s, path)
	if x != nil && b.kinds[path] != "" {
		x.Kind = b.kinds[path]
	}
	return x
}

// blobOf is the version of path in s; nil when absent.
func blobOf(s Snapshot, path string) *changes.Blob {
	data, ok := s[path]
	if !ok {
		return nil
	}
	return Blob(data)
}

// kinded is a snapshot whose files may be symbolic links or submodules.
type kinded struct {
	Snapshot
	kinds map[string]changes.Kind
}

// Read returns the file at path with its kind, or nil when absent.
func (k kinded) Read(path string) (*changes.Blob, error) {
	b, err := k.Snapshot.Read(path)
	if b != nil && k.kinds[path] != "" {
		b.Kind = k.kinds[path]
	}
	return b, err
}

// loadConfig loads the configuration a revision holds, or the default.
func loadConfig(s Snapshot) (*config.Config, error) {
	data, ok := s[config.FileName]
	if !ok {
		return config.Default(), nil
	}
	cfg, err := config.Load([]byte(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", config.FileName, err)
	}
	return cfg, nil
}
