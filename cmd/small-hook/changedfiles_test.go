package main

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
)

// unitOf returns a unit that changes paths.
func unitOf(paths ...string) *changes.Unit {
	u := &changes.Unit{}
	for _, p := range paths {
		u.Changes = append(u.Changes, changes.Change{Path: p})
	}
	return u
}

// TestChangedFilesCountsEachPathOnce: a path changed by several units (a
// range's commits, a previous tip) counts once.
func TestChangedFilesCountsEachPathOnce(t *testing.T) {
	var f changedFiles
	f.add(unitOf("b", "a"))
	f.add(unitOf("a", "c"))
	f.add(unitOf("c", "d", "b"))
	f.add(unitOf())
	if got := f.count(); got != 4 {
		t.Errorf("a, b, c and d counted as %d", got)
	}
}

// TestChangedFilesKeepAPathHeaderAPath: counting the paths of a staged
// commit of many files keeps about a string header a path (the paths
// themselves belong to the unit), not a set's slots and control bytes:
// in a commit of 60,000 files (BENCHMARKS.md 15) the set was 5.6 MB of
// the live heap, doubled by the collector's headroom.
func TestChangedFilesKeepAPathHeaderAPath(t *testing.T) {
	const n = 60_000
	paths := make([]string, n)
	for i := range paths {
		paths[i] = fmt.Sprintf("ws%05d/.small/progress.small.yml", i)
	}
	u := unitOf(paths...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f := &changedFiles{}
	f.add(u)
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	if f.count() != n {
		t.Fatalf("%d paths counted as %d", n, f.count())
	}
	if perPath := kept / n; perPath > 24 {
		t.Errorf("counting %d paths keeps %.0f bytes, %.1f a path: more than a string header (16) and slack", n, kept, perPath)
	}
	runtime.KeepAlive(u)
	runtime.KeepAlive(f)
}
