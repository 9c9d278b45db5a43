// Package budgettest checks work budgets: a test builds an input of size n
// and one of size 2n, counts the work each takes — bytes allocated, bytes
// scanned, comparisons, calls: counted in the test, never timed — and
// fails when the work grows faster than the input, which a noisy machine
// cannot hide or fake. It also builds the inputs that a budget test and
// the bench's scenario of the same stage share.
package budgettest

import (
	"runtime"
	"testing"
)

// Slack is how much faster than the input the work may grow: a count
// that follows the input doubles when it doubles, give or take what
// rounding and amortised growth add.
const Slack = 1.2

// Allocated returns the bytes allocated while f runs, by every goroutine:
// run it where no other test runs in parallel.
func Allocated(f func()) float64 {
	before, after := memStatsAround(f)
	return float64(after.TotalAlloc - before.TotalAlloc)
}

// Allocations returns how many allocations f makes, by every goroutine:
// run it where no other test runs in parallel. Where the bytes allocated
// must follow the input (an object read whole), the count need not.
func Allocations(f func()) float64 {
	before, after := memStatsAround(f)
	return float64(after.Mallocs - before.Mallocs)
}

// memStatsAround returns the memory statistics before and after f runs.
func memStatsAround(f func()) (before, after runtime.MemStats) {
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return before, after
}

// Linear fails t when the work grew faster than the input: input holds
// the sizes of the smaller and the larger input, work the counts of what
// each took, and what names the count in the message.
func Linear(t testing.TB, what string, input, work [2]float64) {
	t.Helper()
	if input[0] <= 0 || input[1] < 1.5*input[0] {
		t.Fatalf("not a budget: inputs %v", input)
	}
	in := input[1] / input[0]
	if work[1] > Slack*in*work[0] {
		t.Errorf("the input grew %.2f times and %s %.2f times (%.0f to %.0f): faster than the input", in, what, work[1]/work[0], work[0], work[1])
	}
}
