// Package agenthooks keeps small-hook's guard in a coding agent's settings
// file (Claude Code's and Gemini CLI's settings.json): Install merges one
// hook into it and Uninstall takes out exactly the hooks that run the
// guard, leaving everything else as it was: other hooks, other matchers,
// keys small-hook does not know, their order and the file's indentation.
package agenthooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/small-hook/small-hook/internal/orderedjson"
	"github.com/small-hook/small-hook/internal/shell"
)

// Hook is the hook small-hook keeps in a settings file, in the shape both
// agents read: hooks.<Event> is a list of {matcher, hooks: [{type:
// "command", command}]}.
type Hook struct {
	Event, Matcher, Command string
	// Name is the hook's name, for the agents that show and switch hooks
	// by name (Gemini CLI); "" writes none.
	Name string
}

// IsGuard reports whether a hook's command runs small-hook's guard: one
// command whose first word is small-hook (from any directory) and whose
// second is guard.
func IsGuard(command string) bool {
	cmds := shell.Parse(command)
	if len(cmds) != 1 || len(cmds[0].Args) < 2 {
		return false
	}
	name := cmds[0].Args[0]
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return (name == "small-hook" || name == "small-hook.exe") && cmds[0].Args[1] == "guard"
}

// Result is what Install or Uninstall did to the file: "installed",
// "replaced" (a guard hook with another command or matcher was there),
// "unchanged", "removed", or "absent" (Uninstall found none).
type Result string

// Install merges h into the settings file at file, which it creates (and
// its directory) when absent. A settings file that already runs the guard
// exactly so is left untouched; guard hooks that differ are taken out and
// h added after the other hooks of its event.
func Install(file string, h Hook) (Result, error) {
	doc, indent, newline, err := read(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	event, err := eventList(&doc, h.Event, file)
	if err != nil {
		return "", err
	}
	if exactlyOnce(event, h) {
		return "unchanged", nil
	}
	result := Result("installed")
	if removeGuards(event) {
		result = "replaced"
	}
	cmd := orderedjson.Obj(
		orderedjson.Member{Key: "type", Value: orderedjson.Str("command")},
		orderedjson.Member{Key: "command", Value: orderedjson.Str(h.Command)},
	)
	if h.Name != "" {
		cmd.Set("name", orderedjson.Str(h.Name))
	}
	event.Items = append(event.Items, orderedjson.Obj(
		orderedjson.Member{Key: "matcher", Value: orderedjson.Str(h.Matcher)},
		orderedjson.Member{Key: "hooks", Value: orderedjson.Arr(cmd)},
	))
	return result, write(file, doc, indent, newline)
}

// Uninstall takes every hook that runs the guard out of event in the
// settings file, and then the matcher groups, the event list and the hooks
// object it leaves empty; a file left with nothing at all is removed.
func Uninstall(file, event string) (Result, error) {
	doc, indent, newline, err := read(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "absent", nil
	}
	if err != nil {
		return "", err
	}
	hooks := doc.Get("hooks")
	if hooks == nil || hooks.Kind != orderedjson.Object {
		return "absent", nil
	}
	list := hooks.Get(event)
	if list == nil || list.Kind != orderedjson.Array || !removeGuards(list) {
		return "absent", nil
	}
	if len(list.Items) == 0 {
		hooks.Delete(event)
	}
	if len(hooks.Members) == 0 {
		doc.Delete("hooks")
	}
	if len(doc.Members) == 0 {
		if err := os.Remove(file); err != nil {
			return "", fmt.Errorf("removing %s: %w", file, err)
		}
		return "removed", nil
	}
	return "removed", write(file, doc, indent, newline)
}

// read decodes the settings file: an empty object when it does not exist,
// and the indentation and final line break to write it back with. A file
// that is not a JSON object is an error naming it (for Uninstall, a file
// that does not exist is fs.ErrNotExist).
func read(file string) (doc orderedjson.Value, indent string, newline bool, err error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return orderedjson.Obj(), "  ", true, err
	}
	if err != nil {
		return doc, "", false, fmt.Errorf("reading %s: %w", file, err)
	}
	if doc, err = orderedjson.Decode(data); err != nil || doc.Kind != orderedjson.Object {
		if err == nil {
			err = errors.New("it is not a JSON object")
		}
		return doc, "", false, fmt.Errorf("%s is not a settings file small-hook can edit (%v): fix it, or add the hook by hand", file, err)
	}
	indent = orderedjson.Indent(data)
	if indent == "" && len(doc.Members) == 0 {
		indent = "  "
	}
	return doc, indent, len(data) == 0 || data[len(data)-1] == '\n', nil
}

