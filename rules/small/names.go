package small

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

// entryName names progress entry i (0-based) the one way every message
// names it: "progress entry 5 (task_id task-3)", counted from 1.
func entryName(i int, e any) string {
	return fmt.Sprintf("progress entry %d (task_id %s)", i+1, bounded(taskOf(e)))
}

// maxListed bounds how many entries one message names.
const maxListed = 5

// entryRange names several progress entries (0-based indexes, sorted) in
// one phrase: "progress entries 4-9 (task_ids a, b, c, d, e, …)".
func entryRange(list []any, idx []int) string {
	if len(idx) == 1 {
		return entryName(idx[0], list[idx[0]])
	}
	var ids []string
	for k, i := range idx {
		if k == maxListed {
			ids = append(ids, fmt.Sprintf("and %d more", len(idx)-maxListed))
			break
		}
		ids = append(ids, bounded(taskOf(list[i])))
	}
	numbers := fmt.Sprintf("%d-%d", idx[0]+1, idx[len(idx)-1]+1)
	if idx[len(idx)-1]-idx[0] != len(idx)-1 {
		numbers = fmt.Sprintf("%d entries between %d and %d", len(idx), idx[0]+1, idx[len(idx)-1]+1)
	}
	return fmt.Sprintf("progress entries %s (task_ids %s)", numbers, strings.Join(ids, ", "))
}

// bounded cuts a name taken from a file for a message.
func bounded(s string) string { return rules.Cut(s) }

// show renders a value and its YAML type for messages, bounded.
func show(v any) string {
	if t, ok := v.(yamldoc.Timestamp); ok {
		return rules.Quote(t.Text) + " (an unquoted timestamp)"
	}
	if _, ok := v.(string); ok {
		return rules.Show(v)
	}
	return fmt.Sprintf("%s (%s)", rules.Show(v), describe(v))
}

// where names a node of a canonical file (its path as JSON pointer
// tokens) in the protocol's words, and returns the progress entry the node
// lies in (nil when none): "progress entry 5 (task_id task-3): status",
// "plan task 2 (id task-2): title", "resume.next_steps item 1", or the
// file's name for the file as a whole.
func where(file string, top map[string]any, path []string) (string, any) {
	if len(path) == 0 {
		return file, nil
	}
	lists := map[string]struct{ noun, key string }{
		"entries":     {"progress entry", "task_id"},
		"tasks":       {"plan task", "id"},
		"constraints": {"constraint", "id"},
		"links":       {"link", "url"},
	}
	if l, ok := lists[path[0]]; ok && len(path) >= 2 {
		list, _ := top[path[0]].([]any)
		var i int
		if _, err := fmt.Sscan(path[1], &i); err == nil && i >= 0 && i < len(list) {
			m, _ := list[i].(map[string]any)
			id, _ := m[l.key].(string)
			name := fmt.Sprintf("%s %d", l.noun, i+1)
			if id != "" {
				name += fmt.Sprintf(" (%s %s)", l.key, bounded(id))
			}
			var entry any
			if path[0] == "entries" {
				entry = list[i]
			}
			if rest := keyPath(path[2:]); rest != "" {
				return name + ": " + rest, entry
			}
			return name, entry
		}
	}
	return keyPath(path), nil
}

// keyPath renders JSON pointer tokens as a key path: "resume.next_steps
// item 1".
func keyPath(path []string) string {
	var b strings.Builder
	for _, tok := range path {
		var i int
		if _, err := fmt.Sscan(tok, &i); err == nil && fmt.Sprint(i) == tok {
			fmt.Fprintf(&b, " item %d", i+1)
			continue
		}
		if b.Len() > 0 {
			b.WriteString(".")
		}
		b.WriteString(bounded(tok))
	}
	return b.String()
}
