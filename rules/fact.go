package rules

import (
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
)

// Fact declares a value that rules derive from part of a unit and share:
// a version of a file decoded, the entries a change adds, the ways a
// change rewrites history. The first rule of a run that asks for the fact
// of an input derives it; every rule that asks again gets that value, as
// long as the run's cache keeps it (see Cache). A family declares each of
// its facts once, as a package-level value beside the code that derives
// it, and its rules read it with Get: a Fact holds no state of its own,
// only how to derive and key its values, as go/analysis hands one
// analyzer's result to the analyzers that require it.
type Fact[In, V any] struct {
	key    func(In) any
	derive func(*Pass, In) V
}

// NewFact declares a fact derived from In by derive. key says which
// inputs have the same fact (a comparable value, equal for inputs whose
// facts are equal); the facts of two declarations never mix.
func NewFact[In, V any](key func(In) any, derive func(*Pass, In) V) *Fact[In, V] {
	return &Fact[In, V]{key: key, derive: derive}
}

// BlobFact declares a fact of one version of a file: versions with the
// same object id and kind have the same fact (a symbolic link can have
// the object id of a regular file).
func BlobFact[V any](derive func(*Pass, *changes.Blob) V) *Fact[*changes.Blob, V] {
	return NewFact(func(b *changes.Blob) any { return BlobKey(b) }, derive)
}

// ChangeFact declares a fact of one change: changes with the same
// versions (new, old, and each merge base and parent of a merge) have the
// same fact.
func ChangeFact[V any](derive func(*Pass, *changes.Change) V) *Fact[*changes.Change, V] {
	return NewFact(func(ch *changes.Change) any { return changeKey(ch) }, derive)
}

// Get returns the fact of in, derived by the first rule of the run that
// asks for it.
func (f *Fact[In, V]) Get(p *Pass, in In) V {
	return p.cache.get(factKey{f, f.key(in)}, func() any { return f.derive(p, in) }).(V)
}

// Offer makes v the fact of in unless it was derived already: a rule that
// derives another fact on the way (the end of a sequence, found while
// proving an append to it) offers it, and no rule derives it again.
func (f *Fact[In, V]) Offer(p *Pass, in In, v V) {
	p.cache.get(factKey{f, f.key(in)}, func() any { return v })
}

// factKey is the fact of one declaration for one input, in the cache.
type factKey struct {
	fact, key any
}

// VersionKey names a version of a file in a fact's key: its object id
// and its kind; the zero VersionKey is an absent version.
type VersionKey struct {
	Hash string
	Kind changes.Kind
}

// BlobKey is the VersionKey of b; the zero VersionKey when b is nil.
func BlobKey(b *changes.Blob) VersionKey {
	if b == nil {
		return VersionKey{}
	}
	return VersionKey{b.Hash, b.Kind}
}

// changeKey names the versions of a change: new, old, then for a merge
// each merge base and parent.
func changeKey(ch *changes.Change) string {
	var b strings.Builder
	add := func(x *changes.Blob) {
		k := BlobKey(x)
		b.WriteString(string(k.Kind))
		b.WriteByte(':')
		b.WriteString(k.Hash)
		b.WriteByte(',')
	}
	add(ch.New)
	add(ch.Old)
	if m := ch.Merge; m != nil {
		b.WriteByte('|')
		for _, x := range m.AllBases() {
			add(x)
		}
		b.WriteByte('|')
		for _, x := range m.Parents {
			add(x)
		}
	}
	return b.String()
}
