package agentguard

import (
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/shell"
)

// Refusal is a shell command the guard refuses, and why.
type Refusal struct {
	// Command is the command as the script runs it (its words).
	Command string
	// Why says what the command would switch off or rewrite.
	Why string
	// Instead says what to do instead.
	Instead string
}

// Repository is what judging a command needs to know of the repository it
// runs in. The judge asks only when a command needs the answer: most
// commands cost no git process.
type Repository interface {
	// Branch returns the branch checked out in dir ("" when HEAD is
	// detached or dir is in no repository).
	Branch(dir string) (string, error)
	// Protected says why branch may not be force-pushed or deleted on
	// remote, for the repository at dir ("" when it may): the remote's
	// default branch, or a branch push.protect in the trusted
	// .small-hook.yml names.
	Protected(dir, remote, branch string) (string, error)
	// Alias returns git's alias.<name> as git reads it in dir ("" when it
	// is not set).
	Alias(dir, name string) (string, error)
	// HooksDir returns the directory git runs dir's hooks from ("" when
	// dir is in no repository).
	HooksDir(dir string) (string, error)
}

// maxNesting bounds how deep the judge follows shells in shells and
// aliases in aliases.
const maxNesting = 8

// JudgeCommand returns the commands of script (run in dir) that the
// guard refuses, each once, in the order the script runs them.
func JudgeCommand(script, dir string, repo Repository) ([]Refusal, error) {
	j := &judge{repo: repo}
	j.script(script, dir, 0)
	return j.refusals, j.err
}

// judge gathers the refusals of one script.
type judge struct {
	repo     Repository
	refusals []Refusal
	err      error
}

func (j *judge) refuse(words []string, why, instead string) {
	r := Refusal{Command: strings.Join(words, " "), Why: why, Instead: instead}
	if !slices.Contains(j.refusals, r) {
		j.refusals = append(j.refusals, r)
	}
}

// fail records the first error a repository question returned: the
// command is then judged without the answer.
func (j *judge) fail(err error) {
	if j.err == nil {
		j.err = err
	}
}

// script judges every command of a script run in dir.
func (j *judge) script(script, dir string, depth int) {
	if depth > maxNesting {
		return
	}
	for _, c := range shell.Parse(script) {
		dir = j.command(c, dir, depth)
	}
}

// command judges one simple command run in dir and returns the directory
// the next command runs in (cd changes it).
func (j *judge) command(c shell.Command, dir string, depth int) string {
	j.environment(c.Assign, c.Args)
	for _, out := range c.Outputs {
		j.path(out, dir, c.Args, "writes")
	}
	env, args := unwrap(c.Args)
	j.environment(env, c.Args)
	if len(args) == 0 {
		return dir
	}
	name := commandName(args[0])
	switch {
	case name == "git":
		j.git(args[1:], dir, nil, depth)
	case name == "cd" && len(args) == 2 && !strings.HasPrefix(args[1], "-"):
		return resolve(dir, args[1])
	case name == "export" || name == "declare" || name == "typeset" || name == "readonly" || name == "local":
		j.environment(args[1:], args)
	case name == "eval":
		j.script(strings.Join(args[1:], " "), dir, depth+1)
	case shells[name]:
		if script, ok := shellScript(args[1:]); ok {
			j.script(script, dir, depth+1)
		} else {
			for _, body := range c.Heredocs {
				j.script(body, dir, depth+1)
			}
		}
	case name == "small-hook" && slices.Contains(args[1:], "uninstall"):
		j.refuse(args, "small-hook uninstall removes the git hooks that check every commit and push", "leave small-hook installed; if it must go, a human removes it")
	case name == "pre-commit" && slices.Contains(args[1:], "uninstall"):
		j.refuse(args, "pre-commit uninstall removes the git hooks that run small-hook's checks", "leave the hooks installed; if they must go, a human removes them")
	default:
		j.mutation(name, args, dir)
	}
	return dir
}

