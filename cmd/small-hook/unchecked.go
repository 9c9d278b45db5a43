package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/words"
)

// What a staged check does not see is said, never passed over in
// silence: a named file that exists nowhere is an error, so that a
// mistyped path never passes as a clean check (gitleaks' dir only logs a
// warning for one, and exits 0); a named file the index does not hold is
// a note, and the staged check run by hand notes the
// governed files whose changes are not staged. Hooks stay quiet: git runs
// its hooks inside `git commit` with GIT_INDEX_FILE set, and the
// pre-commit framework names the files (it names only staged ones there).

// maxListed bounds how many paths a note names.
const maxListed = 5

// namedNotes checks the files named on the command line (relative to the
// work tree's root): an error names those neither the index nor the work
// tree holds; the notes name those only the work tree holds.
func namedNotes(repo *gitdiff.Repo, named []string) ([]string, error) {
	missing, err := repo.NotInIndex(named)
	if err != nil {
		return nil, err
	}
	var nowhere, untracked []string
	for _, p := range missing {
		if _, err := os.Lstat(filepath.Join(repo.WorkTree(), filepath.FromSlash(p))); err != nil {
			nowhere = append(nowhere, p)
		} else {
			untracked = append(untracked, p)
		}
	}
	if len(nowhere) > 0 {
		return nil, &usageError{fmt.Sprintf("%s: no such file in the index or in the work tree", listed(nowhere))}
	}
	if len(untracked) == 0 {
		return nil, nil
	}
	return []string{fmt.Sprintf("%s not in the index, so not checked: stage %s (git add %s) to check %s",
		words.Count(len(untracked), "named file is", "named files are"), words.Plural(len(untracked), "it", "them"), quotedPaths(untracked), words.Plural(len(untracked), "it", "them"))}, nil
}

// unstagedNote says which governed files have changes the staged check
// did not see; "" when there are none.
func unstagedNote(repo *gitdiff.Repo) (string, error) {
	paths, err := repo.Unstaged()
	if err != nil || len(paths) == 0 {
		return "", err
	}
	return fmt.Sprintf("%s changes that are not staged, so not checked (%s): stage %s (git add %s) to check %s",
		words.Count(len(paths), "governed file has", "governed files have"), listed(paths), words.Plural(len(paths), "it", "them"), quotedPaths(paths), words.Plural(len(paths), "it", "them")), nil
}

// handRun reports whether a check is the staged check run by hand: the
// default mode, outside `git commit`, and not run by the pre-commit
// framework.
func (c *checkCmd) handRun(e *env) bool {
	return c.mode().flag == "" && c.CommitMsg == "" && len(c.Files) == 0 && e.getenv("GIT_INDEX_FILE") == ""
}

// listed names the first paths of a list: "a, b and 3 more".
func listed(paths []string) string {
	if len(paths) > maxListed {
		return strings.Join(paths[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(paths)-maxListed)
	}
	return strings.Join(paths, ", ")
}

// quotedPaths writes paths as arguments of a shell command: a path of
// letters, digits and . _ - / as it is, any other in single quotes.
func quotedPaths(paths []string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if strings.ContainsFunc(p, unsafeInShell) {
			out[i] = "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// unsafeInShell reports a character that a shell word must quote.
func unsafeInShell(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/", r))
}
