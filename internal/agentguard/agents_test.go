package agentguard

import (
	"reflect"
	"strings"
	"testing"
)

// TestDecodeReadsTheDocumentedPayloads decodes each tool call in the shape
// the agent's hook documentation gives (tool_name, tool_input, cwd, and
// the fields each tool takes).
func TestDecodeReadsTheDocumentedPayloads(t *testing.T) {
	claude, _ := Lookup("claude")
	gemini, _ := Lookup("gemini")
	for _, tc := range []struct {
		agent   *Agent
		payload string
		want    Call
	}{
		{claude, `{"session_id":"s","transcript_path":"/t","cwd":"/repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/repo/a.md","content":"x"},"tool_use_id":"toolu_1"}`,
			Call{Tool: "Write", Path: "/repo/a.md", Dir: "/repo", Change: Overwrite{Content: "x"}}},
		{claude, `{"cwd":"/repo","tool_name":"Edit","tool_input":{"file_path":"/repo/a.md","old_string":"a","new_string":"b","replace_all":true}}`,
			Call{Tool: "Edit", Path: "/repo/a.md", Dir: "/repo", Change: ClaudeEdit{Edits: []Replacement{{Old: "a", New: "b", All: true}}}}},
		{claude, `{"cwd":"/repo","tool_name":"MultiEdit","tool_input":{"file_path":"/repo/a.md","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}}`,
			Call{Tool: "MultiEdit", Path: "/repo/a.md", Dir: "/repo", Change: ClaudeEdit{Multi: true, Edits: []Replacement{{Old: "a", New: "b"}, {Old: "c", New: "d", All: true}}}}},
		{claude, `{"cwd":"/repo","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/repo/n.ipynb","cell_id":"c1","new_source":"x","cell_type":"code","edit_mode":"insert"}}`,
			Call{Tool: "NotebookEdit", Path: "/repo/n.ipynb", Dir: "/repo", Change: NotebookEdit{CellID: "c1", Source: "x", CellType: "code", Mode: "insert"}}},
		{claude, `{"cwd":"/repo","tool_name":"Bash","tool_input":{"command":"git status","description":"Show status","timeout":120000}}`,
			Call{Tool: "Bash", Dir: "/repo", Command: "git status"}},
		{gemini, `{"session_id":"s","transcript_path":"/t","cwd":"/repo","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"write_file","tool_input":{"file_path":"/repo/a.md","content":"x"}}`,
			Call{Tool: "write_file", Path: "/repo/a.md", Dir: "/repo", Change: Overwrite{Content: "x"}}},
		{gemini, `{"cwd":"/repo","tool_name":"replace","tool_input":{"file_path":"/repo/a.md","old_string":"a","new_string":"b","expected_replacements":2}}`,
			Call{Tool: "replace", Path: "/repo/a.md", Dir: "/repo", Change: GeminiReplace{Replacement: Replacement{Old: "a", New: "b"}, Expected: 2}}},
		{gemini, `{"cwd":"/repo","tool_name":"run_shell_command","tool_input":{"command":"git push","dir_path":"sub"}}`,
			Call{Tool: "run_shell_command", Dir: "/repo/sub", Command: "git push"}},
	} {
		got, judged, err := tc.agent.Decode([]byte(tc.payload), "/elsewhere")
		if err != nil || !judged {
			t.Errorf("%s: judged %v, error %v", tc.payload, judged, err)
			continue
		}
		tc.want.Agent = tc.agent
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", tc.payload, got, tc.want)
		}
	}
}

func TestDecodeLeavesOtherToolsAndRefusesBrokenInput(t *testing.T) {
	claude, _ := Lookup("claude")
	if _, judged, err := claude.Decode([]byte(`{"tool_name":"Read","tool_input":{"file_path":"/a"}}`), "/"); judged || err != nil {
		t.Errorf("a Read: judged %v, error %v", judged, err)
	}
	call, _, err := claude.Decode([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), "/session")
	if err != nil || call.Dir != "/session" {
		t.Errorf("without cwd: dir %q, error %v", call.Dir, err)
	}
	for payload, want := range map[string]string{
		`not json`:             "reading Claude Code's hook input",
		`{"tool_input":{}}`:    "it names no tool",
		`{"tool_name":"Edit"}`: "the Edit call has no tool_input",
		`{"tool_name":"Edit","tool_input":{"old_string":"a"}}`:                                   "it has no file_path",
		`{"tool_name":"Write","tool_input":{"file_path":"/a"}}`:                                  "it has no content",
		`{"tool_name":"Write","tool_input":{"file_path":1}}`:                                     "file_path is not a string",
		`{"tool_name":"MultiEdit","tool_input":{"file_path":"/a","edits":[{"old_string":"a"}]}}`: "edits[0]: it has no new_string",
		`{"tool_name":"Bash","tool_input":{}} {}`:                                                "more than one JSON value",
	} {
		if _, _, err := claude.Decode([]byte(payload), "/"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", payload, err, want)
		}
	}
}

func TestAgentTable(t *testing.T) {
	if got := Names(); !reflect.DeepEqual(got, []string{"claude", "gemini"}) {
		t.Errorf("Names() = %v", got)
	}
	if _, ok := Lookup("cursor"); ok {
		t.Error("Lookup found an agent the guard does not serve")
	}
	for _, a := range Agents() {
		for tool := range a.tools {
			if !strings.Contains("|"+a.Matcher+"|", "|"+tool+"|") {
				t.Errorf("%s: the matcher %q does not select %s, which the guard judges", a.Name, a.Matcher, tool)
			}
		}
	}
}
