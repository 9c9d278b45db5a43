package gitdiff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/gitread"
	"github.com/small-hook/small-hook/internal/workspace"
)

// A candidate path (workspace.Candidate) is read only when something
// declares it protocol state: a workspace or an artifact that declares
// itself in the trusted revision (Scope.Trusted), in a state of the unit
// (before it, after it, at any parent of a merge), or, in a range, in a
// state an earlier unit of the range declared it in. The declarations
// that govern a unit's paths go into the unit (changes.Unit.Declared),
// where changes.Locate finds them.

// governor decides what is governed for the units of one check.
type governor struct {
	repo *Repo
	// trusted is the trusted revision's tree, nil when there is none;
	// trustedMemo remembers its answers.
	trusted     *treeState
	trustedMemo map[memoKey]bool
	// seen gathers what the units built so far were governed by.
	seen workspace.Declarations
}

// memoKey is one question asked of a state: is x declared, for the
// candidate path path (only an artifact's declaration depends on the path:
// its own content, at the spelling the unit uses, counts).
type memoKey struct {
	x    workspace.Declaration
	path string
}

// newGovernor returns the governor of one check; the trusted revision, if
// the scope names one, is read from repo.
func (r *Repo) newGovernor(scope Scope) (*governor, error) {
	g := &governor{repo: r, trustedMemo: map[memoKey]bool{}}
	if scope.Trusted == "" {
		return g, nil
	}
	h, err := r.resolve(scope.Trusted)
	if err != nil {
		return nil, fmt.Errorf("the trusted revision: %w", err)
	}
	t, err := r.commitTree(h)
	if err != nil {
		return nil, fmt.Errorf("the trusted revision: %w", err)
	}
	g.trusted = r.treeState(t)
	return g, nil
}

// unitScope is the scope of one unit: it decides which candidate paths
// the unit reads, and records the declarations that govern them.
type unitScope struct {
	Scope
	g        *governor
	declared workspace.Declarations
	// dirs remembers the answers for workspaces by the directories of
	// their roots, and artifacts those for artifacts.
	dirs      *dirMemo
	artifacts map[memoKey]bool
}

// unit starts the scope of one unit.
func (g *governor) unit(scope Scope) *unitScope {
	return &unitScope{Scope: scope, g: g, dirs: &dirMemo{}, artifacts: map[memoKey]bool{}}
}

// dirMemo is one directory in what a unit found of the workspaces whose
// root a directory is, and holds the directories below it: the paths of a
// unit are walked from the root down, once each, so that a deep path's
// governing directories cost one reading of it, not one look-up of each
// root.
type dirMemo struct {
	below map[string]*dirMemo
	// declared holds the answer for each kind of workspace asked of.
	declared map[workspace.Kind]bool
}

// pathDirs are the directories of one path in a unit's memo, from the
// root down: dirs[k] is the directory that holds the path's first k
// directories, which end at byte ends[k] of the path.
type pathDirs struct {
	dirs []*dirMemo
	ends []int
}

// walk returns the directories of path below m.
func (m *dirMemo) walk(path string) pathDirs {
	out := pathDirs{dirs: []*dirMemo{m}, ends: []int{0}}
	for n, at := m, 0; ; {
		i := strings.IndexByte(path[at:], '/')
		if i < 0 {
			return out
		}
		name := path[at : at+i]
		next, ok := n.below[name]
		if !ok {
			if n.below == nil {
				n.below = map[string]*dirMemo{}
			}
			next = &dirMemo{}
			n.below[name] = next
		}
		n, at = next, at+i+1
		out.dirs, out.ends = append(out.dirs, n), append(out.ends, at)
	}
}

// of returns the directory that root, the first bytes of the path up to
// one of its slashes (a root workspace.Needs gives), names.
func (d pathDirs) of(root string) *dirMemo {
	return d.dirs[sort.SearchInts(d.ends, len(root)+1)-1]
}

// governed returns the paths among paths that the unit reads: every path
// that is no candidate (the policy files; every path with Scope.All), and
// the candidates that a declaration governs, in the trusted revision, in
// one of states or in an earlier unit; with Scope.All, the other
// candidates too (secret detection scans them, no protocol rule judges
// them).
func (s *unitScope) governed(paths []string, states ...declState) (map[string]bool, error) {
	keep := make(map[string]bool, len(paths))
	for _, p := range paths {
		if !workspace.Candidate(p) {
			keep[p] = true
			continue
		}
		governed := false
		dirs := s.dirs.walk(p)
		for _, x := range workspace.Needs(p) {
			ok, err := s.declares(x, p, dirs, states)
			if err != nil {
				return nil, err
			}
			if ok {
				s.declared.Add(x)
				governed = true
				break
			}
		}
		if governed || s.All || gitread.IsPolicy(s.Policy, p) {
			keep[p] = true
		}
	}
	s.g.seen.AddAll(s.declared)
	return keep, nil
}

