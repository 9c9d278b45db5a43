package gitread

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/small-hook/small-hook/internal/testskip"
)

// TestLargeBodiesFaultInHugePages fills a fresh 64 MiB object buffer as
// inflating fills one and counts the page faults that costs the process:
// in 4 KiB pages it would be 16,384; backed by huge pages, a few dozen
// (bounded here at a quarter of that, for the buffer's unaligned ends
// and whatever else the process touches meanwhile).
func TestLargeBodiesFaultInHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		testskip.Skip(t, "this kernel offers no transparent huge pages (%q, %v)", mode, err)
	}
	const size = 64 << 20
	before := minorFaults(t)
	b := newBody(size)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	faults := minorFaults(t) - before
	if pages := int64(size / 4096); faults > pages/4 {
		t.Errorf("filling a %d MiB body cost %d page faults, as many as its %d pages: it is not backed by huge pages", size>>20, faults, pages)
	}
	if len(b) != size || b[1] != 0 {
		t.Errorf("newBody(%d) gave %d bytes, byte 1 = %d", size, len(b), b[1])
	}
}

func minorFaults(t *testing.T) int64 {
	t.Helper()
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		t.Fatal(err)
	}
	return u.Minflt
}
