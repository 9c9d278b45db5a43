package signature

import (
	"errors"
	"strings"
	"time"
)

// parseSignerTime reads a valid-after/valid-before value as OpenSSH's
// parse_absolute_time does: YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS,
// followed by Z or UTC (any case) for UTC, and otherwise a time in local,
// the zone of the machine that verifies. Like OpenSSH it refuses times at
// or before the Unix epoch. Out-of-range days roll over (20230231 is 3 March)
// as they do in C's mktime; OpenSSH's parser also tolerates spaces inside
// the digits, which this one does not.
func parseSignerTime(s string, local *time.Location) (time.Time, error) {
	loc := local
	switch {
	case len(s) > 1 && strings.EqualFold(s[len(s)-1:], "Z"):
		loc, s = time.UTC, s[:len(s)-1]
	case len(s) > 3 && strings.EqualFold(s[len(s)-3:], "UTC"):
		loc, s = time.UTC, s[:len(s)-3]
	}
	if len(s) != 8 && len(s) != 12 && len(s) != 14 {
		return time.Time{}, errors.New("is not YYYYMMDD[Z], YYYYMMDDHHMM[Z] or YYYYMMDDHHMMSS[Z]")
	}
	var f [6]int
	limits := [6][2]int{{0, 9999}, {1, 12}, {1, 31}, {0, 23}, {0, 59}, {0, 61}}
	widths := [6]int{4, 2, 2, 2, 2, 2}
	pos := 0
	for i := 0; pos < len(s); i++ {
		n := 0
		for _, c := range []byte(s[pos : pos+widths[i]]) {
			if c < '0' || c > '9' {
				return time.Time{}, errors.New("holds a character that is not a digit")
			}
			n = n*10 + int(c-'0')
		}
		if n < limits[i][0] || n > limits[i][1] {
			return time.Time{}, errors.New("holds a month, day, hour, minute or second out of range")
		}
		f[i] = n
		pos += widths[i]
	}
	t := time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, loc)
	if t.Unix() <= 0 {
		return time.Time{}, errors.New("is not after 1970-01-01T00:00:00Z")
	}
	return t, nil
}
