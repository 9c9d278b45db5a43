package workspace

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fold returns the governing directory (see Dirs) a path component
// stands for on some file system, and whether it is spelled exactly so;
// false when it stands for none. Like git's protection of ".git", it
// treats as the same name what macOS (case folding, Unicode
// normalisation, the code points HFS+ ignores) and Windows (case folding,
// trailing dots and spaces, alternate data streams, 8.3 short names) treat
// as the same name.
func fold(component string) (dir Dir, exact, ok bool) {
	for _, d := range &dirs {
		if component == d.Name {
			return d, true, true
		}
	}
	if !mayFold(component) {
		return Dir{}, false, false
	}
	f := normalise(component)
	for _, d := range &dirs {
		if strings.EqualFold(f, d.Name) || isShortName(f, d.Short) {
			return d, false, true
		}
	}
	return Dir{}, false, false
}

// mayFold is a cheap test that a component could fold to a governed name;
// fold decides. It does not allocate.
func mayFold[T string | []byte](c T) bool {
	for i := 0; i < len(c); i++ {
		if b := c[i]; b >= utf8.RuneSelf || b == '~' || b == ':' {
			return true
		}
	}
	n := len(c)
	for n > 0 && (c[n-1] == '.' || c[n-1] == ' ') {
		n--
	}
	for _, d := range &dirs {
		if n == len(d.Name) && asciiEqualFold(c[:n], d.Name) {
			return true
		}
	}
	return false
}

func asciiEqualFold[T string | []byte](a T, b string) bool {
	for i := 0; i < len(b); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// normalise removes what file systems ignore in a name: code points HFS+
// skips, an alternate data stream suffix, trailing dots and spaces; and
// puts it in NFC.
func normalise(c string) string {
	c = strings.Map(func(r rune) rune {
		if hfsIgnored(r) {
			return -1
		}
		return r
	}, c)
	if i := strings.IndexByte(c, ':'); i >= 0 {
		c = c[:i]
	}
	c = strings.TrimRight(c, ". ")
	return norm.NFC.String(c)
}

// hfsIgnored reports the code points HFS+ leaves out of names when it
// compares them (the list git uses to protect ".git").
func hfsIgnored(r rune) bool {
	switch {
	case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
		return true
	}
	return false
}

// isShortName reports whether c is a Windows 8.3 short name built from
// prefix, such as "SMALL~1".
func isShortName(c, prefix string) bool {
	if len(c) <= len(prefix) || !strings.EqualFold(c[:len(prefix)], prefix) {
		return false
	}
	for _, r := range c[len(prefix):] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
