package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/hooks"
	"github.com/small-hook/small-hook/internal/agentguard"
	"github.com/small-hook/small-hook/internal/agenthooks"
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/workspace"
	"github.com/small-hook/small-hook/rules"
)

// guardCmd is `small-hook guard`: a coding agent's pre-tool hook. It reads
// the tool call the agent is about to make on standard input and refuses
// (exit 2, the reason on standard error, which the agent reads) a write
// the commit would be refused for, or a command that switches the checks
// off or rewrites governed history. A courtesy layer: the git hooks, CI
// and the server remain the guarantee (docs/agents.md).
type guardCmd struct {
	Agent string `help:"The agent whose pre-tool hook runs the guard: ${agents}." enum:"${agent_enum}" default:"claude"`
}

// The guard's exit codes, as the agents' hook contracts read them: 2
// blocks the call and shows standard error to the model; any other code
// lets it run (1 shows the error to the user).
const (
	exitAllowed       = exitOK
	exitCouldNotJudge = exitFindings
	exitRefused       = exitFailure
)

// maxHookInput bounds the hook input the guard reads: a write's content
// travels in it.
const maxHookInput = 256 << 20

func (g *guardCmd) run(e *env) (int, error) {
	agent, ok := agentguard.Lookup(g.Agent)
	if !ok {
		return exitFailure, &usageError{fmt.Sprintf("--agent %s: the guard serves %s", g.Agent, strings.Join(agentguard.Names(), ", "))}
	}
	data, err := readHookInput(e)
	if err != nil {
		return exitCouldNotJudge, err
	}
	call, judged, err := agent.Decode(data, e.dir)
	if err != nil {
		return exitCouldNotJudge, err
	}
	if !judged {
		return exitAllowed, nil
	}
	var refusal string
	if call.Change == nil {
		refusal, err = guardCommand(e, call)
	} else {
		refusal, err = guardWrite(e, call)
	}
	if refusal != "" {
		if _, werr := io.WriteString(e.stderr, e.out.text(refusal)); werr != nil {
			return exitRefused, fmt.Errorf("writing the refusal: %w", werr)
		}
		return exitRefused, nil
	}
	if err != nil {
		return exitCouldNotJudge, err
	}
	return exitAllowed, nil
}

// readHookInput reads what the agent's hook hands the guard.
func readHookInput(e *env) ([]byte, error) {
	if e.stdin == nil {
		return nil, errors.New("no hook input on standard input")
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, maxHookInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading the hook input: %w", err)
	}
	if len(data) > maxHookInput {
		return nil, fmt.Errorf("the hook input is larger than %d MiB", maxHookInput>>20)
	}
	return data, nil
}

// guardCommand judges a shell command: the refusal to print, or "".
func guardCommand(e *env, call agentguard.Call) (string, error) {
	repos := newGuardRepos(e)
	defer repos.close()
	refusals, err := agentguard.JudgeCommand(call.Command, call.Dir, repos)
	if len(refusals) == 0 {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "small-hook refused this %s command:\n", call.Tool)
	for _, r := range refusals {
		fmt.Fprintf(&b, "%s: %s\n  instead: %s\n", r.Command, r.Why, r.Instead)
	}
	return b.String(), nil
}

// proposal is the write the guard judges: the file (slash-separated,
// relative to the work tree's root), the work tree as the write would
// leave it, and the agent that makes it.
type proposal struct {
	path  string
	after changes.Snapshot
	actor attribution.Verdict
}

// guardWrite judges a file write: the refusal to print, or "". Only a
// path some rule could judge is read: a candidate for protocol state, a
// policy file, any file when secrets.scope is staged.
func guardWrite(e *env, call agentguard.Call) (string, error) {
	file := call.Path
	if !filepath.IsAbs(file) {
		file = filepath.Join(call.Dir, file)
	}
	real, err := realPath(file)
	if err != nil {
		return "", err
	}
	what := call.Tool + " of " + file
	if insideGitDir(real) {
		return fmt.Sprintf("small-hook refused this %s: it writes inside a git directory (its hooks and configuration decide whether small-hook's checks run)\n  instead: leave git's own files as they are\n", what), nil
	}
	if refusal, err := settingsWrite(call, real, what); refusal != "" || err != nil {
		return refusal, err
	}
	root := workTreeOf(filepath.Dir(real))
	if root == "" {
		return "", nil // no repository governs the file
	}
	rel, err := filepath.Rel(root, real)
	if err != nil {
		return "", err
	}
	rel = filepath.ToSlash(rel)
	what = call.Tool + " of " + rel
	if refusal, err := hookWrite(e, root, real, what); refusal != "" || err != nil {
		return refusal, err
	}
	repo, err := gitdiff.Open(root, gitdiff.Options{Getenv: fileEnv(e.getenv), NoIndex: true})
	if err != nil {
		return "", err
	}
	defer repo.Close()
	tgt := target{mode: changes.ModeStaged}
	cfg, err := trustedConfig(repo, tgt)
	if err != nil {
		return "", err
	}
	if !workspace.Candidate(rel) && !slices.Contains(cfg.PolicyFiles(), rel) && cfg.Secrets.Scope != "staged" {
		return "", nil
	}
	before, err := readCurrent(real)
	if err != nil {
		return "", err
	}
	after, err := call.Change.Apply(before)
	var failure *agentguard.ToolFailure
	if errors.As(err, &failure) {
		return cannotJudge(call, what, failure), nil
	}
	if err != nil {
		return "", err
	}
	tgt.proposed = &proposal{
		path:  rel,
		after: &agentguard.Proposed{Root: root, Path: rel, Data: after},
		actor: attribution.Verdict{Actor: attribution.Agent, Evidence: call.Agent.Title + "'s " + call.Tool + " tool, judged before it writes"},
	}
	res, err := (&checkCmd{Repo: root}).judge(e, repo, tgt, nil)
	if err != nil {
		return "", err
	}
	return refusalOf(what, res.Findings, cfg), nil
}

