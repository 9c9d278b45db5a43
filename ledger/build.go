package ledger

import (
	"fmt"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/workspace"
	"github.com/small-hook/small-hook/yamldoc"
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

// snapshot is every ledger file at one commit, by path.
type snapshot map[string]*version

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
	// metadata are the ledger/artifact-metadata findings of the walk, by
	// path; the findings of a file the head does not hold are dropped.
	metadata map[string][]metadataFinding
	shallow  bool
}

// NewBuilder prepares the walk of history, which lists every commit
// after its parents (as gitdiff.History does); cfg gives the thresholds
// and identities the checks use.
func NewBuilder(history []Node, cfg config.Ledger) (*Builder, error) {
	b := &Builder{cfg: cfg, nodes: map[string]*node{}, snaps: map[*node]snapshot{}, metadata: map[string][]metadataFinding{}}
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
	snap := snapshot{}
	if len(n.parents) > 0 {
		snap = b.snaps[n.parents[0]]
	}
	copied := false
	if len(n.parents) > 1 {
		merged, err := b.mergedSnapshot(n, u)
		if err != nil {
			return err
		}
		snap, copied = merged, true
	}
	for i := range u.Changes {
		ch := &u.Changes[i]
		kind, ok := ledgerKind(ch.Path)
		if !ok {
			continue
		}
		if !copied {
			snap, copied = clone(snap), true
		}
		if ch.New == nil {
			delete(snap, ch.Path)
			continue
		}
		olds := make([]*version, len(n.parents))
		for j, p := range n.parents {
			olds[j] = b.snaps[p][ch.Path]
		}
		v, err := w.version(kind, ch, olds)
		if err != nil {
			return err
		}
		snap[ch.Path] = v
	}
	b.snaps[n] = snap
	for _, p := range n.parents {
		if p.children--; p.children == 0 {
			delete(b.snaps, p)
		}
	}
	return nil
}

// mergedSnapshot is what a merge commit holds of the files its unit does
// not list: gitdiff leaves out a file the merge took unchanged from one
// parent while the others kept the merge base's version. Where the
// parents hold the same version, that is it; where they differ, the
// merge's own tree says which one it took.
func (b *Builder) mergedSnapshot(n *node, u *changes.Unit) (snapshot, error) {
	listed := map[string]bool{}
	for _, ch := range u.Changes {
		listed[ch.Path] = true
	}
	out := clone(b.snaps[n.parents[0]])
	for _, p := range n.parents {
		for path := range b.snaps[p] {
			if listed[path] {
				continue
			}
			listed[path] = true
			v, err := b.takenVersion(n, u, path)
			if err != nil {
				return nil, err
			}
			if v == nil {
				delete(out, path)
			} else {
				out[path] = v
			}
		}
	}
	return out, nil
}

