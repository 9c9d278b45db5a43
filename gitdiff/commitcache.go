package gitdiff

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/internal/gitread"
)

// commit reads commit h, decoding it once per run (see decodeCommit).
func (r *Repo) commit(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := r.commits[h]; ok {
		return c, nil
	}
	kind, data, _, err := r.reader.Object(h, -1)
	if err == nil && kind != plumbing.CommitObject {
		err = fmt.Errorf("a %s, not a commit", kind)
	}
	if err != nil {
		return nil, r.objectError("commit", h, err)
	}
	c, err := gitread.DecodeCommit(h, data)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", h, err)
	}
	r.commits[h] = c
	return c, nil
}
