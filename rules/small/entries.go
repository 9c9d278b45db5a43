package small

import (
	"github.com/small-hook/small-hook/rules"
)

// addedEntries calls f for each progress entry the unit added to the
// progress file of a workspace, with that file's path.
func addedEntries(s space, f func(path string, v *progressView, pos int, e entry)) {
	ch := s.changed(Progress)
	if ch == nil || ch.New == nil {
		return
	}
	v := viewProgress(s.pass, ch)
	for pos, e := range v.added {
		f(ch.Path, v, pos, e)
	}
}

// eachAdded calls addedEntries for every SMALL workspace of the pass.
func eachAdded(pass *rules.Pass, f func(path string, v *progressView, pos int, e entry)) {
	for _, s := range spaces(pass) {
		addedEntries(s, f)
	}
}
