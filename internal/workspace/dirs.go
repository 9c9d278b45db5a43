package workspace

import "slices"

// Dir is a directory that makes the paths below it protocol state, once
// what it belongs to is declared: its name, the kind of workspace it
// belongs to, the area of the workspace its files lie in, and the prefix
// of the 8.3 short name Windows gives it ("SMALL~1").
type Dir struct {
	Name  string
	Kind  Kind
	Area  Area
	Short string
}

// dirs declares the directories that govern paths, one per name: a SMALL
// workspace keeps its files in .small; an AWP workspace keeps its marker
// (and awp's private key) in .awp and its knowledge artifacts in
// artifacts, where a Markdown file may also declare itself an artifact.
// Locate, Needs and the folding of names (fold, mayFold) read this table,
// and nothing else names the directories; it is never written.
var dirs = [...]Dir{
	{Name: smallDir, Kind: SMALL, Area: Files, Short: "small~"},
	{Name: awpDir, Kind: AWP, Area: Private, Short: "awp~"},
	{Name: artifactsDir, Kind: AWP, Area: Artifacts, Short: "artifa~"},
}

// Dirs returns the directories that govern paths (see Dir): .small,
// .awp and artifacts.
func Dirs() []Dir { return slices.Clone(dirs[:]) }
