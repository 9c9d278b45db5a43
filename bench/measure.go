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

// measurement is the median wall and CPU time and the peak memory of a
// command.
type measurement struct {
	name   string
	median time.Duration
	// cpu is the median CPU time (user and system, the command's own and
	// its children's): steadier than wall time when other work shares the
	// machine.
	cpu     time.Duration
	peakRSS int64 // bytes
	// skipped says why the command was not measured.
	skipped string
}

// command is one command line to measure.
type command struct {
	name, dir string
	env       []string
	argv      []string
	// stdin is what the command reads (a hook's input from git).
	stdin string
}

// measureTogether runs several commands runs times each, in turns (one
// run of each, then the next round, after one warm-up round), so that
// whatever else loads the machine weighs on all of them alike, and returns
// their median wall and CPU times in order. Then it runs each once more
// under GNU time for its peak memory. (The rusage of a child of this
// process would also count the pages it shared with the benchmark before
// exec.) Exit codes are not judged: a check that finds problems is timed
// like one that does not.
func measureTogether(runs int, cmds ...command) ([]measurement, error) {
	wall := make([][]time.Duration, len(cmds))
	cpu := make([][]time.Duration, len(cmds))
	for i := 0; i <= runs; i++ {
		for j, c := range cmds {
			w, u, err := runOnce(c)
			if err != nil {
				return nil, err
			}
			if i > 0 { // the first round warms the caches up
				wall[j], cpu[j] = append(wall[j], w), append(cpu[j], u)
			}
		}
	}
	out := make([]measurement, len(cmds))
	for j, c := range cmds {
		out[j] = measurement{name: c.name, median: median(wall[j]), cpu: median(cpu[j]), peakRSS: peakMemory(c)}
	}
	return out, nil
}

// runOnce runs a command and returns its wall and CPU times.
func runOnce(c command) (wall, cpu time.Duration, err error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = append(benchEnv(), c.env...)
	cmd.Stdin = strings.NewReader(c.stdin)
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		return 0, 0, fmt.Errorf("%s: %w", c.name, err)
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

func median(times []time.Duration) time.Duration {
	slices.Sort(times)
	return times[len(times)/2]
}

// peakMemory runs the command under GNU time and returns its maximum
// resident set size in bytes, or 0 when GNU time is not installed.
func peakMemory(c command) int64 {
	out, err := os.CreateTemp("", "bench-time-")
	if err != nil {
		return 0
	}
	defer os.Remove(out.Name())
	out.Close()
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", out.Name()}, c.argv...)...)
	cmd.Dir = c.dir
	cmd.Env = append(benchEnv(), c.env...)
	cmd.Stdin = strings.NewReader(c.stdin)
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
