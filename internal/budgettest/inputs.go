package budgettest

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// AliasedProgress is a SMALL progress file whose first entry anchors an
// evidence text of about length bytes (test output, rich in the words
// gitleaks' rules look for) and whose next aliases entries repeat it:
// under the anchor's key, or each under a key of its own (ownKeys). Its
// entries are a second apart, their timestamps written as the reference
// CLI writes them. The secret scan's budget test and the bench share it.
func AliasedProgress(length, aliases int, ownKeys bool) []byte {
	var evidence strings.Builder
	for i := 0; evidence.Len() < length; i++ {
		fmt.Fprintf(&evidence, "ok pkg/auth%d token refresh passed, api key rotation passed; ", i)
	}
	start := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	out.WriteString("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	for i := 0; i <= aliases; i++ {
		key, value := "evidence", "*evidence"
		if i == 0 {
			value = "&evidence \"" + evidence.String() + "\""
		} else if ownKeys {
			key = fmt.Sprintf("evidence_%d", i)
		}
		stamp := start.Add(time.Duration(i) * time.Second).Format("2006-01-02T15:04:05.000000000Z")
		fmt.Fprintf(&out, "  - task_id: task-%d\n    status: completed\n    %s: %s\n    timestamp: \"%s\"\n", i, key, value, stamp)
	}
	return out.Bytes()
}
