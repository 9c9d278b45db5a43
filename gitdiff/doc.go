// Package gitdiff is small-hook's git layer: it turns a repository into
// the units of change a check judges (changes.Unit) — the staged change as
// `git commit` will write it, each commit of a range or a push with every
// parent and merge base, the tip a push replaces, a whole tree — and reads
// the files that configure a check from a trusted revision. It judges
// nothing: rules do that.
//
// Git is the authority. Revisions, git's configuration and the hooks
// directory always come from the git binary. Objects, HEAD and the index
// are read by one reader for the whole run, chosen by a probe at Open: the
// fast reader (small-hook's own readers of loose objects, packs, the index
// and the commit-graph, checked against hostile bytes) only where the
// probe proves it sees what git sees, and git itself (`git cat-file
// --batch-command`, `git ls-files`) everywhere else: alternates, a push's
// quarantine, partial clones, split and sparse indexes, extensions the
// fast reader does not know. Repo.Reader says which one served the run.
//
// The name predates the package's present job; it is kept because the
// project's layout names it (the package is not gitleaks' go-gitdiff).
package gitdiff
