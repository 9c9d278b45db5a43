package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/small-hook/small-hook/rules"
)

// informationURI is where small-hook's documentation lives.
const informationURI = "https://github.com/small-hook/small-hook"

// SARIF writes the result as a SARIF 2.1.0 log with one run: the registry's
// rules with their docs, one more rule for each member of a rule family
// that was reported (secrets/aws-access-token of the rule secrets), one
// result per finding (a finding about a commit carries the commit and, when
// verified, its signature status as properties), and each commit's
// signature status as the run's "signatures" property.
func SARIF(w io.Writer, r *Result) error {
	run := sarif.NewRunWithInformationURI(r.Tool, informationURI)
	run.Tool.Driver.WithVersion(r.Version)
	for _, rule := range r.Rules {
		addRule(run, rule.ID, rule)
	}
	status := map[string]string{}
	for _, sig := range r.Signatures {
		status[sig.Commit] = sig.Status
	}
	if len(r.Signatures) > 0 {
		run.WithProperties(sarif.NewPropertyBag().Add("signatures", sarifSignatures(r.Signatures)))
	}
	for _, f := range ordered(r) {
		if run.GetRuleIndex(f.Rule) < 0 {
			addRule(run, f.Rule, family(r.Rules, f.Rule))
		}
		res := run.CreateResultForRule(f.Rule).
			WithLevel(string(f.Severity)).
			WithMessage(sarif.NewTextMessage(f.Message))
		loc := sarif.NewPhysicalLocation().
			WithArtifactLocation(sarif.NewSimpleArtifactLocation(f.Path).WithURIBaseID("%SRCROOT%"))
		if f.Line > 0 {
			loc.WithRegion(sarif.NewRegion().WithStartLine(f.Line))
		}
		res.AddLocation(sarif.NewLocationWithPhysicalLocation(loc))
		if f.Commit != "" {
			props := sarif.NewPropertyBag().Add("commit", f.Commit)
			if st, ok := status[f.Commit]; ok {
				props.Add("signature", st)
			}
			res.WithProperties(props)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sarif.NewReport().AddRun(run)); err != nil {
		return fmt.Errorf("writing the SARIF report: %w", err)
	}
	return nil
}

// sarifSignatures is each commit's signature status as the run's
// "signatures" property: the same objects as in the JSON output.
func sarifSignatures(sigs []Signature) []map[string]string {
	out := make([]map[string]string, 0, len(sigs))
	for _, s := range sigs {
		m := map[string]string{"commit": s.Commit, "status": s.Status, "format": s.Format}
		for k, v := range map[string]string{"signer": s.Signer, "key": s.Key, "entry": s.Entry, "detail": s.Detail} {
			if v != "" {
				m[k] = v
			}
		}
		out = append(out, m)
	}
	return out
}

// family returns the registry rule a finding's rule ID belongs to: the
// rule itself, or for secrets/aws-access-token the rule secrets; nil when
// the ID is unknown.
func family(all []*rules.Rule, id string) *rules.Rule {
	for _, r := range all {
		if r.ID == id || strings.HasPrefix(id, r.ID+"/") {
			return r
		}
	}
	return nil
}

// addRule adds the driver rule id, described by the doc of rule (which is
// id's family when the two differ) when rule is known.
func addRule(run *sarif.Run, id string, rule *rules.Rule) {
	d := run.AddRule(id)
	if rule == nil {
		return
	}
	title, rest, _ := strings.Cut(strings.TrimSpace(rule.Doc), "\n")
	rest = strings.TrimSpace(rest)
	if rest == "" {
		rest = title
	}
	if member, ok := strings.CutPrefix(id, rule.ID+"/"); ok {
		title += " (" + member + ")"
	}
	d.WithShortDescription(sarif.NewMultiformatMessageString().WithText(title)).
		WithFullDescription(sarif.NewMultiformatMessageString().WithText(rest)).
		WithHelp(sarif.NewMultiformatMessageString().WithText(rest)).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(string(rule.Severity)).WithEnabled(!rule.OffByDefault))
}
