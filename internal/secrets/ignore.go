package secrets

import "strings"

// parseIgnore reads .gitleaksignore: one fingerprint a line, # comments.
func parseIgnore(data []byte) map[string]bool {
	ignore := map[string]bool{}
	for l := range strings.Lines(string(data)) {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			ignore[l] = true
		}
	}
	return ignore
}
