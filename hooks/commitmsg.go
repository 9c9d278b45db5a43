package hooks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"gopkg.in/yaml.v3"
)

// commitMsgHookIDs are the ids in small-hook's .pre-commit-hooks.yaml of
// the hooks that run the commit-msg check.
func commitMsgHookIDs() []string { return []string{"small-hook-commit-msg"} }

// configArg finds the configuration file a hook of the pre-commit
// framework names (pre-commit install -c FILE writes --config=FILE).
var configArg = regexp.MustCompile(`--config=(\S+?)[\s)]`)

// RunsCommitMsgCheck reports whether git's commit-msg hook in hooksDir
// (where git runs the hooks of the work tree whose root is workTree) will
// run small-hook's commit-msg check: the hook is executable (git skips one
// that is not) and is small-hook's own, or is the pre-commit framework's
// and either keeps small-hook's own hook as commit-msg.legacy or has one
// of commitMsgHookIDs in the configuration it names, at the commit-msg
// stage. It reads files only.
func RunsCommitMsgCheck(hooksDir, workTree string) (bool, error) {
	path := filepath.Join(hooksDir, "commit-msg")
	content, ok, err := executable(path)
	if !ok || err != nil {
		return false, err
	}
	switch {
	case ours(content):
		return true, nil
	case !byPreCommit(content):
		return false, nil
	}
	if legacy, ok, err := executable(path + legacySuffix); err != nil || ok && ours(legacy) {
		return ok, err
	}
	config := ".pre-commit-config.yaml"
	if m := configArg.FindSubmatch(content); m != nil {
		config = string(m[1])
	}
	if !filepath.IsAbs(config) {
		config = filepath.Join(workTree, config)
	}
	return configuresCommitMsg(config)
}

// executable returns the content of an executable regular file, and false
// when there is none at path.
func executable(path string) ([]byte, bool, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("reading the hook %s: %w", path, err)
	case !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0:
		return nil, false, nil
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("reading the hook %s: %w", path, err)
	}
	return content, true, nil
}

// configuresCommitMsg reports whether a pre-commit configuration lists one
// of small-hook's commit-msg hooks without moving it off the commit-msg
// stage. A configuration that is missing or does not parse runs nothing
// (pre-commit refuses it).
func configuresCommitMsg(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading the pre-commit configuration %s: %w", path, err)
	}
	var cfg preCommitConfig
	if yaml.Unmarshal(data, &cfg) != nil {
		return false, nil
	}
	for _, r := range cfg.Repos {
		for _, h := range r.Hooks {
			if slices.Contains(commitMsgHookIDs(), h.ID) && (len(h.Stages) == 0 || slices.Contains(h.Stages, "commit-msg")) {
				return true, nil
			}
		}
	}
	return false, nil
}
