package yamldoc

import (
	"bytes"
	"strings"
)

// maxGenDepth bounds the nesting docGen writes, so that a long input
// makes more items, not an exponentially larger document.
const maxGenDepth = 4

// docGen builds an old progress-like document and a text appended to it
// from fuzz input: mostly what a SMALL tool writes, mixed with everything
// that can make a line scanner and yaml.v3 disagree (other line breaks,
// document markers, directives, block scalars, flow collections, anchors,
// aliases, tags, multi-line quoted strings, "entries:" inside strings,
// tabs, comments, duplicate keys). Each choice takes one input byte; at
// each point one choice in sixteen is a hostile one. When the input runs
// out every choice is the first, plainest one.
type docGen struct {
	in  []byte
	pos int
	b   strings.Builder
}

// appendCase returns the old document and the appended text a fuzz input
// describes. An input that starts with 0xFF is taken literally instead:
// old, a NUL byte, then the appended text.
func appendCase(in []byte) (old, tail []byte) {
	if len(in) > 0 && in[0] == 0xFF {
		o, t, _ := bytes.Cut(in[1:], []byte{0})
		return o, t
	}
	g := &docGen{in: in}
	col := []int{4, 2, 0}[g.pick(3)]
	g.old(col)
	old = []byte(g.b.String())
	g.b.Reset()
	g.tail(col)
	return old, []byte(g.b.String())
}

func (g *docGen) pick(n int) int {
	if g.pos >= len(g.in) {
		return 0
	}
	g.pos++
	return int(g.in[g.pos-1]) % n
}

// hostile reports whether this choice is to be a hostile one.
func (g *docGen) hostile() bool {
	return g.pick(16) == 15
}

// choose returns one of safe, or now and then one of bad.
func (g *docGen) choose(safe []string, bad ...string) string {
	if g.hostile() {
		return bad[g.pick(len(bad))]
	}
	return safe[g.pick(len(safe))]
}

// one returns one of choices.
func (g *docGen) one(choices ...string) string {
	return choices[g.pick(len(choices))]
}

func (g *docGen) write(parts ...string) {
	for _, p := range parts {
		g.b.WriteString(p)
	}
}

func pad(col int) string {
	return strings.Repeat(" ", col)
}

// eol ends a line, now and then with a break other than "\n".
func (g *docGen) eol() string {
	return g.choose([]string{"\n"}, "\r\n", "\r", "\u0085", "\u2028", "\u2029", " \n", "\t\n", "\n\n", "\n# c\n", "\n  # c\n", "\n      # c\n", "\n          #\n")
}

func (g *docGen) old(col int) {
	for range g.pick(4) {
		if !g.hostile() {
			g.write(g.one(`small_version: "1.0.0"`, "owner: agent", "# progress", "notes: x"), g.eol())
			continue
		}
		switch g.pick(8) {
		case 0:
			g.write(`notes: "a`, g.eol(), "entries:", g.eol(), `  - x"`, g.eol())
		case 1:
			g.write("notes: 'a", g.eol(), "entries:'", g.eol())
		case 2:
			g.write("meta: |", g.eol(), "  entries:", g.eol(), "  - x", g.eol())
		case 3:
			g.write("flow: [a,", g.eol(), "entries: ]", g.eol())
		case 4:
			g.write("entries:", g.eol(), pad(col), "- dup", g.eol())
		default:
			g.write(g.one("%YAML 1.2", "---", "...", "owner: agent # c", "&a owner: agent", "? owner", "--- !!map", "\ufeffowner: x"), g.eol())
		}
	}
	g.write(g.choose([]string{"entries:"}, "entries:  ", "entries: &e", "entries: !!seq", "entries: # c", "'entries':", "entries :", " entries:"), g.eol())
	for range 1 + g.pick(3) {
		g.item(col, 0)
	}
	g.write(g.choose([]string{""}, "# end\n", "\n", "...\n", "---\n", "...\n# c\n", "--- x\n", "%YAML 1.2\n", "\n\n", "#\n"))
}

func (g *docGen) tail(col int) {
	g.write(g.choose([]string{""}, "\n", "# c\n", "owner: human\n", "...\n", "---\n",
		pad(col+2)+"- x\n", pad(col+4)+"more: x\n", "\t- x\n", pad(col)+"  # c\n"))
	for range 1 + g.pick(2) {
		if g.hostile() {
			g.item(col+2*(1+g.pick(2))-2*g.pick(2), 0)
			continue
		}
		g.item(col, 0)
	}
}

// item writes one sequence item at col.
func (g *docGen) item(col, depth int) {
	if col < 0 {
		col = 0
	}
	if g.hostile() {
		switch g.pick(4) {
		case 0:
			g.write(pad(col), "-", g.eol())
			col += 2
			g.write(pad(col))
		case 1:
			g.write(pad(col), "- - ", g.scalar(), g.eol())
			return
		case 2:
			g.write(pad(col), "-  ", g.scalar(), g.eol())
			return
		default:
			g.write(pad(col), "- ", g.scalar(), g.eol())
			return
		}
	} else {
		g.write(pad(col), "- ")
	}
	g.mapping(col+2, depth)
}

