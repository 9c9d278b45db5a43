package secrets

import "fmt"

// preview redacts a secret to at most its first four characters (for a
// secret of 16 characters or more) and its length.
func preview(secret string) string {
	r := []rune(secret)
	switch {
	case len(r) == 0:
		return ""
	case len(r) >= 16:
		return fmt.Sprintf("%s…(%d chars)", string(r[:4]), len(r))
	}
	return fmt.Sprintf("…(%d chars)", len(r))
}
