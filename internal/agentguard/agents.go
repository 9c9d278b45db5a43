package agentguard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
)

// Agent is a coding agent whose pre-tool hook the guard serves: how its
// hook is registered and how each tool it judges is called. Every agent
// here documents a hook that runs a command before a tool, hands it the
// call as JSON on standard input, and blocks the call when the command
// exits with code 2, showing its standard error to the model.
type Agent struct {
	// Name is how the command line names the agent: "claude".
	Name string
	// Title is the agent's product name, for messages: "Claude Code".
	Title string
	// Settings is the project's settings file that holds its hooks,
	// relative to the repository's root; UserSettings is the user's,
	// relative to the home directory.
	Settings, UserSettings string
	// Event is the hook event that runs before a tool.
	Event string
	// Matcher is the regular expression over tool names that selects the
	// tools the guard judges.
	Matcher string
	// HookName names the guard's hook in the settings file, for an agent
	// that shows and switches hooks by name; "" for none.
	HookName string
	// Docs is where the hook contract is documented.
	Docs string
	// tools decodes the input of each tool the guard judges; any other
	// tool passes unjudged.
	tools map[string]func(input []byte) (Call, error)
}

// Agents lists the agents the guard serves, in the order the
// documentation names them.
func Agents() []*Agent {
	return []*Agent{
		{
			Name: "claude", Title: "Claude Code",
			Settings: ".claude/settings.json", UserSettings: ".claude/settings.json",
			Event: "PreToolUse", Matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash",
			Docs: "https://docs.anthropic.com/en/docs/claude-code/hooks",
			tools: map[string]func([]byte) (Call, error){
				"Write":        decodeWrite("file_path", "content"),
				"Edit":         decodeClaudeEdit,
				"MultiEdit":    decodeClaudeMultiEdit,
				"NotebookEdit": decodeNotebookEdit,
				"Bash":         decodeCommand("command", ""),
			},
		},
		{
			Name: "gemini", Title: "Gemini CLI",
			Settings: ".gemini/settings.json", UserSettings: ".gemini/settings.json",
			Event: "BeforeTool", Matcher: "write_file|replace|run_shell_command", HookName: "small-hook-guard",
			Docs: "https://geminicli.com/docs/hooks/reference",
			tools: map[string]func([]byte) (Call, error){
				"write_file":        decodeWrite("file_path", "content"),
				"replace":           decodeGeminiReplace,
				"run_shell_command": decodeCommand("command", "dir_path"),
			},
		},
	}
}

