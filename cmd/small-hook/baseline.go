package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/baseline"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

// adoption is what a range check's baseline (config.Baseline) accepts:
// findings on commits of the history a repository had when it adopted
// small-hook, which a human recorded instead of rewriting that history
// (docs/workflows.md#first-adoption). A fingerprint names one commit, so a
// baseline never covers a commit made after it; what is left to decide is
// which baseline counts, and that follows the trust roots
// (docs/trust-roots.md):
//
//   - where a revision is trusted (HEAD for --history, a base, the tip a
//     push replaces, the default branch of a server), its baseline, and
//     every fingerprint of it, as for .gitleaksignore; never the judged
//     change's;
//   - where nothing is trusted (a first push, an import into an empty
//     server, CI's first run), the baseline of each pushed head, only when
//     the commit that wrote it is one this check judged and stands as a
//     human's (attribution.Verdict.StandsAsHuman, the standing an intended
//     rewrite needs), and only for the commits it was written on top of
//     (its ancestors): a history recorded by its own author, never
//     commits added beside or after it.
type adoption struct {
	// trusted is the trusted revision's baseline (nil when it has none),
	// and trustedName where it was read.
	trusted     *baseline.Baseline
	trustedName string
	// pushed are the baselines of the pushed heads when nothing is
	// trusted.
	pushed []*pushedBaseline
	// parents holds the parents of every commit the check judged.
	parents map[string][]string
	// adopting says the check judges a history from its root (--history,
	// or a push with nothing trusted before it): its refusals name the
	// baseline as the way to record what it finds.
	adopting bool
}

// pushedBaseline is the baseline at one pushed head, where nothing is
// trusted.
type pushedBaseline struct {
	head   string
	file   *baseline.Baseline
	writer string
	// verdict is the writer's actor, once the check has judged it.
	verdict *attribution.Verdict
}

// newAdoption reads the baseline a range check honours (see adoption); the
// trusted one comes from the policy the check loaded.
func newAdoption(repo *gitdiff.Repo, tgt target, pol *policy) (*adoption, error) {
	a := &adoption{parents: map[string][]string{}, adopting: tgt.mode == changes.ModeRange && (tgt.noPolicy || tgt.base == "" && tgt.push == nil)}
	if tgt.mode != changes.ModeRange {
		return a, nil
	}
	if !tgt.noPolicy {
		if pol.baseline == nil {
			return a, nil
		}
		a.trustedName = tgt.configName(config.Baseline)
		var err error
		a.trusted, err = parseBaseline(pol.baseline, a.trustedName)
		return a, err
	}
	heads, err := pushedHeads(repo, tgt)
	if err != nil {
		return nil, err
	}
	for _, head := range heads {
		blobs, err := repo.RevFiles(head, config.Baseline)
		if err != nil {
			return nil, fmt.Errorf("reading %s at %s: %w", config.Baseline, words.ShortID(head), err)
		}
		b := blobs[config.Baseline]
		if b == nil {
			continue
		}
		pb := &pushedBaseline{head: head}
		if pb.file, err = parseBaseline(b, "the "+config.Baseline+" of "+words.ShortID(head)); err != nil {
			return nil, err
		}
		if pb.writer, err = repo.LastChange(head, config.Baseline); err != nil {
			return nil, err
		}
		a.pushed = append(a.pushed, pb)
	}
	return a, nil
}

// pushedHeads lists the full ids of the commits a target judges the
// history of: the range's head, or every commit a push moves a ref to.
func pushedHeads(repo *gitdiff.Repo, tgt target) ([]string, error) {
	if tgt.push == nil {
		head, err := repo.Resolve(tgt.head)
		return []string{head}, err
	}
	var heads []string
	for _, u := range tgt.push.Updates {
		if u.New == "" {
			continue
		}
		head, err := repo.Peel(u.New)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.Ref, err)
		}
		if head != "" && !slices.Contains(heads, head) {
			heads = append(heads, head)
		}
	}
	return heads, nil
}

// parseBaseline parses a baseline file; name says where it was read.
func parseBaseline(b *changes.Blob, name string) (*baseline.Baseline, error) {
	if err := b.Regular(); err != nil {
		return nil, fmt.Errorf("%s %w", name, err)
	}
	file, err := baseline.Parse(b.Data)
	var be *baseline.Error
	if errors.As(err, &be) {
		return nil, fmt.Errorf("line %d of %s: %s", be.Line, name, be.Msg)
	}
	return file, err
}

// see records a unit the check judged: a commit's parents.
func (a *adoption) see(u changes.Unit) {
	if u.Mode == changes.ModeRange && u.Commit != nil {
		a.parents[u.Commit.Hash] = u.Commit.Parents
	}
}

// actor wraps a check's attributor to keep the verdict on each commit
// that wrote a pushed baseline.
func (a *adoption) actor(decide func(*changes.Unit) (attribution.Verdict, error)) func(*changes.Unit) (attribution.Verdict, error) {
	if len(a.pushed) == 0 {
		return decide
	}
	return func(u *changes.Unit) (attribution.Verdict, error) {
		v, err := decide(u)
		if err == nil && u.Mode == changes.ModeRange && u.Commit != nil {
			for _, pb := range a.pushed {
				if pb.writer == u.Commit.Hash {
					pb.verdict = &v
				}
			}
		}
		return v, err
	}
}

