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
// commit.cleanup as git does in this repository (see Config: git itself
// answers, `git -c` included).
func (r *Repo) MessageSettings() (MessageSettings, error) {
	var s MessageSettings
	for _, k := range []struct {
		key string
		to  *string
	}{{"core.commentchar", &s.CommentChar}, {"core.commentstring", &s.CommentChar}, {"commit.cleanup", &s.Cleanup}} {
		v, ok, err := r.Config(k.key)
		if err != nil {
			return MessageSettings{}, fmt.Errorf("reading git's configuration: %w", err)
		}
		if ok && v != "" {
			*k.to = v
		}
	}
	return s, nil
}
