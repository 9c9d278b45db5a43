package small

// Align matches the entries of an earlier version of a progress file with
// those of a later one exactly as small/append-only does: the old entries
// in order, each at the earliest position after the previous one that
// holds it as a value or as `small progress migrate` rewrote it. It
// returns, for each position of cur, the index of the old entry standing
// there, or -1 where the later version holds an entry of its own. The
// ledger (`small-hook log`) uses it to find the commit that recorded each
// entry.
func Align(old, cur []any) []int { return align(old, cur).from }
