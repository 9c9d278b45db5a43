package smp

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
)

// number returns the exact value of a decoded YAML number, whatever Go type
// carries it: Go's integer and floating-point kinds, math/big values, and
// any other named type whose text is a number (json.Number, an exact
// integer type). Strings are never numbers, not even "3", and neither are
// NaN and the infinities.
func number(v any) (*big.Rat, bool) {
	switch n := v.(type) {
	case nil, string, bool:
		return nil, false
	case *big.Int:
		if n == nil {
			return nil, false
		}
		return new(big.Rat).SetInt(n), true
	case *big.Rat:
		if n == nil {
			return nil, false
		}
		return new(big.Rat).Set(n), true
	case *big.Float:
		if n == nil || n.IsInf() {
			return nil, false
		}
		r, _ := n.Rat(nil)
		return r, true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return new(big.Rat).SetInt64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return new(big.Rat).SetInt(new(big.Int).SetUint64(rv.Uint())), true
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(f), true
	case reflect.String:
		return parseNumber(rv.String())
	}
	if s, ok := v.(fmt.Stringer); ok {
		return parseNumber(s.String())
	}
	return nil, false
}

func parseNumber(s string) (*big.Rat, bool) {
	if s == "" || len(s) > 4096 {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}

// integer returns the value of v when it is a number with no fractional
// part: 3, 3.0 and 3e0 are all 3.
func integer(v any) (*big.Int, bool) {
	r, ok := number(v)
	if !ok || !r.IsInt() {
		return nil, false
	}
	return new(big.Int).Set(r.Num()), true
}
