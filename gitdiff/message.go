package gitdiff

import "fmt"

// MessageSettings are git's settings that decide how it turns the commit
// message file into the message it commits.
type MessageSettings struct {
	// CommentChar is core.commentChar, or core.commentString where git
	// 2.45 and later read it; "" when unset.
	CommentChar string
	// Cleanup is commit.cleanup; "" when unset.
	Cleanup string
}

// MessageSettings reads core.commentChar, core.commentString and
// commit.cleanup as git does in this repository (see readGitConfig for
// where they come from, `git -c` included).
func (r *Repo) MessageSettings() (MessageSettings, error) {
	cfg, err := r.readGitConfig()
	if err != nil {
		return MessageSettings{}, fmt.Errorf("reading git's configuration: %w", err)
	}
	s := MessageSettings{CommentChar: cfg.string("core.commentchar"), Cleanup: cfg.string("commit.cleanup")}
	if v := cfg.string("core.commentstring"); v != "" {
		s.CommentChar = v
	}
	return s, nil
}
