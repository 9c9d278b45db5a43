package agentguard

import (
	"strings"

	"github.com/small-hook/small-hook/internal/shell"
)

// The options of the git commands the guard judges, as git 2.39 declares
// them (git <command> -h); an option git does not know makes the command
// fail, and a failing command is not judged.
var (
	commitOptions = optionSpec{
		long: map[string]arity{
			"quiet": flag, "verbose": flag, "file": required, "author": required, "date": required,
			"message": required, "reedit-message": required, "reuse-message": required, "fixup": required,
			"squash": required, "reset-author": flag, "trailer": required, "signoff": flag, "template": required,
			"edit": flag, "cleanup": required, "status": flag, "gpg-sign": optional, "all": flag, "include": flag,
			"interactive": flag, "patch": flag, "only": flag, "no-verify": flag, "dry-run": flag, "short": flag,
			"branch": flag, "ahead-behind": flag, "porcelain": flag, "long": flag, "null": flag, "amend": flag,
			"no-post-rewrite": flag, "untracked-files": optional, "pathspec-from-file": required,
			"pathspec-file-nul": flag, "allow-empty": flag, "allow-empty-message": flag,
		},
		short: map[byte]string{
			'q': "quiet", 'v': "verbose", 'F': "file", 'm': "message", 'c': "reedit-message", 'C': "reuse-message",
			's': "signoff", 't': "template", 'e': "edit", 'S': "gpg-sign", 'a': "all", 'i': "include", 'p': "patch",
			'o': "only", 'n': "no-verify", 'z': "null", 'u': "untracked-files",
		},
	}
	mergeOptions = optionSpec{
		long: map[string]arity{
			"\x00n": flag, "stat": flag, "summary": flag, "log": optional, "squash": flag, "commit": flag, "edit": flag,
			"cleanup": required, "ff": flag, "ff-only": flag, "rerere-autoupdate": flag, "verify-signatures": flag,
			"strategy": required, "strategy-option": required, "message": required, "file": required,
			"into-name": required, "verbose": flag, "quiet": flag, "abort": flag, "quit": flag, "continue": flag,
			"allow-unrelated-histories": flag, "progress": flag, "gpg-sign": optional, "autostash": flag,
			"overwrite-ignore": flag, "signoff": flag, "no-verify": flag,
		},
		short: map[byte]string{'n': "\x00n", 'e': "edit", 's': "strategy", 'X': "strategy-option", 'm': "message", 'F': "file", 'v': "verbose", 'q': "quiet", 'S': "gpg-sign"},
	}
	pushOptions = optionSpec{
		long: map[string]arity{
			"verbose": flag, "quiet": flag, "repo": required, "all": flag, "branches": flag, "mirror": flag,
			"delete": flag, "tags": flag, "dry-run": flag, "porcelain": flag, "force": flag,
			"force-with-lease": optional, "force-if-includes": flag, "recurse-submodules": required, "thin": flag,
			"receive-pack": required, "exec": required, "set-upstream": flag, "progress": flag, "prune": flag,
			"no-verify": flag, "follow-tags": flag, "signed": optional, "atomic": flag, "push-option": required,
			"ipv4": flag, "ipv6": flag,
		},
		short: map[byte]string{'v': "verbose", 'q': "quiet", 'd': "delete", 'n': "dry-run", 'f': "force", 'u': "set-upstream", 'o': "push-option", '4': "ipv4", '6': "ipv6"},
	}
	replaceOptions = optionSpec{
		long:  map[string]arity{"list": flag, "delete": flag, "edit": flag, "graft": flag, "convert-graft-file": flag, "force": flag, "raw": flag, "format": required},
		short: map[byte]string{'l': "list", 'd': "delete", 'e': "edit", 'g': "graft", 'f': "force"},
	}
	updateRefOptions = optionSpec{
		long:  map[string]arity{"\x00m": required, "\x00d": flag, "no-deref": flag, "\x00z": flag, "stdin": flag, "create-reflog": flag},
		short: map[byte]string{'m': "\x00m", 'd': "\x00d", 'z': "\x00z"},
	}
	configOptions = optionSpec{
		long: map[string]arity{
			"global": flag, "system": flag, "local": flag, "worktree": flag, "file": required, "blob": required,
			"get": flag, "get-all": flag, "get-regexp": flag, "get-urlmatch": flag, "replace-all": flag, "add": flag,
			"unset": flag, "unset-all": flag, "rename-section": flag, "remove-section": flag, "list": flag,
			"fixed-value": flag, "edit": flag, "get-color": flag, "get-colorbool": flag, "type": required,
			"bool": flag, "int": flag, "bool-or-int": flag, "bool-or-str": flag, "path": flag, "expiry-date": flag,
			"null": flag, "name-only": flag, "includes": flag, "show-origin": flag, "show-scope": flag,
			"default": required, "all": flag, "value": required, "comment": required, "regexp": flag, "url": required,
		},
		short: map[byte]string{'f': "file", 'l': "list", 'e': "edit", 'z': "null"},
	}
)

