// Package rulestest builds in-memory units for rule tests.
package rulestest

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"

	"github.com/small-hook/small-hook/gitdiff"
)

// Blob returns a regular-file blob holding s, with a content hash.
func Blob(s string) *gitdiff.Blob {
	sum := sha1.Sum([]byte(s))
	return &gitdiff.Blob{Hash: hex.EncodeToString(sum[:]), Kind: gitdiff.KindFile, Data: []byte(s)}
}

// Snapshot is an in-memory gitdiff.Snapshot: path to content.
type Snapshot map[string]string

// Paths lists the snapshot's paths, sorted.
func (s Snapshot) Paths() []string {
	paths := make([]string, 0, len(s))
	for p := range s {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// Read returns the file at path, or nil when absent.
func (s Snapshot) Read(path string) (*gitdiff.Blob, error) {
	data, ok := s[path]
	if !ok {
		return nil, nil
	}
	return Blob(data), nil
}

// Staged builds a staged-mode unit from the files before and after: every
// path whose content differs becomes a change.
func Staged(before, after Snapshot) gitdiff.Unit {
	return unit(gitdiff.ModeStaged, before, after)
}

// Tree builds a tree-mode unit: every file of files is a change with no
// old side.
func Tree(files Snapshot) gitdiff.Unit {
	return unit(gitdiff.ModeTree, nil, files)
}

func unit(mode gitdiff.Mode, before, after Snapshot) gitdiff.Unit {
	seen := map[string]bool{}
	var changes []gitdiff.Change
	for _, p := range append(before.Paths(), after.Paths()...) {
		if seen[p] {
			continue
		}
		seen[p] = true
		oldData, hadOld := before[p]
		newData, hasNew := after[p]
		if hadOld && hasNew && oldData == newData {
			continue
		}
		ch := gitdiff.Change{Path: p}
		if hadOld {
			ch.Old = Blob(oldData)
		}
		if hasNew {
			ch.New = Blob(newData)
		}
		changes = append(changes, ch)
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return gitdiff.Unit{Mode: mode, Changes: changes, Files: after}
}
