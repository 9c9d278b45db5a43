package main

import (
	"errors"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/words"
)

// The trust roots of a check (docs/trust-roots.md): every input a verdict
// depends on comes from a place the change being judged cannot write.
//
//	mode                      policy read from                       base
//	pre-commit, commit-msg    HEAD (the staged versions validated)   HEAD
//	--base, --previous, --ci  the base revision                      the base, resolved by git
//	                          (--ci: a previous tip only on the default and protected branches)
//	pre-push (and pre-commit's push without a range)
//	                          the remote's default branch            the remote's remote-tracking refs
//	pre-receive               the server's default branch            its branches and tags before the push
//	--history                 HEAD, the user's own checkout          none: from the root
//	a push with nothing before it (CI, pre-commit's first push): the built-in defaults
//	--all                     the work tree, or --rev                none
//	agent guard (guard)       HEAD                                   HEAD
//
// Scope (what is governed) is decided by the declarations of the trusted
// revision and of every state a check passes through (changes.Locate);
// content is what git commits or reads (gitdiff); the actor's proofs are
// signatures by keys the trusted policy lists and the pusher a server
// authenticated (attribution). This file holds the decisions about
// revisions; nothing else picks a revision to trust. Where nothing is
// trusted, a pushed history's own baseline may count under the standing
// of the commit that wrote it (adoption, in baseline.go).

// trustedRev is the revision a check reads its policy files from (see
// config.Config.PolicyFiles), or "" for the work tree (--all without
// --rev: the user's own survey, which no enforcement point runs, and the
// files the user is editing are what the survey is for). A target that
// names its policy commit (the pre-push and pre-receive hooks) reads it
// from there.
func trustedRev(tgt target) string {
	switch {
	case tgt.policyRev != "":
		return tgt.policyRev
	case tgt.mode == changes.ModeStaged:
		return "HEAD"
	case tgt.mode == changes.ModeRange && tgt.base != "":
		return tgt.base
	case tgt.mode == changes.ModeRange:
		return "HEAD"
	}
	return tgt.rev
}

// readTrusted reads files from where the check trusts policy (see
// trustedRev); a file it does not hold is missing from the map. Before the
// first commit the staged stages trust no file at all, and neither does a
// target with nothing trusted before it (noPolicy): the defaults apply.
func readTrusted(repo *gitdiff.Repo, tgt target, paths ...string) (map[string]*changes.Blob, error) {
	if tgt.noPolicy {
		return map[string]*changes.Blob{}, nil
	}
	where := trustedRev(tgt)
	if where == "" {
		return repo.WorkTreeFiles(paths...)
	}
	blobs, err := repo.RevFiles(where, paths...)
	if errors.Is(err, gitdiff.ErrUnborn) && tgt.mode == changes.ModeStaged {
		return map[string]*changes.Blob{}, nil
	}
	return blobs, err
}

// configName names a policy file as the check reads it (see trustedRev):
// "the .small-hook.yml of HEAD" when it comes from a revision, "the
// .small-hook.yml of the default branch (1a2b3c4d5e6f)" when a hook found
// the revision, "the working tree's .small-hook.yml" when it comes from
// the work tree, and "the built-in configuration" when nothing is trusted.
func (t target) configName(file string) string {
	switch rev := trustedRev(t); {
	case t.noPolicy:
		return "the built-in configuration (no " + file + " is trusted here)"
	case t.policyRev != "":
		return "the " + file + " of " + t.policyFrom + " (" + words.ShortID(t.policyRev) + ")"
	case rev != "":
		return "the " + file + " of " + rev
	}
	return "the working tree's " + file
}

// trustedName names where the check reads its policy files from: a
// revision, or the work tree.
func (t target) trustedName() string {
	if t.policyRev != "" {
		return t.policyFrom + " (" + words.ShortID(t.policyRev) + ")"
	}
	if rev := trustedRev(t); rev != "" {
		return rev
	}
	return "the working tree"
}

// declaringRev returns the full id of the revision whose declarations
// govern besides each unit's own states (gitdiff.Scope.Trusted), or "": the
// revision a hook trusts for policy (the remote's or the server's default
// branch), else a range's base. The staged change has HEAD as its state
// before, a tree is its own state, and a whole history has nothing before
// it.
func declaringRev(repo *gitdiff.Repo, tgt target) (string, error) {
	switch {
	case tgt.policyRev != "":
		return tgt.policyRev, nil
	case tgt.mode == changes.ModeRange && tgt.base != "":
		return repo.Resolve(tgt.base)
	}
	return "", nil
}