// builtins are git's own commands: an alias of the same name is never
// used, so only another name is looked up as an alias.
var builtins = setOf(strings.Fields(`add am annotate apply archive bisect blame branch bugreport bundle cat-file
	check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick citool clean
	clone column commit commit-graph commit-tree config count-objects credential describe diff diff-files diff-index
	diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref
	for-each-repo format-patch fsck gc get-tar-commit-id grep gui hash-object help hook index-pack init instaweb
	interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file
	merge-index merge-tree mergetool mktag mktree multi-pack-index mv notes pack-objects pack-refs prune pull push
	range-diff read-tree rebase receive-pack reflog remote repack replace rerere reset restore rev-list rev-parse
	revert rm send-email send-pack shortlog show show-branch show-index show-ref sparse-checkout stash status
	stripspace submodule switch symbolic-ref tag unpack-objects update-index update-ref update-server-info
	upload-pack var verify-commit verify-pack verify-tag whatchanged worktree write-tree`)...)

// setOf returns the set of words.
func setOf(words ...string) map[string]bool {
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

// gitGlobalValue are git's options before the command that take the next
// argument as their value.
var gitGlobalValue = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true, "--config-env": true, "--super-prefix": true, "--attr-source": true, "--shallow-file": true}

// git judges `git args…` run in dir; aliases are the aliases that git -c
// options defined on the way.
func (j *judge) git(args []string, dir string, aliases map[string]string, depth int) {
	if depth > maxNesting {
		return
	}
	words := append([]string{"git"}, args...)
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		a := args[i]
		if a == "-h" || a == "--help" || a == "--version" {
			return
		}
		name, value, attached := strings.Cut(a, "=")
		if name == "-C" || name == "-c" {
			name, attached = a, false // their value is always the next argument
		}
		if !gitGlobalValue[name] {
			continue
		}
		if !attached {
			if i+1 == len(args) {
				return
			}
			i++
			value = args[i]
		}
		switch name {
		case "-C":
			dir = resolve(dir, value)
		case "-c":
			key, val, _ := strings.Cut(value, "=")
			if strings.EqualFold(key[:min(6, len(key))], "alias.") {
				if aliases == nil {
					aliases = map[string]string{}
				}
				aliases[strings.ToLower(key[6:])] = val
			}
			j.configSet(words, key, val, dir, "git -c", depth)
		case "--config-env":
			j.gitConfigEnv(words, value)
		}
	}
	if i == len(args) {
		return
	}
	command, rest := args[i], args[i+1:]
	if !builtins[command] {
		j.alias(words, command, rest, dir, aliases, depth)
		return
	}
	switch command {
	case "commit":
		j.commit(words, commitOptions.parse(rest))
	case "merge":
		j.merge(words, mergeOptions.parse(rest))
	case "push":
		j.push(words, pushOptions.parse(rest), dir)
	case "replace":
		j.replace(words, replaceOptions.parse(rest))
	case "update-ref":
		j.updateRef(words, updateRefOptions.parse(rest), dir)
	case "config":
		j.config(words, configOptions.parse(rest), dir, depth)
	}
}

// gitConfigEnv judges --config-env=name=envvar, which sets name.
func (j *judge) gitConfigEnv(words []string, spec string) {
	key, _, _ := strings.Cut(spec, "=")
	if isHooksPath(key) {
		j.refuse(words, "--config-env sets core.hooksPath for this command, which moves the hooks git runs away from small-hook's", "run the command without setting core.hooksPath")
	}
}

