package main

import (
	"fmt"
	"os"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/internal/signature"
)

// repairs says which policy file of HEAD, one that no check can load, the
// staged change changes: "HEAD's .small-hook.yml cannot be loaded: line 2
// of …", or "" when it changes none. Such a change is judged with the
// built-in configuration, as a first commit is, or no commit could ever
// repair the file; its staged policy files are validated as always (a
// repair that is still broken is an error), and it is judged whole,
// small/ownership of the file included. The files a commit loads are
// asked: the configuration in the repository (outside, the file on disk
// is the user's to fix), gitleaks' rules, and the key files HEAD's
// configuration names; gitleaks' rules are compiled, and the key files
// read, only when the change touches them.
func repairs(repo *gitdiff.Repo, tgt target, trusted, staged map[string]*changes.Blob, cfgPath, outside string) (string, error) {
	var paths []string
	if outside == "" {
		paths = append(paths, cfgPath)
	}
	paths = append(paths, config.GitleaksConfig)
	var err error
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
	data := dataOf(trusted[cfgPath])
	if outside != "" {
		if data, err = os.ReadFile(outside); err != nil {
			return "", nil // loading the configuration says so
		}
	}
	cfg, err := loadConfig(data, "HEAD's "+cfgPath)
	if err != nil {
		return "", nil // loading the configuration says so, and how to repair it
	}
	return repairsKeys(repo, tgt, cfg)
}

// repairsKeys is repairs for the key files HEAD's configuration cfg names:
// one HEAD lacks or that does not parse, which the staged change changes.
func repairsKeys(repo *gitdiff.Repo, tgt target, cfg *config.Config) (string, error) {
	src, paths := keyFiles(cfg)
	if len(paths) == 0 {
		return "", nil
	}
	staged, trusted, err := bothVersions(repo, tgt, paths)
	changed := changedPaths(paths, staged, trusted)
	if err != nil || len(changed) == 0 {
		return "", err
	}
	for _, p := range changed {
		if b := trusted[p]; b == nil || b.Regular() != nil {
			return fmt.Sprintf("HEAD's configuration names %s, which HEAD does not hold as a file", p), nil
		}
	}
	src.AllowedSigners, src.OpenPGPKeys = dataOf(trusted[src.AllowedSignersPath]), dataOf(trusted[src.OpenPGPKeysPath])
	if _, err := signature.NewPolicy(src); err != nil {
		return fmt.Sprintf("HEAD's key files cannot be loaded: %v", err), nil
	}
	return "", nil
}

// repairAdvice is the way out of a configuration HEAD holds that cannot be
// loaded, for the staged stages: the commit that repairs it passes.
func repairAdvice(cfgPath string) string {
	return fmt.Sprintf("fix %s in the work tree and stage it (git add %s): the commit that repairs it is judged with the built-in configuration", cfgPath, cfgPath)
}