// eventList returns the hooks object's list for event, made when absent.
func eventList(doc *orderedjson.Value, event, file string) (*orderedjson.Value, error) {
	if doc.Get("hooks") == nil {
		doc.Set("hooks", orderedjson.Obj())
	}
	hooks := doc.Get("hooks")
	if hooks.Kind != orderedjson.Object {
		return nil, fmt.Errorf("%s: hooks is not an object: fix it, or add the hook by hand", file)
	}
	if hooks.Get(event) == nil {
		hooks.Set(event, orderedjson.Arr())
	}
	list := hooks.Get(event)
	if list.Kind != orderedjson.Array {
		return nil, fmt.Errorf("%s: hooks.%s is not a list: fix it, or add the hook by hand", file, event)
	}
	return list, nil
}

// exactlyOnce reports whether the event list runs the guard once, exactly
// as h says.
func exactlyOnce(list *orderedjson.Value, h Hook) bool {
	found, exact := 0, false
	for i := range list.Items {
		group := &list.Items[i]
		for _, cmd := range commands(group) {
			if !IsGuard(text(cmd.Get("command"))) {
				continue
			}
			found++
			exact = text(group.Get("matcher")) == h.Matcher && text(cmd.Get("command")) == h.Command &&
				text(cmd.Get("type")) == "command" && text(cmd.Get("name")) == h.Name
		}
	}
	return found == 1 && exact
}

// removeGuards takes every hook that runs the guard out of the event list,
// and the matcher groups it leaves without hooks; it reports whether it
// took any.
func removeGuards(list *orderedjson.Value) bool {
	removed := false
	var groups []orderedjson.Value
	for i := range list.Items {
		group := &list.Items[i]
		hooks := group.Get("hooks")
		if hooks == nil || hooks.Kind != orderedjson.Array {
			groups = append(groups, *group)
			continue
		}
		var kept []orderedjson.Value
		for _, cmd := range hooks.Items {
			if IsGuard(text(cmd.Get("command"))) {
				removed = true
				continue
			}
			kept = append(kept, cmd)
		}
		if len(kept) == 0 && len(hooks.Items) > 0 {
			continue
		}
		hooks.Items = kept
		groups = append(groups, *group)
	}
	if removed {
		list.Items = groups
	}
	return removed
}

// commands returns the hook objects of a matcher group.
func commands(group *orderedjson.Value) []*orderedjson.Value {
	hooks := group.Get("hooks")
	if hooks == nil || hooks.Kind != orderedjson.Array {
		return nil
	}
	var out []*orderedjson.Value
	for i := range hooks.Items {
		if hooks.Items[i].Kind == orderedjson.Object {
			out = append(out, &hooks.Items[i])
		}
	}
	return out
}

// text returns a string value's text, "" for anything else.
func text(v *orderedjson.Value) string {
	if v == nil || v.Kind != orderedjson.String {
		return ""
	}
	return v.Text
}

// write replaces the settings file through a temporary file, keeping its
// mode.
func write(file string, doc orderedjson.Value, indent string, newline bool) error {
	data := doc.Encode(indent)
	if newline {
		data = append(data, '\n')
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(file), err)
	}
	tmp := file + ".small-hook-tmp"
	err := os.WriteFile(tmp, data, mode)
	if err == nil {
		err = os.Rename(tmp, file)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", file, err)
	}
	return nil
}

// Guarded reports whether a settings file's content runs the guard in any
// hook of any event: a write that takes it out switches the guard off.
// Content that is not a JSON object runs nothing.
func Guarded(data []byte) bool {
	doc, err := orderedjson.Decode(data)
	if err != nil || doc.Kind != orderedjson.Object {
		return false
	}
	hooks := doc.Get("hooks")
	if hooks == nil || hooks.Kind != orderedjson.Object {
		return false
	}
	for i := range hooks.Members {
		list := &hooks.Members[i].Value
		if list.Kind != orderedjson.Array {
			continue
		}
		for j := range list.Items {
			for _, cmd := range commands(&list.Items[j]) {
				if IsGuard(text(cmd.Get("command"))) {
					return true
				}
			}
		}
	}
	return false
}
