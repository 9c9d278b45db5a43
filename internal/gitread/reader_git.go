package gitread

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
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
	git *Git
	// indexPath is the index file git reads; its cache tree is read from
	// it (git has no command that prints it).
	indexPath string
	batch     *catFile
	// listed and listedAll are the index as git lists it, for most scopes
	// and for every path (see index), read on first need.
	listed, listedAll *IndexFile
	// headID and headBranch are HEAD, read on first need.
	headRead   bool
	headID     plumbing.Hash
	headBranch string
}

func (g *gitReader) Name() string { return ReaderGit }

func (g *gitReader) Object(h plumbing.Hash, _ int64) (plumbing.ObjectType, []byte, []byte, error) {
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

// BlobSize is not known cheaply: the prefix proof is the fast reader's.
func (g *gitReader) BlobSize(plumbing.Hash) (int64, bool) { return 0, false }

func (g *gitReader) Head() (plumbing.Hash, string, error) {
	if g.headRead {
		return g.headID, g.headBranch, nil
	}
	ref, err := g.git.Line("symbolic-ref", "-q", "HEAD")
	switch {
	case ExitCode(err) == 1: // detached
		ref = ""
	case err != nil:
		return plumbing.ZeroHash, "", fmt.Errorf("reading HEAD: %w", err)
	}
	id, err := g.git.Line("rev-parse", "-q", "--verify", "HEAD^{commit}")
	switch {
	case ExitCode(err) == 1 && ref != "":
		// HEAD's branch has no commit yet.
	case err != nil:
		return plumbing.ZeroHash, "", fmt.Errorf("reading HEAD: %w", err)
	default:
		h, ok := ParseHex([]byte(id))
		if !ok {
			return plumbing.ZeroHash, "", fmt.Errorf("reading HEAD: git rev-parse printed %q", id)
		}
		g.headID = h
	}
	g.headRead, g.headBranch = true, ref
	return g.headID, g.headBranch, nil
}

// Index lists the index with git, once for the paths that may be governed
// and the files at the root (which serves every scope but All and the
// scopes whose Only or Policy paths name other paths, as for the fast
// reader), and again for the others.
func (g *gitReader) Index(scope Scope) (*IndexFile, error) {
	switch {
	case scope.All:
		if g.listedAll == nil {
			idx, err := g.listIndex(scope.contains)
			if err != nil {
				return nil, err
			}
			g.listedAll = idx
		}
		return g.listedAll, nil
	case scope.Only != nil && slices.ContainsFunc(scope.Only, outOfCommonScope),
		slices.ContainsFunc(scope.Policy, outOfCommonScope):
		return g.listIndex(scope.contains)
	}
	if g.listed == nil {
		idx, err := g.listIndex(inCommonScope[[]byte])
		if err != nil {
			return nil, err
		}
		g.listed = idx
	}
	return g.listed.within(scope), nil
}

func (g *gitReader) Twin() Reader {
	return &gitReader{git: g.git, indexPath: g.indexPath}
}

func (g *gitReader) Close() error {
	if g.batch == nil {
		return nil
	}
	err := g.batch.close()
	g.batch = nil
	return err
}

// emptyBlob is the id of the empty blob, which `git ls-files --stage`
// also shows for an intent-to-add entry.
var emptyBlob = plumbing.NewHash("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")

// ceIntentToAdd is git's in-memory flag of an intent-to-add entry, as
// `git ls-files --debug` prints it.
const ceIntentToAdd = 1 << 29

// listIndex reads the entries of the index with `git ls-files --stage
// --sparse -z`, keeping those whose paths keep accepts, and the cache tree
// from the index file, checked against every entry. The output is read as
// it comes: a large index costs no copy of it. A kept entry that shows the
// empty blob may be an intent-to-add entry, which git does not commit: git
// is asked for the flags of those few (`--debug`).
func (g *gitReader) listIndex(keep func([]byte) bool) (*IndexFile, error) {
	tree, err := cacheTreeOf(g.indexPath)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", g.indexPath, err)
	}
	out := &IndexFile{Tree: tree}
	var runs dirRuns
	var empty []string
	err = g.git.stream(func(r *bufio.Reader) error {
		var path, prev []byte
		prevStage := 0
		for i := uint32(0); ; i++ {
			var e IndexEntry
			var err error
			if path, err = readListed(r, &e, path[:0]); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			if err := inOrder(prev, prevStage, path, e.Stage, i); err != nil {
				return err
			}
			runs.add(path)
			switch {
			case e.Mode&modeTypeMask == modeDir:
				e.Path = string(path)
				out.Sparse = append(out.Sparse, e)
			case keep(path):
				e.Path = string(path)
				out.Entries = append(out.Entries, e)
				if e.Hash == emptyBlob {
					empty = append(empty, e.Path)
				}
			}
			prev, path = path, prev
			prevStage = e.Stage
		}
	}, "ls-files", "--stage", "--sparse", "-z")
	if err != nil {
		return nil, fmt.Errorf("reading the index %s: %w", g.indexPath, err)
	}
	runs.countInto(out.Tree)
	if err := verifyCacheTree(out.Tree); err != nil {
		return nil, fmt.Errorf("index %s: %w", g.indexPath, err)
	}
	if len(empty) > 0 {
		intents, err := g.intentsToAdd(empty)
		if err != nil {
			return nil, fmt.Errorf("reading the index %s: %w", g.indexPath, err)
		}
		out.Entries = slices.DeleteFunc(out.Entries, func(e IndexEntry) bool { return intents[e.Path] })
	}
	return out, nil
}

