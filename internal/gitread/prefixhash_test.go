package gitread

import (
	"crypto/sha1"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pjbgf/sha1cd"
)

// TestPrefixProofDetectsCollisions: the two messages of the published
// SHA-1 chosen-prefix collision ("SHA-1 is a Shambles", shipped with
// sha1cd's tests) have one SHA-1; the prefix proof's hash gives neither
// an id, so a forged old version is read from the store instead.
func TestPrefixProofDetectsCollisions(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/pjbgf/sha1cd").Output()
	if err != nil {
		t.Fatalf("locating sha1cd's module: %v", err)
	}
	files := filepath.Join(strings.TrimSpace(string(out)), "test", "testdata", "files")
	var plain [][20]byte
	for _, name := range []string{"sha-mbles-1.bin", "sha-mbles-2.bin"} {
		data, err := os.ReadFile(filepath.Join(files, name))
		if err != nil {
			t.Fatal(err)
		}
		plain = append(plain, sha1.Sum(data))
		h := sha1cd.New()
		h.Write(data)
		if sum := prefixSumOf(h); sum != nil {
			t.Errorf("%s: the collision went undetected (%x)", name, sum)
		}
	}
	if plain[0] != plain[1] {
		t.Fatal("the test files are not a SHA-1 collision")
	}
	if BlobID([]byte("entries: []\n")) == nil {
		t.Error("ordinary content has no id")
	}
}
