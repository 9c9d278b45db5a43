package gitdiff

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/small-hook/small-hook/changes"
)

// Ref is a ref and the commit it leads to.
type Ref struct {
	// Name is the full ref name, e.g. refs/heads/main.
	Name string
	// Commit is the full id of the commit the ref leads to, annotated tags
	// peeled.
	Commit string
}

// Refs lists the refs whose names start with prefix ("refs/" for all),
// sorted by name, each with the commit it leads to. Symbolic refs are left
// out (their targets are listed), and so are refs that lead to no commit (a
// tag of a tree or a blob).
func (r *Repo) Refs(prefix string) ([]Ref, error) {
	iter, err := r.repo.Storer.IterReferences()
	if err != nil {
		return nil, fmt.Errorf("listing the refs: %w", err)
	}
	var out []Ref
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name().String()
		if ref.Type() != plumbing.HashReference || !strings.HasPrefix(name, prefix) {
			return nil
		}
		commit, err := r.peel(ref.Hash())
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if !commit.IsZero() {
			out = append(out, Ref{Name: name, Commit: commit.String()})
		}
		return nil
	})
	if err != nil && !errors.Is(err, storer.ErrStop) {
		return nil, fmt.Errorf("listing the refs: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// DefaultBranch returns the branch HEAD names (refs/heads/main in a bare
// repository a server keeps) and the commit it points to; commit is ""
// when that branch does not exist yet (nothing was pushed to it). ref is
// "" when HEAD is not symbolic.
func (r *Repo) DefaultBranch() (ref, commit string, err error) {
	return r.SymbolicRef("HEAD")
}

// SymbolicRef returns the ref a symbolic ref names (HEAD, or a remote's
// refs/remotes/origin/HEAD) and the commit that ref leads to: "" for the
// commit when the target does not exist or leads to no commit, "" for both
// when name does not exist or is not symbolic.
func (r *Repo) SymbolicRef(name string) (target, commit string, err error) {
	ref, err := r.repo.Storer.Reference(plumbing.ReferenceName(name))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", name, err)
	}
	if ref.Type() != plumbing.SymbolicReference {
		return "", "", nil
	}
	to, err := r.repo.Storer.Reference(ref.Target())
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return ref.Target().String(), "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", ref.Target(), err)
	}
	c, err := r.peel(to.Hash())
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", ref.Target(), err)
	}
	if c.IsZero() {
		return ref.Target().String(), "", nil
	}
	return ref.Target().String(), c.String(), nil
}

// Deletion returns the unit of a push that deletes ref, whose tip was old
// (its Commit, when this repository has that commit).
func (r *Repo) Deletion(ref, old string, defaultBranch bool) (changes.Unit, error) {
	u := changes.Unit{Mode: changes.ModeDeletion, Ref: ref, DefaultBranch: defaultBranch}
	if !plumbing.IsHash(old) {
		return u, nil
	}
	c, err := r.repo.CommitObject(plumbing.NewHash(old))
	switch {
	case errors.Is(err, plumbing.ErrObjectNotFound):
		return u, nil
	case err != nil:
		return u, r.objectError("commit", plumbing.NewHash(old), err)
	}
	u.Commit = r.describe(c)
	return u, nil
}

// ForkPoint returns the newest commit on head's first-parent line that
// one of excluded reaches (the commit a branch grew from, among the
// commits a remote already has), or "" when none does.
func (r *Repo) ForkPoint(excluded []string, head string) (string, error) {
	h, err := r.resolve(head)
	if err != nil || len(excluded) == 0 {
		return "", err
	}
	var bases []plumbing.Hash
	for _, rev := range excluded {
		b, err := r.resolve(rev)
		if err != nil {
			return "", err
		}
		bases = append(bases, b)
	}
	commits, err := r.between(bases, h)
	if err != nil {
		return "", err
	}
	ahead := map[plumbing.Hash][]plumbing.Hash{}
	for _, c := range commits {
		ahead[c.Hash] = c.ParentHashes
	}
	for {
		parents, in := ahead[h]
		if !in {
			return h.String(), nil
		}
		if len(parents) == 0 {
			return "", nil
		}
		h = parents[0]
	}
}

// Peel returns the full id of the commit the object id leads to, through
// any annotated tags; "" when it leads to a tree or a blob.
func (r *Repo) Peel(id string) (string, error) {
	if !plumbing.IsHash(id) {
		return "", fmt.Errorf("%q is not a full object id", id)
	}
	c, err := r.peel(plumbing.NewHash(id))
	if err != nil || c.IsZero() {
		return "", err
	}
	return c.String(), nil
}

// peel follows annotated tags from h to a commit; the zero hash when they
// end at a tree or a blob.
func (r *Repo) peel(h plumbing.Hash) (plumbing.Hash, error) {
	for depth := 0; depth < 100; depth++ {
		obj, err := r.repo.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return plumbing.ZeroHash, r.objectError("object", h, err)
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			tag, err := r.repo.TagObject(h)
			if err != nil {
				return plumbing.ZeroHash, r.objectError("tag", h, err)
			}
			h = tag.Target
		default:
			return plumbing.ZeroHash, nil
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("tag %s: more than 100 tags deep", h)
}

// Has reports whether the repository holds the object id.
func (r *Repo) Has(id string) (bool, error) {
	if !plumbing.IsHash(id) {
		return false, fmt.Errorf("%q is not a full object id", id)
	}
	_, err := r.repo.Storer.EncodedObject(plumbing.AnyObject, plumbing.NewHash(id))
	switch {
	case errors.Is(err, plumbing.ErrObjectNotFound):
		return false, nil
	case err != nil:
		return false, r.objectError("object", plumbing.NewHash(id), err)
	}
	return true, nil
}
