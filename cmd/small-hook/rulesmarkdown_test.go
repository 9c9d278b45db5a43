package main

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/rules/registry"
)

// TestRulesMarkdownListsEveryRuleOnceByFamily: the page names every rule
// of the registry in its table and in one section under its family's one
// heading, and says what the registry says of it: off by default, applied
// by log only, a continuity rule, a family.
func TestRulesMarkdownListsEveryRuleOnceByFamily(t *testing.T) {
	r := newTestRepo(t)
	code, page, errOut := r.check(nil, "rules", "--format", "markdown")
	if code != exitOK || errOut != "" {
		t.Fatalf("rules --format markdown: exit %d\n%s", code, errOut)
	}
	if !strings.HasPrefix(page, rulesMarkdownNote+"\n") {
		t.Errorf("the page does not start with the generated-by note:\n%.200s", page)
	}
	sections := strings.Split(page, "\n### `")
	families := map[string]int{}
	for _, h := range strings.Split(page, "\n## `")[1:] {
		families[strings.SplitN(h, "`", 2)[0]]++
	}
	for _, rule := range registry.All() {
		if n := strings.Count(page, "\n| [`"+rule.ID+"`](#"+anchor(rule.ID)+") |"); n != 1 {
			t.Errorf("%s: %d table rows", rule.ID, n)
		}
		if n := families[familyOf(rule.ID)]; n != 1 {
			t.Errorf("%s: %d headings for the family %s", rule.ID, n, familyOf(rule.ID))
		}
		var section string
		for _, s := range sections {
			if strings.HasPrefix(s, rule.ID+"`\n") {
				if section != "" {
					t.Errorf("%s: two sections", rule.ID)
				}
				section = s
			}
		}
		says := map[string]bool{
			"Default: **off**":                       rule.OffByDefault,
			"Applied by `small-hook log` only":       rule.Ledger,
			"Applied by `small-hook check`":          !rule.Ledger,
			"Continuity:":                            rule.Continuity,
			"A family: its findings are reported as": !strings.Contains(rule.ID, "/"),
		}
		for text, want := range says {
			if got := strings.Contains(section, text); got != want {
				t.Errorf("%s: says %q: %v, want %v\n%s", rule.ID, text, got, want, section)
			}
		}
	}
	if len(families) == 0 || len(sections) != len(registry.All())+1 {
		t.Errorf("%d families, %d sections for %d rules", len(families), len(sections)-1, len(registry.All()))
	}
	code, one, _ := r.check(nil, "rules", "--format", "markdown", "secrets/aws-access-token")
	if code != exitOK || !strings.HasPrefix(one, "### `secrets`\n") || strings.Count(one, "\n### ") != 0 {
		t.Errorf("one rule: exit %d\n%s", code, one)
	}
}

func TestMarkdownTextEscapesOutsideCodeSpans(t *testing.T) {
	cases := []struct{ in, want string }{
		{"secrets/<gitleaks rule id>", `secrets/\<gitleaks rule id\>`},
		{"release/* and *Merged from*", `release/\* and \*Merged from\*`},
		{"&#103; and [extend]", `\&#103; and \[extend\]`},
		{`\_ is _`, `\\\_ is \_`},
		{"small_version and run.replay_id", "small_version and run.replay_id"},
		{"the trailer `Small-Rewrite: <reason>` then <x>", "the trailer `Small-Rewrite: <reason>` then \\<x\\>"},
		{"a lone ` stays", "a lone \\` stays"},
	}
	for _, c := range cases {
		if got := markdownText(c.in); got != c.want {
			t.Errorf("markdownText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
