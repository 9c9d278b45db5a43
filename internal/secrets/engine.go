package secrets

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	re2 "github.com/wasilibs/go-re2"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"
)

// engineFrom is how many bytes a Scanner hands gitleaks' detector whole,
// Go's regular expressions running every rule over them, before it looks
// with RE2 first. Go's regexp runs gitleaks' generic-api-key expression at
// about a microsecond a byte, RE2 (go-re2, translated to Go) about forty
// times faster, but RE2 pays a few milliseconds to start and to compile
// the rules: a commit of a few files never starts it.
const engineFrom = 64 << 10

// memoBytes bounds the texts an engine remembers gitleaks' verdict on.
const memoBytes = 4 << 20

// engine finds, with RE2, where each rule gitleaks would run over a
// fragment matches it, and hands gitleaks' detector only the lines those
// matches cover (narrow): gitleaks' own code still decides every match
// (its entropy, allowlists, stop words), on the same lines, but its
// regular expressions read only them. A narrowed text is handed over only
// when RE2 finds in it exactly the matches it found in the whole
// fragment, rule by rule (so Go's regexp, which agrees with RE2 on valid
// UTF-8, finds them too); otherwise the fragment goes to gitleaks whole.
// gitleaks' verdict on a narrowed text is remembered (memo): the lines
// that match, a did:key identifier with its key, repeat from file to file.
type engine struct {
	// trie finds every rule's keywords, as gitleaks' prefilter does.
	trie *ahocorasick.Trie
	mu   sync.Mutex
	// compiled holds each expression compiled by RE2, nil when RE2 does
	// not compile it.
	compiled map[string]*re2.Regexp
	// shapes holds, by detector, what narrowing it needs.
	shapes map[*detect.Detector]*shape
}

// shape is what narrowing needs of one detector: its rules with their
// expressions compiled by RE2, and what of a file's path its verdicts
// depend on.
type shape struct {
	// narrowable is false when a rule's expression does not compile in
	// RE2 or a rule requires others (gitleaks then judges the lines
	// between their matches).
	narrowable bool
	rules      []engineRule
	// pathOnly is set when a rule matches paths alone: it reports a file
	// whatever its text, an empty one included.
	pathOnly bool
	// pathTests are what gitleaks asks of a path (a rule's path pattern,
	// an allowlist's paths); a verdict depends on the path through their
	// answers only.
	pathTests []func(string) bool
	// configPath is the configuration's own path, which gitleaks skips.
	configPath string
	// memo holds gitleaks' findings by memoKey, up to memoBytes of keys
	// (memoSize so far); mu guards both.
	mu       sync.Mutex
	memo     map[string][]report.Finding
	memoSize int
}

// engineRule is a rule with its expression compiled by RE2.
type engineRule struct {
	keywords []string
	re       *re2.Regexp
}

func newEngine(trie *ahocorasick.Trie) *engine {
	return &engine{trie: trie, compiled: map[string]*re2.Regexp{}, shapes: map[*detect.Detector]*shape{}}
}

// shapeOf returns the shape of det, built the first time it is asked for.
func (e *engine) shapeOf(det *detect.Detector) *shape {
	e.mu.Lock()
	defer e.mu.Unlock()
	if sh := e.shapes[det]; sh != nil {
		return sh
	}
	sh := &shape{narrowable: true, configPath: det.Config.Path, memo: map[string][]report.Finding{}}
	addAllowlists := func(lists []*config.Allowlist) {
		for _, a := range lists {
			if len(a.Paths) > 0 {
				sh.pathTests = append(sh.pathTests, a.PathAllowed)
			}
		}
	}
	addAllowlists(det.Config.Allowlists)
	for _, id := range det.Config.OrderedRules {
		r := det.Config.Rules[id]
		addAllowlists(r.Allowlists)
		if r.Path != nil {
			sh.pathTests = append(sh.pathTests, r.Path.MatchString)
		}
		if len(r.RequiredRules) > 0 {
			sh.narrowable = false
		}
		if r.Regex == nil {
			sh.pathOnly = sh.pathOnly || r.Path != nil
			continue
		}
		re := e.compile(r.Regex.String())
		if re == nil {
			sh.narrowable = false
		}
		keywords := make([]string, len(r.Keywords))
		for i, k := range r.Keywords {
			keywords[i] = strings.ToLower(k)
		}
		sh.rules = append(sh.rules, engineRule{keywords: keywords, re: re})
	}
	e.shapes[det] = sh
	return sh
}

// compile returns expr compiled by RE2, once; nil when RE2 cannot.
func (e *engine) compile(expr string) *re2.Regexp {
	re, ok := e.compiled[expr]
	if !ok {
		re, _ = re2.Compile(expr)
		e.compiled[expr] = re
	}
	return re
}

