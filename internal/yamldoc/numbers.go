package yamldoc

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// integer converts a scalar yaml.v3 tags !!int. Its value is the one
// yaml.v3 gives it (Go's base prefixes 0b, 0o, 0x and a leading 0 for
// octal; underscores ignored), but exact at any size: an int64 when it
// fits, a *big.Int otherwise.
func integer(n *yaml.Node) (any, bool) {
	return exactInteger(strings.ReplaceAll(n.Value, "_", ""), 0)
}

// decimalInteger reports whether a scalar yaml.v3 tags !!float is written
// as a decimal integer ("123456789012345678901234" is a float to yaml.v3
// only because it does not fit 64 bits), and returns its exact value.
func decimalInteger(n *yaml.Node) (any, bool) {
	text := strings.ReplaceAll(n.Value, "_", "")
	digits := strings.TrimLeft(text, "+-")
	if len(digits) == 0 || len(text)-len(digits) > 1 || strings.TrimLeft(digits, "0123456789") != "" {
		return nil, false
	}
	return exactInteger(text, 10)
}

func exactInteger(text string, base int) (any, bool) {
	if i, err := strconv.ParseInt(text, base, 64); err == nil {
		return i, true
	}
	b, ok := new(big.Int).SetString(text, base)
	if !ok {
		return nil, false
	}
	if b.IsInt64() {
		return b.Int64(), true
	}
	return b, true
}

// numbersEqual compares two decoded numbers exactly: 1 equals 1.0, and
// 12345678901234567890 differs from 12345678901234567891. ok is false
// when a or b is not a number.
func numbersEqual(a, b any) (equal, ok bool) {
	switch a := a.(type) {
	case int64:
		switch b := b.(type) {
		case int64:
			return a == b, true
		case *big.Int:
			return b.IsInt64() && b.Int64() == a, true
		case float64:
			return floatEqualsInt64(b, a), true
		}
	case *big.Int:
		switch b := b.(type) {
		case int64:
			return a.IsInt64() && a.Int64() == b, true
		case *big.Int:
			return a.Cmp(b) == 0, true
		case float64:
			return floatEqualsBig(b, a), true
		}
	case float64:
		switch b := b.(type) {
		case int64:
			return floatEqualsInt64(a, b), true
		case *big.Int:
			return floatEqualsBig(a, b), true
		case float64:
			return a == b, true
		}
	}
	return false, false
}

// floatEqualsInt64 reports whether f is exactly the integer i.
func floatEqualsInt64(f float64, i int64) bool {
	return f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 && int64(f) == i
}

// floatEqualsBig reports whether f is exactly the integer i.
func floatEqualsBig(f float64, i *big.Int) bool {
	if math.IsInf(f, 0) || f != math.Trunc(f) {
		return false
	}
	return new(big.Float).SetFloat64(f).Cmp(new(big.Float).SetInt(i)) == 0
}