// declares reports whether x, which could govern path (whose directories
// are dirs), is declared where it counts for the unit; each answer is
// worked out once per unit.
func (s *unitScope) declares(x workspace.Declaration, path string, dirs pathDirs, states []declState) (bool, error) {
	key := memoKey{x: x}
	find := func() (bool, error) {
		found, err := s.g.declaresBeyond(x, key)
		for _, st := range states {
			if found || err != nil {
				break
			}
			found, err = st.declares(x, path)
		}
		return found, err
	}
	if x.Artifact != "" {
		key.path = path
		return remembered(s.artifacts, key, find)
	}
	dir := dirs.of(x.Workspace.Root)
	if dir.declared == nil {
		dir.declared = map[workspace.Kind]bool{}
	}
	return remembered(dir.declared, x.Workspace.Kind, find)
}

// remembered returns the answer memo holds for key, or the one find works
// out, which it then holds.
func remembered[K comparable](memo map[K]bool, key K, find func() (bool, error)) (bool, error) {
	if known, ok := memo[key]; ok {
		return known, nil
	}
	found, err := find()
	if err != nil {
		return false, err
	}
	memo[key] = found
	return found, nil
}

// declaresBeyond reports whether x is declared outside the unit: in an
// earlier unit, or in the trusted revision.
func (g *governor) declaresBeyond(x workspace.Declaration, key memoKey) (bool, error) {
	if g.seen.Has(x) {
		return true, nil
	}
	if g.trusted == nil {
		return false, nil
	}
	if known, ok := g.trustedMemo[key]; ok {
		return known, nil
	}
	found, err := g.trusted.declares(x, key.path)
	if err != nil {
		return false, fmt.Errorf("the trusted revision: %w", err)
	}
	g.trustedMemo[key] = found
	return found, nil
}

// declState is one state of the repository whose declarations count for a
// unit. A state may be partial (the entries a unit changes): it answers
// yes only for what it holds.
type declState interface {
	// declares reports whether the state declares x, path being the
	// candidate path that x would govern.
	declares(x workspace.Declaration, path string) (bool, error)
}

// entriesState is a state held as a map of entries: the index, a tree's
// in-scope files, or the entries a unit changes.
type entriesState struct {
	repo    *Repo
	entries entries
	// workspaces are the workspaces its paths declare, found on first use.
	workspaces *workspace.Declarations
}

func (r *Repo) entriesState(e entries) *entriesState {
	return &entriesState{repo: r, entries: e}
}

func (s *entriesState) declares(x workspace.Declaration, path string) (bool, error) {
	if x.Artifact == "" {
		if s.workspaces == nil {
			s.workspaces = &workspace.Declarations{}
			for p := range s.entries {
				if d, ok := workspace.DeclaredBy(p); ok {
					s.workspaces.Add(d)
				}
			}
		}
		return s.workspaces.Has(x), nil
	}
	for _, p := range spellings(path, x.Artifact) {
		if e, ok := s.entries[p]; ok {
			if found, err := s.repo.declaresArtifact(e); found || err != nil {
				return found, err
			}
		}
	}
	return false, nil
}

// treeState is the state of a commit, looked up in its tree on demand.
type treeState struct {
	repo *Repo
	tree *treeObject
	// small remembers, by root, whether a SMALL workspace is declared.
	small map[string]bool
}

func (r *Repo) treeState(t *treeObject) *treeState {
	return &treeState{repo: r, tree: t, small: map[string]bool{}}
}

func (s *treeState) declares(x workspace.Declaration, path string) (bool, error) {
	switch {
	case x.Artifact != "":
		for _, p := range spellings(path, x.Artifact) {
			e, err := s.repo.lookup(s.tree, p)
			if err != nil {
				return false, err
			}
			if e == nil {
				continue
			}
			if found, err := s.repo.declaresArtifact(*e); found || err != nil {
				return found, err
			}
		}
		return false, nil
	case x.Workspace.Kind == workspace.SMALL:
		return s.declaresSMALL(x)
	}
	e, ok, err := s.repo.findEntry(s.tree.hash, x.Workspace.Root+workspace.Marker)
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", x.Workspace.Root+workspace.Marker, err)
	}
	return ok && e.mode != filemode.Dir, nil
}

