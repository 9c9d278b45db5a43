// Package parallel runs independent pieces of one job on the processors
// the process may use.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls fn(i) once for every i in 0..n-1, on as many goroutines as
// there are processors to run them (on the caller's goroutine when there
// is one piece or one processor), and returns when every call has. Calls
// take the next piece as they finish one, so pieces of unequal size
// spread evenly; fn must be safe to call concurrently for different i.
func Each(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}
