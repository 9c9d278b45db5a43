package agentguard

import (
	"errors"
	"strings"
	"testing"
)

// applied applies a change to before ("\x00" for a file that does not
// exist) and returns the result, or "fail: " and whether the tool fails
// or guesses.
func applied(c Change, before string) string {
	var in []byte
	if before != "\x00" {
		in = []byte(before)
	}
	out, err := c.Apply(in)
	var f *ToolFailure
	switch {
	case errors.As(err, &f) && f.Guessed:
		return "guess: " + f.Reason
	case errors.As(err, &f):
		return "fail: " + f.Reason
	case err != nil:
		return "error: " + err.Error()
	}
	return string(out)
}

func edit(old, new string, all bool) ClaudeEdit {
	return ClaudeEdit{Edits: []Replacement{{Old: old, New: new, All: all}}}
}

func multi(edits ...Replacement) ClaudeEdit {
	return ClaudeEdit{Edits: edits, Multi: true}
}

// TestClaudeEditComputesWhatTheToolWrites covers each rule of Claude Code's
// Edit and MultiEdit (see ClaudeEdit), and each way they fail.
func TestClaudeEditComputesWhatTheToolWrites(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change Change
		before string
		want   string
	}{
		{"one replacement", edit("b", "B", false), "a b c", "a B c"},
		{"replace_all", edit("x", "y", true), "x x x", "y y y"},
		{"several matches without replace_all", edit("x", "y", false), "x x", "fail: Found 2 matches"},
		{"not found", edit("z", "y", false), "x", "fail: String to replace not found"},
		{"old equals new", edit("x", "x", false), "x", "fail: No changes to make"},
		{"a file that does not exist", edit("x", "y", false), "\x00", "fail: File does not exist"},
		{"an empty old_string creates a file", edit("", "new", false), "\x00", "new"},
		{"an empty old_string fills an empty file", edit("", "new", false), "  \n", "new"},
		{"an empty old_string on a file with content", edit("", "new", false), "old", "fail: Cannot create new file"},
		{"a deletion takes its line break", edit("- b", "", false), "- a\n- b\n- c\n", "- a\n- c\n"},
		{"a deletion that ends with its line break", edit("- b\n", "", false), "- a\n- b\n- c\n", "- a\n- c\n"},
		{"a deletion at the end without a line break", edit("- c", "", false), "- a\n- c", "- a\n"},
		{"a curly quote in the file, a straight one in old_string", edit(`say "hi"`, `say "bye"`, false), "we say “hi” here", "we say “bye” here"},
		{"curly single quotes and an apostrophe", edit(`'it's'`, `'it's not'`, false), "x ‘it’s’ y", "x ‘it’s not’ y"},
		{"a straight quote in the file, a curly one in old_string", edit(`“a”`, `“b”`, false), `x "a" y`, `x “b” y`},
		{"multi-byte text around a normalised match", edit(`é "x"`, `é "y"`, false), "ü é “x” ü", "ü é “y” ü"},
		{"MultiEdit applies in order", multi(Replacement{Old: "a", New: "b"}, Replacement{Old: "b c", New: "d"}), "a c", "d"},
		{"MultiEdit with an old_string inside an earlier new_string", multi(Replacement{Old: "a", New: "xyz"}, Replacement{Old: "y", New: "q"}), "a", "fail: Cannot edit file: edits[1].old_string is a substring"},
		{"MultiEdit creates a file", multi(Replacement{Old: "", New: "k: v\n"}), "\x00", "k: v\n"},
		{"MultiEdit whose second edit is not found", multi(Replacement{Old: "a", New: "b"}, Replacement{Old: "zz", New: "c"}), "a", "fail: String to replace not found in file (edits[1].old_string)"},
		{"MultiEdit without edits", multi(), "a", "fail: the call has no edits"},
		{"Write", Overwrite{Content: "all new"}, "old", "all new"},
		{"Write of a new file", Overwrite{Content: "x"}, "\x00", "x"},
	} {
		if got := applied(tc.change, tc.before); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestGeminiReplaceComputesExactEditsOnly(t *testing.T) {
	replace := func(old, new string, expected int) GeminiReplace {
		return GeminiReplace{Replacement: Replacement{Old: old, New: new}, Expected: expected}
	}
	for _, tc := range []struct {
		name   string
		change GeminiReplace
		before string
		want   string
	}{
		{"one occurrence", replace("b", "B", 0), "a b c", "a B c"},
		{"the expected number of occurrences", replace("x", "y", 3), "x x x", "y y y"},
		{"more occurrences than expected", replace("x", "y", 0), "x x", "guess: Failed to edit, expected 1 occurrence of old_string but found 2"},
		{"not found", replace("z", "y", 1), "x", "guess: Failed to edit, expected 1 occurrence of old_string but found 0"},
		{"a new file", replace("", "n", 0), "\x00", "n"},
		{"an empty old_string on a file that exists", replace("", "n", 0), "x", "fail: Failed to edit: the file already exists"},
		{"a file that does not exist", replace("a", "n", 0), "\x00", "fail: Failed to edit: the file does not exist"},
		{"no change", replace("a", "a", 0), "a", "fail: No changes to apply"},
	} {
		if got := applied(tc.change, tc.before); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

const notebook = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "intro",
   "metadata": {},
   "source": [
    "# Notes"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "run",
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "1\n"
     ]
    }
   ],
   "source": [
    "print(1)"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}`

func TestNotebookEditComputesTheNotebook(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit NotebookEdit
		want []string // lines the result holds
	}{
		{"replace a code cell's source", NotebookEdit{CellID: "run", Source: "print(2)"}, []string{`   "source": "print(2)"`, `   "execution_count": null,`, `   "outputs": [],`}},
		{"replace by index", NotebookEdit{CellID: "cell-0", Source: "# Title"}, []string{`   "source": "# Title"`}},
		{"insert after a cell", NotebookEdit{CellID: "intro", Source: "x = 1", CellType: "code", Mode: "insert"}, []string{`   "id": "` + insertedCellID + `",`, `   "source": "x = 1",`}},
		{"insert at the start", NotebookEdit{Source: "# Top", CellType: "markdown", Mode: "insert"}, []string{"  {\n   \"cell_type\": \"markdown\",\n   \"id\": \"" + insertedCellID}},
		{"delete", NotebookEdit{CellID: "intro", Mode: "delete"}, []string{`   "id": "run",`}},
	} {
		got := applied(tc.edit, notebook)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the notebook lacks %q:\n%s", tc.name, w, got)
			}
		}
		if tc.edit.Mode == "delete" && strings.Contains(got, `"intro"`) {
			t.Errorf("%s: the cell is still there:\n%s", tc.name, got)
		}
	}
	for _, tc := range []struct {
		edit   NotebookEdit
		before string
		want   string
	}{
		{NotebookEdit{CellID: "nope", Source: "x"}, notebook, "fail: Cell with ID"},
		{NotebookEdit{Source: "x"}, notebook, "fail: Cell ID must be specified"},
		{NotebookEdit{Source: "x", Mode: "insert"}, notebook, "fail: Cell type is required"},
		{NotebookEdit{CellID: "run", Source: "x"}, "\x00", "fail: Notebook file does not exist"},
		{NotebookEdit{CellID: "run", Source: "x"}, "not json", "fail: Notebook is not valid JSON"},
		{NotebookEdit{CellID: "run", Source: "x", Mode: "rewrite"}, notebook, "fail: edit_mode must be"},
	} {
		if got := applied(tc.edit, tc.before); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: got %q, want %q", tc.edit, got, tc.want)
		}
	}
}
