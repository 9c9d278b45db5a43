package gitdiff

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/signature"
)

// signedPayload returns what a commit's signature signs, as git computes
// it (commit.c, parse_signed_commit): the raw commit object without its
// gpgsig and gpgsig-sha256 headers and their continuation lines. Working
// on the raw object rather than re-encoding go-git's parsed commit keeps
// every header go-git does not model.
func (r *Repo) signedPayload(h plumbing.Hash) ([]byte, error) {
	kind, raw, _, err := r.reader.Object(h, -1)
	if err == nil && kind != plumbing.CommitObject {
		err = fmt.Errorf("a %s, not a commit", kind)
	}
	if err != nil {
		return nil, r.objectError("commit", h, err)
	}
	return withoutSignature(raw), nil
}

// withoutSignature removes the signature headers from a raw commit.
func withoutSignature(raw []byte) []byte {
	out := make([]byte, 0, len(raw))
	inHeaders, inSignature := true, false
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line = raw[:i+1]
		}
		raw = raw[len(line):]
		if inHeaders {
			switch {
			case len(line) == 1 && line[0] == '\n':
				inHeaders, inSignature = false, false
			case line[0] == ' ' && inSignature:
				continue
			case bytes.HasPrefix(line, []byte("gpgsig ")) || bytes.HasPrefix(line, []byte("gpgsig-sha256 ")):
				inSignature = true
				continue
			default:
				inSignature = false
			}
		}
		out = append(out, line...)
	}
	return out
}

// SigningSettings reads git's signing settings for the commit being made
// in this repository (git's configuration, as git reads it): whether
// commits are signed, in which format, with which key, and the committer
// e-mail (GIT_COMMITTER_EMAIL, else user.email, else EMAIL). For an SSH key
// named by its path, the key file and its .pub file are read too: ~/ is
// the home directory and a relative path is relative to the work tree,
// where git runs hooks. A file that cannot be read is left nil: Readiness
// then says what is missing. `git commit -S` is invisible to hooks.
func (r *Repo) SigningSettings() (signature.GitSettings, error) {
	cfg, err := r.gitConfig()
	if err != nil {
		return signature.GitSettings{}, err
	}
	var s signature.GitSettings
	if s.GPGSign, err = cfg.bool("commit.gpgsign"); err != nil {
		return signature.GitSettings{}, err
	}
	s.Format = strings.ToLower(cfg.string("gpg.format"))
	s.SigningKey = strings.TrimSpace(cfg.string("user.signingkey"))
	s.CommitterEmail = r.opts.Env("GIT_COMMITTER_EMAIL")
	if s.CommitterEmail == "" {
		s.CommitterEmail = cfg.string("user.email")
	}
	if s.CommitterEmail == "" {
		s.CommitterEmail = r.opts.Env("EMAIL")
	}
	if s.Format == "ssh" && s.SigningKey != "" && !strings.HasPrefix(s.SigningKey, "key::") && !strings.HasPrefix(s.SigningKey, "ssh-") {
		path, ok := s.SigningKey, true
		if rest, home := strings.CutPrefix(path, "~/"); home {
			path, ok = homePath(r.opts.Env("HOME"), rest)
		} else if !filepath.IsAbs(path) && r.workTree != "" {
			path = filepath.Join(r.workTree, path)
		}
		if ok {
			s.KeyFile = readOptional(path)
			s.PublicKeyFile = readOptional(path + ".pub")
		}
	}
	return s, nil
}

// homePath is rest under the home directory, and false when there is no
// home directory to expand ~/ to.
func homePath(home, rest string) (string, bool) {
	if home == "" {
		return "", false
	}
	return filepath.Join(home, rest), true
}

// readOptional returns a file's contents, nil when it cannot be read.
func readOptional(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return data
}
