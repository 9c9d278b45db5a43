package config

import (
	"fmt"
	"strings"
)

// signatures reads the signatures section: the key files (paths inside the
// repository) and which changes must be signed.
func (l loader) signatures(top map[string]any, s *Signatures) error {
	m, err := l.section(top, "signatures", "allowed-signers", "openpgp-keys", "require")
	if err != nil || m == nil {
		return err
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"allowed-signers", &s.AllowedSigners}, {"openpgp-keys", &s.OpenPGPKeys}} {
		v, ok := m[f.key]
		if !ok {
			continue
		}
		at := []string{"signatures", f.key}
		str, isString := v.(string)
		if !isString {
			return l.fail(at, "%s must be a path inside the repository, such as .github/allowed_signers", where(at))
		}
		if reason := badRepoPath(str); reason != "" {
			return l.fail(at, "%s %q %s: write a path relative to the repository root, with / between directories and no ..", where(at), str, reason)
		}
		*f.dst = str
	}
	if err := l.choice(m, []string{"signatures", "require"}, &s.Require, "off", "human-owned", "human"); err != nil {
		return err
	}
	if s.Require != "off" && s.AllowedSigners == "" && s.OpenPGPKeys == "" {
		return l.fail([]string{"signatures", "require"}, "signatures.require: %s needs the keys that may sign: set signatures.allowed-signers and/or signatures.openpgp-keys", s.Require)
	}
	return nil
}

// badRepoPath says what is wrong with p as the path of a file inside the
// repository, or returns "" when it is a clean relative, slash-separated
// path: the key files are read from git's objects, where only such paths
// exist, and a path that could point outside the repository is refused.
func badRepoPath(p string) string {
	switch {
	case p == "":
		return "is empty"
	case strings.HasPrefix(p, "/"):
		return "is absolute"
	case strings.Contains(p, `\`):
		return "contains a backslash"
	case strings.HasPrefix(p, "~"):
		return "starts with ~ (it is not a home directory: the file is read from the repository)"
	case len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z'):
		return "starts with a drive letter"
	}
	for _, c := range p {
		if c < 0x20 || c == 0x7f {
			return fmt.Sprintf("contains the control character %U", c)
		}
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "":
			return "has an empty path segment (// or a trailing /)"
		case ".", "..":
			return fmt.Sprintf("has a %q segment", seg)
		}
	}
	return ""
}