// declaresSMALL reports whether the tree's .small directory at the root of
// x holds a file that declares the workspace.
func (s *treeState) declaresSMALL(x workspace.Declaration) (bool, error) {
	root := x.Workspace.Root
	if known, ok := s.small[root]; ok {
		return known, nil
	}
	dir := x.Workspace.Dir()
	found := false
	e, ok, err := s.repo.findEntry(s.tree.hash, strings.TrimSuffix(dir, "/"))
	switch {
	case err != nil:
		return false, fmt.Errorf("reading %s: %w", dir, err)
	case ok && e.mode == filemode.Dir:
		sub, err := s.repo.tree(e.hash)
		if err != nil {
			return false, err
		}
		for f := range sub.all() {
			if d, ok := workspace.DeclaredBy(dir + string(f.name)); ok && d == x && !f.isDir() {
				found = true
				break
			}
		}
	}
	s.small[root] = found
	return found, nil
}

// spellings lists the paths at which an artifact's declaration is read:
// the spelling the unit uses and the canonical one, once each.
func spellings(path, canonical string) []string {
	if path == canonical {
		return []string{path}
	}
	return []string{path, canonical}
}

// declaresArtifact reads a file to tell whether its frontmatter declares a
// knowledge artifact; links and submodules declare nothing.
func (r *Repo) declaresArtifact(e entry) (bool, error) {
	if e.mode == filemode.Dir || e.mode == filemode.Symlink || e.mode == filemode.Submodule {
		return false, nil
	}
	b, err := r.blob(e)
	if err != nil {
		return false, err
	}
	return workspace.DeclaresArtifact(b.Data), nil
}

// only returns the entries of e whose paths keep holds.
func only(e entries, keep map[string]bool) entries {
	out := make(entries, len(e))
	for p, x := range e {
		if keep[p] {
			out[p] = x
		}
	}
	return out
}

// governed returns, in their order, the paths among paths that the unit
// of a merge reads: the states that count are its result (result), its
// parents and every merge base of them.
func (m *merge) governed(s *unitScope, paths []string, result ...declState) ([]string, error) {
	states := result
	for _, t := range m.parents {
		states = append(states, s.g.repo.treeState(t))
	}
	for _, b := range m.bases {
		if b != nil {
			states = append(states, s.g.repo.treeState(b))
		}
	}
	return s.governedList(paths, states...)
}

// governedList is governed as a list: the paths among paths that the
// unit reads, in their order.
func (s *unitScope) governedList(paths []string, states ...declState) ([]string, error) {
	keep, err := s.governed(paths, states...)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		if keep[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// viewState is the state git will commit from the index (see commitView):
// its entries, and the trees it commits whole, looked up on demand.
type viewState struct {
	view *commitView
	// small remembers, by root, whether a SMALL workspace is declared.
	small map[string]bool
	// workspaces are the workspaces the entries declare, found on first
	// use.
	workspaces *workspace.Declarations
}

func (r *Repo) viewState(v *commitView) *viewState {
	return &viewState{view: v, small: map[string]bool{}}
}

func (s *viewState) declares(x workspace.Declaration, path string) (bool, error) {
	switch {
	case x.Artifact != "":
		for _, p := range spellings(path, x.Artifact) {
			e, err := s.view.lookup(p)
			if err != nil || e == nil {
				if err != nil {
					return false, err
				}
				continue
			}
			if found, err := s.view.repo.declaresArtifact(*e); found || err != nil {
				return found, err
			}
		}
		return false, nil
	case x.Workspace.Kind == workspace.SMALL:
		root := x.Workspace.Root
		if known, ok := s.small[root]; ok {
			return known, nil
		}
		// The entries git commits one by one, in any spelling (a folded
		// .SMALL/ declares what it stands for), then the trees it commits
		// whole, which HEAD already holds as they are.
		if s.workspaces == nil {
			s.workspaces = &workspace.Declarations{}
			for _, f := range s.view.files {
				if d, ok := workspace.DeclaredBy(f.path); ok {
					s.workspaces.Add(d)
				}
			}
		}
		found := s.workspaces.Has(x)
		if !found {
			files, err := s.view.List(x.Workspace.Dir())
			if err != nil {
				return false, err
			}
			for _, f := range files {
				if d, ok := workspace.DeclaredBy(f); ok && d == x {
					found = true
					break
				}
			}
		}
		s.small[root] = found
		return found, nil
	}
	e, err := s.view.lookup(x.Workspace.Root + workspace.Marker)
	return e != nil, err
}
