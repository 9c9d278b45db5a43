package gitdiff

import "github.com/small-hook/small-hook/internal/gitread"

// Options configure how a repository is found and read (see
// gitread.Options).
type Options = gitread.Options

// Scope says which paths a check reads (see gitread.Scope).
type Scope = gitread.Scope

// Reader names, as Repo.Reader and the JSON report give them.
const (
	// ReaderFast is small-hook's own readers of objects, packs, the index
	// and refs, taken when the probe at Open proves that they see what git
	// sees.
	ReaderFast = gitread.ReaderFast
	// ReaderGit is git itself: `git cat-file --batch-command`, `git
	// ls-files` and `git rev-parse`.
	ReaderGit = gitread.ReaderGit
)

// ErrUnsupported marks a repository format small-hook cannot read; the
// wrapping error says which and what to do about it.
var ErrUnsupported = gitread.ErrUnsupported
