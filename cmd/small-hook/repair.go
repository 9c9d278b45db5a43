package main

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/secrets"
)

// repairs says which policy file of HEAD, one that no check can load, the
// staged change changes: "HEAD's .small-hook.yml cannot be loaded: line 2
// of …", or "" when it changes none. Such a change is judged with the
// built-in configuration, as a first commit is, or no commit could ever
// repair the file; its staged policy files are validated as always (a
// repair that is still broken is an error), and it is judged whole,
// small/ownership of the file included. Only the files a commit loads are
// asked — the configuration in the repository and gitleaks' rules — and
// gitleaks' are compiled only when the change touches them.
func repairs(repo *gitdiff.Repo, trusted map[string]*changes.Blob, cfgPath string, cfgInRepo bool) (string, error) {
	var paths []string
	if cfgInRepo {
		paths = append(paths, cfgPath)
	}
	paths = append(paths, config.GitleaksConfig)
	staged, err := repo.IndexFiles(paths...)
	if err != nil {
		return "", fmt.Errorf("reading the staged policy files: %w", err)
	}
	for _, path := range changedPaths(paths, staged, trusted) {
		b := trusted[path]
		if b == nil {
			continue
		}
		name := "HEAD's " + path
		if path == config.GitleaksConfig {
			err = secrets.Validate(secrets.Options{Config: b.Data, ConfigPath: name})
		} else {
			_, err = loadConfig(b.Data, name)
		}
		if err != nil {
			return fmt.Sprintf("%s cannot be loaded: %v", name, err), nil
		}
	}
	return "", nil
}

// repairAdvice is the way out of a configuration HEAD holds that cannot be
// loaded, for the staged stages: the commit that repairs it passes.
func repairAdvice(cfgPath string) string {
	return fmt.Sprintf("fix %s in the work tree and stage it (git add %s): the commit that repairs it is judged with the built-in configuration", cfgPath, cfgPath)
}