// alias judges a command that is not git's own: an alias, when one is set.
func (j *judge) alias(words []string, name string, rest []string, dir string, aliases map[string]string, depth int) {
	value, ok := aliases[strings.ToLower(name)]
	if !ok {
		var err error
		if value, err = j.repo.Alias(dir, name); err != nil {
			j.fail(err)
			return
		}
	}
	if value == "" {
		return
	}
	inner := &judge{repo: j.repo}
	if script, ok := strings.CutPrefix(value, "!"); ok {
		inner.script(script+" "+strings.Join(rest, " "), dir, depth+1)
	} else if cmds := shell.Parse(value); len(cmds) > 0 {
		inner.git(append(cmds[0].Args, rest...), dir, aliases, depth+1)
	}
	j.fail(inner.err)
	for _, r := range inner.refusals {
		j.refuse(words, "git "+name+" is an alias for "+strings.TrimSpace(value)+": "+r.Why, r.Instead)
	}
}

// commit judges git commit: hooks skipped, a human or a rewrite claimed.
func (j *judge) commit(words []string, p parsedArgs) {
	if p.bad {
		return
	}
	if o, ok := p.last("no-verify"); ok && !o.negated {
		j.refuse(words, "--no-verify (-n) skips the pre-commit and commit-msg hooks, which check what the commit does to governed files", "run the same git commit without --no-verify (-n); if a hook refuses the commit, fix what it reports")
	}
	j.claims(words, append(p.values("message"), p.values("trailer")...))
}

// merge judges git merge: hooks skipped, a human or a rewrite claimed.
func (j *judge) merge(words []string, p parsedArgs) {
	if p.bad {
		return
	}
	if o, ok := p.last("no-verify"); ok && !o.negated {
		j.refuse(words, "--no-verify skips the commit-msg hook, which checks what the merge commit does to governed files", "run the same git merge without --no-verify")
	}
	j.claims(words, p.values("message"))
}

// push judges git push: the pre-push hook skipped, a protected branch
// force-pushed or deleted. A dry run changes nothing.
func (j *judge) push(words []string, p parsedArgs, dir string) {
	if p.bad || p.has("dry-run") {
		return
	}
	if o, ok := p.last("no-verify"); ok && !o.negated {
		j.refuse(words, "--no-verify skips the pre-push hook, which checks every commit the push sends", "push without --no-verify")
	}
	remote := "origin"
	refspecs := p.operands
	if len(refspecs) > 0 {
		remote, refspecs = refspecs[0], refspecs[1:]
	}
	if repo := p.values("repo"); len(repo) > 0 {
		remote = repo[len(repo)-1]
	}
	if p.has("mirror") {
		j.refuse(words, "--mirror force-updates and deletes every ref of "+remote+" to match this repository, its default branch included", "push your branch by name: git push "+remote+" HEAD:refs/heads/<new-branch>")
		return
	}
	force := p.has("force") || p.has("force-with-lease")
	deleting := p.has("delete")
	type target struct {
		branch          string
		forced, deleted bool
	}
	var targets []target
	current := func() string {
		b, err := j.repo.Branch(dir)
		if err != nil {
			j.fail(err)
		}
		return b
	}
	if len(refspecs) == 0 && (force || deleting) {
		if p.has("all") || p.has("branches") {
			j.refuse(words, "a forced push of --all rewrites every branch of "+remote+", its default branch included", "push your own branch without --force: git push "+remote+" HEAD:refs/heads/<new-branch>")
			return
		}
		targets = append(targets, target{branch: current(), forced: force})
	}
	for _, spec := range refspecs {
		plus := strings.HasPrefix(spec, "+")
		spec = strings.TrimPrefix(spec, "+")
		src, dst, colon := strings.Cut(spec, ":")
		if !colon {
			dst = src
		}
		if dst == "HEAD" || dst == "" && !colon {
			dst = current()
		}
		branch, ok := strings.CutPrefix(dst, "refs/heads/")
		if !ok && strings.HasPrefix(dst, "refs/") {
			continue
		}
		if !ok {
			branch = dst
		}
		targets = append(targets, target{branch: branch, forced: force || plus, deleted: deleting || colon && src == ""})
	}
	for _, t := range targets {
		if t.branch == "" || !t.forced && !t.deleted {
			continue
		}
		why, err := j.repo.Protected(dir, remote, t.branch)
		if err != nil {
			j.fail(err)
			continue
		}
		if why == "" {
			continue
		}
		what := "force-pushing"
		if t.deleted {
			what = "deleting"
		}
		j.refuse(words, what+" "+t.branch+" ("+why+") rewrites history that every clone and every later check rests on", "push to a new branch instead (git push "+remote+" HEAD:refs/heads/<new-branch>) and open a pull request; rewriting "+t.branch+" is a human's decision")
	}
}

