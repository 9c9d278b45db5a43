// Package gitdiff is small-hook's git layer above the readers: it turns a
// repository into the units of change a check judges (changes.Unit) — the
// staged change as `git commit` will write it, each commit of a range or a
// push with every parent and merge base, the tip a push replaces, a whole
// tree, the history the ledger reads — and reads the files that configure
// a check from a trusted revision. It owns the units, what is governed
// (govern.go), the merges, the loader of the versions a unit leaves
// unread (load.go) and the walk of commits (with the commit-graph and the
// shallow boundary). It judges nothing: rules do that.
//
// Git is the authority. Revisions, git's configuration and the hooks
// directory always come from the git binary. Objects, HEAD and the index
// come only through the reader internal/gitread chooses for the whole run
// at Open (gitread.Reader): the fast reader where its probe proves it
// sees what git sees, git itself everywhere else. Repo.Reader says which
// one served the run.
//
// The name predates the package's present job; it is kept because the
// project's layout names it (the package is not gitleaks' go-gitdiff).
package gitdiff
