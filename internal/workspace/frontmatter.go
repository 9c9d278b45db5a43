package workspace

import (
	"bytes"
	"errors"

	"gopkg.in/yaml.v3"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// MaxDecodedFrontmatter bounds the frontmatter decoded to decide whether
// a file declares itself (decodedDeclaration): a declaration is decided on
// every version of every Markdown file directly in an artifacts
// directory, on every commit a check reads, so a large frontmatter is not
// decoded for it. Above the bound, a frontmatter that holds what a
// declaration needs declares (fail closed: the file is then judged as an
// artifact, and smp/parse or smp/schema says what is wrong with it).
const MaxDecodedFrontmatter = 256 << 10

// decodedDeclaration decides the declaration of data (a BOM removed,
// opening with a frontmatter fence) from its frontmatter as yaml.v3 reads
// it: decoded is false when the frontmatter does not decode. A
// frontmatter that holds nothing a declaration needs is not decoded.
//
// It answers yes wherever yaml.v3 or small-hook's own decoding (yamldoc,
// what rules/smp reads) reads a declaration, and may answer yes beyond
// them: any key, at the top level or merged into it (<<), that is smp or
// type as written or as decoded counts, duplicates included.
func decodedDeclaration(data []byte) (declares, decoded bool) {
	text := frontmatterText(data)
	switch {
	case !mayDeclare(text):
		return false, true
	case len(text) > MaxDecodedFrontmatter:
		return true, true
	}
	var root yaml.Node
	if err := yaml.Unmarshal(text, &root); err != nil {
		return false, false
	}
	top := &root
	if top.Kind == yaml.DocumentNode {
		if len(top.Content) == 0 {
			return false, true
		}
		top = top.Content[0]
	}
	w := mappingWalk{seen: map[*yaml.Node]bool{}}
	return w.declares(top), true
}

// frontmatterText is the text of data's frontmatter as rules/smp splits
// it (yamldoc.SplitFrontmatter), or, for one that is never closed (or
// opens with a fence only the scan accepts), everything after the
// opening line, as the scan reads it.
func frontmatterText(data []byte) []byte {
	fm, err := yamldoc.SplitFrontmatter(data)
	if err == nil {
		return fm.YAML
	}
	if errors.Is(err, yamldoc.ErrNoFrontmatter) || errors.Is(err, yamldoc.ErrUnclosedFrontmatter) {
		_, rest, _ := bytes.Cut(data, []byte("\n"))
		return rest
	}
	return nil
}

// mayDeclare reports whether YAML text could decode to a declaration: the
// key smp or the value knowledge-artifact is in it as written, or an
// escape (\) or a tag (!, as !!binary) could produce it.
func mayDeclare(text []byte) bool {
	return bytes.Contains(text, []byte("smp")) || bytes.Contains(text, []byte("knowledge-artifact")) || bytes.ContainsAny(text, `\!`)
}

// maxMergeDepth bounds how deeply merge keys are followed.
const maxMergeDepth = 100

// mappingWalk looks for a declaration in a mapping and the mappings merged
// into it, visiting each mapping once (an alias may name one many times).
type mappingWalk struct {
	seen map[*yaml.Node]bool
}

// declares reports whether mapping n, or one merged into it, has a
// declaring key.
func (w *mappingWalk) declares(n *yaml.Node) bool {
	return w.mapping(n, 0)
}

func (w *mappingWalk) mapping(n *yaml.Node, depth int) bool {
	n = unaliased(n)
	if n == nil || n.Kind != yaml.MappingNode || w.seen[n] || depth > maxMergeDepth {
		return false
	}
	w.seen[n] = true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := unaliased(n.Content[i]), n.Content[i+1]
		switch {
		case k == nil || k.Kind != yaml.ScalarNode:
		case k.ShortTag() == "!!merge":
			if w.merged(v, depth+1) {
				return true
			}
		case isString(k, "smp"):
			if smpDeclares(v) {
				return true
			}
		case isString(k, "type"):
			if isString(unaliased(v), "knowledge-artifact") {
				return true
			}
		}
	}
	return false
}

// merged reports whether the value of a merge key (a mapping, or a
// sequence of them) declares.
func (w *mappingWalk) merged(v *yaml.Node, depth int) bool {
	v = unaliased(v)
	if v != nil && v.Kind == yaml.SequenceNode {
		for _, item := range v.Content {
			if w.mapping(item, depth) {
				return true
			}
		}
		return false
	}
	return w.mapping(v, depth)
}

// smpDeclares reports whether the value of the key smp declares: any
// value but false and null (a value that does not decode declares).
func smpDeclares(v *yaml.Node) bool {
	v = unaliased(v)
	if v == nil || v.Kind != yaml.ScalarNode {
		return v != nil
	}
	var x any
	if err := v.Decode(&x); err != nil {
		return true
	}
	return x != nil && x != false
}

// isString reports whether scalar n is s, as written (as yamldoc reads a
// key) or as yaml.v3 decodes it (a !!binary value, say).
func isString(n *yaml.Node, s string) bool {
	if n == nil || n.Kind != yaml.ScalarNode {
		return false
	}
	if n.Value == s {
		return true
	}
	if n.ShortTag() == "!!str" {
		return false
	}
	var x any
	return n.Decode(&x) == nil && x == s
}

// unaliased follows an alias to the node it names.
func unaliased(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxMergeDepth; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}
