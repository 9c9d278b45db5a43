package small

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// The reference CLI's `small fix --orphan-progress` (suggested by `small
// check --strict` after `small reset`) rewrites, in place, the task_id of
// old progress entries that name no plan task into a meta/ one, and
// appends a meta/reconcile-plan entry whose notes list, for each entry it
// rewrote, "<old task_id>:<sha256 of old task_id|timestamp|status>". What
// is here recognises exactly that rewrite, entry by entry.

// reconcileTask is the task_id of the entry the repair appends.
const reconcileTask = "meta/reconcile-plan"

// reconcileNotes starts the notes of that entry.
const reconcileNotes = "original hashes: "

// numberedTask is a task_id the CLI files under meta/historical/.
var numberedTask = regexp.MustCompile(`^task-\d+$`)

// OrphanRenames returns, for each position of cur, whether its entry is
// the entry at the same position of old with its task_id rewritten by
// `small fix --orphan-progress`: the only change is the task_id, the new
// one is what the CLI maps the old one to, and a meta/reconcile-plan entry
// that cur appends after old's entries records the old task_id with the
// hash the CLI computes from the old entry. nil when there is none.
func OrphanRenames(old, cur []any) []bool {
	recorded := reconciled(old, cur)
	if len(recorded) == 0 {
		return nil
	}
	var out []bool
	for i := 0; i < len(old) && i < len(cur); i++ {
		was, ok := old[i].(map[string]any)
		if !ok || !renamedByRepair(was, cur[i], recorded) {
			continue
		}
		if out == nil {
			out = make([]bool, len(cur))
		}
		out[i] = true
	}
	return out
}

// renamedByRepair reports whether now is was with the task_id the CLI
// gives it, recorded (by its old task_id and hash) in the repair's entry.
func renamedByRepair(was map[string]any, now any, recorded map[string]bool) bool {
	keys := yamldoc.ChangedKeys(was, now)
	if len(keys) != 1 || keys[0] != "task_id" {
		return false
	}
	from, ok := was["task_id"].(string)
	if !ok || taskOf(now) != orphanTaskID(strings.TrimSpace(from)) {
		return false
	}
	return recorded[strings.TrimSpace(from)+":"+orphanHash(was)]
}

// orphanRepair reports whether a change is `small fix --orphan-progress`:
// it rewrites nothing but task_ids the way the CLI does (OrphanRenames),
// at least one, and ends with the meta/reconcile-plan entry.
func orphanRepair(old, cur []any) bool {
	if len(cur) <= len(old) || taskOf(cur[len(cur)-1]) != reconcileTask {
		return false
	}
	renamed := OrphanRenames(old, cur)
	if renamed == nil {
		return false
	}
	for i, o := range old {
		if !renamed[i] && !yamldoc.Equal(o, cur[i]) {
			return false
		}
	}
	return true
}

// reconciled returns the "<task_id>:<hash>" pairs that the
// meta/reconcile-plan entries cur appends after old's entries record.
func reconciled(old, cur []any) map[string]bool {
	out := map[string]bool{}
	for _, e := range cur[min(len(old), len(cur)):] {
		m, ok := e.(map[string]any)
		if !ok || m["task_id"] != reconcileTask {
			continue
		}
		notes, _ := m["notes"].(string)
		list, ok := strings.CutPrefix(notes, reconcileNotes)
		if !ok {
			continue
		}
		for _, pair := range strings.Split(list, ", ") {
			out[pair] = true
		}
	}
	return out
}

// orphanTaskID is the task_id the CLI gives an orphan entry's task_id.
func orphanTaskID(id string) string {
	switch {
	case id == "reset" || id == "init" || id == "apply":
		return "meta/" + id
	case numberedTask.MatchString(id):
		return "meta/historical/" + id
	}
	safe := strings.NewReplacer("/", "-", " ", "-").Replace(id)
	if safe == "" {
		safe = "unknown"
	}
	return "meta/historical/unknown/" + safe
}

// orphanHash is the hash the CLI records for an entry it renames: sha256
// of its old task_id, timestamp and status, each as Go's %v writes the
// value the CLI decoded, trimmed, joined with "|".
func orphanHash(e map[string]any) string {
	parts := make([]string, 3)
	for i, key := range []string{"task_id", "timestamp", "status"} {
		parts[i] = strings.TrimSpace(cliString(e[key]))
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "|")))
	return hex.EncodeToString(sum[:])
}

// cliString writes a decoded value as the CLI's %v does: an unquoted
// timestamp is a time.Time to it.
func cliString(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case yamldoc.Timestamp:
		return v.Time.String()
	}
	return fmt.Sprint(v)
}
