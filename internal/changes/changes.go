// Package changes holds the plain values a check is about: units of
// change (the staged change, one commit, one tree), the files they change
// and the versions of each file. gitdiff produces them from a repository;
// rules judge them without ever touching git.
package changes

import (
	"errors"
	"time"

	"github.com/small-hook/small-hook/internal/workspace"
)

// Mode says which kind of check produced a set of changes.
type Mode string

// The ways small-hook looks at a repository.
const (
	// ModeStaged compares the index with HEAD (pre-commit, commit-msg).
	ModeStaged Mode = "staged"
	// ModeRange compares every commit of base..head with its parents.
	ModeRange Mode = "range"
	// ModeTree looks at every governed file of one revision or of the index,
	// without history.
	ModeTree Mode = "tree"
	// ModeTip compares the tip a push replaces with the new tip when the new
	// one does not contain it (a force-push): Old is the file at the
	// previous tip, New at the new tip, and only the rules that judge
	// whether history continues run (see rules.Rule.Continuity). A changed
	// file is judged as a merge whose one parent is the previous tip:
	// every entry the previous tip held must still be there, in order, and
	// an entry may stand between them only when Merge.Onto holds it (the
	// trusted revision a rebase moved the branch onto; nil on the default
	// branch and the protected ones, where the old entries stay a prefix);
	// each new commit was judged on its own.
	ModeTip Mode = "tip"
	// ModeRef is one ref a push creates, moves or deletes (the pre-push
	// and pre-receive hooks), judged as a ref: the unit has no changes;
	// Ref names the ref, Target says what the push sets it to (nil for a
	// deletion), and Commit is the tip a deleted ref held.
	ModeRef Mode = "ref"
)

// Kind is the type of a tree entry that holds a governed path.
type Kind string

// Tree entry kinds. Only KindFile content is ever parsed.
const (
	KindFile      Kind = "file"
	KindSymlink   Kind = "symlink"
	KindSubmodule Kind = "submodule"
)

// Blob is one version of one file.
type Blob struct {
	// Hash is the git object id in hex. Equal hashes mean equal content.
	Hash string
	// Kind is file, symlink or submodule. Data is empty for submodules and
	// holds the link target for symlinks.
	Kind Kind
	// Data is the file's content; nil while Unread.
	Data []byte
	// Unread marks a version whose content the unit does not hold: the
	// unit's Loader reads it for the slice that judges it (see
	// Unit.EachSlice), so that a commit of many files never holds all
	// their bytes at once.
	Unread bool
}

// Identity is a person or agent as git records it.
type Identity struct {
	Name  string
	Email string
}

// Commit describes the commit a change belongs to.
type Commit struct {
	// Hash is the full commit id in hex.
	Hash string
	// Message is the full commit message.
	Message   string
	Author    Identity
	Committer Identity
	// Parents are the full ids of the parent commits, first parent first.
	Parents []string
	// CommitterTime is the committer date, when an SSH signing key's
	// valid-after and valid-before are judged.
	CommitterTime time.Time
	// AuthorTime is the author date: when the change was first committed
	// (an amend or a rebase keeps it and moves the committer date).
	AuthorTime time.Time
	// Signature is the commit's gpgsig header without the header name and
	// continuation spaces (an armored SSH, OpenPGP or X.509 signature); ""
	// when the commit is not signed.
	Signature string
	// Payload returns the bytes the signature signs: the commit object
	// without its signature headers. It is built on demand, because only a
	// signature check needs it; nil for a commit that has no object.
	Payload func() ([]byte, error)
}

// Merge carries what a merge commit's change needs beyond Old: the file at
// every parent and at every merge base.
type Merge struct {
	// Base is the file at the merge base of the first two parents (nil when
	// absent); it is Bases[0].
	Base *Blob
	// Bases is the file at every merge base of any two parents, each merge
	// base once (nil elements where the file is absent, or for parents
	// that share no history). An octopus merge, or two parents with several
	// merge bases (criss-cross merges), can have more than one.
	Bases []*Blob
	// Parents is the file at each parent, first parent first; Parents[0]
	// equals the change's Old. A nil element means absent at that parent.
	Parents []*Blob
	// Onto is, in tip mode (ModeTip), the file at the trusted revision a
	// rebase may have moved the branch onto (the default branch): entries
	// it holds may stand between the previous tip's. nil when there is no
	// such revision or it lacks the file.
	Onto *Blob
}

// AllBases returns Bases, or Base alone when Bases is not set.
func (m *Merge) AllBases() []*Blob {
	if len(m.Bases) == 0 {
		return []*Blob{m.Base}
	}
	return m.Bases
}

// Change is one governed file that differs between the old and the new state.
type Change struct {
	// Path is the slash-separated path relative to the repository root.
	Path string
	// Old is the file before the change (HEAD, first parent); nil when the
	// file is added, and always nil in tree mode.
	Old *Blob
	// New is the file after the change (index, commit); nil when deleted.
	New *Blob
	// Merge is set for a change made by a merge commit.
	Merge *Merge
	// Place is the workspace the path belongs to (see Locate); its zero
	// value means no workspace governs the path.
	Place workspace.Place
}

// Snapshot gives read access to the governed files of one state of the
// repository, including files a unit did not change (for rules that look
// across files, such as a handoff that names a plan task).
type Snapshot interface {
	// List returns the paths under dir (which ends in "/"), at any depth,
	// sorted.
	List(dir string) ([]string, error)
	// Read returns the file at path, or nil when absent.
	Read(path string) (*Blob, error)
}

// Unit is one thing checked as a whole: the staged change, one commit of a
// range, or one tree.
type Unit struct {
	Mode Mode
	// Commit is set in range mode, and is the new tip in tip mode.
	Commit *Commit
	// Changes lists the changed governed files, sorted by path.
	Changes []Change
	// Files reads the new state.
	Files Snapshot
	// Before reads the state the change started from (HEAD, or a commit's
	// first parent, or the previous tip in tip mode); nil in tree mode and
	// for a root commit.
	Before Snapshot
	// Ref is the full name of the ref a push updates (ModeRef, ModeTip,
	// and the commits a push brings in ModeRange), and DefaultBranch says
	// it is the receiving repository's default branch.
	Ref           string
	DefaultBranch bool
	// Target is what a push sets Ref to (ModeRef); nil for a deletion.
	Target *Target
	// Previous is the full id of the tip the new tip (Commit) replaces
	// (ModeTip).
	Previous string
	// Declared holds what is declared protocol state where the changes
	// lie: in the trusted revision, in the states before and after the
	// unit, and (in a range) in any earlier state the check has seen.
	// The reader that builds the unit fills it in (see Locate).
	Declared workspace.Declarations
	// Loader reads the versions the changes leave unread (Blob.Unread);
	// nil when the unit holds every version.
	Loader Loader
}

// Target is the object a push sets a ref to.
type Target struct {
	// ID is the object's full id.
	ID string
	// Type is its type as git stores it: commit, tag, tree or blob.
	Type string
	// Peeled is the type of the object its annotated tags lead to; Type
	// itself for an object that is no tag.
	Peeled string
}

// Regular returns nil for a regular file and otherwise an error that says
// what the entry is instead: governed files are never followed as links
// nor read as submodules.
func (b *Blob) Regular() error {
	switch b.Kind {
	case KindSymlink:
		return errors.New("is a symbolic link; a governed file must be a regular file (small-hook never follows links)")
	case KindSubmodule:
		return errors.New("is a submodule (gitlink); a governed file must be a regular file")
	}
	return nil
}
