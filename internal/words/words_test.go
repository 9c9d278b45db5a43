package words

import "testing"

func TestPluralAndCount(t *testing.T) {
	for _, c := range []struct {
		n           int
		plural, all string
	}{
		{0, "files", "0 files"},
		{1, "file", "1 file"},
		{2, "files", "2 files"},
		{-1, "files", "-1 files"},
	} {
		if got := Plural(c.n, "file", "files"); got != c.plural {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.plural)
		}
		if got := Count(c.n, "file", "files"); got != c.all {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.all)
		}
	}
}

func TestShortID(t *testing.T) {
	for id, want := range map[string]string{
		"0123456789abcdef0123456789abcdef01234567": "0123456789ab",
		"0123456789ab": "0123456789ab",
		"abc":          "abc",
		"":             "",
	} {
		if got := ShortID(id); got != want {
			t.Errorf("ShortID(%q) = %q, want %q", id, got, want)
		}
	}
}
