package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
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
// sorted by name, each with the commit it leads to, as git lists them
// (`git for-each-ref`: every ref backend, packed refs, namespaces).
// Symbolic refs are left out (their targets are listed), and so are refs
// that lead to no commit (a tag of a tree or a blob).
func (r *Repo) Refs(prefix string) ([]Ref, error) {
	out, err := r.git.Output("for-each-ref", "--format=%(refname)%00%(objectname)%00%(symref)", "--", prefix)
	if err != nil {
		return nil, fmt.Errorf("listing the refs: %w", err)
	}
	var refs []Ref
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		fields := strings.Split(line, "\x00")
		if len(fields) != 3 || fields[2] != "" || !strings.HasPrefix(fields[0], prefix) {
			continue
		}
		h, ok := gitread.ParseHex([]byte(fields[1]))
		if !ok {
			return nil, fmt.Errorf("listing the refs: git for-each-ref printed %q", line)
		}
		commit, err := r.peel(h)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fields[0], err)
		}
		if !commit.IsZero() {
			refs = append(refs, Ref{Name: fields[0], Commit: commit.String()})
		}
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Name < refs[j].Name })
	return refs, nil
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
	target, err = r.git.Line("symbolic-ref", "-q", "--end-of-options", name)
	switch {
	case gitread.ExitCode(err) == 1: // no such ref, or not a symbolic one
		return "", "", nil
	case err != nil:
		return "", "", fmt.Errorf("reading %s: %w", name, err)
	}
	id, err := r.git.Line("rev-parse", "-q", "--verify", "--end-of-options", target)
	if err != nil {
		return target, "", nil
	}
	h, ok := gitread.ParseHex([]byte(id))
	if !ok {
		return "", "", fmt.Errorf("reading %s: git rev-parse printed %q", target, id)
	}
	c, err := r.peel(h)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", target, err)
	}
	if c.IsZero() {
		return target, "", nil
	}
	return target, c.String(), nil
}

// RefUnit returns the unit of a push that sets ref from old to id
// (changes.ModeRef): what the object id is, and what its annotated tags
// lead to. For a deletion (id "") the unit has no Target, and its Commit
// is the commit the ref led to, when this repository has it (a deleted
// tag of a tree, or a replacement blob, leads to none).
func (r *Repo) RefUnit(ref, old, id string, defaultBranch bool) (changes.Unit, error) {
	u := changes.Unit{Mode: changes.ModeRef, Ref: ref, DefaultBranch: defaultBranch}
	if id != "" {
		if !plumbing.IsHash(id) {
			return u, fmt.Errorf("%q is not a full object id", id)
		}
		first, last, _, err := r.peelTypes(plumbing.NewHash(id))
		if err != nil {
			return u, err
		}
		u.Target = &changes.Target{ID: id, Type: first.String(), Peeled: last.String()}
		return u, nil
	}
	if !plumbing.IsHash(old) {
		return u, nil
	}
	_, last, tip, err := r.peelTypes(plumbing.NewHash(old))
	switch {
	case errors.Is(err, plumbing.ErrObjectNotFound), err == nil && last != plumbing.CommitObject:
		return u, nil
	case err != nil:
		return u, err
	}
	c, err := r.commit(tip)
	if err != nil {
		return u, r.objectError("commit", tip, err)
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
	_, last, end, err := r.peelTypes(h)
	if err != nil || last != plumbing.CommitObject {
		return plumbing.ZeroHash, err
	}
	return end, nil
}

// peelTypes follows annotated tags from h: it returns the type of h, the
// type of the object at the end of the tags and that object's id.
func (r *Repo) peelTypes(h plumbing.Hash) (first, last plumbing.ObjectType, end plumbing.Hash, err error) {
	for depth := 0; depth < 100; depth++ {
		kind, data, _, err := r.reader.Object(h, -1)
		if err != nil {
			return first, kind, h, r.objectError("object", h, err)
		}
		if depth == 0 {
			first = kind
		}
		if kind != plumbing.TagObject {
			return first, kind, h, nil
		}
		// A tag object starts with the line "object <id>".
		rest, ok := bytes.CutPrefix(data, []byte("object "))
		target, ok2 := gitread.ParseHex(rest[:min(len(rest), 40)])
		if !ok || !ok2 {
			return first, kind, h, fmt.Errorf("tag %s: no object line", h)
		}
		h = target
	}
	return first, plumbing.InvalidObject, h, fmt.Errorf("tag %s: more than 100 tags deep", h)
}

// Has reports whether the repository holds the object id.
func (r *Repo) Has(id string) (bool, error) {
	if !plumbing.IsHash(id) {
		return false, fmt.Errorf("%q is not a full object id", id)
	}
	_, _, _, err := r.reader.Object(plumbing.NewHash(id), -1)
	switch {
	case errors.Is(err, plumbing.ErrObjectNotFound):
		return false, nil
	case err != nil:
		return false, r.objectError("object", plumbing.NewHash(id), err)
	}
	return true, nil
}
