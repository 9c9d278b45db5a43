package main

import (
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/gitdiff"
)

// declaringRev returns the full id of the revision whose declarations
// govern besides each unit's own states (gitdiff.Scope.Trusted): a
// range's base, which the change cannot touch. The staged change has HEAD
// as its state before, a tree is its own state, and a whole history has
// nothing before it: "" for them.
func declaringRev(repo *gitdiff.Repo, tgt target) (string, error) {
	if tgt.mode != changes.ModeRange || tgt.base == "" {
		return "", nil
	}
	return repo.Resolve(tgt.base)
}
