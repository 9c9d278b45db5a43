package gitdiff

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// gitReader reads a repository through git itself: objects from one
// long-lived `git cat-file --batch-command`, the index from `git ls-files`,
// HEAD from `git symbolic-ref` and `git rev-parse`. It serves every
// repository the fast reader cannot prove it reads as git does: alternates,
// a receive-pack quarantine, a partial clone (git fetches the objects it
// lacks), a split or sparse index, unknown extensions.
type gitReader struct {
	git *gitRunner
	// indexPath is the index file git reads; its cache tree is read from
	// it (git has no command that prints it).
	indexPath string
	batch     *catFile
	// listed is the whole index as git lists it, read on first need.
	listed *gitIndex
	// headID and headBranch are HEAD, read on first need.
	headRead   bool
	headID     plumbing.Hash
	headBranch string
}

func (g *gitReader) name() string { return ReaderGit }

func (g *gitReader) object(h plumbing.Hash, _ int64) (plumbing.ObjectType, []byte, []byte, error) {
	if g.batch == nil {
		b, err := startCatFile(g.git)
		if err != nil {
			return plumbing.InvalidObject, nil, nil, err
		}
		g.batch = b
	}
	kind, data, err := g.batch.contents(h)
	return kind, data, nil, err
}

// blobSize is not known cheaply: the prefix proof is the fast reader's.
func (g *gitReader) blobSize(plumbing.Hash) (int64, bool) { return 0, false }

func (g *gitReader) head() (plumbing.Hash, string, error) {
	if g.headRead {
		return g.headID, g.headBranch, nil
	}
	ref, err := g.git.line("symbolic-ref", "-q", "HEAD")
	switch {
	case exitCode(err) == 1: // detached
		ref = ""
	case err != nil:
		return plumbing.ZeroHash, "", fmt.Errorf("reading HEAD: %w", err)
	}
	id, err := g.git.line("rev-parse", "-q", "--verify", "HEAD^{commit}")
	switch {
	case exitCode(err) == 1 && ref != "":
		// HEAD's branch has no commit yet.
	case err != nil:
		return plumbing.ZeroHash, "", fmt.Errorf("reading HEAD: %w", err)
	default:
		h, ok := parseHex([]byte(id))
		if !ok {
			return plumbing.ZeroHash, "", fmt.Errorf("reading HEAD: git rev-parse printed %q", id)
		}
		g.headID = h
	}
	g.headRead, g.headBranch = true, ref
	return g.headID, g.headBranch, nil
}

func (g *gitReader) index(scope Scope) (*indexFile, error) {
	if g.listed == nil {
		listed, err := g.listIndex()
		if err != nil {
			return nil, err
		}
		g.listed = listed
	}
	out := &indexFile{tree: g.listed.tree, sparse: g.listed.sparse}
	for _, e := range g.listed.entries {
		if e.committed && scope.containsPath(e.path) {
			out.entries = append(out.entries, e.indexEntry)
		}
	}
	return out, nil
}

func (g *gitReader) twin() reader {
	return &gitReader{git: g.git, indexPath: g.indexPath}
}

func (g *gitReader) close() error {
	if g.batch == nil {
		return nil
	}
	err := g.batch.close()
	g.batch = nil
	return err
}

// gitIndex is the whole index as git lists it.
type gitIndex struct {
	entries []listedEntry
	// sparse are the directories of a sparse index that it holds as one
	// entry each, their paths ending in "/".
	sparse []indexEntry
	tree   *cacheTree
}

// listedEntry is an entry `git ls-files` lists, and whether git commits
// it (it does not commit an intent-to-add entry).
type listedEntry struct {
	indexEntry
	committed bool
}

// ceIntentToAdd is git's in-memory flag of an intent-to-add entry, as
// `git ls-files --debug` prints it.
const ceIntentToAdd = 1 << 29

// listIndex reads the index with `git ls-files --stage --sparse -z
// --debug` (the flags tell intent-to-add entries apart) and its cache
// tree from the index file, checked against the entries.
func (g *gitReader) listIndex() (*gitIndex, error) {
	out, err := g.git.output("ls-files", "--stage", "--sparse", "-z", "--debug")
	if err != nil {
		return nil, fmt.Errorf("reading the index: %w", err)
	}
	listed := &gitIndex{}
	if listed.tree, err = cacheTreeOf(g.indexPath); err != nil {
		return nil, fmt.Errorf("index %s: %w", g.indexPath, err)
	}
	var runs dirRuns
	var prev []byte
	prevStage := 0
	for i := uint32(0); len(out) > 0; i++ {
		var e listedEntry
		if out, err = parseListed(out, &e); err != nil {
			return nil, fmt.Errorf("reading the index: git ls-files: %w", err)
		}
		if err := inOrder(prev, prevStage, []byte(e.path), e.stage, i); err != nil {
			return nil, fmt.Errorf("index %s: %w", g.indexPath, err)
		}
		prev, prevStage = []byte(e.path), e.stage
		runs.add(prev)
		if e.mode&modeTypeMask == modeDir {
			listed.sparse = append(listed.sparse, e.indexEntry)
			continue
		}
		listed.entries = append(listed.entries, e)
	}
	runs.countInto(listed.tree)
	if err := verifyCacheTree(listed.tree); err != nil {
		return nil, fmt.Errorf("index %s: %w", g.indexPath, err)
	}
	return listed, nil
}

