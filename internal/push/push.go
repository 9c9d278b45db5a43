// Package push is the model of a push as git applies it. git hands the
// pre-receive hook one `<old> <new> <ref>` line per ref a push updates,
// and the pre-push hook one `<local ref> <local id> <remote ref> <remote
// id>` line per ref it sends; each line is an Update. A Plan is the
// updates of one check, what the receiving side has already judged, who
// pushed, and where the policy is read from. Each hands a check, update by
// update, the units that judge it: the ref itself, the commits it brings
// that nothing judged holds, and, for a branch that does not contain the
// tip it replaces, the two tips compared.
//
// cmd/small-hook only wires it: it reads the hook's input, plans the
// push here, and runs the rules over the units.
package push

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/words"
)

// ZeroID is the object id git hands hooks for "no object": the old side
// of a ref a push creates, the new side of one it deletes.
const ZeroID = "0000000000000000000000000000000000000000"

// Update is one ref a push changes.
type Update struct {
	// Ref is the full ref name on the receiving side.
	Ref string
	// Old and New are the object ids before and after the push: Old is ""
	// when the push creates the ref, New is "" when it deletes it.
	Old, New string
	// Previous is the tip the update replaces, when it is known: Old, or
	// for a branch created again the remote-tracking ref of the branch the
	// remote deleted. When New does not contain it, the two tips are
	// compared.
	Previous string
	// DefaultBranch says the ref is the receiver's default branch.
	DefaultBranch bool
}

// Guarded reports whether the guard accepted what a ref of the receiving
// repository holds: a branch (refs/heads/*) or a tag (refs/tags/*), which
// a push can move only through the pre-receive hook. Servers write refs
// of their own without running it (GitLab's refs/merge-requests/*,
// refs/keep-around/* and refs/pipelines/*, GitHub's refs/pull/*, a
// mirror's fetches), so what only such a ref holds was never judged.
func Guarded(ref string) bool {
	return strings.HasPrefix(ref, "refs/heads/") || strings.HasPrefix(ref, "refs/tags/")
}

// Plan is what one check of a push judges: the refs the push updates on
// the receiving side, against what that side already has.
type Plan struct {
	Updates []Update
	// Judged are the commits the receiver has already judged: on the
	// server, its branches and tags before the push (see Guarded); for the
	// pre-push hook, the remote-tracking refs of the remote pushed to. A
	// push adds the commits that none of them reaches, and those are
	// judged.
	Judged []string
	// Pusher is the account the server authenticated (pre-receive), and
	// PusherVar the variable that named it; "" on the client.
	Pusher, PusherVar string
	// PolicyRev is the commit the policy files are read from, and
	// PolicyFrom says where it came from (the server's default branch, the
	// remote's tip of the branch); NoPolicy says nothing trusted holds
	// them (a push to an empty repository): the built-in defaults apply.
	PolicyRev, PolicyFrom string
	NoPolicy              bool
	// Onto is the trusted revision a rebase may have moved a rewritten
	// branch onto: the receiver's default branch before the push (on the
	// client, as far as the remote-tracking refs tell). On a branch other
	// than the default and the protected ones, an entry may stand between
	// the entries the previous tip held only when Onto holds it; "" when
	// there is none.
	Onto string
	// Notice is what the check should tell the user before it reports
	// (the server's HEAD names a branch that does not exist); "" for none.
	Notice string
	// Note is said with what the check covered (Describe): why it judged
	// more than the push adds, and how to judge less; "" for none.
	Note string
}

// Describe names what a push check covered, for the report: each ref with
// its old and new tips.
func (p *Plan) Describe() string {
	var parts []string
	for _, u := range p.Updates {
		switch {
		case u.New == "":
			parts = append(parts, u.Ref+" (deleted)")
		case u.Old == "" && u.Previous != "":
			parts = append(parts, fmt.Sprintf("%s (new, replacing %s) %s", u.Ref, words.ShortID(u.Previous), words.ShortID(u.New)))
		case u.Old == "":
			parts = append(parts, fmt.Sprintf("%s (new) %s", u.Ref, words.ShortID(u.New)))
		default:
			parts = append(parts, fmt.Sprintf("%s %s..%s", u.Ref, words.ShortID(u.Old), words.ShortID(u.New)))
		}
	}
	s := strings.Join(parts, ", ")
	if p.Pusher != "" {
		s += fmt.Sprintf("; pushed by %s (%s)", p.Pusher, p.PusherVar)
	}
	if p.Note != "" {
		s += "; " + p.Note
	}
	return s
}

// distinct returns the commits, each once, in their order.
func distinct(commits []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range commits {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
