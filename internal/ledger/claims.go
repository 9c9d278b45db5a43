package ledger

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// claimOf reads what an entry claims.
func claimOf(kind Kind, value any) Claim {
	m, _ := value.(map[string]any)
	var c Claim
	if kind == Progress {
		c.TaskID, c.Status = text(m["task_id"]), text(m["status"])
	} else {
		c.Agent, c.Action, c.Message = text(m["agent"]), text(m["action"]), text(m["message"])
	}
	c.Timestamp = text(m["timestamp"])
	c.Time, c.Timed = timeOf(m["timestamp"])
	return c
}

// text is a scalar as written: a string itself, an unquoted timestamp as
// written, a number or boolean as YAML writes it; "" for anything else.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case yamldoc.Timestamp:
		return v.Text
	case nil, map[string]any, []any:
		return ""
	}
	return fmt.Sprint(v)
}

// timeOf parses a timestamp: an RFC 3339 string, or an unquoted YAML
// timestamp.
func timeOf(v any) (time.Time, bool) {
	switch v := v.(type) {
	case string:
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(v))
		return t, err == nil
	case yamldoc.Timestamp:
		return v.Time, true
	}
	return time.Time{}, false
}

// evidenceObjects are the keys of a progress entry whose value may be an
// object that names a commit.
func evidenceObjects() []string { return []string{"evidence", "verification", "test"} }

// commitKey reports whether a key of an evidence object says its value is
// a commit: commit, commit_sha, commit-ref, commitId, commit_hash.
func commitKey(k string) bool {
	var key [len("commithash")]byte
	n := 0
	for _, r := range k {
		if r == '_' || r == '-' {
			continue
		}
		if r = unicode.ToLower(r); r >= utf8.RuneSelf || n == len(key) {
			return false
		}
		key[n] = byte(r)
		n++
	}
	switch string(key[:n]) {
	case "commit", "commitsha", "commitref", "commitid", "commithash":
		return true
	}
	return false
}

// isCommitRef reports whether s is 7 to 40 hexadecimal digits, the way an
// entry names a commit.
func isCommitRef(s string) bool {
	if len(s) < 7 || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// evidenceOf lists the commits an entry names as evidence: its commit
// field, and the commit keys of its evidence, verification and test
// objects, in that order.
func evidenceOf(value any) []Evidence {
	m, _ := value.(map[string]any)
	var out []Evidence
	if s, ok := m["commit"].(string); ok && isCommitRef(s) {
		out = append(out, Evidence{Field: "commit", Ref: s})
	}
	for _, obj := range evidenceObjects() {
		fields, _ := m[obj].(map[string]any)
		keys := make([]string, 0, len(fields))
		for k := range fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if s, ok := fields[k].(string); ok && commitKey(k) && isCommitRef(s) {
				out = append(out, Evidence{Field: obj + "." + k, Ref: s})
			}
		}
	}
	return out
}
