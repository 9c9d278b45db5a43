package yamldoc

import (
	"slices"

	"gopkg.in/yaml.v3"
)

// String is a string scalar of a document and where it is written, for
// a reader that goes back to the text (the secret scan looks for what a
// decoded string holds on the lines that spell it). Lines and columns are
// counted in the decoded text, from 1, as yaml.v3 counts them: add the
// Doc's LineOffset for a line of the file.
type String struct {
	// Value is the decoded string.
	Value string
	// Key is the mapping key the scalar is the value of ("" for a key, a
	// sequence item or the document itself), and KeyLine its line (0
	// when there is none).
	Key     string
	KeyLine int
	// Line and Column are where the scalar starts; for an alias of an
	// anchored string, where the alias is.
	Line, Column int
	// Quote is the quote the scalar is written in: '"', '\'', or 0.
	Quote byte
	// Alias is set for an alias of an anchored string, and Anchor is
	// then the index in the Doc's Strings of the anchored string it
	// repeats: the same string, which a reader need read only once
	// however many aliases repeat it. (For an alias whose anchor is not
	// among the Strings, Anchor is its own index.)
	Alias  bool
	Anchor int
	// NextLine is the first line after Line on which another node starts;
	// 0 when none does.
	NextLine int
}

// stringsOf lists the string scalars under top, in document order.
func stringsOf(top *yaml.Node) []String {
	if top == nil {
		return nil
	}
	var c stringCollector
	c.walk(top, nil, 0)
	if cap(c.found) > len(c.found)+len(c.found)/4 {
		// Documents are kept while a run may ask for them.
		return slices.Clone(c.found)
	}
	return c.found
}

// stringCollector gathers the string scalars of a tree of nodes and, as
// it meets each node, gives the scalars before it their NextLine: nodes
// come in the order they are written, so the first node met on a later
// line than a scalar is the first to start after it.
type stringCollector struct {
	found []String
	// placed is how many of found have their NextLine.
	placed int
	// anchors are the anchored strings met so far, by node: an alias
	// comes after its anchor.
	anchors map[*yaml.Node]int
}

// meet notes a node that starts at line.
func (c *stringCollector) meet(line int) {
	for ; c.placed < len(c.found) && c.found[c.placed].Line < line; c.placed++ {
		c.found[c.placed].NextLine = line
	}
}

// walk collects the string scalars under n, the value of key (nil: none).
func (c *stringCollector) walk(n, key *yaml.Node, depth int) {
	if depth > MaxDepth {
		return
	}
	c.meet(n.Line)
	s := String{}
	if key != nil {
		s.Key, s.KeyLine = key.Value, key.Line
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			c.walk(n.Content[i], nil, depth+1)
			c.walk(n.Content[i+1], n.Content[i], depth+1)
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			c.walk(item, nil, depth+1)
		}
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" && n.Value != "" {
			s.Value, s.Line, s.Column = n.Value, n.Line, n.Column
			switch {
			case n.Style&yaml.DoubleQuotedStyle != 0:
				s.Quote = '"'
			case n.Style&yaml.SingleQuotedStyle != 0:
				s.Quote = '\''
			}
			if n.Anchor != "" {
				if c.anchors == nil {
					c.anchors = map[*yaml.Node]int{}
				}
				c.anchors[n] = len(c.found)
			}
			c.found = append(c.found, s)
		}
	case yaml.AliasNode:
		// An alias brings an anchored value to a new place, under a new
		// key: what it holds is written where the anchor is, and judged
		// at the alias.
		if t := n.Alias; t != nil && t.Kind == yaml.ScalarNode && t.ShortTag() == "!!str" && t.Value != "" {
			at, ok := c.anchors[t]
			if !ok {
				// Not met before it (it cannot be, in a document that
				// decodes): the alias stands for itself.
				at = len(c.found)
			}
			s.Value, s.Line, s.Column, s.Alias, s.Anchor = t.Value, n.Line, n.Column, true, at
			c.found = append(c.found, s)
		}
	}
}
