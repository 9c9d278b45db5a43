package yamldoc

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// Line returns the line of the node at path, a list of mapping keys and
// sequence indexes ("entries", "3", "task_id"), as a JSON pointer's tokens.
// When path does not resolve all the way, it returns the line of the
// deepest node it reached; for a nil document, 1.
func (d *Doc) Line(path ...string) int {
	n := d.Root()
	if n == nil {
		return 1 + d.offset()
	}
	for _, tok := range path {
		next := child(n, tok)
		if next == nil {
			break
		}
		n = next
	}
	return n.Line + d.LineOffset
}

// KeyLine is Line for the key of a mapping entry rather than its value:
// the line to name when a key is missing or unexpected inside its parent.
func (d *Doc) KeyLine(path ...string) int {
	parent := d.Root()
	if parent == nil || len(path) == 0 {
		return d.Line(path...)
	}
	for _, tok := range path[:len(path)-1] {
		next := child(parent, tok)
		if next == nil {
			return d.Line(path...)
		}
		parent = next
	}
	parent = deref(parent)
	if parent.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(parent.Content); i += 2 {
			if parent.Content[i].Value == path[len(path)-1] {
				return parent.Content[i].Line + d.LineOffset
			}
		}
	}
	return d.Line(path...)
}

// Node returns the node at path, or nil.
func (d *Doc) Node(path ...string) *yaml.Node {
	n := d.Root()
	if n == nil {
		return nil
	}
	for _, tok := range path {
		if n = child(n, tok); n == nil {
			return nil
		}
	}
	return deref(n)
}

func (d *Doc) offset() int {
	if d == nil {
		return 0
	}
	return d.LineOffset
}

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < MaxDepth; i++ {
		n = n.Alias
	}
	return n
}

func child(n *yaml.Node, tok string) *yaml.Node {
	n = deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == tok {
				return n.Content[i+1]
			}
		}
	case yaml.SequenceNode:
		i, err := strconv.Atoi(tok)
		if err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}
