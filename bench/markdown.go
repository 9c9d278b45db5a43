package main

import (
	"fmt"
	"strings"
	"time"
)

// markdown renders the results as the BENCHMARKS.md table.
func markdown(results []scenario, when time.Time, cpus, runs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmarks\n\nMeasured by `go run ./bench` on %s, on a machine with %d cores. ", when.Format("2006-01-02 15:04 UTC"), cpus)
	fmt.Fprintf(&b, "Each time is the median of %d runs of the whole process after one warm-up run; memory is the peak resident set size of one more run under GNU time. ", runs)
	b.WriteString("Ratios compare small-hook with each peer measured in the same run (below 1: small-hook is faster).\n\n")
	b.WriteString("| scenario | command | median | peak memory | small-hook ÷ this | target | met |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | :---: |\n")
	for _, s := range results {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | | | |\n", s.title, s.subject.name, ms(s.subject), mib(s.subject))
		for _, p := range s.peers {
			ratio, target, met := "", "", ""
			if p.skipped == "" && p.median > 0 {
				r := float64(s.subject.median) / float64(p.median)
				ratio = fmt.Sprintf("%.2f", r)
				if t, ok := s.targets[p.name]; ok {
					target = fmt.Sprintf("≤ %.2f", t)
					met = "yes"
					if r > t {
						met = "**no**"
					}
				}
			}
			fmt.Fprintf(&b, "| | %s | %s | %s | %s | %s | %s |\n", p.name, ms(p), mib(p), ratio, target, met)
		}
		if s.note != "" {
			fmt.Fprintf(&b, "| | *%s* | | | | | |\n", s.note)
		}
	}
	return b.String()
}

func ms(m measurement) string {
	if m.skipped != "" {
		return m.skipped
	}
	return fmt.Sprintf("%.1f ms", float64(m.median.Microseconds())/1000)
}

func mib(m measurement) string {
	if m.skipped != "" {
		return ""
	}
	if m.peakRSS == 0 {
		return "n/a (no GNU time)"
	}
	return fmt.Sprintf("%.1f MiB", float64(m.peakRSS)/(1<<20))
}
