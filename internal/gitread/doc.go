// Package gitread reads a git repository for small-hook: it finds the
// repository as git finds it, and reads the three things a check reads
// that have more than one possible source — objects, HEAD and the index —
// through one Reader for the whole run. Open probes the
// repository and chooses that reader: the fast reader (small-hook's own
// readers of loose objects, packs and their deltas and indexes, mapped
// files, the index file and the refs files, each object checked against
// its id) only where the probe proves it sees what git sees, and git
// itself (`git cat-file --batch-command`, `git ls-files`) everywhere else:
// alternates, a push's quarantine, partial clones, split and sparse
// indexes, extensions the fast reader does not know.
//
// It also holds what both readers and their users share: the git runner
// (Git, with the environment a hook was given), the commit decoder, and
// the Scope of paths a check reads. It knows nothing of units of change
// or rules: package gitdiff builds those, reading a repository only
// through this package.
package gitread
