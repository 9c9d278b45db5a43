package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/report"
	"github.com/small-hook/small-hook/internal/signature"
)

// signing is what a check knows about signatures: the policy of the
// configuration's signatures section, the one time of verification of the
// run, and what it found so far.
type signing struct {
	// policy is nil when the configuration names no key file.
	policy *signature.Policy
	now    time.Time
	// readiness is, in the staged stages when signatures are required,
	// what git's settings promise for the commit being made.
	readiness *signature.Readiness
	// statuses are the verified commits, in the order they were checked,
	// each once; verified holds each one's status (a pushed tip is judged
	// as a commit and again as the tip a rewritten branch moved to).
	statuses []report.Signature
	verified map[string]*signature.Status
}

// newSigning reads the key files the configuration names from where the
// configuration came from (see trustedRev: HEAD in the staged stages, the
// base revision of a range), so that a change cannot bring its own key,
// and in the staged stages, when signatures are required, judges git's
// signing settings. A key file that is configured but missing, not a regular file
// or malformed is an error: the check cannot run. A tree check (--all)
// judges no commit and reads no key.
func newSigning(repo *gitdiff.Repo, tgt target, cfg *config.Config, now time.Time) (*signing, error) {
	s := &signing{now: now}
	src := signature.Sources{AllowedSignersPath: cfg.Signatures.AllowedSigners, OpenPGPKeysPath: cfg.Signatures.OpenPGPKeys}
	if tgt.mode == changes.ModeTree || src.AllowedSignersPath == "" && src.OpenPGPKeysPath == "" {
		return s, nil
	}
	var paths []string
	for _, p := range []string{src.AllowedSignersPath, src.OpenPGPKeysPath} {
		if p != "" {
			paths = append(paths, p)
		}
	}
	blobs, err := readTrusted(repo, tgt, paths...)
	if err != nil {
		return nil, fmt.Errorf("reading the key files of the signatures section: %w", err)
	}
	for _, f := range []struct {
		key, path string
		dst       *[]byte
	}{{"allowed-signers", src.AllowedSignersPath, &src.AllowedSigners}, {"openpgp-keys", src.OpenPGPKeysPath, &src.OpenPGPKeys}} {
		if f.path == "" {
			continue
		}
		b := blobs[f.path]
		switch {
		case b == nil:
			return nil, fmt.Errorf("signatures.%s in %s names %s, but there is no such file (%s is missing): commit the key file, or correct the path", f.key, tgt.configName(config.FileName), f.path, tgt.configName(f.path))
		case b.Regular() != nil:
			return nil, fmt.Errorf("%s %s", tgt.configName(f.path), b.Regular())
		}
		*f.dst = b.Data
	}
	if s.policy, err = signature.NewPolicy(src); err != nil {
		var fe *signature.FileError
		if errors.As(err, &fe) && tgt.mode == changes.ModeStaged {
			return nil, fmt.Errorf("line %d of %s: %s; %s", fe.Line, tgt.configName(fe.File), fe.Msg, repairAdvice(fe.File))
		}
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("line %d of %s: %s", fe.Line, tgt.configName(fe.File), fe.Msg)
		}
		return nil, fmt.Errorf("the key files of the signatures section: %w", err)
	}
	if tgt.mode == changes.ModeStaged && tgt.proposed == nil && cfg.Signatures.Require != "off" {
		var r signature.Readiness
		if settings, err := repo.SigningSettings(); err != nil {
			r.Advice = fmt.Sprintf("small-hook cannot read git's signing settings (%v)", err)
		} else {
			r = s.policy.Readiness(settings, now)
		}
		s.readiness = &r
	}
	return s, nil
}

// verify judges a commit's signature and records the result; nil when no
// policy is configured.
func (s *signing) verify(c *changes.Commit) (*signature.Status, error) {
	if s.policy == nil {
		return nil, nil
	}
	if st, ok := s.verified[c.Hash]; ok {
		return st, nil
	}
	var payload []byte
	if c.Signature != "" && c.Payload != nil {
		var err error
		if payload, err = c.Payload(); err != nil {
			return nil, err
		}
	}
	st := s.policy.Verify(signature.Commit{Signature: []byte(c.Signature), Payload: payload, CommitterEmail: c.Committer.Email, CommitterTime: c.CommitterTime}, s.now)
	s.statuses = append(s.statuses, report.Signature{
		Commit: c.Hash, Status: st.Verdict.String(), Format: string(st.Format),
		Signer: st.Signer, Key: st.Key, Entry: st.Entry, Detail: st.Detail,
	})
	if s.verified == nil {
		s.verified = map[string]*signature.Status{}
	}
	s.verified[c.Hash] = &st
	return &st, nil
}
