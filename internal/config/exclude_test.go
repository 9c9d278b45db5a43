package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestConfigExclude(t *testing.T) {
	cfg, err := Load([]byte("exclude:\n  - spec/small/v0.1/examples/\n  - '**/fixtures/**'\n  - \"examples/*/.small/progress.small.yml\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"spec/small/v0.1/examples", "**/fixtures/**", "examples/*/.small/progress.small.yml"}; !reflect.DeepEqual(cfg.Exclude, want) {
		t.Fatalf("got %q, want %q", cfg.Exclude, want)
	}
	cases := []struct {
		path string
		want bool
	}{
		{"spec/small/v0.1/examples/.small/intent.small.yml", true},
		{"spec/small/v0.1/examples", true},
		{"spec/small/v0.1/examples2/.small/intent.small.yml", false},
		{"spec/small/v1.0.0/examples/.small/intent.small.yml", false},
		{"Spec/small/v0.1/examples/.small/intent.small.yml", false},
		{"fixtures/artifacts/a.md", true},
		{"a/b/fixtures/.small/plan.small.yml", true},
		{"a/b/fixtures", true},
		{"a/b/fixturesx/.small/plan.small.yml", false},
		{"examples/demo/.small/progress.small.yml", true},
		{"examples/demo/.small/plan.small.yml", false},
		{"examples/a/b/.small/progress.small.yml", false},
		{".small/progress.small.yml", false},
	}
	for _, tc := range cases {
		if got := cfg.Excluded(tc.path); got != tc.want {
			t.Errorf("Excluded(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	if Default().Excluded(".small/intent.small.yml") {
		t.Error("the default configuration excludes a path")
	}
}

func TestConfigExcludePatterns(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"**", ".small/intent.small.yml", true},
		{"*", ".small/intent.small.yml", true},
		{"*.md", "artifacts/a.md", false},
		{"artifacts/*.md", "artifacts/a.md", true},
		{"artifacts/*.md", "artifacts/sub/a.md", false},
		{"artifacts/**/*.md", "artifacts/sub/deeper/a.md", true},
		{"artifacts/**/*.md", "artifacts/a.md", true},
		{"a/**/b/**/c", "a/x/b/y/z/c/d", true},
		{"a/**/b/**/c", "a/x/c", false},
		{"a?c", "abc/x", true},
		{"a?c", "a/c", false},
		{"[ab]", "a", false},
		{"[ab]", "[ab]/x", true},
	}
	for _, tc := range cases {
		c := &Config{Exclude: []string{tc.pattern}}
		if got := c.Excluded(tc.path); got != tc.want {
			t.Errorf("pattern %q, Excluded(%q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

func TestConfigExcludeErrors(t *testing.T) {
	cases := []struct {
		name, input string
		line        int
		mention     string
	}{
		{"a string", "exclude: examples/\n", 1, "must be a list"},
		{"a mapping", "exclude:\n  examples: true\n", 1, "must be a list"},
		{"a number item", "exclude:\n  - examples\n  - 3\n", 3, "exclude[1] must be a path pattern"},
		{"an empty item", "exclude:\n  - ''\n", 2, "is empty"},
		{"a null item", "exclude:\n  -\n", 2, "exclude[0] must be a path pattern"},
		{"absolute", "exclude:\n  - /spec\n", 2, "relative to the repository root"},
		{"backslash", "exclude:\n  - 'spec\\examples'\n", 2, "backslash"},
		{"double slash", "exclude:\n  - spec//examples\n", 2, "empty path segment"},
		{"dot dot", "exclude:\n  - spec/../x\n", 2, ". or .. segment"},
		{"dot", "exclude:\n  - ./spec\n", 2, ". or .. segment"},
		{"** inside a segment", "exclude:\n  - spec/**.md\n", 2, "whole directories"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ce := loadErr(t, tc.input)
			if ce.Line != tc.line || !strings.Contains(ce.Msg, tc.mention) {
				t.Errorf("%q: %v, want line %d mentioning %q", tc.input, ce, tc.line, tc.mention)
			}
		})
	}
}
