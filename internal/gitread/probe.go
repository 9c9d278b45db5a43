package gitread

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/config"
)

// probe decides, once for a whole run, which reader serves it: the fast
// reader when nothing in the repository or the environment is beyond what
// it reads as git does, and git otherwise. It returns "" for the fast
// reader, else why git reads the repository. It reads only files (git is
// not run: a hook's check with no governed change must stay near the cost
// of `git diff --cached`), and what it proves holds for the whole run: the
// fast reader then reads every object, the index and HEAD, with no
// fallback, so that a mistake of the fast reader cannot hide behind one.
//
// The fast reader reads loose objects, packs with version 2 indexes, the
// index in versions 2 to 4 with its optional extensions, and the refs
// files. Git reads the repository instead when:
//   - the environment moves objects or refs elsewhere: GIT_OBJECT_DIRECTORY
//     and GIT_ALTERNATE_OBJECT_DIRECTORIES (a pre-receive hook's
//     quarantine), GIT_QUARANTINE_PATH, GIT_COMMON_DIR, GIT_NAMESPACE;
//   - objects/info/alternates names other object stores (`git clone
//     --shared` or `--reference`, fork pools);
//   - the repository is a partial clone (a promisor remote, or
//     extensions.partialClone): git fetches the objects it lacks;
//   - its configuration says something the fast reader does not follow:
//     an extension other than worktreeConfig, noop or preciousObjects,
//     core.worktree, core.bare against the work tree found (in a linked
//     worktree, as for git, only where the worktree's config.worktree
//     says so), a format version above 1, or a configuration go-git
//     cannot decode;
//   - a pack index is not of version 2, or has no pack;
//   - the index holds an extension git must understand that the fast
//     reader does not read (split index, sparse index, or any other).
//
// SHA-256 repositories are refused whatever the reader (ErrUnsupported).
func probe(loc location, cfg *config.Config, cfgErr error, opts Options) (string, error) {
	for _, name := range []string{"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH", "GIT_COMMON_DIR", "GIT_NAMESPACE"} {
		if opts.Env(name) != "" {
			return name + " is set", nil
		}
	}
	if cfgErr != nil {
		return "the repository's configuration: " + cfgErr.Error(), nil
	}
	if err := checkFormat(cfg); err != nil {
		return "", err
	}
	if why := probeConfig(cfg, loc); why != "" {
		return why, nil
	}
	if why, err := probeWorktreeConfig(cfg, loc); why != "" || err != nil {
		return why, err
	}
	objects := loc.objectsDir()
	if alternates, err := os.ReadFile(filepath.Join(objects, "info", "alternates")); err == nil && strings.TrimSpace(string(alternates)) != "" {
		return "objects/info/alternates names other object stores", nil
	}
	return probePacks(filepath.Join(objects, "pack"))
}

// probeConfig says what of the repository's own configuration the fast
// reader does not follow ("" when nothing). In a linked worktree, git
// ignores core.worktree and core.bare of the shared configuration
// (setup.c, check_repository_format_gently): the worktree is where its
// git directory says.
func probeConfig(cfg *config.Config, loc location) string {
	switch cfg.Core.RepositoryFormatVersion {
	case "", "0", "1":
	default:
		return "core.repositoryFormatVersion is " + string(cfg.Core.RepositoryFormatVersion)
	}
	if cfg.Core.Worktree != "" && loc.commonDir == "" {
		return "core.worktree is set"
	}
	if cfg.Core.IsBare && loc.workTree != "" && loc.commonDir == "" {
		return "core.bare is set in a repository with a work tree"
	}
	if cfg.Raw == nil {
		return ""
	}
	if cfg.Raw.HasSection("extensions") {
		for _, o := range cfg.Raw.Section("extensions").Options {
			switch strings.ToLower(o.Key) {
			case "worktreeconfig", "noop", "preciousobjects", "objectformat":
			default:
				return "extensions." + o.Key + " is set"
			}
		}
	}
	for _, remote := range cfg.Raw.Section("remote").Subsections {
		// A promisor option without a value is true; go-git reads it as "".
		if remote.HasOption("promisor") && (remote.Option("promisor") == "" || truthy(remote.Option("promisor"))) {
			return "remote " + remote.Name + " is a promisor remote (a partial clone)"
		}
	}
	return ""
}

// probePacks checks that every pack index is one the fast reader reads
// (version 2) and has its pack, and that no pack comes from a promisor
// remote.
func probePacks(dir string) (string, error) {
	names, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("listing the packs: %w", err)
	}
	for _, n := range names {
		name := n.Name()
		if strings.HasSuffix(name, ".promisor") {
			return "pack " + name + " comes from a promisor remote (a partial clone)", nil
		}
		base, ok := strings.CutSuffix(name, ".idx")
		if !ok || n.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, base+".pack")); err != nil {
			return "pack index " + name + " has no pack", nil
		}
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return "", fmt.Errorf("reading the pack index %s: %w", name, err)
		}
		var header [idxHeaderSize]byte
		_, err = f.ReadAt(header[:], 0)
		f.Close()
		if err != nil || string(header[:4]) != idxMagic || header[4] != 0 || header[5] != 0 || header[6] != 0 || header[7] != 2 {
			return "pack index " + name + " is not of version 2", nil
		}
	}
	return "", nil
}

// probeIndex maps the index file and decodes it for the scope most checks
// read (see fastReader.index): the decoding finds the extensions, which
// follow the entries, and a hook's check then reads the file once. It says
// what in the index the fast reader does not read ("" when nothing); then
// the mapping is released. An index the decoder refuses for another reason
// is left to the fast reader, which refuses it as git does, with its
// reason, when a check reads the index.
func probeIndex(path string) (string, *fastReader, error) {
	data, release, err := mapFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", &fastReader{indexPath: path}, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("reading the index: %w", err)
	}
	f := &fastReader{indexPath: path, indexData: data, release: release}
	if data == nil {
		return "", f, nil
	}
	f.indexChecked = verifyingChecksum(data)
	f.indexCommon, f.indexCommonErr = parseIndexWith(data, inCommonScope[[]byte], true)
	var ext *extensionError
	if errors.As(f.indexCommonErr, &ext) {
		f.indexChecked()
		release()
		return "the index holds a " + describeExtension(ext.sig), nil, nil
	}
	return "", f, nil
}

// truthy reads a value as git reads a boolean that is set.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}
