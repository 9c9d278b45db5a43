package attribution

import (
	"strings"
	"unicode/utf8"
)

// RewriteTrailer is the trailer with which a human commit says it rewrites
// governed history on purpose (e.g. after `small fix --orphan-progress`).
const RewriteTrailer = "Small-Rewrite"

// maxReason bounds how much of a rewrite reason is kept for messages.
const maxReason = 60

// rewriteReason returns the reason of the last Small-Rewrite trailer, or,
// before the message exists, SMALL_HOOK_REWRITE; "" for none.
func rewriteReason(in Input) string {
	reason := ""
	for _, t := range ParseTrailers(in.Message) {
		if strings.EqualFold(t.Key, RewriteTrailer) {
			reason = t.Value
		}
	}
	if !in.HasMessage {
		reason = in.EnvRewrite
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return ""
	}
	if len(reason) > maxReason {
		cut := maxReason
		for cut > 0 && !utf8.RuneStart(reason[cut]) {
			cut--
		}
		reason = reason[:cut] + "…"
	}
	return reason
}
