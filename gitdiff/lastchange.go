package gitdiff

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/gitread"
)

// LastChange returns the full id of the commit that gave path the content
// it has at head: the first commit of head's history, simplified as git
// simplifies it for a path (`git rev-list -1 head -- path`: a merge that
// took the file unchanged from a parent is followed into that parent),
// whose version of path differs from its parents'. It is "" when no commit
// reachable from head ever touched path. head is a full commit id.
func (r *Repo) LastChange(head, path string) (string, error) {
	out, err := r.git.Line("--literal-pathspecs", "rev-list", "-1", "--end-of-options", head, "--", path)
	if err != nil {
		return "", fmt.Errorf("finding the commit that wrote %s at %s: %w", path, head, err)
	}
	out = strings.TrimSpace(out)
	if out == "" {
		return "", nil
	}
	if _, ok := gitread.ParseHex([]byte(out)); !ok {
		return "", fmt.Errorf("finding the commit that wrote %s at %s: git rev-list printed %q", path, head, out)
	}
	return out, nil
}