// parseListed reads one entry of `git ls-files --stage -z --debug`:
// "<mode> <id> <stage>\t<path>\0" and five lines of details, the last
// ending in "flags: <hex>".
func parseListed(out []byte, e *listedEntry) ([]byte, error) {
	head, rest, ok := bytes.Cut(out, []byte{0})
	if !ok {
		return nil, errors.New("an entry without its end")
	}
	fields, path, ok := bytes.Cut(head, []byte{'\t'})
	parts := strings.Fields(string(fields))
	if !ok || len(parts) != 3 {
		return nil, fmt.Errorf("unexpected entry %q", head)
	}
	mode, err1 := strconv.ParseUint(parts[0], 8, 32)
	hash, ok := parseHex([]byte(parts[1]))
	stage, err2 := strconv.Atoi(parts[2])
	if err1 != nil || !ok || err2 != nil {
		return nil, fmt.Errorf("unexpected entry %q", head)
	}
	var flags uint64
	for i := 0; i < 5; i++ {
		line, after, found := bytes.Cut(rest, []byte{'\n'})
		if !found {
			return nil, fmt.Errorf("entry %s: details cut short", path)
		}
		rest = after
		if i == 4 {
			_, text, found := bytes.Cut(line, []byte("flags: "))
			var err error
			if flags, err = strconv.ParseUint(string(text), 16, 64); !found || err != nil {
				return nil, fmt.Errorf("entry %s: unexpected details %q", path, line)
			}
		}
	}
	e.indexEntry = indexEntry{path: string(path), hash: hash, mode: uint32(mode), stage: stage}
	e.committed = flags&ceIntentToAdd == 0
	return rest, nil
}

// cacheTreeOf reads the cache tree of the index file at path (nil when
// there is no index, or no cache tree).
func cacheTreeOf(path string) (*cacheTree, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	start, err := extensionsStart(data)
	if err != nil {
		return nil, err
	}
	exts, err := extensionsOf(data[start : len(data)-hashLen])
	if err != nil {
		return nil, err
	}
	for _, ext := range exts {
		if ext.sig == "TREE" {
			return readCacheTree(ext.body)
		}
	}
	return nil, nil
}

// catFile is a running `git cat-file --batch-command`: one process reads
// every object of a run.
type catFile struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
}

func startCatFile(git *gitRunner) (*catFile, error) {
	cmd := git.command("cat-file", "--batch-command")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("starting git cat-file: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("starting git cat-file: %w", err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting git cat-file: %w", err)
	}
	return &catFile{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), stderr: stderr}, nil
}

// contents reads object h.
func (c *catFile) contents(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if _, err := fmt.Fprintf(c.in, "contents %s\n", h); err != nil {
		return plumbing.InvalidObject, nil, c.failed(err)
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return plumbing.InvalidObject, nil, c.failed(err)
	}
	fields := strings.Fields(header)
	switch {
	case len(fields) == 2 && fields[1] == "missing":
		return plumbing.InvalidObject, nil, fmt.Errorf("object %s: %w", h, plumbing.ErrObjectNotFound)
	case len(fields) != 3 || fields[0] != h.String():
		return plumbing.InvalidObject, nil, fmt.Errorf("git cat-file answered %q for object %s", strings.TrimSpace(header), h)
	}
	kind, err := plumbing.ParseObjectType(fields[1])
	size, serr := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || serr != nil || size < 0 {
		return plumbing.InvalidObject, nil, fmt.Errorf("git cat-file answered %q for object %s", strings.TrimSpace(header), h)
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, data); err != nil {
		return plumbing.InvalidObject, nil, c.failed(err)
	}
	if data[size] != '\n' {
		return plumbing.InvalidObject, nil, fmt.Errorf("git cat-file: object %s does not end where its size says", h)
	}
	return kind, data[:size], nil
}

// failed explains an error talking to git cat-file with what it said:
// the process has ended, or is ended.
func (c *catFile) failed(err error) error {
	if c.cmd != nil {
		c.in.Close()
		c.cmd.Wait()
		c.cmd = nil
	}
	if msg := strings.TrimSpace(c.stderr.String()); msg != "" {
		return fmt.Errorf("git cat-file: %s", msg)
	}
	return fmt.Errorf("git cat-file: %w", err)
}

// close ends the process: it exits when its input closes.
func (c *catFile) close() error {
	if c.cmd == nil {
		return nil
	}
	c.in.Close()
	err := c.cmd.Wait()
	c.cmd = nil
	if err != nil {
		return c.failed(err)
	}
	return nil
}