// mapping writes the keys of a block mapping at col, the first one on the
// current line.
func (g *docGen) mapping(col, depth int) {
	first := g.pick(8)
	for k := range 1 + g.pick(5) {
		if k > 0 {
			g.write(pad(col))
		}
		g.write(g.key(first+k), ":")
		g.value(col, depth)
	}
}

// key returns the k-th key of a mapping: distinct ones, or now and then a
// hostile or duplicate one.
func (g *docGen) key(k int) string {
	if !g.hostile() {
		names := [...]string{"task_id", "evidence", "notes", "status", "timestamp", "command", "replayId", "log"}
		return names[k%len(names)]
	}
	return g.one("entries", "task_id", "a", "? x", "&k a", "!!str t", "'q'", `"d"`, "<<", "a b", "a\tb", "k#", "-k", "1e3",
		strings.Repeat("k", 300))
}

// value writes what follows "key:" at keyCol: the rest of the line and
// any lines that belong to the value.
func (g *docGen) value(keyCol, depth int) {
	in := pad(keyCol + 2)
	switch g.pick(12) {
	case 0:
		g.write(" ", g.choose([]string{"|-", "|", ">", ">-"}, "|+", ">+", "|2", "| # c", "|-\t", "|0", "|1-"), g.eol())
		lines := 1 + g.pick(4)
		if g.hostile() {
			lines = 0
		}
		for i := range lines {
			ind := keyCol + 2
			if g.hostile() {
				ind = keyCol + g.pick(5)
			}
			text := g.choose([]string{"x", "foo \"q\" # no comment", "entries:", "- y", "...", "---", "a: b", "x\t"},
				"\t", " \t", "\u0085", "\ufeff", "")
			if i > 0 {
				text = g.choose([]string{text, "", "\tfoo", "  more"}, "\t", " \t")
			}
			g.write(pad(ind), text, g.eol())
		}
	case 1, 2:
		g.write(g.eol())
		if depth >= maxGenDepth {
			g.write(in, "k: v", g.eol())
			return
		}
		g.write(in)
		g.mapping(keyCol+2, depth+1)
	case 3:
		g.write(g.eol())
		if depth >= maxGenDepth {
			g.write(in, "- v", g.eol())
			return
		}
		for range 1 + g.pick(2) {
			g.item(keyCol+2*g.pick(2), depth+1)
		}
	case 4:
		if !g.hostile() {
			g.write(g.eol())
			return
		}
		switch g.pick(5) {
		case 0:
			g.write(" ", g.one("[a, b]", "{a: 1}", "[]", "{}", "[a,"+g.eol()+in+"b]", "{a: 1,"+g.eol()+in+"entries: 2}"), g.eol())
		case 1:
			g.write(" ", g.one("&a1 x", "*a1", "&a2 [x]", "&a3", "*a3", "&a4 y"), g.eol())
		case 2:
			g.write(" ", g.one("!!str 1", "!x y", "!!binary aGk=", "!!int 12", "!<tag:yaml.org,2002:str> s"), g.eol())
		case 3:
			g.write(" ", g.one(`"a`, "'a", `"a\`), g.eol(), in, g.one("entries:", "- b", "..."), g.one(`"`, "'"), g.eol())
		default:
			g.write(" ", g.scalar(), g.one(" # c", "  ", " #c", "\t# c"), g.eol())
		}
	default:
		g.write(" ", g.scalar(), g.eol())
	}
}

// scalar returns a one-line scalar, safe or not.
func (g *docGen) scalar() string {
	return g.choose([]string{"x", "go vet ./... is clean", "completed", `"2026-11-22T10:20:00.000000001Z"`,
		"'it''s'", `"q\"x"`, `"\x41\u00e9\t"`, ".small-cache/logs/x.txt", "git stash drop stash@{0}",
		"echo 'a' \"b\"", "a#b", "a:b", "12", "1.5", "é—ü", "true", "~", "2026-01-01", "0x1F", "-1", ".5",
		"12345678901234567890", strings.Repeat("0123456789abcdef", 4)},
		"123456789012345678901234", ".inf", "-.Inf", ".nan", "-", "- x",
		"a: b", "a #b", "entries:", "x:", "'entries:'", "--- x", "... x", "%x", "@x", "`x", "x\ty", "\ufeffx",
		"x\u0085y", "x\u2028y", "x\u00a0y", "|", "[x]", "{a: 1}", "*x", "&x y", "!t y", "? x", ": x", ",x",
		`"bad \q"`, `"\ud800"`, `"\x4"`, "'a'b'", `"a" b`, "'a' #c", "x\x01", "x\x7f", "x\xff", "\u00ff", "\U0001F600", "\uFFFE")
}
