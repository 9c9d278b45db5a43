package main

import (
	"github.com/small-hook/small-hook/report"
	"github.com/small-hook/small-hook/secrets"
)

// redactor is where output leaves the process: every finding, range label
// and error passes through it before it is written anywhere (stdout,
// stderr, --output files, the GitHub step summary), so no rule, reader or
// error path can print a secret, even one it echoes by mistake. It hides
// every secret the run's scanner found (and any 12-character piece of
// one) and whatever gitleaks' rules recognise in the text itself. Its zero
// value works with gitleaks' default rules.
type redactor struct {
	scanner *secrets.Scanner
}

// text returns s with its secrets redacted.
func (r *redactor) text(s string) string {
	if r.scanner == nil {
		r.scanner = secrets.New(secrets.Options{})
	}
	return r.scanner.Redact(s)
}

// result redacts everything of res that came from the repository or the
// command line.
func (r *redactor) result(res *report.Result) {
	for i := range res.Findings {
		f := &res.Findings[i]
		f.Message = r.text(f.Message)
		f.Path = r.text(f.Path)
	}
	res.Range = r.text(res.Range)
	for i := range res.Signatures {
		s := &res.Signatures[i]
		s.Signer, s.Key, s.Entry, s.Detail = r.text(s.Signer), r.text(s.Key), r.text(s.Entry), r.text(s.Detail)
	}
}
