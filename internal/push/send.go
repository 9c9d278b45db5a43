package push

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/words"
)

// Sent is the plan of one ref the pre-push hook sends: a Plan to check, or
// the reason the push is refused before any check (Refusal).
type Sent struct {
	Line    SendLine
	Plan    *Plan
	Refusal string
}

// PrePush plans the pre-push hook's check of a push to remote (its name,
// or the URL git names when the push names no configured remote): each
// line on its own, with its own policy. It judges the commits no
// remote-tracking ref of that remote already has (a fork's refs are not
// what this remote judged), and a branch that does not contain the tip it
// replaces compared with it. A remote this repository never fetched has
// no remote-tracking ref: every commit the push brings is judged, from
// the root, and the plan's Note says how to judge less.
func PrePush(repo *gitdiff.Repo, remote string, lines []SendLine) ([]Sent, error) {
	r, err := newRemote(repo, remote)
	if err != nil {
		return nil, err
	}
	var out []Sent
	for _, l := range lines {
		plan, refusal, err := r.plan(repo, l)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l.RemoteRef, err)
		}
		out = append(out, Sent{Line: l, Plan: plan, Refusal: refusal})
	}
	return out, nil
}

// remote is what the pushing repository knows of the remote.
type remote struct {
	name string
	// known are the commits of the remote's remote-tracking refs.
	known []string
	// note says why known is empty, when it is.
	note string
	// headRef is what refs/remotes/<name>/HEAD names (the remote's default
	// branch as of the last clone or `git remote set-head`), headCommit
	// its commit; "" when unknown.
	headRef, headCommit string
}

// newRemote reads what the repository knows of the remote it pushes to:
// nothing, for a push to a URL (git names the URL as the remote then).
func newRemote(repo *gitdiff.Repo, name string) (remote, error) {
	r := remote{name: name}
	_, configured, err := repo.Config("remote." + name + ".url")
	if err != nil {
		return r, err
	}
	if configured {
		tracking, err := repo.Refs("refs/remotes/" + name + "/")
		if err != nil {
			return r, err
		}
		for _, t := range tracking {
			r.known = append(r.known, t.Commit)
		}
		r.known = distinct(r.known)
		if r.headRef, r.headCommit, err = repo.SymbolicRef("refs/remotes/" + name + "/HEAD"); err != nil {
			return r, err
		}
	}
	switch {
	case len(r.known) > 0:
	case configured:
		r.note = "no remote-tracking ref of " + name + " says what it has: every commit judged from the root (git fetch " + name + " first, and the push judges only what " + name + " lacks)"
	default:
		r.note = "a push to " + name + ", not to a configured remote: no remote-tracking ref says what it has, every commit judged from the root"
	}
	return r, nil
}

// defaultBranch is the remote's default branch as a ref on the remote.
func (r remote) defaultBranch() string {
	if rest, ok := strings.CutPrefix(r.headRef, "refs/remotes/"+r.name+"/"); ok {
		return "refs/heads/" + rest
	}
	return ""
}

// plan plans the check of one pushed ref, or returns why the push is
// refused before any check (the remote has commits this repository lacks).
func (r remote) plan(repo *gitdiff.Repo, l SendLine) (*Plan, string, error) {
	u := Update{Ref: l.RemoteRef, DefaultBranch: l.RemoteRef != "" && l.RemoteRef == r.defaultBranch()}
	plan := &Plan{Judged: r.known, Note: r.note}
	branch := strings.TrimPrefix(l.RemoteRef, "refs/heads/")
	switch {
	case l.LocalID == ZeroID:
		u.Old = l.RemoteID
		plan.PolicyRev, plan.PolicyFrom = r.headCommit, r.headRef
		if r.headCommit == "" {
			tip, err := presentCommit(repo, l.RemoteID)
			if err != nil {
				return nil, "", err
			}
			plan.PolicyRev, plan.PolicyFrom = tip, l.RemoteRef+" on "+r.name+", which the push deletes"
		}
	case l.RemoteID != ZeroID:
		has, err := repo.Has(l.RemoteID)
		if err != nil {
			return nil, "", err
		}
		if !has {
			return nil, fmt.Sprintf("the remote has commits you do not have: pull first (git pull --no-rebase %s %s), then push again; the remote's tip %s is not in this repository, so the push cannot be compared with it", r.name, branch, words.ShortID(l.RemoteID)), nil
		}
		tip, err := presentCommit(repo, l.RemoteID)
		if err != nil {
			return nil, "", err
		}
		u.Old, u.Previous, u.New = l.RemoteID, tip, l.LocalID
		plan.PolicyRev, plan.PolicyFrom = tip, l.RemoteRef+" on "+r.name
	default:
		u.New = l.LocalID
		if stale, err := r.staleTip(repo, l.RemoteRef); err != nil {
			return nil, "", err
		} else if stale != "" {
			u.Previous = stale
			plan.PolicyRev, plan.PolicyFrom = stale, "refs/remotes/"+r.name+"/"+branch+", which the remote no longer has"
			break
		}
		if r.headCommit != "" {
			plan.PolicyRev, plan.PolicyFrom = r.headCommit, r.headRef
			break
		}
		fork, err := repo.ForkPoint(r.known, l.LocalID)
		if err != nil {
			return nil, "", err
		}
		plan.PolicyRev, plan.PolicyFrom = fork, "the commit the branch grew from on "+r.name
	}
	plan.Updates = []Update{u}
	plan.NoPolicy = plan.PolicyRev == ""
	if u.Previous != "" {
		var err error
		if plan.Onto, err = r.onto(repo, u.New); err != nil {
			return nil, "", err
		}
	}
	return plan, "", nil
}

// onto returns the revision a rebase of a branch to head may have moved it
// onto: the remote's default branch, or, when this repository does not
// know it, the newest commit on head's first-parent line that the remote
// has.
func (r remote) onto(repo *gitdiff.Repo, head string) (string, error) {
	if r.headCommit != "" {
		return r.headCommit, nil
	}
	return repo.ForkPoint(r.known, head)
}

// staleTip returns the commit of the remote-tracking ref of a branch the
// push creates on the remote, when this repository still has it: the
// remote deleted the branch since it was last fetched, and the push that
// creates it again replaces that tip.
func (r remote) staleTip(repo *gitdiff.Repo, remoteRef string) (string, error) {
	branch, ok := strings.CutPrefix(remoteRef, "refs/heads/")
	if !ok {
		return "", nil
	}
	name := "refs/remotes/" + r.name + "/" + branch
	refs, err := repo.Refs(name)
	if err != nil {
		return "", err
	}
	for _, x := range refs {
		if x.Name == name {
			return x.Commit, nil
		}
	}
	return "", nil
}

// presentCommit returns the commit id leads to when this repository has
// it (through annotated tags), or "".
func presentCommit(repo *gitdiff.Repo, id string) (string, error) {
	has, err := repo.Has(id)
	if err != nil || !has {
		return "", err
	}
	return repo.Peel(id)
}
