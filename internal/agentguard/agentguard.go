// Package agentguard is small-hook's courtesy layer in front of a coding
// agent: it reads the tool call an agent is about to make, as the agent's
// pre-tool hook hands it over (Claude Code's PreToolUse, Gemini CLI's
// BeforeTool), and works out what the call would do. A file write
// becomes the file's content after the call, computed as the agent's tool
// computes it (an Edit's replacement applied to the file as it stands),
// which small-hook then judges with the staged check's rules and trust
// roots; a shell command becomes the git commands it runs, judged here for
// what would switch small-hook's guarantees off or rewrite governed
// history. The git hooks, CI and the server remain the guarantee: the
// guard only stops an agent earlier, with advice it can act on.
package agentguard

import "fmt"

// Call is one tool call an agent is about to make, as the guard reads it.
type Call struct {
	// Agent is the agent that makes the call.
	Agent *Agent
	// Tool is the tool's name as the agent calls it ("Edit", "replace").
	Tool string
	// Path is the file a write changes, as the call names it (absolute,
	// or relative to Dir); "" for a command.
	Path string
	// Dir is the directory the call runs in: the session's working
	// directory, or the one a shell command names.
	Dir string
	// Change computes the file's content after a write; nil for a command.
	Change Change
	// Command is the script a shell command runs; "" for a write.
	Command string
}

// Change computes a file's content after a tool call from its content
// before it, exactly as the agent's tool does.
type Change interface {
	// Apply returns the file's content after the call; before is nil when
	// the file does not exist. An error is a *ToolFailure: the tool fails
	// (or, for a tool that corrects its input with the model, may do what
	// cannot be computed) and writes nothing the guard can know.
	Apply(before []byte) ([]byte, error)
}

// ToolFailure is a tool call that does not write what it asks: the tool
// fails on it, or would have to guess.
type ToolFailure struct {
	// Reason says why, as the tool would.
	Reason string
	// Guessed says the tool does not simply fail: it asks the model to
	// correct the call (Gemini CLI's replace), and what it then writes
	// cannot be computed.
	Guessed bool
}

func (f *ToolFailure) Error() string { return f.Reason }

func failf(format string, args ...any) error {
	return &ToolFailure{Reason: fmt.Sprintf(format, args...)}
}

// Overwrite is a tool that writes a whole file: Claude Code's Write,
// Gemini CLI's write_file.
type Overwrite struct {
	Content string
}

// Apply returns the content the tool writes, whatever the file held.
func (o Overwrite) Apply([]byte) ([]byte, error) {
	return []byte(o.Content), nil
}
