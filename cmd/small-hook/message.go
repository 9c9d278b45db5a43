package main

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/attribution"
)

// committedMessage returns the message git will commit from the file it
// hands the commit-msg hook, which still holds git's comment lines: it
// cleans the file up as git will (commit.cleanup, core.commentChar, and
// whether git ran the editor, which git tells its hooks by GIT_EDITOR=:
// when it did not). The trailers are then read from that message as they
// will be from the commit.
func committedMessage(repo *gitdiff.Repo, e *env, file []byte) (string, error) {
	s, err := repo.MessageSettings()
	if err != nil {
		return "", err
	}
	c := attribution.Cleanup{Mode: s.Cleanup, CommentChar: s.CommentChar, Editor: e.getenv("GIT_EDITOR") != ":"}
	msg, err := c.Committed(string(file))
	if err != nil {
		return "", fmt.Errorf("cleaning up the commit message as git will: %w", err)
	}
	return msg, nil
}
