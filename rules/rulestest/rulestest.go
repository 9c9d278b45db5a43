// Package rulestest builds in-memory units for rule tests.
package rulestest

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/workspace"
)

// Blob returns a regular-file blob holding s, with a content hash.
func Blob(s string) *changes.Blob {
	sum := sha1.Sum([]byte(s))
	return &changes.Blob{Hash: hex.EncodeToString(sum[:]), Kind: changes.KindFile, Data: []byte(s)}
}

// Snapshot is an in-memory changes.Snapshot: path to content.
type Snapshot map[string]string

// paths lists the snapshot's paths, sorted.
func (s Snapshot) paths() []string {
	out := make([]string, 0, len(s))
	for p := range s {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// List returns the paths under dir, sorted.
func (s Snapshot) List(dir string) ([]string, error) {
	var out []string
	for _, p := range s.paths() {
		if strings.HasPrefix(p, dir) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Read returns the file at path, or nil when absent.
func (s Snapshot) Read(path string) (*changes.Blob, error) {
	data, ok := s[path]
	if !ok {
		return nil, nil
	}
	return Blob(data), nil
}

// With returns a copy of s in which path holds content, or is absent
// when content is "".
func (s Snapshot) With(path, content string) Snapshot {
	out := make(Snapshot, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	if content == "" {
		delete(out, path)
	} else {
		out[path] = content
	}
	return out
}

// Staged builds a staged-mode unit from the files before and after: every
// path whose content differs becomes a change.
func Staged(before, after Snapshot) changes.Unit {
	u := unit(changes.ModeStaged, before, after)
	u.Before = before
	return u
}

// Tree builds a tree-mode unit: every file of files is a change with no
// old side.
func Tree(files Snapshot) changes.Unit {
	return unit(changes.ModeTree, nil, files)
}

func unit(mode changes.Mode, before, after Snapshot) changes.Unit {
	seen := map[string]bool{}
	var list []changes.Change
	for _, p := range append(before.paths(), after.paths()...) {
		if seen[p] {
			continue
		}
		seen[p] = true
		oldData, hadOld := before[p]
		newData, hasNew := after[p]
		if hadOld && hasNew && oldData == newData {
			continue
		}
		ch := changes.Change{Path: p}
		if hadOld {
			ch.Old = Blob(oldData)
		}
		if hasNew {
			ch.New = Blob(newData)
		}
		list = append(list, ch)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
	return changes.Unit{Mode: mode, Changes: list, Files: after, Declared: Declared(before, after)}
}

// Declared returns what the snapshots declare, as a reader finds it in
// the states of a unit: the workspaces their paths declare and the
// artifacts whose frontmatter declares them.
func Declared(snapshots ...Snapshot) workspace.Declarations {
	var d workspace.Declarations
	for _, s := range snapshots {
		for p, data := range s {
			if x, ok := workspace.DeclaredBy(p); ok {
				d.Add(x)
			}
			if x, ok := workspace.ArtifactAt(p); ok && workspace.DeclaresArtifact([]byte(data)) {
				d.Add(x)
			}
		}
	}
	return d
}