// apply drops the findings the baseline accepts, and returns the rest
// with notes that say what was accepted, which baseline was not honoured
// and why, and, where a history is adopted and errors remain on its
// commits, how to record them.
func (a *adoption) apply(findings []rules.Finding) ([]rules.Finding, []string) {
	var notes []string
	accepted := map[string]int{}
	var honoured []*pushedBaseline
	below := map[*pushedBaseline]map[string]bool{}
	for _, pb := range a.pushed {
		if why := pb.refusal(); why != "" {
			notes = append(notes, why)
			continue
		}
		honoured = append(honoured, pb)
		below[pb] = ancestors(a.parents, pb.writer)
	}
	var kept []rules.Finding
	for _, f := range findings {
		if _, judged := a.parents[f.Commit]; judged {
			if a.trusted != nil && a.trusted.Accepts(f) {
				accepted[a.trustedName]++
				continue
			}
			if pb := acceptedBy(honoured, below, f); pb != nil {
				accepted[pb.name()]++
				continue
			}
		}
		kept = append(kept, f)
	}
	for _, name := range slices.Sorted(maps.Keys(accepted)) {
		notes = append(notes, fmt.Sprintf("%s accepts %s on commits of the adopted history: not reported", name, words.Count(accepted[name], "finding", "findings")))
	}
	if a.adopting && slices.ContainsFunc(kept, func(f rules.Finding) bool {
		_, judged := a.parents[f.Commit]
		return judged && f.Severity == rules.Error
	}) {
		notes = append(notes, "if these commits were made before small-hook guarded this repository, record them instead of rewriting them: small-hook check --history --write-baseline "+config.Baseline+", then a human commits "+config.Baseline+" (docs/workflows.md#first-adoption)")
	}
	return kept, notes
}

// acceptedBy returns the honoured pushed baseline that accepts a finding:
// one that holds its fingerprint, on a commit it was written on top of.
func acceptedBy(honoured []*pushedBaseline, below map[*pushedBaseline]map[string]bool, f rules.Finding) *pushedBaseline {
	for _, pb := range honoured {
		if below[pb][f.Commit] && pb.file.Accepts(f) {
			return pb
		}
	}
	return nil
}

// refusal says why a pushed baseline is not honoured, or "".
func (pb *pushedBaseline) refusal() string {
	lead := fmt.Sprintf("%s is not honoured: nothing is trusted before this history, so a baseline in it counts only when a human's commit wrote it, and", pb.name())
	switch v := pb.verdict; {
	case v == nil:
		return fmt.Sprintf("%s the commit that wrote it (%s) is not among the commits this check judged", lead, words.ShortID(pb.writer))
	case !v.StandsAsHuman():
		evidence := v.Evidence
		if v.Disputed != "" {
			evidence = v.Disputed
		}
		return fmt.Sprintf("%s the commit that wrote it (%s) is not one (%s)", lead, words.ShortID(pb.writer), evidence)
	}
	return ""
}

// name names a pushed baseline in notes.
func (pb *pushedBaseline) name() string {
	name := fmt.Sprintf("the %s of %s", config.Baseline, words.ShortID(pb.head))
	if pb.writer != pb.head {
		name += " (written by " + words.ShortID(pb.writer) + ")"
	}
	return name
}

// ancestors returns the commits reachable from c's parents among the
// judged ones (parents): every commit between c and one the check did not
// judge is itself judged, so none is missed.
func ancestors(parents map[string][]string, c string) map[string]bool {
	seen := map[string]bool{}
	stack := slices.Clone(parents[c])
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[h] {
			continue
		}
		seen[h] = true
		stack = append(stack, parents[h]...)
	}
	return seen
}

// writeBaseline writes to file the fingerprint of every finding on a
// judged commit (accepted by a baseline or not) and those file already
// holds, and returns a note that says what was written and what to do
// with it. A fingerprint the redaction boundary would change (a path that
// holds a secret) is left out: it is never written anywhere.
func (c *checkCmd) writeBaseline(e *env, a *adoption, findings []rules.Finding) (string, error) {
	path := absDir(e, c.Baseline)
	var fps []string
	if data, err := os.ReadFile(path); err == nil {
		old, err := baseline.Parse(data)
		var be *baseline.Error
		if errors.As(err, &be) {
			return "", fmt.Errorf("--write-baseline %s: line %d: %s", c.Baseline, be.Line, be.Msg)
		}
		fps = old.Fingerprints()
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("--write-baseline: %w", err)
	}
	before := len(fps)
	for _, f := range findings {
		if _, judged := a.parents[f.Commit]; !judged {
			continue
		}
		if fp, ok := baseline.Fingerprint(f); ok && e.out.text(fp) == fp {
			fps = append(fps, fp)
		}
	}
	data := baseline.Format(fps)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("--write-baseline: %w", err)
	}
	written, err := baseline.Parse(data)
	if err != nil {
		return "", fmt.Errorf("--write-baseline: %w", err)
	}
	a.adopting = false // the note returned says how to record the findings
	n := len(written.Fingerprints())
	return fmt.Sprintf("wrote %s to %s (%d new): a human commits it as %s at the repository root, and from then on the findings it records are accepted", words.Count(n, "fingerprint", "fingerprints"), c.Baseline, n-before, config.Baseline), nil
}
