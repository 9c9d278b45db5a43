package main

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/words"
)

// prePush is the pre-push hook: git names the remote and lists the refs
// being pushed on standard input (`<local ref> <local id> <remote ref>
// <remote id>` lines). Each ref is checked on its own, with its own
// policy: the commits no remote-tracking ref already has (so that pushing
// to a new remote judges what the push adds, not the whole history), and a
// branch that does not contain the tip it replaces compared with it.
func (c *checkCmd) prePush(e *env, repo *gitdiff.Repo, outs []*outputFile) (int, error) {
	lines, err := readRefLines(e.stdin, 4, 1, 3)
	if err != nil {
		return exitFailure, err
	}
	tracking, err := repo.Refs("refs/remotes/")
	if err != nil {
		return exitFailure, err
	}
	var known []string
	for _, r := range tracking {
		known = append(known, r.Commit)
	}
	remote := remoteSide{name: c.PrePush, known: distinct(known)}
	if remote.headRef, remote.headCommit, err = repo.SymbolicRef("refs/remotes/" + remote.name + "/HEAD"); err != nil {
		return exitFailure, err
	}
	worst := exitOK
	for _, l := range lines {
		tgt, refusal, err := remote.target(repo, l[1], l[2], l[3])
		if err != nil {
			return exitFailure, fmt.Errorf("%s: %w", l[2], err)
		}
		if refusal != "" {
			printError(e, fmt.Errorf("%s: %s", l[2], refusal))
			worst = max(worst, exitFindings)
			continue
		}
		code, err := c.checkTarget(e, repo, tgt, outs)
		if err != nil {
			return code, err
		}
		worst = max(worst, code)
	}
	return worst, nil
}

// remoteSide is what the pushing repository knows of the remote.
type remoteSide struct {
	name string
	// known are the commits of every remote-tracking ref.
	known []string
	// headRef is what refs/remotes/<name>/HEAD names (the remote's default
	// branch as of the last clone or `git remote set-head`), headCommit
	// its commit; "" when unknown.
	headRef, headCommit string
}

// defaultBranch is the remote's default branch as a ref on the remote.
func (r remoteSide) defaultBranch() string {
	if rest, ok := strings.CutPrefix(r.headRef, "refs/remotes/"+r.name+"/"); ok {
		return "refs/heads/" + rest
	}
	return ""
}

// target plans the check of one pushed ref, or returns why the push is
// refused before any check (the remote has commits this repository lacks).
func (r remoteSide) target(repo *gitdiff.Repo, local, remoteRef, remoteID string) (target, string, error) {
	u := refUpdate{ref: remoteRef, defaultBranch: remoteRef != "" && remoteRef == r.defaultBranch()}
	tgt := target{mode: changes.ModeRange, label: "pre-push to " + r.name, flag: "--pre-push", push: &pushPlan{known: r.known}}
	branch := strings.TrimPrefix(remoteRef, "refs/heads/")
	switch {
	case local == zeroID:
		u.old = remoteID
		tgt.policyRev, tgt.policyFrom = r.headCommit, r.headRef
		if r.headCommit == "" {
			tip, err := presentCommit(repo, remoteID)
			if err != nil {
				return target{}, "", err
			}
			tgt.policyRev, tgt.policyFrom = tip, remoteRef+" on "+r.name+", which the push deletes"
		}
	case remoteID != zeroID:
		has, err := repo.Has(remoteID)
		if err != nil {
			return target{}, "", err
		}
		if !has {
			return target{}, fmt.Sprintf("the remote has commits you do not have: pull first (git pull --no-rebase %s %s), then push again; the remote's tip %s is not in this repository, so the push cannot be compared with it", r.name, branch, words.ShortID(remoteID)), nil
		}
		tip, err := presentCommit(repo, remoteID)
		if err != nil {
			return target{}, "", err
		}
		u.old, u.previous, u.new = remoteID, tip, local
		tgt.policyRev, tgt.policyFrom = tip, remoteRef+" on "+r.name
	default:
		u.new = local
		if stale, err := r.staleTip(repo, remoteRef); err != nil {
			return target{}, "", err
		} else if stale != "" {
			u.previous = stale
			tgt.policyRev, tgt.policyFrom = stale, "refs/remotes/"+r.name+"/"+branch+", which the remote no longer has"
			break
		}
		if r.headCommit != "" {
			tgt.policyRev, tgt.policyFrom = r.headCommit, r.headRef
			break
		}
		fork, err := repo.ForkPoint(r.known, local)
		if err != nil {
			return target{}, "", err
		}
		tgt.policyRev, tgt.policyFrom = fork, "the commit the branch grew from on "+r.name
	}
	tgt.push.updates = []refUpdate{u}
	tgt.noPolicy = tgt.policyRev == ""
	return tgt, "", nil
}

// staleTip returns the commit of the remote-tracking ref of a branch the
// push creates on the remote, when this repository still has it: the
// remote deleted the branch since it was last fetched, and the push that
// creates it again replaces that tip.
func (r remoteSide) staleTip(repo *gitdiff.Repo, remoteRef string) (string, error) {
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
