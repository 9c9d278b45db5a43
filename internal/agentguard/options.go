package agentguard

import "strings"

// arity says whether an option takes a value.
type arity int

const (
	flag     arity = iota // no value
	required              // a value, attached or in the next argument
	optional              // a value only when attached (--opt=value, -Svalue)
)

// optionSpec is a command's options as git's parse-options reads them:
// long names (an option named no-x is also negated as --x, any other
// boolean as --no-x) and single-letter short ones.
type optionSpec struct {
	long  map[string]arity
	short map[byte]string // letter → long name (or the letter itself)
}

// option is one option a command line gives: its long name (or letter),
// whether it is negated, and its value.
type option struct {
	name    string
	negated bool
	value   string
}

// parsedArgs is a command line read with an optionSpec.
type parsedArgs struct {
	options  []option
	operands []string
	// bad says git refuses the line (an unknown or ambiguous option): the
	// command does not run.
	bad bool
}

// parse reads args as git's parse-options does: options and operands may
// interleave, "--" ends the options, a long option may be abbreviated to
// a prefix no other option shares, and short options may be clustered
// (-am msg) with a value taking the rest of the cluster or the next
// argument.
func (s optionSpec) parse(args []string) parsedArgs {
	var p parsedArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			p.operands = append(p.operands, args[i+1:]...)
			return p
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			o, ar, ok := s.matchLong(name)
			if !ok {
				p.bad = true
				return p
			}
			switch {
			case hasValue && ar == flag:
				p.bad = true
				return p
			case hasValue:
				o.value = value
			case ar == required && !o.negated:
				if i+1 == len(args) {
					p.bad = true
					return p
				}
				i++
				o.value = args[i]
			}
			p.options = append(p.options, o)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				name, ok := s.short[a[j]]
				if !ok {
					p.bad = true
					return p
				}
				o := option{name: name}
				switch s.long[name] {
				case optional:
					o.value = a[j+1:]
					j = len(a)
				case required:
					switch {
					case j+1 < len(a):
						o.value = a[j+1:]
					case i+1 < len(args):
						i++
						o.value = args[i]
					default:
						p.bad = true
						return p
					}
					j = len(a)
				}
				p.options = append(p.options, o)
			}
		default:
			p.operands = append(p.operands, a)
		}
	}
	return p
}

// matchLong finds the option a long name (without its dashes) stands for:
// an exact name first, then a negation, then a prefix of exactly one
// option's name or negation.
func (s optionSpec) matchLong(arg string) (option, arity, bool) {
	type candidate struct {
		o  option
		ar arity
	}
	var found []candidate
	seen := map[string]bool{}
	for name, ar := range s.long {
		forms := []option{{name: name}}
		if rest, ok := strings.CutPrefix(name, "no-"); ok {
			forms = append(forms, option{name: name, negated: true, value: rest})
		} else if ar == flag {
			forms = append(forms, option{name: name, negated: true, value: "no-" + name})
		}
		for _, f := range forms {
			spelled := f.name
			if f.negated {
				spelled = f.value
			}
			o := option{name: f.name, negated: f.negated}
			if spelled == arg {
				return o, ar, true
			}
			if strings.HasPrefix(spelled, arg) && !seen[f.name] {
				seen[f.name] = true
				found = append(found, candidate{o, ar})
			}
		}
	}
	if len(found) != 1 {
		return option{}, 0, false
	}
	return found[0].o, found[0].ar, true
}

// last returns the last of the options named names, and whether there is
// one: git applies options in order, so the last of -n and --verify wins.
func (p parsedArgs) last(names ...string) (option, bool) {
	for i := len(p.options) - 1; i >= 0; i-- {
		for _, n := range names {
			if p.options[i].name == n {
				return p.options[i], true
			}
		}
	}
	return option{}, false
}

// values returns the values of every option named name, in order.
func (p parsedArgs) values(name string) []string {
	var out []string
	for _, o := range p.options {
		if o.name == name && !o.negated {
			out = append(out, o.value)
		}
	}
	return out
}

// has reports whether an option named name is given and not negated by a
// later one.
func (p parsedArgs) has(name string) bool {
	o, ok := p.last(name)
	return ok && !o.negated
}