// takenVersion returns the version of path that a merge took from one of
// its parents (nil: none, the merge does not hold the file).
func (b *Builder) takenVersion(n *node, u *changes.Unit, path string) (*version, error) {
	var versions []*version
	same := true
	for _, p := range n.parents {
		v := b.snaps[p][path]
		if len(versions) > 0 && !sameVersion(v, versions[0]) {
			same = false
		}
		versions = append(versions, v)
	}
	if same {
		return versions[0], nil
	}
	blob, err := u.Files.Read(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s: %w", path, n.Hash, err)
	}
	for _, v := range versions {
		if blob == nil && v == nil || blob != nil && v != nil && v.hash == blob.Hash {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%s at merge %s is none of its parents' versions, yet the merge does not list it", path, n.Hash)
}

func sameVersion(a, b *version) bool {
	return a == b || a != nil && b != nil && a.hash == b.hash
}

func clone(s snapshot) snapshot {
	out := make(snapshot, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	return out
}

// ledgerKind says whether a path can be a ledger file, by its name: a
// SMALL workspace's progress.small.yml, or a file artifacts/<slug>.md.
// Whether an artifacts directory belongs to an AWP workspace is decided
// for the files the head holds (see Ledger).
func ledgerKind(path string) (Kind, bool) {
	p := workspace.Locate(path, func(string) bool { return true })
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

// walkStep is the walk of one commit.
type walkStep struct {
	b     *Builder
	n     *node
	u     *changes.Unit
	actor Actor
}

// commit describes the step's commit, deciding its actor once.
func (w *walkStep) commit() (*Commit, error) {
	if w.n.commit != nil {
		return w.n.commit, nil
	}
	c := w.u.Commit
	out := &Commit{Hash: c.Hash, Date: c.CommitterTime, AuthorDate: c.AuthorTime, Author: c.Author, Committer: c.Committer, Boundary: w.n.Boundary}
	if !w.n.Boundary {
		v, err := w.actor(w.u)
		if err != nil {
			return nil, err
		}
		out.Verdict = v
	}
	w.n.commit = out
	return out, nil
}

// version builds the version of a ledger file that the step's commit
// holds, from the versions its parents hold (nil where a parent lacks the
// file).
func (w *walkStep) version(kind Kind, ch *changes.Change, olds []*version) (*version, error) {
	if v := w.appended(kind, ch, olds); v != nil {
		_, err := w.commit()
		return v, err
	}
	d, err := decodeVersion(kind, ch.New)
	if err != nil {
		v := &version{kind: kind, hash: ch.New.Hash, err: err}
		for _, o := range olds {
			if o != nil {
				v.slots, v.doc, v.top = o.slots, o.doc, o.top
				break
			}
		}
		return v, nil
	}
	v := &version{kind: kind, hash: ch.New.Hash, doc: d.doc, top: d.top, slots: w.slots(kind, d, olds)}
	n := len(v.slots)
	v.claimed = &n
	for _, s := range v.slots {
		if s.commit == w.n {
			if _, err := w.commit(); err != nil {
				return nil, err
			}
			break
		}
	}
	if kind == Provenance && len(olds) <= 1 {
		var prev *version
		if len(olds) == 1 && olds[0] != nil && olds[0].err == nil {
			prev = olds[0]
		}
		if err := w.checkMetadata(ch.Path, prev, v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// appended is the version of a progress file that the commit only
// appended to, proved from the bytes alone (yamldoc.ProveAppend): the
// earlier version's entries and the new ones decoded; nil when the proof
// does not go through.
func (w *walkStep) appended(kind Kind, ch *changes.Change, olds []*version) *version {
	if kind != Progress || len(olds) != 1 || ch.Merge != nil {
		return nil
	}
	old := olds[0]
	if old == nil || old.err != nil || ch.Old == nil || ch.Old.Hash != old.hash || ch.Old.Regular() != nil || ch.New.Regular() != nil {
		return nil
	}
	if old.end == nil {
		old.end = yamldoc.FindSequenceEnd(ch.Old.Data, "entries")
	}
	app := yamldoc.ProveAppend(old.end, ch.Old.Data, ch.New.Data)
	if app == nil {
		return nil
	}
	items, _ := app.Items.Value.([]any)
	more := make([]slot, len(items))
	for i, item := range items {
		more[i] = slot{value: item, line: app.Items.Line(fmt.Sprint(i)), commit: w.n, origin: Appended}
	}
	slots, claimed := old.grow(more)
	return &version{kind: kind, hash: ch.New.Hash, slots: slots, claimed: claimed, end: app.End}
}

// slots works out which commit recorded each entry of a decoded version:
// an entry aligned with an entry of a parent's version keeps the commit
// that recorded it there (the earliest, when several parents hold it);
// any other entry was recorded by this commit.
func (w *walkStep) slots(kind Kind, d *decoded, olds []*version) []slot {
	out := make([]slot, len(d.values))
	for j := range out {
		out[j] = slot{value: d.values[j], line: d.lines[j]}
	}
	lastKept, longest, dropped, seen := -1, 0, false, false
	for _, o := range olds {
		if o == nil {
			continue
		}
		seen = true
		longest = max(longest, len(o.slots))
		from := align(kind, o.values(), d.values)
		kept := 0
		for j, i := range from {
			if i < 0 {
				continue
			}
			kept++
			lastKept = max(lastKept, j)
			if s := o.slots[i]; out[j].commit == nil || s.commit.index < out[j].commit.index {
				out[j].commit, out[j].origin = s.commit, s.origin
			}
		}
		dropped = dropped || kept < len(o.slots)
	}
	for j := range out {
		if out[j].commit != nil {
			continue
		}
		out[j].commit = w.n
		switch {
		case !seen && w.n.Boundary:
			out[j].origin = BeforeHistory
		case !seen:
			out[j].origin = WithFile
		case j < lastKept || dropped && j < longest:
			out[j].origin = Inserted
		default:
			out[j].origin = Appended
		}
	}
	return out
}

// grow returns v's slots followed by more, sharing v's backing array when
// no other version has grown it past v's length, and the marker of how
// far that array is in use.
func (v *version) grow(more []slot) ([]slot, *int) {
	n := len(v.slots)
	if v.claimed != nil && *v.claimed == n && cap(v.slots)-n >= len(more) {
		*v.claimed = n + len(more)
		return append(v.slots, more...), v.claimed
	}
	out := make([]slot, n, 2*(n+len(more)))
	copy(out, v.slots)
	out = append(out, more...)
	claimed := len(out)
	return out, &claimed
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
	paths := make([]string, 0, len(snap))
	for p, v := range snap {
		if keep(p, v.kind) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	commits := newCommitIndex(b.order)
	for _, p := range paths {
		v := snap[p]
		if v.err != nil {
			return nil, fmt.Errorf("%s at %s: %w: its entries cannot be listed (small-hook check --all --rev %s says what is wrong)", p, head.Hash, v.err, head.Hash)
		}
		f := File{Path: p, Kind: v.kind, Entries: make([]Entry, len(v.slots))}
		for i, s := range v.slots {
			e := Entry{Position: i, Line: s.line, Claim: claimOf(v.kind, s.value), Commit: s.commit.commit, Origin: s.origin}
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
