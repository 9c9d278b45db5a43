// Package rulestest tests rules the way golang.org/x/tools' analysistest
// tests analyzers: each case is data beside the rules, a file
// rules/<family>/testdata/<rule name>/<case>.txtar that holds the change
// and the findings it must give, and Run checks every case of a family.
// For what cannot be data (fuzzers, benchmarks, inputs built by a program)
// it also builds in-memory units: Blob, Snapshot, Staged, Tree.
//
// A case is a txtar archive (golang.org/x/tools/txtar). Its comment holds
// lines of directives ("#" starts a comment line), its files the states
// of the repository:
//
//	# An agent edits the intent.
//	actor agent
//	evidence trailer Co-Authored-By: Claude <noreply@anthropic.com>
//	want .small/intent.small.yml:0: error small/ownership: and edits human-owned .small/intent.small.yml
//
//	-- .small/plan.small.yml --
//	(the file as it is before and after the change)
//	-- before/.small/intent.small.yml --
//	(the file before the change)
//	-- after/.small/intent.small.yml --
//	(the file after the change)
//
// A file without a prefix is the same in every state; before/ and after/
// give a file's version before and after the change (a file only before
// is deleted, one only after is added). A merge has more parents: before/
// is the first parent's version, parent2/ (parent3/, …) another parent's,
// base/ (base2/, …) a merge base's; the directive merge makes a merge of
// two parents when parent2/ would hold nothing of its own. A tip (mode
// tip) may have onto/, the trusted revision a rebase moved the branch onto
// (changes.Merge.Onto). Every path whose version after the change differs
// from a parent's is a change; in tree mode every file is one. The
// configuration is the trusted revision's .small-hook.yml (the state
// before the change; the tree in tree mode), as a check reads it;
// .gitleaks.toml and .gitleaksignore come from there too. @@NAME@@ in a
// file stands for a value the test gives (Options.Values): secrets are
// built at run time, never written whole in the repository.
//
// The directives:
//
//	mode staged|range|tree|tip|ref         the kind of unit (default staged)
//	commit HASH, parents HASH…, author NAME <EMAIL>, committer NAME <EMAIL>
//	ref REF, default-branch                the ref a push updates
//	object TYPE [PEELED]                   what the push sets it to (mode
//	                                       ref; without it, a deletion)
//	merge                                  two parents
//	symlink PATH, submodule PATH           the kind of a file after the change
//	secrets                                scan for secrets with gitleaks' rules
//	actor human|agent|unknown, evidence TEXT, agents ID…, contradicted TEXT,
//	disputed TEXT, pending, rewrite REASON, setup [in-commit] [commit-msg],
//	install TEXT                           who made the change (attribution.Verdict)
//	signature VERDICT FORMAT, signer, key, entry, detail TEXT
//	                                       the commit's signature (signature.Status)
//	ready KEY, unready ADVICE              git's signing settings (signature.Readiness)
//	want PATH:LINE: SEVERITY RULE: TEXT    a finding, whose text (message,
//	                                       then hint) holds TEXT
//
// Run fails a case on a finding no want line names and on a want line no
// finding matches.
package rulestest

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
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
