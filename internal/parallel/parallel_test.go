package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestEachCallsEveryPieceOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 100} {
		calls := make([]atomic.Int32, n)
		Each(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Errorf("n=%d: piece %d called %d times", n, i, got)
			}
		}
	}
}

func TestEachRunsPiecesAtOnce(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	// Each piece waits for the other to start: run one after the other,
	// the first would wait in vain.
	started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	Each(2, func(i int) {
		close(started[i])
		select {
		case <-started[1-i]:
		case <-time.After(10 * time.Second):
			t.Errorf("piece %d ran alone", i)
		}
	})
}

func TestEachRunsOnePieceOnTheCallersGoroutine(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// With one processor every piece runs in order on the caller's
	// goroutine.
	var order []int
	Each(5, func(i int) { order = append(order, i) })
	for i, got := range order {
		if got != i {
			t.Fatalf("order %v, want 0..4 in order", order)
		}
	}
	if len(order) != 5 {
		t.Fatalf("order %v, want 5 pieces", order)
	}
}
