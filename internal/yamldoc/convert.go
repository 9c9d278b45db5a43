package yamldoc

import (
	"fmt"
	"math"
	"time"

	"gopkg.in/yaml.v3"
)

// converter turns yaml.v3 nodes into plain values. An anchored node is
// converted once and its value shared by every alias to it, while count,
// bytes and the depth check still see the alias expanded: a "billion
// laughs" document fails at MaxValues or MaxExpandedBytes as if every
// alias were copied.
type converter struct {
	offset int
	// count is how many values the document expands to so far, and bytes
	// how many bytes of scalars and keys.
	count, bytes int
	// deepest is the deepest nesting level reached so far.
	deepest int
	shared  map[*yaml.Node]sharedValue
}

// sharedValue is the converted value of an anchored node.
type sharedValue struct {
	value any
	// size is how many values it expands to, itself included, and bytes
	// how many bytes of scalars and keys.
	size, bytes int
	// height is how many levels of nesting it holds below itself.
	height int
}

func (c *converter) fail(n *yaml.Node, format string, args ...any) error {
	return &Error{Line: n.Line + c.offset, Msg: fmt.Sprintf(format, args...)}
}

// grow counts values and bytes of scalars and keys into the document's
// expansion, and fails beyond its bounds.
func (c *converter) grow(n *yaml.Node, values, bytes int) error {
	c.count += values
	c.bytes += bytes
	switch {
	case c.count > MaxValues:
		return c.fail(n, "document expands to more than %d values (alias bomb?)", MaxValues)
	case c.bytes > MaxExpandedBytes:
		return c.fail(n, "document expands to more than %d MiB of text (alias bomb?)", MaxExpandedBytes>>20)
	}
	return nil
}

func (c *converter) value(n *yaml.Node, depth int) (any, error) {
	size := 0
	if n.Kind == yaml.ScalarNode {
		size = len(n.Value)
	}
	if err := c.grow(n, 1, size); err != nil {
		return nil, err
	}
	if depth > MaxDepth {
		return nil, c.fail(n, "nested more than %d levels deep", MaxDepth)
	}
	c.deepest = max(c.deepest, depth)
	switch n.Kind {
	case yaml.AliasNode:
		return c.alias(n, depth)
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.anchored(item, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return c.mapping(n, depth)
	}
	return nil, c.fail(n, "unsupported YAML node")
}

// anchored converts n, remembering its value when it carries an anchor.
func (c *converter) anchored(n *yaml.Node, depth int) (any, error) {
	if n.Anchor == "" || n.Kind == yaml.AliasNode {
		return c.value(n, depth)
	}
	if s, ok := c.shared[n]; ok {
		return c.reuse(n, s, depth)
	}
	before, bytesBefore, outer := c.count, c.bytes, c.deepest
	c.deepest = depth
	v, err := c.value(n, depth)
	if err != nil {
		return nil, err
	}
	if c.shared == nil {
		c.shared = map[*yaml.Node]sharedValue{}
	}
	c.shared[n] = sharedValue{value: v, size: c.count - before, bytes: c.bytes - bytesBefore, height: c.deepest - depth}
	c.deepest = max(c.deepest, outer)
	return v, nil
}

// alias resolves an alias node, which itself counts as one value.
func (c *converter) alias(n *yaml.Node, depth int) (any, error) {
	if s, ok := c.shared[n.Alias]; ok {
		return c.reuse(n, s, depth+1)
	}
	return c.anchored(n.Alias, depth+1)
}

// reuse accounts for a shared value expanded at depth, as converting it
// again would.
func (c *converter) reuse(n *yaml.Node, s sharedValue, depth int) (any, error) {
	if err := c.grow(n, s.size, s.bytes); err != nil {
		return nil, err
	}
	if depth+s.height > MaxDepth {
		return nil, c.fail(n, "nested more than %d levels deep", MaxDepth)
	}
	c.deepest = max(c.deepest, depth+s.height)
	return s.value, nil
}

func (c *converter) mapping(n *yaml.Node, depth int) (any, error) {
	out := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			return nil, c.fail(k, "merge keys (<<) are not allowed in governed files")
		}
		if k.Kind != yaml.ScalarNode {
			return nil, c.fail(k, "mapping keys must be plain scalars")
		}
		if _, dup := out[k.Value]; dup {
			return nil, c.fail(k, "duplicate key %q", k.Value)
		}
		if err := c.grow(k, 0, len(k.Value)); err != nil {
			return nil, err
		}
		val, err := c.anchored(v, depth+1)
		if err != nil {
			return nil, err
		}
		out[k.Value] = val
	}
	return out, nil
}

func (c *converter) scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, c.fail(n, "bad boolean %q", n.Value)
		}
		return b, nil
	case "!!int":
		i, ok := integer(n)
		if !ok {
			return nil, c.fail(n, "bad integer %q", n.Value)
		}
		return i, nil
	case "!!float":
		if i, ok := decimalInteger(n); ok {
			return i, nil
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, c.fail(n, "bad number %q", n.Value)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, c.fail(n, "%q is not a number JSON can hold", n.Value)
		}
		return f, nil
	case "!!timestamp":
		var t time.Time
		if err := n.Decode(&t); err != nil {
			return n.Value, nil
		}
		return Timestamp{Text: n.Value, Time: t}, nil
	case "!!binary":
		return nil, c.fail(n, "binary values are not allowed in governed files")
	}
	return n.Value, nil
}