// shells are the shells whose -c script, or here-document, is judged as a
// script of its own.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true, "mksh": true}

// shellScript returns the script a shell runs with -c (its options may
// be clustered: -lc, -ec).
func shellScript(args []string) (string, bool) {
	for i, a := range args {
		switch {
		case a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return "", false
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			// the next word is an option's name
		case !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'c'):
			for _, s := range args[i+1:] {
				if !strings.HasPrefix(s, "-") || s == "-" {
					return s, true
				}
			}
			return "", false
		}
	}
	return "", false
}

// commandName is a command's name without its directory and without
// .exe: /usr/bin/git and git.exe are git.
func commandName(word string) string {
	return strings.TrimSuffix(path.Base(filepath.ToSlash(word)), ".exe")
}

// resolve returns p taken from dir.
func resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// wrappers are the commands that run the command their arguments name,
// and the options of each that take a value.
var wrappers = map[string]map[string]bool{
	"env":     {"-u": true, "--unset": true, "-C": true, "--chdir": true, "-S": true, "--split-string": true},
	"command": {},
	"builtin": {},
	"exec":    {"-a": true},
	"nohup":   {},
	"time":    {"-f": true, "--format": true, "-o": true, "--output": true},
	"sudo":    {"-u": true, "-g": true, "-h": true, "-p": true, "-C": true, "-D": true, "-r": true, "-t": true, "-U": true, "-T": true, "-R": true},
	"nice":    {"-n": true, "--adjustment": true},
	"timeout": {"-k": true, "--kill-after": true, "-s": true, "--signal": true},
	"xargs":   {"-a": true, "-d": true, "-E": true, "-I": true, "-L": true, "-n": true, "-P": true, "-s": true, "--arg-file": true, "--delimiter": true, "--max-args": true, "--max-procs": true, "--max-chars": true, "--replace": true},
	"stdbuf":  {"-i": true, "-o": true, "-e": true},
	"doas":    {"-u": true, "-C": true},
}

// unwrap returns the command a chain of wrappers runs (env git …, sudo
// -u x git …, timeout 10 git …) and the assignments env makes on the way;
// no command for command -v, which runs none.
func unwrap(args []string) (env, inner []string) {
	for len(args) > 0 {
		name := commandName(args[0])
		opts, ok := wrappers[name]
		if !ok {
			return env, args
		}
		i := 1
	options:
		for i < len(args) {
			a := args[i]
			switch {
			case a == "--":
				i++
				break options
			case name == "command" && (a == "-v" || a == "-V"):
				return env, nil
			case name == "env" && strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
				env = append(env, a)
				i++
			case strings.HasPrefix(a, "-") && a != "-":
				i++
				if opts[a] {
					i++
				}
			default:
				if name == "timeout" {
					i++ // the duration
				}
				break options
			}
		}
		args = args[min(i, len(args)):]
	}
	return env, args
}

// environment judges assignments (NAME=value) a command makes.
func (j *judge) environment(assigns, words []string) {
	for _, a := range assigns {
		name, value, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, "+")
		switch {
		case name == "SKIP":
			for _, id := range strings.Split(value, ",") {
				if strings.HasPrefix(strings.TrimSpace(id), "small-hook") {
					j.refuse(words, "SKIP="+value+" makes the pre-commit framework skip small-hook's hook "+strings.TrimSpace(id)+", which checks what the commit or push does to governed files", "run the command without naming small-hook's hooks in SKIP")
					break
				}
			}
		case name == "SMALL_HOOK_ACTOR" && strings.EqualFold(strings.TrimSpace(value), "human"):
			j.refuse(words, "SMALL_HOOK_ACTOR=human claims that a human makes the change; an agent never claims to be human", "run the command without SMALL_HOOK_ACTOR (or with SMALL_HOOK_ACTOR=agent)")
		case name == "SMALL_HOOK_REWRITE" && strings.TrimSpace(value) != "":
			j.refuse(words, "SMALL_HOOK_REWRITE marks a rewrite of governed history as intended, which only a human decides", "leave the history as it is and record a correction as a new entry; ask a human if history must be rewritten")
		case name == "GIT_CONFIG_PARAMETERS" && strings.Contains(strings.ToLower(value), "hookspath"),
			strings.HasPrefix(name, "GIT_CONFIG_KEY_") && isHooksPath(value):
			j.refuse(words, name+" sets core.hooksPath for git, which moves the hooks git runs away from small-hook's", "run the command without setting core.hooksPath")
		}
	}
}

