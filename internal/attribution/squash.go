package attribution

import "strings"

// githubCommitter is the committer e-mail of the commits GitHub makes on
// github.com: merges, squashes and rebases of pull requests, web edits.
const githubCommitter = "noreply@github.com"

// squashSeparator is the line GitHub's squash message puts between the
// messages of the squashed commits and the co-authors it lists.
const squashSeparator = "---------"

// isGitHubSquash reports whether a commit is GitHub's squash of a pull
// request: committed by GitHub, with a message whose trailer block follows
// a paragraph that is the separator line alone. GitHub writes the
// squashed commits' messages above that line (each after "* ") and the
// authors of the squashed commits below it as Co-authored-by trailers.
//
// Those co-authors, and the co-author lines of the squashed messages, say
// who took part in the pull request, not who made the squash: the pull
// request check judged each of their commits as itself. The squash is the
// act of whoever merged it, and its author is the pull request's. The
// committer is a claim like any other: a commit made elsewhere that
// copies GitHub's committer and this shape only hides co-author lines an
// agent could as well have left out, and gains nothing else.
func isGitHubSquash(in Input) bool {
	if !in.HasMessage || !strings.EqualFold(strings.TrimSpace(in.Committer.Email), githubCommitter) {
		return false
	}
	lines := splitLines(strings.ReplaceAll(in.Message, "\r\n", "\n"))
	lines = lines[:endOfMessage(lines)]
	start := trailerBlockStart(lines)
	return start >= 3 && start < len(lines) && isBlank(lines[start-1]) &&
		strings.TrimRight(lines[start-2], " \t\n") == squashSeparator && isBlank(lines[start-3])
}
