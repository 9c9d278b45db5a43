package yamldoc

import (
	"bytes"
	"testing"
)

// largeProgress repeats the reference file's entries until the file holds
// at least size bytes.
func largeProgress(t testing.TB, size int) []byte {
	ref := readReferenceProgress(t)
	at := bytes.Index(ref, []byte("\nentries:\n")) + len("\nentries:\n")
	out := bytes.Clone(ref)
	for len(out) < size {
		out = append(out, ref[at:]...)
	}
	return out
}

func BenchmarkFindSequenceEnd(b *testing.B) {
	for _, c := range []struct {
		name string
		data []byte
	}{{"reference 1 MB", readReferenceProgress(b)}, {"28 MB", largeProgress(b, 28<<20)}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				if FindSequenceEnd(c.data, "entries") == nil {
					b.Fatal("refused")
				}
			}
		})
	}
}

func BenchmarkProveAppend(b *testing.B) {
	for _, c := range []struct {
		name string
		data []byte
	}{{"reference 1 MB", readReferenceProgress(b)}, {"28 MB", largeProgress(b, 28<<20)}} {
		b.Run(c.name, func(b *testing.B) {
			end := FindSequenceEnd(c.data, "entries")
			new := append(bytes.Clone(c.data), referenceEntry("task-3", "2026-11-22T10:20:00.000000001Z")...)
			b.ReportAllocs()
			for b.Loop() {
				if ProveAppend(end, c.data, new) == nil {
					b.Fatal("refused")
				}
			}
		})
	}
}