// claim matches a line of a commit message that claims a human or an
// intended rewrite, as a trailer (Key: value) or as --trailer writes it
// (Key=value).
var claim = regexp.MustCompile(`(?im)^[ \t]*(small-actor[ \t]*[:=][ \t]*human\b|small-rewrite[ \t]*[:=])`)

// claims judges the texts a commit message is made of.
func (j *judge) claims(words, texts []string) {
	for _, t := range texts {
		m := claim.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(m[1])), "small-actor") {
			j.refuse(words, "the message claims Small-Actor: human; an agent never claims to be human", "commit without the Small-Actor: human trailer (an agent's commit may say Small-Actor: agent)")
		} else {
			j.refuse(words, "the message gives a Small-Rewrite trailer, which marks a rewrite of governed history as intended: only a human decides that", "commit without the Small-Rewrite trailer; leave the history as it is and record a correction as a new entry")
		}
	}
}

// mutators are the commands that change or remove the files their
// operands name (for cp, install and ln, the last operand).
var mutators = map[string]bool{
	"rm": true, "rmdir": true, "unlink": true, "shred": true, "mv": true, "chmod": true, "chown": true,
	"truncate": true, "tee": true, "cp": true, "install": true, "ln": true, "sed": true, "perl": true,
}

// mutation judges a command that may change git's hooks or configuration.
func (j *judge) mutation(name string, args []string, dir string) {
	if !mutators[name] {
		return
	}
	var operands []string
	inPlace := false
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			inPlace = inPlace || strings.HasPrefix(a, "-i") || a == "--in-place"
			continue
		}
		operands = append(operands, a)
	}
	switch name {
	case "sed", "perl":
		if !inPlace {
			return
		}
	case "cp", "install", "ln":
		if len(operands) > 0 {
			operands = operands[len(operands)-1:]
		}
	}
	for _, o := range operands {
		j.path(o, dir, args, "changes")
	}
}

// hookNames are the hooks small-hook installs, by name.
var hookNames = map[string]bool{"pre-commit": true, "commit-msg": true, "pre-push": true, "pre-receive": true}

// path judges a file a command writes or changes: git's hooks and git's
// configuration are out of bounds.
func (j *judge) path(p, dir string, words []string, verb string) {
	slash := filepath.ToSlash(p)
	switch {
	case strings.Contains("/"+slash+"/", "/.git/hooks/"):
		j.refuse(words, "the command "+verb+" "+p+", one of git's hooks, which run small-hook's checks", "leave git's hooks as they are")
		return
	case strings.HasSuffix("/"+slash, "/.git/config") || strings.HasSuffix("/"+slash, "/.git/config.worktree"):
		j.refuse(words, "the command "+verb+" "+p+", git's configuration, which decides where git runs hooks from (core.hooksPath)", "leave git's configuration as it is")
		return
	}
	if !hookNames[path.Base(slash)] && !hookNames[strings.TrimSuffix(path.Base(slash), ".small-hook-chained")] {
		return
	}
	hooks, err := j.repo.HooksDir(dir)
	if err != nil {
		j.fail(err)
		return
	}
	if hooks != "" && filepath.Dir(resolve(dir, p)) == filepath.Clean(hooks) {
		j.refuse(words, "the command "+verb+" "+p+", one of the hooks git runs (core.hooksPath is "+hooks+"), which run small-hook's checks", "leave git's hooks as they are")
	}
}
