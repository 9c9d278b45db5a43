package smp

import (
	"encoding/json"
	"math"
	"math/big"
	"testing"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// exactInt stands for an exact integer type a YAML layer may use for
// integers beyond int64.
type exactInt struct{ text string }

func (e exactInt) String() string { return e.text }

func TestArtifactVersionNumbers(t *testing.T) {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	cases := []struct {
		v    any
		want string // "" means not an integer
	}{
		{int64(3), "3"},
		{3, "3"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{float64(99), "99"},
		{1.0, "1"},
		{1.5, ""},
		{1e20, "100000000000000000000"},
		{math.NaN(), ""},
		{math.Inf(1), ""},
		{huge, huge.String()},
		{new(big.Float).SetFloat64(4), "4"},
		{big.NewRat(8, 2), "4"},
		{big.NewRat(9, 2), ""},
		{json.Number("7"), "7"},
		{json.Number("7.0"), "7"},
		{json.Number("7.25"), ""},
		{exactInt{"123456789012345678901234567890"}, huge.String()},
		{exactInt{"not a number"}, ""},
		{"3", ""},
		{"", ""},
		{true, ""},
		{nil, ""},
		{[]any{int64(1)}, ""},
		{yamldoc.Timestamp{Text: "2026-01-01T00:00:00Z"}, ""},
	}
	for _, c := range cases {
		got, ok := integer(c.v)
		switch {
		case c.want == "" && ok:
			t.Errorf("integer(%#v) = %s, want none", c.v, got)
		case c.want != "" && (!ok || got.String() != c.want):
			t.Errorf("integer(%#v) = %v %v, want %s", c.v, got, ok, c.want)
		}
	}
}