// replace judges git replace: anything but listing or deleting
// replacements.
func (j *judge) replace(words []string, p parsedArgs) {
	if p.bad || p.has("list") || p.has("delete") || len(p.options) == 0 && len(p.operands) == 0 {
		return
	}
	j.refuse(words, "git replace makes git show another object in place of a commit or a tree, so what people and tools read is no longer the history that was committed", "leave the history as it is; correct a file with a new commit")
}

// updateRef judges git update-ref of a replacement ref or of a protected
// branch.
func (j *judge) updateRef(words []string, p parsedArgs, dir string) {
	if p.bad || p.has("stdin") || len(p.operands) == 0 {
		return
	}
	ref := p.operands[0]
	if strings.HasPrefix(ref, "refs/replace/") {
		j.refuse(words, "a ref under refs/replace/ makes git show another object in place of a commit or a tree", "leave the history as it is; correct a file with a new commit")
		return
	}
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if ref == "HEAD" {
		if p.has("no-deref") {
			return
		}
		b, err := j.repo.Branch(dir)
		if err != nil {
			j.fail(err)
			return
		}
		branch, ok = b, b != ""
	}
	if !ok {
		return
	}
	why, err := j.repo.Protected(dir, "origin", branch)
	if err != nil {
		j.fail(err)
		return
	}
	if why != "" {
		j.refuse(words, "git update-ref moves "+branch+" ("+why+") to any commit, outside the commits and pushes every check judges", "work on a new branch and change it with commits (git switch -c <new-branch>)")
	}
}

// config judges git config: a change to core.hooksPath, an include, or an
// alias that runs what the guard refuses.
func (j *judge) config(words []string, p parsedArgs, dir string, depth int) {
	if p.bad {
		return
	}
	ops := p.operands
	sub := ""
	if len(ops) > 0 {
		switch ops[0] {
		case "set", "unset", "get", "list", "edit", "rename-section", "remove-section":
			sub, ops = ops[0], ops[1:]
		}
	}
	switch {
	case sub == "rename-section" || sub == "remove-section" || p.has("rename-section") || p.has("remove-section"):
		if len(ops) > 0 && guardedSection(ops[0]) {
			j.refuse(words, "the command removes or renames the "+ops[0]+" section of git's configuration, which holds where git runs hooks from", "leave git's configuration as it is")
		}
	case len(ops) == 0, sub == "get", sub == "list", p.has("get"), p.has("get-all"), p.has("get-regexp"), p.has("get-urlmatch"), p.has("list"):
	case sub == "unset" || p.has("unset") || p.has("unset-all"):
		j.configSet(words, ops[0], "", dir, "git config --unset", depth)
	case sub == "set" && len(ops) >= 2, sub == "" && len(ops) >= 2:
		j.configSet(words, ops[0], ops[1], dir, "git config", depth)
	}
}

// guardedSection reports a configuration section whose removal changes
// where git runs hooks from.
func guardedSection(section string) bool {
	s := strings.ToLower(section)
	return s == "core" || s == "include" || strings.HasPrefix(s, "includeif")
}

// isHooksPath reports a configuration key that is core.hooksPath (section
// and name are case-insensitive).
func isHooksPath(key string) bool {
	return strings.EqualFold(strings.TrimSpace(key), "core.hooksPath")
}

// configSet judges setting (or, with an empty value from --unset,
// removing) the configuration key to value: core.hooksPath, an include of
// another file, an alias that runs what the guard refuses.
func (j *judge) configSet(words []string, key, value, dir, how string, depth int) {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		return
	}
	section, name := strings.ToLower(key[:first]), strings.ToLower(key[last+1:])
	switch {
	case isHooksPath(key):
		j.refuse(words, how+" changes core.hooksPath, which moves the hooks git runs away from small-hook's", "run git without changing core.hooksPath")
	case (section == "include" || section == "includeif") && name == "path":
		j.refuse(words, how+" includes another configuration file, which can change where git runs hooks from", "leave git's configuration as it is")
	case section == "alias" && value != "":
		inner := &judge{repo: j.repo}
		if script, ok := strings.CutPrefix(value, "!"); ok {
			inner.script(script, dir, depth+1)
		} else if cmds := shell.Parse(value); len(cmds) > 0 {
			inner.git(cmds[0].Args, dir, nil, depth+1)
		}
		j.fail(inner.err)
		for _, r := range inner.refusals {
			j.refuse(words, how+" defines the alias "+key[first+1:]+" as "+value+": "+r.Why, "do not define the alias; "+r.Instead)
		}
	}
}
