package attribution

import (
	"fmt"
	"strings"
)

// Cleanup is what decides how git turns the message file it hands the
// commit-msg hook into the message it commits (git commit --cleanup). The
// file still holds git's comment lines and, with `git commit -v`, the
// scissors line and the diff below it: git removes them only after the
// hook has run.
type Cleanup struct {
	// Mode is commit.cleanup: default, strip, whitespace, verbatim or
	// scissors; "" is default. A --cleanup option on git's command line is
	// invisible to hooks.
	Mode string
	// Editor says whether git opened an editor on the message. Git runs the
	// commit hooks with GIT_EDITOR=: when it does not (git commit -m, -F,
	// --no-edit), and the default mode then keeps comment lines.
	Editor bool
	// CommentChar is core.commentChar (or core.commentString): the prefix of
	// comment lines, "#" when empty; "auto" makes git pick a character that
	// starts no line of the message (see autoComment).
	CommentChar string
}

// The ways git cleans a message up (sequencer.h, commit_msg_cleanup_mode).
const (
	cleanupNone     = iota // verbatim: the message as it is
	cleanupSpace           // whitespace: blank lines and trailing blanks
	cleanupAll             // strip: whitespace, and comment lines
	cleanupScissors        // scissors: whitespace, and all from the scissors line on
)

// cutLine follows the comment prefix on the scissors line that
// `git commit -v` (and the scissors mode) puts above the diff.
const cutLine = " ------------------------ >8 ------------------------\n"

// autoCandidates are the comment characters core.commentChar=auto picks
// from, in git's order.
const autoCandidates = "#;@!$%^&|:"

// mode resolves the cleanup mode as git does (get_cleanup_mode): the
// default mode and scissors depend on whether the editor ran.
func (c Cleanup) mode() (int, error) {
	switch strings.ToLower(c.Mode) {
	case "", "default":
		if c.Editor {
			return cleanupAll, nil
		}
		return cleanupSpace, nil
	case "verbatim":
		return cleanupNone, nil
	case "whitespace":
		return cleanupSpace, nil
	case "strip":
		return cleanupAll, nil
	case "scissors":
		if c.Editor {
			return cleanupScissors, nil
		}
		return cleanupSpace, nil
	}
	return 0, fmt.Errorf("commit.cleanup = %q is not a mode git knows (default, strip, whitespace, verbatim, scissors)", clip(c.Mode))
}

// Committed returns the message git commits from the message file the
// commit-msg hook reads: cut at the scissors line, then, unless the mode
// is verbatim, with trailing blanks, leading, trailing and repeated blank
// lines and, in the strip mode, comment lines removed (strbuf_stripspace).
// A scissors line is cut at in every mode: git puts one in the file only
// for `git commit -v`, which cuts there whatever the mode.
func (c Cleanup) Committed(file string) (string, error) {
	mode, err := c.mode()
	if err != nil {
		return "", err
	}
	comment := c.CommentChar
	switch {
	case strings.EqualFold(comment, "auto"):
		comment = autoComment(splitLines(file))
	case comment == "":
		comment = "#"
	}
	lines := splitLines(file)
	for i, l := range lines {
		if l == comment+cutLine {
			lines = lines[:i]
			break
		}
	}
	if mode == cleanupNone {
		return strings.Join(lines, ""), nil
	}
	return stripSpace(lines, comment, mode == cleanupAll), nil
}

// stripSpace is git's strbuf_stripspace over lines that keep their "\n":
// each line loses its trailing blanks, blank lines at the start and the
// end go and a run of them inside becomes one, and with skipComments the
// lines that start with comment go too.
func stripSpace(lines []string, comment string, skipComments bool) string {
	var b strings.Builder
	empties := 0
	for _, l := range lines {
		if skipComments && strings.HasPrefix(l, comment) {
			continue
		}
		l = strings.TrimRight(l, " \t\n\r\v\f")
		if l == "" {
			empties++
			continue
		}
		if empties > 0 && b.Len() > 0 {
			b.WriteByte('\n')
		}
		empties = 0
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// autoComment finds the character core.commentChar=auto chose for the
// comment lines of a message file. Git chose it before it wrote them
// (adjust_comment_line_char): "#" when the message holds no "#" at all,
// else the first of autoCandidates that starts no line of it. The hook
// sees the message with the comment lines, so: the prefix of a scissors
// line names the character; else, when the file ends with git's comment
// block, the first character of its last line is the one, if git's choice
// over the lines that do not start with it agrees; else the file holds no
// comment block and git's choice over the whole file is taken.
func autoComment(lines []string) string {
	for _, l := range lines {
		if len(l) > 1 && strings.Contains(autoCandidates, l[:1]) && l[1:] == cutLine {
			return l[:1]
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if isBlank(lines[i]) {
			continue
		}
		c := lines[i][:1]
		if !strings.Contains(autoCandidates, c) {
			break
		}
		var message []string
		for _, l := range lines {
			if !strings.HasPrefix(l, c) {
				message = append(message, l)
			}
		}
		if chooseComment(message) == c {
			return c
		}
		break
	}
	return chooseComment(lines)
}

// chooseComment is git's choice of a comment character for a message of
// these lines; "#" when every candidate starts a line (git then refuses to
// commit).
func chooseComment(lines []string) string {
	if !strings.Contains(strings.Join(lines, ""), "#") {
		return "#"
	}
	used := map[byte]bool{}
	for _, l := range lines {
		for _, part := range strings.Split(l, "\r") {
			if part != "" {
				used[part[0]] = true
			}
		}
	}
	for i := 0; i < len(autoCandidates); i++ {
		if !used[autoCandidates[i]] {
			return autoCandidates[i : i+1]
		}
	}
	return "#"
}
