package small

import (
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

// mergeInstead is how to publish a branch whose progress a rebase put out
// of order. A rebase replays the branch's entries onto the entries the
// branch it is rebased onto appended meanwhile, and no order of them
// passes: after those they are older (small/timestamp), before them they
// are inserted (small/append-only), and re-dated they are no longer what
// the pushed branch held (the force-push's tip comparison). A merge keeps
// both sides' entries in time order, and passes.
const mergeInstead = "if a rebase replayed this branch's entries onto entries the branch it was rebased onto appended, no order of them passes (after those they are older, before them they are inserted, re-dated they are not what was pushed): undo the rebase (git reset --hard ORIG_HEAD right after it, or the branch's tip before it from git reflog) and merge instead (git merge origin/main, or git pull --no-rebase), keeping both sides' entries in time order"

// rebased reports whether a unit may be a rebase's doing: a commit of a
// range (a rebase runs no pre-commit or commit-msg hook, so its commits
// are first judged there) or a force-push's tip comparison.
func rebased(pass *rules.Pass) bool {
	return pass.Unit.Mode == changes.ModeTip || pass.Unit.Mode == changes.ModeRange && pass.Unit.Commit != nil
}
