package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// TestMemoryFollowsASliceNotTheUnit doubles the number of workspaces (of
// knowledge artifacts) a staged commit adds and measures the heap that is
// live while the rules judge it: what the unit itself holds grows with its
// files (their bytes and a constant per file), but what the rules derive
// from them (decoded documents, tens of times a file's size) must not
// outlive the slice of the unit it was derived from (see
// changes.Unit.Slices). A probe rule that judges each workspace on its own
// runs last and records the live heap after a collection.
func TestMemoryFollowsASliceNotTheUnit(t *testing.T) {
	root := filepath.Join("..", "testdata")
	small := filepath.Join(root, "small", "reference-init", ".small")
	names, err := filepath.Glob(filepath.Join(small, "*.small.yml"))
	if err != nil || len(names) == 0 {
		t.Fatalf("reading %s: %v", small, err)
	}
	artifact, err := os.ReadFile(filepath.Join(root, "smp", "llm-context-research.v2.md"))
	if err != nil {
		t.Fatal(err)
	}
	shapes := []struct {
		name  string
		n     int
		write func(files rulestest.Snapshot, i int)
	}{
		{"SMALL workspaces", 200, func(files rulestest.Snapshot, i int) {
			for _, name := range names {
				data, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				files[fmt.Sprintf("ws%05d/.small/%s", i, filepath.Base(name))] = fmt.Sprintf("%s# workspace %05d\n", data, i)
			}
		}},
		{"knowledge artifacts", 700, func(files rulestest.Snapshot, i int) {
			files[".awp/workspace.json"] = "{}\n"
			slug := fmt.Sprintf("a%05d", i)
			files["artifacts/"+slug+".md"] = strings.ReplaceAll(string(artifact), "llm-context-research", slug)
		}},
	}
	for _, shape := range shapes {
		t.Run(shape.name, func(t *testing.T) {
			live := func(n int) (peak uint64, bytes, files int) {
				after := rulestest.Snapshot{}
				for i := range n {
					shape.write(after, i)
				}
				for _, data := range after {
					bytes += len(data)
				}
				u := rulestest.Staged(rulestest.Snapshot{}, after)
				probe := &rules.Rule{ID: "test/probe", Severity: rules.Warning, PerWorkspace: true, Run: func(*rules.Pass) error {
					runtime.GC()
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapAlloc)
					return nil
				}}
				if _, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: append(registry.All(), probe)}); err != nil {
					t.Fatal(err)
				}
				return peak, bytes, len(after)
			}
			small, smallBytes, smallFiles := live(shape.n)
			large, largeBytes, largeFiles := live(2 * shape.n)
			if smallBytes < 2*rules.DefaultSliceBytes {
				t.Fatalf("the smaller commit holds %d bytes, less than two slices: it shows nothing", smallBytes)
			}
			added, addedFiles := largeBytes-smallBytes, largeFiles-smallFiles
			// What the unit holds of each added file: its bytes twice (the
			// snapshot's text and the change's blob) and about a kilobyte of
			// paths, ids and structures.
			bound := 4*added + 2048*addedFiles
			t.Logf("%d files (%d bytes): %d bytes live; %d files (%d bytes): %d bytes live", smallFiles, smallBytes, small, largeFiles, largeBytes, large)
			if grown := int(large) - int(small); grown > bound {
				t.Errorf("the live heap grew by %d bytes for %d more files of %d bytes (bound %d): the rules keep what they derive from every workspace until the unit is judged", grown, addedFiles, added, bound)
			}
		})
	}
}
