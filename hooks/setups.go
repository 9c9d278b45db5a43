package hooks

import (
	"path/filepath"
	"slices"
)

// leftAlone returns what Install does where another setup already decides
// which hooks run, and opts.Force does not override it: the pre-commit
// framework (which runs small-hook through .pre-commit-config.yaml), or a
// hooks directory the repository tracks (shared with every clone). Each
// hook is left as it is, with the same note on what to do instead; it is
// "unchanged" where the framework already runs small-hook as configured,
// "skipped" otherwise. nil means install.
func leftAlone(dir HooksDir, fw framework, names []string, opts Options) Report {
	var note string
	switch {
	case opts.Force:
		return nil
	case fw.present():
		note = fw.advice()
	case len(dir.tracked) > 0:
		note = trackedAdvice(dir, opts.Binary)
	default:
		return nil
	}
	what := "skipped"
	if fw.ready() {
		what = "unchanged"
	}
	var out Report
	for _, name := range names {
		out = append(out, Action{Hook: name, Path: filepath.Join(dir.Path, name), What: what, Note: note})
	}
	return out
}

// forcedWarning is what the note of a hook --force installed adds where
// leftAlone would have left the hooks alone ("" elsewhere).
func forcedWarning(dir HooksDir, fw framework, a Action) string {
	var note string
	switch {
	case slices.Contains(fw.installed, a.Hook):
		note = "it is the pre-commit framework's hook, so both hook systems run at this stage"
	case fw.present():
		note = "installed beside the pre-commit framework, as --force asks"
	}
	if len(dir.tracked) > 0 {
		note = joinNotes(note, trackedWarning(dir))
	}
	return note
}

// joinNotes joins two notes of an action with "; ", either may be "".
func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
