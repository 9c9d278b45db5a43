package shell

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/testskip"
)

// scripts are shell scripts whose git commands TestAgreesWithBash runs
// through bash and TestParse checks by hand: quoting, escapes,
// separators, substitutions, here-documents, assignments.
var scripts = []string{
	`git commit -m 'a b' -n`,
	`git commit -m "a \"b\" \$c" --no-verify`,
	`git  commit\
 -n`,
	`cd /tmp && git push --force origin main; git status`,
	`git add . && git commit -m x || echo failed`,
	`echo hi | git commit -F - -n`,
	`(git commit -n) && { git push -f; }`,
	`SKIP=small-hook git commit -m x`,
	`A=1 SKIP="small-hook,other" git commit -m x`,
	`git commit -m $'a\nb' -n`,
	`git commit -m $'\x41\101\u00e9' -n`,
	`echo $(git rev-parse HEAD) && git commit -n`,
	"echo `git rev-parse HEAD` x",
	`git commit -m "$(git log -1 --format=%s)" -n`,
	`x=$(git config core.hooksPath)`,
	`if true; then git commit -n; fi`,
	`for f in a b; do git commit -m "$f" -n; done`,
	"git commit -m x # -n is a comment",
	`git commit -m'#no-comment' -n`,
	`git commit 2>/dev/null -n`,
	`git commit -n >out.txt 2>&1`,
	`git -c core.hooksPath=/dev/null commit -m x`,
	"git commit -m a\ngit push --no-verify",
	`git "com"'mit' -"n"`,
	`git commit -m "a'b" -n`,
	`git commit -m 'a"b' -n`,
	`git commit -m "" -n`,
	`git commit -m '' -n`,
	`git commit -m \"x -n`,
	`git commit -m a\ b -n`,
	`true & git commit -n`,
	`! git commit -n`,
	`git commit -m x |& cat`,
	`git commit -m "$(echo "$(git rev-parse HEAD)")" -n`,
	"cat <<EOF\ngit commit -n\nEOF\ngit push -f",
	"cat <<'EOF' | git commit -F - -n\nbody\nEOF",
	"cat <<-EOF\n\tgit commit -n\n\tEOF\ngit status",
	`git commit -m "a
b" -n`,
	`case x in x) git commit -n;; esac`,
	`git commit -m=x`,
	`GIT_DIR=.git git commit -m x`,
	`git commit -m "tab	inside" -n`,
	`git commit -m ~ -n`,
	`git commit -m a=b -n`,
	`git commit -m "\n" -n`,
	`git commit -m '\n' -n`,
	`git push origin +main`,
	`git push origin HEAD:refs/heads/main --force-with-lease=main:abc`,
	// The commit Claude Code writes: its message in a here-document inside
	// a command substitution, with parentheses, quotes and a comment sign.
	"git add -A && git commit -m \"$(cat <<'EOF'\nFix the parser (part 1) \"quoted\"\n\nIt's done: 1) the \"a b\" c, 2) that; # not a comment\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\" --no-verify",
	"git commit -m \"$(echo x # a comment with ) \"y z\"\n)\" -n",
}

// TestAgreesWithBash runs every script through bash with a git that
// records its arguments (and SKIP) and checks that Parse finds exactly
// the git commands bash ran, with the same words.
func TestAgreesWithBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		testskip.Skip(t, "bash is not installed")
	}
	bin := t.TempDir()
	fake := "#!/bin/sh\nprintf 'SKIP=%s\\000' \"${SKIP-unset}\" >> \"$LOG\"\nfor a in \"$@\"; do printf '%s\\000' \"$a\" >> \"$LOG\"; done\nprintf '\\001' >> \"$LOG\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, script := range scripts {
		t.Run(script, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "log")
			cmd := exec.Command(bash, "-c", script)
			cmd.Dir = dir
			cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "LOG=" + log, "HOME=" + dir, "LC_ALL=C.UTF-8"}
			cmd.Stdin = strings.NewReader("")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			_ = cmd.Run()
			data, err := os.ReadFile(log)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			var ran []string
			for _, rec := range strings.Split(string(data), "\x01") {
				if rec != "" {
					ran = append(ran, strings.TrimSuffix(rec, "\x00"))
				}
			}
			var parsed []Command
			for _, c := range Parse(script) {
				if len(c.Args) > 0 && c.Args[0] == "git" {
					parsed = append(parsed, c)
				}
			}
			matched := make([]bool, len(parsed))
			for _, r := range ran {
				words := strings.Split(r, "\x00")
				i := slices.IndexFunc(parsed, func(c Command) bool { return sameRun(c, words) })
				if i < 0 {
					t.Errorf("bash ran git %q, which Parse did not find in %+v (bash said %s)", words, parsed, stderr.String())
					continue
				}
				matched[i] = true
			}
			for i, c := range parsed {
				if !matched[i] {
					t.Errorf("Parse found %q, which bash did not run", c.Args)
				}
			}
		})
	}
}