// readListed reads one entry of `git ls-files --stage -z`, "<mode> <id>
// <stage>\t<path>\0", into e and its path into path; io.EOF when there is
// none left.
func readListed(r *bufio.Reader, e *IndexEntry, path []byte) ([]byte, error) {
	head, err := r.ReadSlice('\t')
	if err == io.EOF && len(head) == 0 {
		return nil, io.EOF
	}
	if err != nil {
		return nil, fmt.Errorf("git ls-files: an entry cut short: %w", err)
	}
	// The mode in octal, a space, the id, a space, the stage, the tab.
	sp := bytes.IndexByte(head, ' ')
	var mode uint32
	for _, c := range head[:max(sp, 0)] {
		if c < '0' || c > '7' || mode > 1<<24 {
			sp = -1
			break
		}
		mode = mode<<3 | uint32(c-'0')
	}
	if sp <= 0 || len(head) != sp+2*hashLen+4 || head[sp+2*hashLen+1] != ' ' || head[sp+2*hashLen+2] < '0' || head[sp+2*hashLen+2] > '3' {
		return nil, fmt.Errorf("git ls-files: unexpected entry %q", head)
	}
	hash, ok := ParseHex(head[sp+1 : sp+1+2*hashLen])
	if !ok {
		return nil, fmt.Errorf("git ls-files: unexpected entry %q", head)
	}
	*e = IndexEntry{Hash: hash, Mode: mode, Stage: int(head[sp+2*hashLen+2] - '0')}
	for {
		chunk, err := r.ReadSlice(0)
		path = append(path, chunk...)
		if err == nil {
			return path[:len(path)-1], nil
		}
		if err != bufio.ErrBufferFull {
			return nil, fmt.Errorf("git ls-files: an entry cut short: %w", err)
		}
	}
}

// intentsToAdd returns which of paths are intent-to-add entries, from the
// flags `git ls-files --debug` prints: after each entry, five lines, the
// last ending in "flags: <hex>".
func (g *gitReader) intentsToAdd(paths []string) (map[string]bool, error) {
	args := []string{"--literal-pathspecs", "ls-files", "--stage", "-z", "--debug", "--"}
	out, err := g.git.Output(append(args, paths...)...)
	if err != nil {
		return nil, err
	}
	intents := map[string]bool{}
	for len(out) > 0 {
		head, rest, ok := bytes.Cut(out, []byte{0})
		_, path, tab := bytes.Cut(head, []byte{'\t'})
		if !ok || !tab {
			return nil, fmt.Errorf("git ls-files --debug: unexpected entry %q", head)
		}
		var flags uint64
		for i := 0; i < 5; i++ {
			line, after, found := bytes.Cut(rest, []byte{'\n'})
			if !found {
				return nil, fmt.Errorf("git ls-files --debug: the details of %s are cut short", path)
			}
			rest = after
			if i == 4 {
				_, text, found := bytes.Cut(line, []byte("flags: "))
				var err error
				if flags, err = strconv.ParseUint(string(text), 16, 64); !found || err != nil {
					return nil, fmt.Errorf("git ls-files --debug: unexpected details %q of %s", line, path)
				}
			}
		}
		if flags&ceIntentToAdd != 0 {
			intents[string(path)] = true
		}
		out = rest
	}
	return intents, nil
}

// cacheTreeOf reads the cache tree of the index file at path (nil when
// there is no index, or no cache tree).
func cacheTreeOf(path string) (*CacheTree, error) {
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

func startCatFile(git *Git) (*catFile, error) {
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
	data := newBody(int(size + 1))
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
