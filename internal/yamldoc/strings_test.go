package yamldoc

import (
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestStrings lists a document's string scalars with where they are
// written: the key and its line, quotes, aliases, and the line on which
// the next node starts (where a block or multi-line plain scalar ends),
// and for an alias the anchored string it repeats.
func TestStrings(t *testing.T) {
	doc, err := Decode([]byte(strings.Join([]string{
		`name: plain`,      // 1
		`quoted: "double"`, // 2
		`single: 'one'`,    // 3
		`block: |`,         // 4
		`  line one`,       // 5
		`  line two`,       // 6
		`multi: a plain`,   // 7
		`  scalar`,         // 8
		`list:`,            // 9
		`  - &anchor item`, // 10
		`  - *anchor`,      // 11
		`number: 3`,        // 12
		`after:`,           // 13
		`  value`,          // 14
	}, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range doc.Strings {
		alias := "false"
		if s.Alias {
			alias = fmt.Sprintf("of %d", s.Anchor)
		}
		got = append(got, fmt.Sprintf("%s=%q@%d:%d key@%d quote=%q alias=%s next=%d", s.Key, s.Value, s.Line, s.Column, s.KeyLine, s.Quote, alias, s.NextLine))
	}
	// Keys are string scalars too (key@0: they are no value of a key).
	want := []string{
		`="name"@1:1 key@0 quote='\x00' alias=false next=2`,
		`name="plain"@1:7 key@1 quote='\x00' alias=false next=2`,
		`="quoted"@2:1 key@0 quote='\x00' alias=false next=3`,
		`quoted="double"@2:9 key@2 quote='"' alias=false next=3`,
		`="single"@3:1 key@0 quote='\x00' alias=false next=4`,
		`single="one"@3:9 key@3 quote='\'' alias=false next=4`,
		`="block"@4:1 key@0 quote='\x00' alias=false next=7`,
		`block="line one\nline two\n"@4:8 key@4 quote='\x00' alias=false next=7`,
		`="multi"@7:1 key@0 quote='\x00' alias=false next=9`,
		`multi="a plain scalar"@7:8 key@7 quote='\x00' alias=false next=9`,
		`="list"@9:1 key@0 quote='\x00' alias=false next=10`,
		`="item"@10:5 key@0 quote='\x00' alias=false next=11`,
		`="item"@11:5 key@0 quote='\x00' alias=of 11 next=12`,
		`="number"@12:1 key@0 quote='\x00' alias=false next=13`,
		`="after"@13:1 key@0 quote='\x00' alias=false next=14`,
		`after="value"@14:3 key@13 quote='\x00' alias=false next=0`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("strings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if doc.Root() == nil || doc.Line("list", "1") != 11 {
		t.Errorf("Root parsed again: line of list[1] = %d, want 11", doc.Line("list", "1"))
	}
}

// TestAnAliasWithoutItsAnchorStandsForItself: an alias whose anchor the
// walk has not met (a tree cut out of a document) is a string of its own.
func TestAnAliasWithoutItsAnchorStandsForItself(t *testing.T) {
	anchored := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "shared", Anchor: "a", Line: 1}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Line: 2, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "first", Line: 2},
		{Kind: yaml.AliasNode, Alias: anchored, Line: 3},
	}}
	found := stringsOf(seq)
	if len(found) != 2 || !found[1].Alias || found[1].Anchor != 1 || found[1].Value != "shared" {
		t.Fatalf("got %+v, want the alias as string 1, standing for itself", found)
	}
}

// TestLargeDocumentsKeepTheirNodes: a document from keepNodesFrom bytes
// keeps its nodes (the line of a finding in it costs no second parse); a
// smaller one keeps none until Root is asked for, and then the same lines.
func TestLargeDocumentsKeepTheirNodes(t *testing.T) {
	var large strings.Builder
	large.WriteString("entries:\n")
	for i := 0; large.Len() < keepNodesFrom; i++ {
		fmt.Fprintf(&large, "  - task_id: task-%d\n    status: completed\n", i)
	}
	for _, c := range []struct {
		name, text string
		kept       bool
	}{
		{"large", large.String(), true},
		{"small", "entries:\n  - task_id: task-0\n    status: completed\n  - task_id: task-1\n    status: completed\n", false},
	} {
		doc, err := Decode([]byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if kept := doc.node != nil; kept != c.kept {
			t.Errorf("%s document: nodes kept = %v, want %v", c.name, kept, c.kept)
		}
		if got := doc.Line("entries", "1", "status"); got != 5 {
			t.Errorf("%s document: entries[1].status on line %d, want 5", c.name, got)
		}
	}
}