// sameRun reports whether bash's run of git (SKIP=…, then the arguments)
// is the parsed command c: every word Parse knows is the word bash passed,
// and a dynamic word stands for any.
func sameRun(c Command, run []string) bool {
	skip := "unset"
	for _, a := range c.Assign {
		if v, ok := strings.CutPrefix(a, "SKIP="); ok {
			skip = v
		}
	}
	if len(run) != len(c.Args) || run[0] != "SKIP="+skip {
		return false
	}
	for i := 1; i < len(run); i++ {
		if !c.Dynamic[i] && c.Args[i] != run[i] {
			return false
		}
	}
	return true
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   []Command
	}{
		{`A=1 git commit -m "x y" >log 2>&1`, []Command{{Assign: []string{"A=1"}, Args: []string{"git", "commit", "-m", "x y"}, Dynamic: []bool{false, false, false, false}, Outputs: []string{"log"}}}},
		{`export SKIP=small-hook`, []Command{{Args: []string{"export", "SKIP=small-hook"}, Dynamic: []bool{false, false}}}},
		{`X=1`, []Command{{Assign: []string{"X=1"}}}},
		{`git commit -m "$MSG"`, []Command{{Args: []string{"git", "commit", "-m", "$MSG"}, Dynamic: []bool{false, false, false, true}}}},
		{`echo > .git/hooks/pre-commit`, []Command{{Args: []string{"echo"}, Dynamic: []bool{false}, Outputs: []string{".git/hooks/pre-commit"}}}},
		{`echo x &>> a; echo y >| b; echo z 2>&1 >&c`, []Command{
			{Args: []string{"echo", "x"}, Dynamic: []bool{false, false}, Outputs: []string{"a"}},
			{Args: []string{"echo", "y"}, Dynamic: []bool{false, false}, Outputs: []string{"b"}},
			{Args: []string{"echo", "z"}, Dynamic: []bool{false, false}, Outputs: []string{"c"}},
		}},
		{"bash <<EOF\ngit commit -n\nEOF\n", []Command{{Args: []string{"bash"}, Dynamic: []bool{false}, Heredocs: []string{"git commit -n\n"}}}},
		{`bash <<< 'git push -f'`, []Command{{Args: []string{"bash"}, Dynamic: []bool{false}, Heredocs: []string{"git push -f\n"}}}},
		{`diff <(git show HEAD:a) b`, []Command{
			{Args: []string{"diff", "<(git show HEAD:a)", "b"}, Dynamic: []bool{false, true, false}},
			{Args: []string{"git", "show", "HEAD:a"}, Dynamic: []bool{false, false, false}},
		}},
		{`echo "$(( 1 + 2 ))"`, []Command{{Args: []string{"echo", "$(( 1 + 2 ))"}, Dynamic: []bool{false, true}}}},
		{`fi > out`, []Command{{Outputs: []string{"out"}}}},
		{`"if" x`, []Command{{Args: []string{"if", "x"}, Dynamic: []bool{false, false}}}},
	} {
		if got := Parse(tc.script); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) =\n%#v\nwant\n%#v", tc.script, got, tc.want)
		}
	}
}

// TestParseIsLinear checks that the work Parse does (the bytes it reads,
// its allocations) grows with the script, not faster, however deeply
// substitutions nest.
func TestParseIsLinear(t *testing.T) {
	for _, shape := range []func(n int) string{
		func(n int) string { return strings.Repeat("$(", n) + "git push -f" + strings.Repeat(")", n) },
		func(n int) string { return strings.Repeat("echo \"$(git status)\" && ", n) },
		func(n int) string { return "cat <<EOF\n" + strings.Repeat("line\n", n) + "EOF\n" },
		func(n int) string { return strings.Repeat("`echo ", n) },
	} {
		var small, large int
		parse(shape(2000), 0, &small)
		parse(shape(4000), 0, &large)
		if float64(large) > 2.5*float64(small) {
			t.Errorf("%.20q…: %d bytes read for 2000 repetitions, %d for 4000", shape(1), small, large)
		}
		smallAllocs := testing.AllocsPerRun(3, func() { Parse(shape(2000)) })
		largeAllocs := testing.AllocsPerRun(3, func() { Parse(shape(4000)) })
		if largeAllocs > 2.5*smallAllocs+10 {
			t.Errorf("%.20q…: %v allocations for 2000 repetitions, %v for 4000", shape(1), smallAllocs, largeAllocs)
		}
	}
}

func TestQuoteIsReadBack(t *testing.T) {
	for _, s := range []string{"", "a b", "it's", `"$HOME" \ ; | & > < * ~`, "line\nbreak"} {
		cmds := Parse("x " + Quote(s))
		if len(cmds) != 1 || len(cmds[0].Args) != 2 || cmds[0].Args[1] != s || cmds[0].Dynamic[1] {
			t.Errorf("Quote(%q) reads back as %+v", s, cmds)
		}
	}
}

// FuzzParse checks that any script parses without panicking
// (TestParseIsLinear bounds the work).
func FuzzParse(f *testing.F) {
	for _, s := range scripts {
		f.Add(s)
	}
	f.Add("$(((((")
	f.Add("`\\")
	f.Add("$'\\u")
	f.Add("<<")
	f.Add("a 2>")
	f.Fuzz(func(t *testing.T, script string) {
		Parse(script)
	})
}