// narrow returns the lines of fr that the matches of the rules gitleaks
// would run over it cover, as a fragment that maps back to what fr maps
// to; ok is false when fr must go to gitleaks whole: its detector cannot
// be narrowed, its text is not valid UTF-8 (where RE2 and Go's regexp
// may differ) or holds something gitleaks' decoder decodes (it would
// scan the decoded text again), a match is empty or runs across fr's
// pieces, or RE2 finds other matches in the narrowed text.
func (e *engine) narrow(sh *shape, fr fragment) (narrowed fragment, ok bool) {
	if !sh.narrowable || !utf8.ValidString(fr.text) {
		return fragment{}, false
	}
	t := newText([]byte(fr.text), 1)
	for i := range t.lines() {
		if encodedLine(t.line(i)) {
			return fragment{}, false
		}
	}
	matches := e.matches(sh, fr.text)
	var spans [][2]int
	for _, ms := range matches {
		for _, m := range ms {
			if m[0] == m[1] {
				return fragment{}, false
			}
			spans = append(spans, [2]int{t.starts[t.index(m[0])], t.end(t.index(m[1] - 1))})
		}
	}
	pieces := mergeRanges(spans)
	var b strings.Builder
	narrowed = fragment{off: fr.off}
	at := make([]int, len(pieces))
	for k, p := range pieces {
		if fr.crosses(p[0], p[1]) {
			return fragment{}, false
		}
		if k > 0 {
			b.WriteString(joinSeparator)
			narrowed.joined = append(narrowed.joined, piece{at: b.Len(), off: fr.offset(p[0])})
		} else {
			narrowed.off = fr.offset(p[0])
		}
		at[k] = b.Len()
		b.WriteString(fr.text[p[0]:p[1]])
	}
	narrowed.text = b.String()
	// What gitleaks would find in the narrowed text: the same matches of
	// the same rules, moved to where their pieces are.
	want := make([][][]int, len(matches))
	for r, ms := range matches {
		for _, m := range ms {
			k := pieceOf(pieces, m[0])
			want[r] = append(want[r], []int{m[0] - pieces[k][0] + at[k], m[1] - pieces[k][0] + at[k]})
		}
	}
	got := e.matches(sh, narrowed.text)
	for r := range sh.rules {
		if !sameMatches(want[r], got[r]) {
			return fragment{}, false
		}
	}
	return narrowed, true
}

// matches returns, by rule of sh, the matches RE2 finds in text of the
// rules gitleaks runs over it: those without keywords, and those with a
// keyword in the text lower-cased as gitleaks lower-cases it.
func (e *engine) matches(sh *shape, text string) [][][]int {
	present := map[string]bool{}
	lower := strings.ToLower(text)
	e.trie.Walk([]byte(lower), func(end, size, _ int64) bool {
		present[lower[end-size+1:end+1]] = true
		return true
	})
	out := make([][][]int, len(sh.rules))
	for i, r := range sh.rules {
		runs := len(r.keywords) == 0
		for _, k := range r.keywords {
			runs = runs || present[k]
		}
		if runs {
			out[i] = r.re.FindAllStringIndex(text, -1)
		}
	}
	return out
}

// detect returns gitleaks' findings in a narrowed fragment at path,
// remembered by the fragment's text and the answers of the path tests.
func (sh *shape) detect(det *detect.Detector, path string, fr fragment, detected func()) []report.Finding {
	if fr.text == "" && !sh.pathOnly {
		return nil
	}
	key := sh.memoKey(path, fr.text)
	sh.mu.Lock()
	found, ok := sh.memo[key]
	sh.mu.Unlock()
	if ok {
		return found
	}
	detected()
	//lint:ignore SA1019 Detect takes this type throughout gitleaks v8
	found = det.Detect(detect.Fragment{Raw: fr.text, FilePath: path, StartLine: 1})
	sh.mu.Lock()
	if sh.memoSize+len(key) <= memoBytes {
		sh.memo[key] = found
		sh.memoSize += len(key)
	}
	sh.mu.Unlock()
	return found
}

// memoKey is text with what gitleaks' verdict on it depends on of path:
// whether it is empty or the configuration's own path (gitleaks skips
// both), and each path test's answer.
func (sh *shape) memoKey(path, text string) string {
	var b strings.Builder
	b.Grow(len(text) + len(sh.pathTests) + 3)
	bit := func(v bool) {
		if v {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	bit(path == "")
	bit(path == sh.configPath)
	for _, test := range sh.pathTests {
		bit(test(path))
	}
	b.WriteByte('\n')
	b.WriteString(text)
	return b.String()
}

// mergeRanges merges overlapping and touching ranges, in order.
func mergeRanges(spans [][2]int) [][2]int {
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	var out [][2]int
	for _, s := range spans {
		if n := len(out); n > 0 && s[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}

// pieceOf returns the index of the piece (sorted, apart) that holds
// offset off.
func pieceOf(pieces [][2]int, off int) int {
	k, _ := slices.BinarySearchFunc(pieces, off, func(p [2]int, off int) int {
		if p[1] <= off {
			return -1
		}
		return 0
	})
	return k
}

func sameMatches(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i][0] != b[i][0] || a[i][1] != b[i][1] {
			return false
		}
	}
	return true
}
