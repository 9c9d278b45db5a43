package ledger

import (
	"fmt"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/persistent"
	"github.com/small-hook/small-hook/internal/workspace"
	"github.com/small-hook/small-hook/rules"
)

// Actor decides who made a commit's unit of change.
type Actor func(*changes.Unit) (attribution.Verdict, error)

// node is one commit of the history being walked.
type node struct {
	Node
	// index is the commit's place in the walk; level is its topological
	// level (1 for a root or boundary commit).
	index, level int
	parents      []*node
	// children counts the commits of the walk, not walked yet, whose
	// parent this is: its snapshot is dropped when none is left.
	children int
	// commit describes the commit once it has recorded something.
	commit *Commit
}

// snapshot is every ledger file at one commit, by path: each commit's
// snapshot shares with its parent's every file it did not change.
type snapshot = persistent.Map[string, *version]

// Builder computes a ledger from a history walked parents first: give it
// each commit's unit with Add, in the order of the history, then ask for
// the Ledger. Only the snapshots of commits whose children are still to
// come are kept, so memory follows the width of the history, not its
// length.
type Builder struct {
	cfg   config.Ledger
	nodes map[string]*node
	order []*node
	next  int
	snaps map[*node]snapshot
	// empty is the snapshot of no file, from which every other derives.
	empty snapshot
	// metadata are the ledger/artifact-metadata findings of the walk, by
	// path; the findings of a file the head does not hold are dropped.
	metadata map[string][]metadataFinding
	shallow  bool
}

// NewBuilder prepares the walk of history, which lists every commit
// after its parents (as gitdiff.History does); cfg gives the thresholds
// and identities the checks use.
func NewBuilder(history []Node, cfg config.Ledger) (*Builder, error) {
	b := &Builder{cfg: cfg, nodes: map[string]*node{}, snaps: map[*node]snapshot{}, empty: persistent.New[string, *version](), metadata: map[string][]metadataFinding{}}
	for i, h := range history {
		n := &node{Node: h, index: i, level: 1}
		for _, p := range h.Parents {
			pn, ok := b.nodes[p]
			if !ok {
				return nil, fmt.Errorf("commit %s comes before its parent %s in the history", h.Hash, p)
			}
			pn.children++
			n.parents = append(n.parents, pn)
			n.level = max(n.level, pn.level+1)
		}
		b.shallow = b.shallow || h.Boundary
		b.nodes[h.Hash] = n
		b.order = append(b.order, n)
	}
	return b, nil
}

// Add walks one commit: the unit of the next commit of the history.
func (b *Builder) Add(u *changes.Unit, actor Actor) error {
	if b.next >= len(b.order) || u.Commit == nil || u.Commit.Hash != b.order[b.next].Hash {
		return fmt.Errorf("the ledger was given a commit out of the order of its history")
	}
	n := b.order[b.next]
	b.next++
	w := walkStep{b: b, n: n, u: u, actor: actor}
	snap := b.empty
	if len(n.parents) > 0 {
		snap = b.snaps[n.parents[0]]
	}
	if len(n.parents) > 1 {
		merged, err := b.mergedSnapshot(n, u)
		if err != nil {
			return err
		}
		snap = merged
	}
	for i := range u.Changes {
		ch := &u.Changes[i]
		kind, ok := ledgerKind(ch.Path)
		if !ok {
			continue
		}
		if ch.New == nil {
			snap = snap.Without(ch.Path)
			continue
		}
		olds := make([]*version, len(n.parents))
		for j, p := range n.parents {
			olds[j], _ = b.snaps[p].Get(ch.Path)
		}
		v, err := w.version(kind, ch, olds)
		if err != nil {
			return err
		}
		snap = snap.With(ch.Path, v)
	}
	b.snaps[n] = snap
	for _, p := range n.parents {
		if p.children--; p.children == 0 {
			delete(b.snaps, p)
		}
	}
	return nil
}

// ledgerKind says whether a path can be a ledger file, by its name alone
// (as if everything that could govern it were declared): a SMALL
// workspace's progress.small.yml, or a file artifacts/<slug>.md. Whether
// an artifact is declared is decided for the files the head holds (see
// Ledger).
func ledgerKind(path string) (Kind, bool) {
	p := workspace.Innermost(path)
	switch {
	case p.Folded:
		return "", false
	case p.Area == workspace.Files && p.Rel == "progress.small.yml":
		return Progress, true
	case p.Area == workspace.Artifacts && !strings.Contains(p.Rel, "/") && strings.HasSuffix(p.Rel, ".md") && len(p.Rel) > len(".md"):
		return Provenance, true
	}
	return "", false
}

// Ledger returns the ledger of the files the last commit walked (the
// head) holds, among those keep accepts (keep decides which artifacts
// directories belong to an AWP workspace at the head, and which paths the
// caller asked for). A file of the head that cannot be read is an error.
func (b *Builder) Ledger(keep func(path string, kind Kind) bool) (*Ledger, error) {
	if b.next != len(b.order) || len(b.order) == 0 {
		return nil, fmt.Errorf("the ledger was asked for before its history was walked")
	}
	head := b.order[len(b.order)-1]
	l := &Ledger{Head: head.Hash, Commits: len(b.order), Shallow: b.shallow}
	snap := b.snaps[head]
	paths := make([]string, 0, snap.Len())
	for p, v := range snap.All {
		if keep(p, v.kind) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	commits := newCommitIndex(b.order)
	for _, p := range paths {
		v, _ := snap.Get(p)
		if v.err != nil {
			return nil, fmt.Errorf("%s at %s: %w: its entries cannot be listed (small-hook check --all --rev %s says what is wrong)", p, head.Hash, v.err, head.Hash)
		}
		f := File{Path: p, Kind: v.kind, Entries: make([]Entry, len(v.slots))}
		for i, s := range v.slots {
			e := Entry{Position: i, Line: s.line, Claim: claimOf(v.kind, s.value), Commit: s.commit.commit, Origin: s.origin}
			if s.rename != nil {
				e.Renamed = &Renamed{Commit: s.rename.commit.commit, From: s.rename.from}
			}
			e.Evidence = commits.resolve(evidenceOf(s.value), s.commit, s.origin, b.shallow)
			f.Entries[i] = e
		}
		l.Files = append(l.Files, f)
		for _, m := range b.metadata[p] {
			m.finding.Line = v.doc.Line(m.key)
			l.Findings = append(l.Findings, m.finding)
		}
	}
	l.Findings = append(l.Findings, b.checks(l)...)
	rules.Sort(l.Findings, nil)
	return l, nil
}
