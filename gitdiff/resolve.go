package gitdiff

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/gitread"
)

// Resolve turns a revision (branch, tag, SHA, HEAD~2, origin/main,
// HEAD@{1}) into the full id of the commit it names, as git resolves it.
func (r *Repo) Resolve(rev string) (string, error) {
	h, err := r.resolve(rev)
	if err != nil {
		return "", err
	}
	return h.String(), nil
}

// resolve turns a revision into a commit id. A full object id of a commit
// the repository holds is that commit; HEAD, for the fast reader, is what
// the reader reads; anything else is resolved by git itself (`git
// rev-parse --verify --end-of-options REV^{commit}`), which alone knows
// every syntax (reflogs, @{upstream}, :/text, peeling) and the refs of
// every backend. go-git's ResolveRevision is not used: it drops what it
// does not understand (`HEAD@{1}` became HEAD) and checks the wrong
// commits. The error says why a revision cannot be resolved: no commit yet,
// a shallow clone, or what git says.
func (r *Repo) resolve(rev string) (plumbing.Hash, error) {
	if h, ok := gitread.ParseHex([]byte(rev)); ok {
		if _, err := r.commit(h); err == nil {
			return h, nil
		}
	}
	var h plumbing.Hash
	var err error
	if r.reader.Name() == ReaderFast && rev == "HEAD" {
		var branch string
		if h, branch, err = r.reader.Head(); err == nil && h.IsZero() {
			return plumbing.ZeroHash, fmt.Errorf("%s: %w (%s is unborn)", rev, ErrUnborn, branch)
		}
	} else {
		h, err = r.revParse(rev)
	}
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := r.commit(h); err != nil {
		return plumbing.ZeroHash, err
	}
	return h, nil
}

// revParse asks git for the commit rev names.
func (r *Repo) revParse(rev string) (plumbing.Hash, error) {
	out, err := r.git.Line("rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return plumbing.ZeroHash, r.revisionError(rev, err)
	}
	h, ok := gitread.ParseHex([]byte(out))
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("resolving %q: git rev-parse printed %q", rev, out)
	}
	return h, nil
}

// revisionError explains why git could not resolve rev.
func (r *Repo) revisionError(rev string, err error) error {
	var ge *gitread.GitError
	if !errors.As(err, &ge) {
		return fmt.Errorf("resolving %q: %w", rev, err)
	}
	if head, branch, herr := r.reader.Head(); herr == nil && head.IsZero() && branch != "" &&
		(rev == "HEAD" || rev == branch || rev == strings.TrimPrefix(branch, "refs/heads/")) {
		return fmt.Errorf("%s: %w", rev, ErrUnborn)
	}
	if r.isShallow() {
		return fmt.Errorf("unknown revision %q: %w", rev, ErrShallow)
	}
	said := strings.TrimSpace(ge.Stderr)
	said = strings.TrimPrefix(said[strings.LastIndex(said, "\n")+1:], "fatal: ")
	if said == "" || said == "Needed a single revision" {
		return fmt.Errorf("unknown revision %q: no branch, tag or commit of this repository has that name", rev)
	}
	return fmt.Errorf("unknown revision %q: %s", rev, said)
}
