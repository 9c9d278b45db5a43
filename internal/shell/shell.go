// Package shell splits a POSIX shell script, as bash reads it, into the
// simple commands it runs: each command's words with quotes removed, its
// variable assignments, the files its output redirections name and the
// bodies of its here-documents. Commands inside command substitutions
// ($(…), `…`) and process substitutions (<(…), >(…)) are returned too.
//
// It is best effort, and says so: nothing is expanded. A word that holds
// a parameter expansion, a command substitution or arithmetic is marked
// Dynamic (its text keeps the expansion as written), aliases and
// functions are not followed, and control structures (if, for, case) are
// read as the commands they contain, not run. A script whose meaning
// depends on what an expansion yields cannot be judged from its text;
// TestAgreesWithBash compares the result with what bash runs.
package shell

import "strings"

// Command is one simple command of a script.
type Command struct {
	// Assign holds the assignments before the command's name
	// (NAME=value, quotes removed), which set its environment.
	Assign []string
	// Args are the command's words, quotes removed; Args[0] is its name.
	// A command of assignments alone has none.
	Args []string
	// Dynamic says, for each of Args, whether the word holds an expansion
	// whose value the parser cannot know.
	Dynamic []bool
	// Outputs are the files the command's output redirections write (>,
	// >>, >|, &>, &>>, <>), quotes removed.
	Outputs []string
	// Heredocs are the bodies of the here-documents fed to the command.
	Heredocs []string
}

// Parse returns the simple commands of script, in the order they start,
// followed by those of the substitutions within them.
func Parse(script string) []Command {
	var scanned int
	return parse(script, 0, &scanned)
}

// maxDepth is how deep substitutions inside substitutions are parsed: each
// level reads its text once more, so the work stays within maxDepth times
// the script's length. Deeper ones are dynamic words, not parsed.
const maxDepth = 32

// parse parses a script that lies depth substitutions deep, adding the
// bytes it reads to scanned.
func parse(script string, depth int, scanned *int) []Command {
	*scanned += len(script)
	p := &parser{lx: lexer{src: script, depth: depth, scanned: scanned}}
	p.run()
	return append(p.commands, p.lx.nested...)
}

// parser assembles the lexer's tokens into commands.
type parser struct {
	lx       lexer
	commands []Command
	cur      Command
	// started says the current command has a word or a redirection.
	started bool
	// pending are the here-documents whose bodies start after the
	// current line: the command each belongs to, and its delimiter.
	pending []pendingDoc
}

type pendingDoc struct {
	command  int // index in commands, or -1 for the current one
	delim    string
	stripTab bool
}

// reservedStart are the words that, first in a command, open or continue
// a compound command: the command proper follows them.
var reservedStart = map[string]bool{
	"!": true, "{": true, "if": true, "then": true, "else": true, "elif": true,
	"do": true, "while": true, "until": true,
}

// reservedEnd are the words that, first in a command, close a compound
// command; redirections may follow them.
var reservedEnd = map[string]bool{"}": true, "fi": true, "done": true, "esac": true}

func (p *parser) run() {
	for {
		t := p.lx.next()
		switch t.kind {
		case tokEOF:
			p.end()
			p.readHeredocs()
			return
		case tokNewline:
			p.end()
			p.readHeredocs()
		case tokOperator:
			p.end()
		case tokRedirect:
			p.redirect(t)
		case tokWord:
			p.word(t)
		}
	}
}

// word adds a word to the current command.
func (p *parser) word(t token) {
	if len(p.cur.Args) == 0 {
		literal := !t.dynamic && !t.quoted
		switch {
		case literal && reservedStart[t.text]:
			return
		case literal && reservedEnd[t.text]:
			p.started = true
			return
		case t.assign:
			p.cur.Assign = append(p.cur.Assign, t.text)
			p.started = true
			return
		}
	}
	p.cur.Args = append(p.cur.Args, t.text)
	p.cur.Dynamic = append(p.cur.Dynamic, t.dynamic)
	p.started = true
}

// redirect reads the target of a redirection operator.
func (p *parser) redirect(op token) {
	p.started = true
	target := p.lx.next()
	if target.kind != tokWord {
		p.lx.unread(target)
		return
	}
	switch op.text {
	case "<<", "<<-":
		p.pending = append(p.pending, pendingDoc{command: -1, delim: target.text, stripTab: op.text == "<<-"})
	case "<<<":
		p.cur.Heredocs = append(p.cur.Heredocs, target.text+"\n")
	case ">&", "<&":
		if op.text == ">&" && !isDup(target.text) {
			p.cur.Outputs = append(p.cur.Outputs, target.text)
		}
	case ">", ">>", ">|", "&>", "&>>", "<>":
		p.cur.Outputs = append(p.cur.Outputs, target.text)
	}
}

// isDup reports a >& target that duplicates a descriptor (2>&1, >&-)
// rather than naming a file.
func isDup(s string) bool {
	if s == "-" {
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// end closes the current command.
func (p *parser) end() {
	if !p.started {
		return
	}
	idx := len(p.commands)
	for i := range p.pending {
		if p.pending[i].command == -1 {
			p.pending[i].command = idx
		}
	}
	p.commands = append(p.commands, p.cur)
	p.cur, p.started = Command{}, false
}

// readHeredocs reads the bodies of the here-documents the line just
// ended opened, in order.
func (p *parser) readHeredocs() {
	for _, d := range p.pending {
		body := p.lx.heredoc(d.delim, d.stripTab)
		if d.command >= 0 {
			c := &p.commands[d.command]
			c.Heredocs = append(c.Heredocs, body)
		}
	}
	p.pending = p.pending[:0]
}

// Quote returns s as one single-quoted word of the POSIX shell, which
// Parse reads back as s.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