// fileEnv is the environment a write is judged in: the file's own
// repository is found from its path, never from GIT_DIR and the like the
// agent's session may have set.
func fileEnv(getenv func(string) string) func(string) string {
	return func(k string) string {
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES":
			return ""
		}
		return getenv(k)
	}
}

// trustedConfig is the configuration the staged check trusts: HEAD's.
func trustedConfig(repo *gitdiff.Repo, tgt target) (*config.Config, error) {
	blobs, err := readTrusted(repo, tgt, config.FileName)
	if err != nil {
		return nil, fmt.Errorf("reading %s from %s: %w", config.FileName, tgt.trustedName(), err)
	}
	return loadConfig(dataOf(blobs[config.FileName]), tgt.configName(config.FileName))
}

// refusalOf is the refusal of a write whose findings hold errors, or ""
// when they hold none. small/required is left out: a workspace is written
// file by file, and one write cannot hold all five.
func refusalOf(what string, findings []rules.Finding, cfg *config.Config) string {
	var b strings.Builder
	said := map[string]bool{}
	for _, f := range findings {
		if f.Severity != rules.Error || f.Rule == "small/required" {
			continue
		}
		if b.Len() == 0 {
			fmt.Fprintf(&b, "small-hook refused this %s: the commit would fail small-hook's check.\n", what)
		}
		loc := f.Path
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line)
		}
		fmt.Fprintf(&b, "%s: %s: %s\n", loc, f.Rule, f.Message)
		advice := agentguard.Advice(f.Rule, f.Path, slices.Contains(cfg.PolicyFiles(), f.Path))
		if advice == "" {
			advice = f.Hint
		}
		if advice != "" && !said[advice] {
			said[advice] = true
			fmt.Fprintf(&b, "  instead: %s\n", advice)
		}
	}
	return b.String()
}

// cannotJudge is the refusal of a write to a file small-hook judges that
// cannot be computed: the tool fails on it (and would say so), or would
// ask the model to correct it.
func cannotJudge(call agentguard.Call, what string, f *agentguard.ToolFailure) string {
	how := "the " + call.Tool + " tool fails on this call as it stands"
	if f.Guessed {
		how = call.Agent.Title + " would ask the model to correct this call, and what it would then write cannot be judged"
	}
	return fmt.Sprintf("small-hook refused this %s: %s. small-hook judges every write to this file exactly as the tool makes it, and %s.\n  instead: read the file again and repeat the call with its exact text\n", what, f.Reason, how)
}

// realPath returns the file a write to file lands in: every link of the
// part of the path that exists followed, as the operating system follows
// it for the tool.
func realPath(file string) (string, error) {
	for hops := 0; hops <= 40; hops++ {
		dir := existingReal(filepath.Dir(file))
		p := filepath.Join(dir, filepath.Base(file))
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("reading the link %s: %w", p, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		file = target
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", file)
}

// existingReal returns dir with the links of its longest existing prefix
// resolved.
func existingReal(dir string) string {
	var rest []string
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join(append([]string{dir}, rest...)...)
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
		dir = parent
	}
}

// insideGitDir reports a path that is, or lies inside, a git directory:
// a .git (directory, or a linked worktree's .git file), or a directory
// that holds HEAD, objects and refs (a bare repository, a linked
// worktree's git directory).
func insideGitDir(path string) bool {
	for d := path; ; d = filepath.Dir(d) {
		if strings.EqualFold(filepath.Base(d), ".git") || isGitDirectory(d) {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

func isGitDirectory(d string) bool {
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, name)); err != nil {
			return false
		}
	}
	return true
}

// workTreeOf returns the root of the work tree that holds dir: the
// nearest directory, dir or above it, with a .git; "" for none.
func workTreeOf(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// hookWrite refuses a write to one of the hooks git runs when
// core.hooksPath points into the work tree.
func hookWrite(e *env, root, real, what string) (string, error) {
	name := strings.TrimSuffix(filepath.Base(real), ".small-hook-chained")
	if !slices.Contains(append(hooks.Names(), "pre-receive"), name) {
		return "", nil
	}
	dir, err := hooks.Dir(root, fileEnv(e.getenv))
	if err != nil {
		return "", err
	}
	if filepath.Dir(real) != existingReal(dir.Path) {
		return "", nil
	}
	return fmt.Sprintf("small-hook refused this %s: it is one of the hooks git runs (core.hooksPath is %s), which run small-hook's checks\n  instead: leave git's hooks as they are\n", what, dir.Path), nil
}

// settingsWrite refuses a write to an agent's settings file (a
// project's or a user's) that takes small-hook's guard out of it.
func settingsWrite(call agentguard.Call, real, what string) (string, error) {
	dir, name := filepath.Base(filepath.Dir(real)), filepath.Base(real)
	if dir != ".claude" && dir != ".gemini" || name != "settings.json" && name != "settings.local.json" {
		return "", nil
	}
	before, err := readCurrent(real)
	if err != nil || before == nil || !agenthooks.Guarded(before) {
		return "", err
	}
	after, err := call.Change.Apply(before)
	if err != nil || agenthooks.Guarded(after) {
		return "", nil // a call the tool fails on writes nothing
	}
	return fmt.Sprintf("small-hook refused this %s: it takes small-hook's guard out of the agent's settings, which switches the guard off\n  instead: leave the guard's hook as it is; a human removes it (small-hook uninstall --agent)\n", what), nil
}

// readCurrent returns the file as it stands, nil when it does not exist.
func readCurrent(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return os.ReadFile(path)
}
