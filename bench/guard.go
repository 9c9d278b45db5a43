package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// guardedEdit is scenario 17: small-hook guard judging, as Claude Code
// runs it before every edit, an Edit that appends one entry to the
// reference SMALL repository's progress file (1,206 entries) in the large
// repository, against git diff --cached as the floor; beside it, the same
// Edit rewriting an entry (refused), and a Write of a file nothing
// governs.
func (b *bench) guardedEdit() (scenario, error) {
	s := scenario{title: fmt.Sprintf("17. small-hook guard: a Claude Code Edit appending to the reference progress file (1,206 entries), %d files", b.files),
		limit: 50 * time.Millisecond}
	dir, err := b.repo("guard", 0)
	if err != nil {
		return s, err
	}
	progress := filepath.Join(dir, ".small", "progress.small.yml")
	data, err := os.ReadFile(progress)
	if err != nil {
		return s, err
	}
	content := string(data)
	last := content[strings.LastIndex(strings.TrimSuffix(content, "\n"), "\n")+1:]
	first := content[strings.Index(content, "    - "):]
	first = first[:strings.Index(first, "\n")+1]
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	call := func(name, tool string, input map[string]any) (command, error) {
		payload, err := json.Marshal(map[string]any{"session_id": "bench", "cwd": dir, "hook_event_name": "PreToolUse",
			"tool_name": tool, "tool_input": input})
		c := b.smallHook(name, dir, "guard", "--agent", "claude")
		c.stdin = string(payload)
		return c, err
	}
	appendEdit, err := call("small-hook guard, an Edit that appends", "Edit",
		map[string]any{"file_path": progress, "old_string": last, "new_string": last + progressEntry(0, "appended")})
	if err != nil {
		return s, err
	}
	rewrite, err := call("small-hook guard, an Edit that rewrites entry 1 (refused)", "Edit",
		map[string]any{"file_path": progress, "old_string": first, "new_string": strings.Replace(first, "- ", "- notes: rewritten\n      ", 1)})
	if err != nil {
		return s, err
	}
	elsewhere, err := call("small-hook guard, a Write nothing governs", "Write",
		map[string]any{"file_path": filepath.Join(dir, "src", "d000", "f00000.go"), "content": "package p0\n"})
	if err != nil {
		return s, err
	}
	return s, b.compare(&s, appendEdit, false, gitDiffCached(dir), rewrite, elsewhere)
}
