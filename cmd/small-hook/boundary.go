package main

import (
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/report"
	"github.com/small-hook/small-hook/internal/secrets"
)

// redactor is where output leaves the process: every finding, range label
// and error passes through it before it is written anywhere (stdout,
// stderr, --output files, the GitHub step summary), so no rule, reader or
// error path can print a secret, even one it echoes by mistake. It hides
// every secret the run's scanner found or learned (and any 12-character
// piece of one, so that a value cut short is hidden too) and whatever
// gitleaks' rules recognise in the text itself, in any context (a path, a
// configuration error). Its zero value works with gitleaks' default rules.
type redactor struct {
	scanner *secrets.Scanner
}

// secrets returns the scanner that redacts.
func (r *redactor) secrets() *secrets.Scanner {
	if r.scanner == nil {
		r.scanner = secrets.New(secrets.Options{})
	}
	return r.scanner
}

// text returns s with its secrets redacted.
func (r *redactor) text(s string) string {
	return r.secrets().Redact(s)
}

// learn scans what attribution reads of a change (the commit message with
// its trailers, the identities, the environment's claims) before any of it
// is echoed, cut short, in a verdict: the secrets there are hidden
// wherever a piece of them is printed.
func (r *redactor) learn(in attribution.Input) {
	r.secrets().Learn(in.Message, in.EnvActor, in.EnvRewrite, identityText(in.Author), identityText(in.Committer))
}

// identityText is an identity as a commit writes it; "" for none (the
// pre-commit stage has none, and an empty text loads no secret rules).
func identityText(id changes.Identity) string {
	if id.Name == "" && id.Email == "" {
		return ""
	}
	return id.Name + " <" + id.Email + ">"
}

// result redacts everything of res that came from the repository or the
// command line, all at once: a secret found whole in one text is hidden
// where another holds a piece of it.
func (r *redactor) result(res *report.Result) {
	var fields []*string
	for i := range res.Findings {
		f := &res.Findings[i]
		fields = append(fields, &f.Path, &f.Message, &f.Hint)
	}
	fields = append(fields, &res.Range)
	for i := range res.Notes {
		fields = append(fields, &res.Notes[i])
	}
	for i := range res.Signatures {
		s := &res.Signatures[i]
		fields = append(fields, &s.Signer, &s.Key, &s.Entry, &s.Detail)
	}
	texts := make([]string, len(fields))
	for i, f := range fields {
		texts[i] = *f
	}
	for i, t := range r.secrets().RedactAll(texts) {
		*fields[i] = t
	}
}
