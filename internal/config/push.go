package config

import (
	"fmt"
	"strings"
)

// Push configures what the pre-receive and pre-push hooks refuse beyond
// what the rules judge.
type Push struct {
	// Protect lists glob patterns of branch names (main, release/*: the
	// name after refs/heads/) that a push may not delete. The receiver's
	// default branch is always protected.
	Protect []string
	// ReplaceRefs says whether a push may create or move refs/replace/*
	// refs, which make git show another object in place of the one a
	// commit or tree names: "refuse" (the default) or "allow".
	ReplaceRefs string
}

// Protects reports whether a push may not delete ref (a full ref name)
// by the patterns of Protect; the default branch is the caller's to add.
func (p Push) Protects(ref string) bool {
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok {
		return false
	}
	for _, pattern := range p.Protect {
		if Match(pattern, branch) {
			return true
		}
	}
	return false
}

// KeepsHistory reports whether a push that rewrites ref must keep the
// entries its previous tip held as a prefix, with nothing between them and
// no intended rewrite: the receiver's default branch, a branch Protect
// names, and a ref a check does not name ("": CI's push of the default or
// a protected branch, --previous).
func (p Push) KeepsHistory(ref string, defaultBranch bool) bool {
	return ref == "" || defaultBranch || p.Protects(ref)
}

func (l loader) push(top map[string]any, p *Push) error {
	m, err := l.section(top, "push", "protect", "replace-refs")
	if err != nil || m == nil {
		return err
	}
	if err := l.choice(m, []string{"push", "replace-refs"}, &p.ReplaceRefs, "refuse", "allow"); err != nil {
		return err
	}
	v, ok := m["protect"]
	if !ok || v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return l.fail([]string{"push", "protect"}, "push.protect must be a list of branch name patterns (main, release/*)")
	}
	for i, item := range list {
		s, ok := item.(string)
		if !ok || strings.TrimSpace(s) == "" || strings.HasPrefix(s, "refs/") {
			return l.fail([]string{"push", "protect", fmt.Sprint(i)}, "push.protect[%d] must be a branch name or a glob pattern of branch names, without refs/heads/ (main, release/*)", i)
		}
		p.Protect = append(p.Protect, s)
	}
	return nil
}
