package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/internal/signature"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// policy is what the policy files of a check say.
type policy struct {
	cfg     *config.Config
	scanner *secrets.Scanner
	// firstCommit says the staged change is the repository's first commit:
	// no revision holds policy yet, and the defaults apply.
	firstCommit bool
	// repair says why HEAD's policy is not used: the staged change
	// repairs a policy file of HEAD that cannot be loaded (see repairs),
	// and the defaults apply; "" otherwise.
	repair string
	// notes name the staged policy files that change policy: they were
	// validated, and apply from the next commit.
	notes []string
	// baseline is the trusted revision's config.Baseline, nil when it has
	// none; a range check parses it (see adoption).
	baseline *changes.Blob
}

// loadPolicy reads the configuration and gitleaks' files from the trusted
// revision (see trustedRev) and prepares secret detection with them; e
// redacts with that detection from then on. The configuration is the file
// --config names: from the trusted revision too when it lies inside the
// repository, from disk otherwise. In the staged stages, the staged
// versions of the policy files are validated (a malformed one is an
// error) but not applied, and a change that repairs a policy file HEAD
// holds and no check can load is judged with the built-in configuration
// (see repairs); the agent guard judges a write, not the index.
func (c *checkCmd) loadPolicy(e *env, repo *gitdiff.Repo, tgt target) (*policy, error) {
	cfgPath, outside := c.configFile(e, repo)
	paths := []string{cfgPath, config.GitleaksConfig, config.GitleaksIgnore, config.Baseline}
	blobs, err := readTrusted(repo, tgt, paths...)
	if err != nil {
		return nil, fmt.Errorf("reading the policy files (%s) from %s: %w", strings.Join(paths, ", "), tgt.trustedName(), err)
	}
	p := &policy{baseline: blobs[config.Baseline]}
	var staged map[string]*changes.Blob
	if tgt.mode == changes.ModeStaged && tgt.proposed == nil {
		_, err := repo.Resolve("HEAD")
		p.firstCommit = errors.Is(err, gitdiff.ErrUnborn)
		if staged, err = repo.IndexFiles(stagedPolicyFiles(cfgPath, outside == "")...); err != nil {
			return nil, fmt.Errorf("reading the staged policy files: %w", err)
		}
		if !p.firstCommit {
			if p.repair, err = repairs(repo, tgt, blobs, staged, cfgPath, outside); err != nil {
				return nil, err
			}
		}
	}
	applied := blobs
	if p.repair != "" {
		applied = map[string]*changes.Blob{}
	}
	p.scanner = secrets.New(secrets.Options{
		Config:     dataOf(applied[config.GitleaksConfig]),
		ConfigPath: tgt.configName(config.GitleaksConfig),
		Ignore:     dataOf(applied[config.GitleaksIgnore]),
	})
	e.out.scanner = p.scanner
	if outside != "" && p.repair == "" {
		data, err := os.ReadFile(outside)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", outside, err)
		}
		p.cfg, err = loadConfig(data, outside)
		if err != nil {
			return nil, err
		}
	} else {
		b, ok := applied[cfgPath]
		if !ok && cfgPath != config.FileName && !p.firstCommit && p.repair == "" {
			return nil, fmt.Errorf("--config %s: %s has no %s: a configuration inside the repository is read from there, never from the change being checked; commit it first, or name a file outside the repository", c.Config, tgt.trustedName(), cfgPath)
		}
		if p.cfg, err = loadConfig(dataOf(b), tgt.configName(cfgPath)); err != nil {
			if tgt.mode == changes.ModeStaged {
				return nil, fmt.Errorf("%w; %s", err, repairAdvice(cfgPath))
			}
			return nil, err
		}
		if cfgPath != config.FileName {
			p.cfg.File = cfgPath
		}
	}
	if tgt.mode == changes.ModeStaged && tgt.proposed == nil {
		if err := p.validateStaged(repo, tgt, blobs, staged, cfgPath, outside == ""); err != nil {
			return nil, err
		}
	}
	if tgt.mode == changes.ModeTree && trustedRev(tgt) == "" {
		read := paths
		if outside != "" {
			read = paths[1:]
		}
		if err := p.noteUnstaged(repo, read, blobs); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// noteUnstaged notes each policy file that a survey of the index (--all)
// read from the work tree where the index holds another version: the
// survey used the file the user sees, which a commit does not.
func (p *policy) noteUnstaged(repo *gitdiff.Repo, paths []string, read map[string]*changes.Blob) error {
	staged, err := repo.IndexFiles(paths...)
	if err != nil {
		return fmt.Errorf("reading the staged policy files: %w", err)
	}
	for _, f := range changedPaths(paths, staged, read) {
		if read[f] == nil {
			p.notes = append(p.notes, fmt.Sprintf("this survey used no %s: the working tree has none, though the index has one (a commit is checked with the one HEAD holds)", f))
			continue
		}
		p.notes = append(p.notes, fmt.Sprintf("this survey used the working tree's %s, which is not staged (a commit is checked with the one HEAD holds)", f))
	}
	return nil
}

// stagedPolicyFiles lists the policy files whose staged versions the
// staged stages validate besides the key files: gitleaks' files, the
// baseline, and the configuration when it is read from the repository.
func stagedPolicyFiles(cfgPath string, cfgInRepo bool) []string {
	paths := []string{config.GitleaksConfig, config.GitleaksIgnore, config.Baseline}
	if cfgInRepo {
		paths = append(paths, cfgPath)
	}
	return paths
}

// configFile returns the repository path of the configuration (FileName,
// or the file --config names inside the work tree), or, for a file
// --config names outside the repository, its path on disk.
func (c *checkCmd) configFile(e *env, repo *gitdiff.Repo) (inRepo, outside string) {
	if c.Config == "" {
		return config.FileName, ""
	}
	path := absDir(e, c.Config)
	if rel, ok := insideWorkTree(repo.WorkTree(), path); ok {
		return rel, ""
	}
	return config.FileName, path
}

// insideWorkTree returns path relative to the work tree root, slash
// separated, when path lies inside the work tree, as written or once
// symbolic links are resolved.
func insideWorkTree(root, path string) (string, bool) {
	if root == "" {
		return "", false
	}
	candidates := [][2]string{{root, path}}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		if p, err := filepath.EvalSymlinks(path); err == nil {
			candidates = append(candidates, [2]string{r, p})
		}
	}
	for _, c := range candidates {
		rel, err := filepath.Rel(c[0], c[1])
		if err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// loadConfig reads a configuration (nil data: none, the defaults) and
// checks that every rule ID it sets names a rule; name says where it came
// from in errors.
func loadConfig(data []byte, name string) (*config.Config, error) {
	if data == nil {
		return config.Default(), nil
	}
	cfg, err := config.Load(data)
	if err == nil {
		err = rules.ValidateSettings(cfg, registry.All())
	}
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("line %d of %s: %s", ce.Line, name, ce.Msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return cfg, nil
}

// validateStaged validates the staged versions of the policy files that
// differ from the trusted ones (stagedPolicyFiles, then the key files the
// configuration that applies next names): a malformed one is an error,
// since the commit would break every later check. It notes each policy
// file the staged change changes: the change applies from the next commit.
func (p *policy) validateStaged(repo *gitdiff.Repo, tgt target, trusted, staged map[string]*changes.Blob, cfgPath string, cfgInRepo bool) error {
	changed := changedPaths(stagedPolicyFiles(cfgPath, cfgInRepo), staged, trusted)
	cfg := p.cfg
	if b := staged[cfgPath]; cfgInRepo && (slices.Contains(changed, cfgPath) || p.repair != "") && b != nil {
		var err error
		if cfg, err = loadConfig(b.Data, "the staged "+cfgPath); err != nil {
			return err
		}
	}
	if b := staged[config.GitleaksConfig]; b != nil && slices.Contains(changed, config.GitleaksConfig) {
		if err := secrets.Validate(secrets.Options{Config: b.Data, ConfigPath: "the staged " + config.GitleaksConfig}); err != nil {
			return err
		}
	}
	if b := staged[config.Baseline]; b != nil && slices.Contains(changed, config.Baseline) {
		if _, err := parseBaseline(b, "the staged "+config.Baseline); err != nil {
			return err
		}
	}
	keys, err := validateStagedKeys(repo, tgt, cfg, cfg != p.cfg)
	if err != nil {
		return err
	}
	used := "HEAD's version"
	switch {
	case p.firstCommit:
		used = "the defaults, as there is no commit yet"
	case p.repair != "":
		used = "the built-in configuration, as for a first commit: " + p.repair
	}
	for _, f := range append(changed, keys...) {
		p.notes = append(p.notes, fmt.Sprintf("this commit changes the policy file %s: the change applies from the next commit (this check used %s)", f, used))
	}
	return nil
}

// bothVersions reads paths from the index and from the trusted revision.
func bothVersions(repo *gitdiff.Repo, tgt target, paths []string) (staged, trusted map[string]*changes.Blob, err error) {
	if staged, err = repo.IndexFiles(paths...); err != nil {
		return nil, nil, fmt.Errorf("reading the staged policy files: %w", err)
	}
	if trusted, err = readTrusted(repo, tgt, paths...); err != nil {
		return nil, nil, fmt.Errorf("reading the policy files from %s: %w", tgt.trustedName(), err)
	}
	return staged, trusted, nil
}

// changedPaths lists the paths whose staged and trusted versions differ
// (one of them missing included).
func changedPaths(paths []string, staged, trusted map[string]*changes.Blob) []string {
	var out []string
	for _, p := range paths {
		s, t := staged[p], trusted[p]
		if (s == nil) != (t == nil) || s != nil && !bytes.Equal(s.Data, t.Data) {
			out = append(out, p)
		}
	}
	return out
}

// validateStagedKeys parses the staged key files that cfg (the staged
// configuration when the change changes it, cfgChanged) names, when they
// or the configuration differ from the trusted ones, and returns the key
// files that differ.
func validateStagedKeys(repo *gitdiff.Repo, tgt target, cfg *config.Config, cfgChanged bool) ([]string, error) {
	src, paths := keyFiles(cfg)
	if len(paths) == 0 {
		return nil, nil
	}
	staged, trusted, err := bothVersions(repo, tgt, paths)
	if err != nil {
		return nil, err
	}
	changed := changedPaths(paths, staged, trusted)
	if len(changed) == 0 && !cfgChanged {
		return nil, nil
	}
	for _, p := range paths {
		if staged[p] == nil {
			return nil, fmt.Errorf("the signatures section names %s, but the index has no such file: stage the key file, or correct the path", p)
		}
	}
	src.AllowedSigners, src.OpenPGPKeys = dataOf(staged[src.AllowedSignersPath]), dataOf(staged[src.OpenPGPKeysPath])
	if _, err := signature.NewPolicy(src); err != nil {
		var fe *signature.FileError
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("line %d of the staged %s: %s", fe.Line, fe.File, fe.Msg)
		}
		return nil, fmt.Errorf("the staged key files of the signatures section: %w", err)
	}
	return changed, nil
}

// keyFiles returns the key files a configuration's signatures section
// names, as sources without their content, and their paths.
func keyFiles(cfg *config.Config) (signature.Sources, []string) {
	src := signature.Sources{AllowedSignersPath: cfg.Signatures.AllowedSigners, OpenPGPKeysPath: cfg.Signatures.OpenPGPKeys}
	var paths []string
	for _, p := range []string{src.AllowedSignersPath, src.OpenPGPKeysPath} {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return src, paths
}

// dataOf returns a blob's content, nil for no blob.
func dataOf(b *changes.Blob) []byte {
	if b == nil {
		return nil
	}
	return b.Data
}
