package signature

import (
	"fmt"
	"strings"
	"testing"
)

func TestMatchPatternList(t *testing.T) {
	long := strings.Repeat("a", maxSubpattern)
	cases := []struct {
		s, list string
		want    bool
	}{
		{"alice@example.com", "alice@example.com", true},
		{"alice@example.com", "Alice@example.com", false},
		{"alice@example.com", "bob@example.com,alice@example.com", true},
		{"alice@example.com", "*@example.com", true},
		{"alice@example.com", "*@example.co", false},
		{"alice@example.com", "*@example.com,!alice@example.com", false},
		{"alice@example.com", "!alice@example.com,*@example.com", false},
		{"alice@example.com", "!bob@example.com", false},
		{"alice@example.com", "!bob@example.com,*", true},
		{"alice@example.com", "?lice@example.com", true},
		{"alice@example.com", "??lice@example.com", false},
		{"alice@example.com", "a*e*@*.com", true},
		{"alice@example.com", "", false},
		{"", "", false},
		{"", ",", true},
		{"", "a,", false},
		{"", "!", false},
		{"alice@example.com", "alice@example.com,", true},
		{"é@example.com", "?@example.com", false},
		{"é@example.com", "??@example.com", true},
		{"a,b", "a,b", false},
		{"git", "git,file", true},
		{"git", "*,!git", false},
		{"git", "gi?", true},
		{long, long, true},
		{long + "a", long + "a", false},
		{long + "a", "*," + long + "a", false}, // a too long subpattern fails the whole list
		{"x", "*," + long + "a", false},
		{"alice@example.com", "**@example.com", true},
		{"alice@example.com", "*", true},
	}
	for _, tc := range cases {
		if got := matchPatternList(tc.s, tc.list); got != tc.want {
			t.Errorf("matchPatternList(%.40q, %.40q) = %v, want %v", tc.s, tc.list, got, tc.want)
		}
	}
}

// TestPrincipalsLikeSSHKeygen compares principal matching with ssh-keygen
// -Y verify -I, which git runs.
func TestPrincipalsLikeSSHKeygen(t *testing.T) {
	tl := newTool(t)
	keyPath, pub := tl.sshKey("alice")
	data := tl.write("data", "signed data\n")
	tl.must(tl.dir, nil, nil, "ssh-keygen", "-Y", "sign", "-n", "git", "-f", keyPath, data)
	cases := []struct{ principal, list string }{
		{"alice@example.com", "*@example.com,!mallory@example.com"},
		{"mallory@example.com", "*@example.com,!mallory@example.com"},
		{"Alice@example.com", "alice@example.com"},
		{"é@example.com", "?@example.com"},
		{"é@example.com", "??@example.com"},
		{"alice@example.com", "a*e*@*.com"},
		{"alice@example.com", "!bob@example.com"},
		{"alice@example.com.evil", "*@example.com"},
		{"alice@example.com", "alice@example.com,"},
		{"x", "*," + strings.Repeat("a", maxSubpattern+1)},
	}
	for i, tc := range cases {
		file := tl.write(fmt.Sprintf("allowed%d", i), fmt.Sprintf("%q %s\n", tc.list, pub))
		_, keygen := tl.run(tl.dir, nil, []byte("signed data\n"), "ssh-keygen", "-Y", "verify", "-n", "git", "-f", file, "-I", tc.principal, "-s", data+".sig")
		if got := matchPatternList(tc.principal, tc.list); got != keygen {
			t.Errorf("%q in %.40q: %v, ssh-keygen says %v", tc.principal, tc.list, got, keygen)
		}
	}
}
