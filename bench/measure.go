package main

import (
	"fmt"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// measurement is the median wall time and the peak memory of a command.
type measurement struct {
	name    string
	median  time.Duration
	peakRSS int64 // bytes
	// skipped says why the command was not measured.
	skipped string
}

// measure runs argv in dir runs times (after one warm-up run) and returns
// the median wall time and the largest resident set size seen. Exit codes
// are not judged: a check that finds problems is timed like one that does
// not.
func measure(name, dir string, runs int, env []string, argv ...string) (measurement, error) {
	m := measurement{name: name}
	var times []time.Duration
	for i := 0; i <= runs; i++ {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		cmd.Env = append(benchEnv(), env...)
		start := time.Now()
		err := cmd.Run()
		elapsed := time.Since(start)
		if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
			return m, fmt.Errorf("%s: %w", name, err)
		}
		if i == 0 {
			continue
		}
		times = append(times, elapsed)
		if usage, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			m.peakRSS = max(m.peakRSS, usage.Maxrss*1024)
		}
	}
	slices.Sort(times)
	m.median = times[len(times)/2]
	return m, nil
}

func skipped(name, why string) measurement {
	return measurement{name: name, skipped: why}
}
