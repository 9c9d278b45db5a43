package gitdiff

import "errors"

// ErrUnsupported marks a repository format small-hook cannot read; the
// wrapping error says which and what to do about it.
var ErrUnsupported = errors.New("unsupported repository format")

// ErrShallow marks a check that needs history the clone does not have.
var ErrShallow = errors.New("the history needed is not in this clone (shallow clone?): fetch the full history with `git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout")
