package schemas

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// Explain words the violation for a message, naming a YAML typing mistake
// for what it is when n, the node that failed, is a scalar of the wrong
// type: an unquoted timestamp ("must be a string, not an unquoted YAML
// timestamp: quote it"), a number or a boolean where a string is wanted.
// The validator sees an unquoted timestamp as a number, which is what its
// own message says.
func (v Violation) Explain(n *yaml.Node) string {
	if !v.WantsType || n == nil || n.Kind != yaml.ScalarNode {
		return v.Message
	}
	wanted, _, _ := strings.Cut(v.Message, ", not ")
	switch n.ShortTag() {
	case "!!timestamp":
		return wanted + ", not an unquoted YAML timestamp: quote it"
	case "!!int", "!!float":
		return wanted + ", not a YAML number: quote it"
	case "!!bool":
		return wanted + ", not a YAML boolean: quote it"
	}
	return v.Message
}
