package agentguard

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/words"
)

// GeminiReplace is Gemini CLI's replace tool, computed as it computes an
// exact edit: Old occurs Expected times (1 when unset) and every
// occurrence is replaced; an empty Old creates a file that does not
// exist. When Old does not occur exactly that often, the tool asks the
// model to correct the call, and what it then writes cannot be computed:
// the guard reports such a call as guessed.
type GeminiReplace struct {
	Replacement
	Expected int
}

// Apply applies the replacement to before.
func (g GeminiReplace) Apply(before []byte) ([]byte, error) {
	content, exists := string(before), before != nil
	switch {
	case g.Old == "" && !exists:
		return []byte(g.New), nil
	case g.Old == "":
		return nil, failf("Failed to edit: the file already exists, and old_string is empty (which creates a file)")
	case !exists:
		return nil, failf("Failed to edit: the file does not exist")
	case g.Old == g.New:
		return nil, failf("No changes to apply: old_string and new_string are identical")
	}
	want := max(1, g.Expected)
	if n := strings.Count(content, g.Old); n != want {
		return nil, &ToolFailure{Reason: fmt.Sprintf("Failed to edit, expected %s of old_string but found %d", words.Count(want, "occurrence", "occurrences"), n), Guessed: true}
	}
	return []byte(strings.ReplaceAll(content, g.Old, g.New)), nil
}
