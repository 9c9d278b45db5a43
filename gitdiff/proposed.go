package gitdiff

import (
	"errors"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
)

// Proposed returns the unit of one write an agent proposes, before it is
// made: the file at path (slash-separated, relative to the work tree's
// root) as after holds it, against its version at HEAD. It is judged as
// the staged change is (changes.ModeStaged): HEAD is the state before
// (what the commit will be compared with), after the state after (the
// caller's: the work tree with the write), and what either declares
// governs, so a write that creates a declaring file (a canonical SMALL
// file, an artifact's frontmatter) governs itself. The unit has no change
// when the path is out of scope, governed by nothing, or unchanged.
func (r *Repo) Proposed(path string, after changes.Snapshot, scope Scope) (changes.Unit, error) {
	if r.workTree == "" {
		return changes.Unit{}, errors.New("a bare repository has no work tree to write to")
	}
	_, head, err := r.headTree()
	if err != nil {
		return changes.Unit{}, err
	}
	u := changes.Unit{Mode: changes.ModeStaged, Files: after}
	states := []declState{snapshotState{after}}
	if head != nil {
		u.Before = &treeSnapshot{repo: r, hash: head.hash}
		states = append(states, r.treeState(head))
	}
	if !scope.ContainsPath(path) {
		return u, nil
	}
	g, err := r.newGovernor(scope)
	if err != nil {
		return changes.Unit{}, err
	}
	us := g.unit(scope)
	keep, err := us.governed([]string{path}, states...)
	if err != nil {
		return changes.Unit{}, err
	}
	u.Declared = us.declared
	if !keep[path] {
		return u, nil
	}
	ch := changes.Change{Path: path}
	if ch.New, err = after.Read(path); err != nil {
		return changes.Unit{}, err
	}
	if head != nil {
		e, ok, err := r.findEntry(head.hash, path)
		if err != nil {
			return changes.Unit{}, err
		}
		if ok && e.mode != filemode.Dir {
			if ch.Old, err = r.blob(e); err != nil {
				return changes.Unit{}, err
			}
		}
	}
	if ch.Old != nil && ch.New != nil && ch.Old.Hash == ch.New.Hash && ch.Old.Kind == ch.New.Kind || ch.Old == nil && ch.New == nil {
		return u, nil
	}
	u.Changes = []changes.Change{ch}
	return u, nil
}

// snapshotState is a state given as a snapshot (the work tree a proposed
// write leaves): it declares what its files declare.
type snapshotState struct {
	files changes.Snapshot
}

func (s snapshotState) declares(x workspace.Declaration, path string) (bool, error) {
	switch {
	case x.Artifact != "":
		for _, p := range spellings(path, x.Artifact) {
			b, err := s.files.Read(p)
			if err != nil {
				return false, err
			}
			if b != nil && b.Kind == changes.KindFile && workspace.DeclaresArtifact(b.Data) {
				return true, nil
			}
		}
		return false, nil
	case x.Workspace.Kind == workspace.SMALL:
		files, err := s.files.List(x.Workspace.Dir())
		if err != nil {
			return false, err
		}
		for _, f := range files {
			if d, ok := workspace.DeclaredBy(f); ok && d == x {
				return true, nil
			}
		}
		return false, nil
	}
	b, err := s.files.Read(x.Workspace.Root + workspace.Marker)
	return b != nil, err
}
