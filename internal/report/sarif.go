package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/small-hook/small-hook/rules"
)

// informationURI is where small-hook's documentation lives.
const informationURI = "https://github.com/small-hook/small-hook"

// sarifSchemaURI is the SARIF 2.1.0 schema's address.
const sarifSchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

// The SARIF log, as small as the format allows: only what small-hook has
// to say, no empty arrays, a driver rule only for the rules reported.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
		// Properties holds each commit's signature status.
		Properties map[string]any `json:"properties,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules,omitempty"`
	}
	sarifRule struct {
		ID               string     `json:"id"`
		ShortDescription *sarifText `json:"shortDescription,omitempty"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID     string            `json:"ruleId"`
		RuleIndex  int               `json:"ruleIndex"`
		Level      string            `json:"level"`
		Message    sarifText         `json:"message"`
		Locations  []sarifLocation   `json:"locations"`
		Properties map[string]string `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

// SARIF writes the result as a SARIF 2.1.0 log with one run: one driver
// rule for each rule reported (a member of a family, such as
// secrets/aws-access-token of the rule secrets, is a rule of its own),
// titled by its rule's doc, and one result per finding, whose message is
// complete (the finding's message and hint; `small-hook rules ID` prints
// the rest). A finding about a commit carries the commit and, when
// verified, its signature status as properties, and each commit's
// signature status is the run's "signatures" property.
func SARIF(w io.Writer, r *Result) error {
	run := sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: r.Tool, Version: r.Version, InformationURI: informationURI}},
		Results: []sarifResult{},
	}
	status := map[string]string{}
	for _, sig := range r.Signatures {
		status[sig.Commit] = sig.Status
	}
	if len(r.Signatures) > 0 {
		run.Properties = map[string]any{"signatures": sarifSignatures(r.Signatures)}
	}
	index := map[string]int{}
	for _, f := range ordered(r) {
		i, ok := index[f.Rule]
		if !ok {
			i = len(run.Tool.Driver.Rules)
			index[f.Rule] = i
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, driverRule(f.Rule, rules.Lookup(r.Rules, f.Rule)))
		}
		loc := sarifPhysical{ArtifactLocation: sarifArtifact{URI: uriOf(f.Path), URIBaseID: "%SRCROOT%"}}
		if f.Line > 0 {
			loc.Region = &sarifRegion{StartLine: f.Line}
		}
		res := sarifResult{RuleID: f.Rule, RuleIndex: i, Level: string(f.Severity), Message: sarifText{f.Text()},
			Locations: []sarifLocation{{PhysicalLocation: loc}}}
		if f.Commit != "" {
			res.Properties = map[string]string{"commit": f.Commit}
			if st, ok := status[f.Commit]; ok {
				res.Properties["signature"] = st
			}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sarifLog{Schema: sarifSchemaURI, Version: "2.1.0", Runs: []sarifRun{run}}); err != nil {
		return fmt.Errorf("writing the SARIF report: %w", err)
	}
	return nil
}

// uriOf writes a repository path as a relative URI reference: each
// segment percent-encoded where a URI needs it (a space, a "%", a "#").
func uriOf(path string) string {
	return (&url.URL{Path: path}).String()
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

// driverRule describes the driver rule id by the title of rule's doc (with
// the member's name for a family member), or by its id alone when rule is
// unknown.
func driverRule(id string, rule *rules.Rule) sarifRule {
	d := sarifRule{ID: id}
	if rule == nil {
		return d
	}
	title, _, _ := strings.Cut(strings.TrimSpace(rule.Doc), "\n")
	if member, ok := strings.CutPrefix(id, rule.ID+"/"); ok {
		title += " (" + member + ")"
	}
	d.ShortDescription = &sarifText{title}
	return d
}