// Lookup returns the agent called name.
func Lookup(name string) (*Agent, bool) {
	for _, a := range Agents() {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names lists the agents' names.
func Names() []string {
	var out []string
	for _, a := range Agents() {
		out = append(out, a.Name)
	}
	return out
}

// hookInput is what both agents' pre-tool hooks read on standard input.
type hookInput struct {
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	Cwd       string          `json:"cwd"`
}

// Decode reads the hook's input: the call, and whether the guard judges
// its tool at all (a Read or a search passes unjudged). A relative path
// or directory is taken from the session's working directory (cwd, else
// dir).
func (a *Agent) Decode(data []byte, dir string) (Call, bool, error) {
	var in hookInput
	if err := strictJSON(data, &in); err != nil {
		return Call{}, false, fmt.Errorf("reading %s's hook input: %w", a.Title, err)
	}
	if in.ToolName == "" {
		return Call{}, false, fmt.Errorf("reading %s's hook input: it names no tool (tool_name)", a.Title)
	}
	decode, ok := a.tools[in.ToolName]
	if !ok {
		return Call{}, false, nil
	}
	if len(in.ToolInput) == 0 {
		return Call{}, false, fmt.Errorf("reading %s's hook input: the %s call has no tool_input", a.Title, in.ToolName)
	}
	call, err := decode(in.ToolInput)
	if err != nil {
		return Call{}, false, fmt.Errorf("reading %s's %s call: %w", a.Title, in.ToolName, err)
	}
	call.Agent, call.Tool = a, in.ToolName
	if in.Cwd != "" {
		dir = in.Cwd
	}
	if call.Dir == "" || !filepath.IsAbs(call.Dir) {
		call.Dir = filepath.Join(dir, call.Dir)
	}
	return call, true, nil
}

// strictJSON decodes one JSON value into v: trailing data is an error;
// fields v does not name are ignored (the agents add fields).
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}

// field is a required string field of a tool's input.
func field(name string, v *string) error {
	if v == nil {
		return fmt.Errorf("it has no %s", name)
	}
	return nil
}

// decodeWrite decodes a tool that writes a whole file.
func decodeWrite(pathField, contentField string) func([]byte) (Call, error) {
	return func(data []byte) (Call, error) {
		var in map[string]json.RawMessage
		if err := strictJSON(data, &in); err != nil {
			return Call{}, err
		}
		path, err := stringField(in, pathField)
		if err != nil {
			return Call{}, err
		}
		content, err := stringField(in, contentField)
		if err != nil {
			return Call{}, err
		}
		return Call{Path: path, Change: Overwrite{Content: content}}, nil
	}
}

// stringField reads a required string field.
func stringField(in map[string]json.RawMessage, name string) (string, error) {
	raw, ok := in[name]
	if !ok {
		return "", fmt.Errorf("it has no %s", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s is not a string", name)
	}
	return s, nil
}

// decodeCommand decodes a tool that runs a shell command, in the
// directory dirField names when the tool has one.
func decodeCommand(commandField, dirField string) func([]byte) (Call, error) {
	return func(data []byte) (Call, error) {
		var in map[string]json.RawMessage
		if err := strictJSON(data, &in); err != nil {
			return Call{}, err
		}
		command, err := stringField(in, commandField)
		if err != nil {
			return Call{}, err
		}
		call := Call{Command: command}
		if _, ok := in[dirField]; ok && dirField != "" {
			if call.Dir, err = stringField(in, dirField); err != nil {
				return Call{}, err
			}
		}
		return call, nil
	}
}

// claudeReplacement is one replacement as Claude Code's Edit and
// MultiEdit write it.
type claudeReplacement struct {
	Old        *string `json:"old_string"`
	New        *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
}

func (r claudeReplacement) replacement() (Replacement, error) {
	if err := field("old_string", r.Old); err != nil {
		return Replacement{}, err
	}
	if err := field("new_string", r.New); err != nil {
		return Replacement{}, err
	}
	return Replacement{Old: *r.Old, New: *r.New, All: r.ReplaceAll}, nil
}

func decodeClaudeEdit(data []byte) (Call, error) {
	var in struct {
		FilePath *string `json:"file_path"`
		claudeReplacement
	}
	if err := strictJSON(data, &in); err != nil {
		return Call{}, err
	}
	if err := field("file_path", in.FilePath); err != nil {
		return Call{}, err
	}
	r, err := in.replacement()
	if err != nil {
		return Call{}, err
	}
	return Call{Path: *in.FilePath, Change: ClaudeEdit{Edits: []Replacement{r}}}, nil
}

func decodeClaudeMultiEdit(data []byte) (Call, error) {
	var in struct {
		FilePath *string             `json:"file_path"`
		Edits    []claudeReplacement `json:"edits"`
	}
	if err := strictJSON(data, &in); err != nil {
		return Call{}, err
	}
	if err := field("file_path", in.FilePath); err != nil {
		return Call{}, err
	}
	edit := ClaudeEdit{Multi: true}
	for i, e := range in.Edits {
		r, err := e.replacement()
		if err != nil {
			return Call{}, fmt.Errorf("edits[%d]: %w", i, err)
		}
		edit.Edits = append(edit.Edits, r)
	}
	return Call{Path: *in.FilePath, Change: edit}, nil
}

func decodeGeminiReplace(data []byte) (Call, error) {
	var in struct {
		FilePath *string `json:"file_path"`
		Old      *string `json:"old_string"`
		New      *string `json:"new_string"`
		Expected int     `json:"expected_replacements"`
	}
	if err := strictJSON(data, &in); err != nil {
		return Call{}, err
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"file_path", in.FilePath}, {"old_string", in.Old}, {"new_string", in.New}} {
		if err := field(f.name, f.v); err != nil {
			return Call{}, err
		}
	}
	return Call{Path: *in.FilePath, Change: GeminiReplace{Replacement: Replacement{Old: *in.Old, New: *in.New}, Expected: in.Expected}}, nil
}
