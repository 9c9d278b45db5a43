package gitdiff

import "errors"

// ErrShallow marks a check that needs history the clone does not have.
var ErrShallow = errors.New("this is a shallow clone without the history needed: fetch the full history (`git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout)")

// ErrUnborn is returned for a revision that names HEAD, or the branch HEAD
// points to, before its first commit.
var ErrUnborn = errors.New("the repository has no commits yet")
