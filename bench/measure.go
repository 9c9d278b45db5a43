package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
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
// the median wall time, then runs it once more under GNU time for its peak
// memory. (The rusage of a child of this process would also count the
// pages it shared with the benchmark before exec.) Exit codes are not
// judged: a check that finds problems is timed like one that does not.
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
	}
	slices.Sort(times)
	m.median = times[len(times)/2]
	m.peakRSS = peakMemory(dir, env, argv)
	return m, nil
}

// peakMemory runs argv under GNU time and returns its maximum resident set
// size in bytes, or 0 when GNU time is not installed.
func peakMemory(dir string, env []string, argv []string) int64 {
	out, err := os.CreateTemp("", "bench-time-")
	if err != nil {
		return 0
	}
	defer os.Remove(out.Name())
	out.Close()
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", out.Name()}, argv...)...)
	cmd.Dir = dir
	cmd.Env = append(benchEnv(), env...)
	if err := cmd.Run(); err != nil {
		if _, isExit := err.(*exec.ExitError); !isExit {
			return 0
		}
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return 0
	}
	kb, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
	if err != nil {
		return 0
	}
	return kb * 1024
}

func skipped(name, why string) measurement {
	return measurement{name: name, skipped: why}
}
