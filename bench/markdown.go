package main

import (
	"fmt"
	"strings"
	"time"
)

// memoryAllowance is the fixed part of the peak memory target: 4 × the
// largest governed file + 30 MiB.
const memoryAllowance = 30 << 20

// markdown renders the results as the BENCHMARKS.md table.
func markdown(results []scenario, when time.Time, cpus, runs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmarks\n\nMeasured by `go run ./bench` on %s, on a machine with %d cores. ", when.Format("2006-01-02 15:04 UTC"), cpus)
	fmt.Fprintf(&b, "Each time is the median of %d runs of the whole process after one warm-up run, the commands of a scenario taking turns run by run so that other load on the machine weighs on all of them alike; ", runs)
	b.WriteString("wall is elapsed time, CPU is user + system time of the process and its children (steadier when the machine is shared). ")
	b.WriteString("Memory is the peak resident set size of one more run under GNU time. ")
	b.WriteString("Ratios compare small-hook with each peer measured in the same run, wall (CPU); below 1, small-hook is faster. ")
	b.WriteString("Targets are judged on the wall ratio, and on the ratio of peak memory where a row says memory; the memory target of every scenario is also 4 × its largest governed file + 30 MiB. ")
	b.WriteString("gitleaks runs in two builds: as `go install` builds it (what the pre-commit framework's golang hook runs), and as its releases are built (`-tags gore2regex`: RE2 compiled to WebAssembly in place of Go's regexp; what gitleaks-action, Homebrew, the Docker image and the release page give users), named \"release build\".\n\n")
	b.WriteString("| scenario | command | wall | CPU | peak memory | small-hook ÷ this | target | met |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | :---: |\n")
	for _, s := range results {
		target, met := s.ownTargets()
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | | %s | %s |\n", s.title, s.subject.name, ms(s.subject.median, s.subject), ms(s.subject.cpu, s.subject), mib(s.subject), target, met)
		for _, p := range s.peers {
			ratio, target, met := s.against(p)
			fmt.Fprintf(&b, "| | %s | %s | %s | %s | %s | %s | %s |\n", p.name, ms(p.median, p), ms(p.cpu, p), mib(p), ratio, target, met)
		}
		if s.note != "" {
			fmt.Fprintf(&b, "| | *%s* | | | | | | |\n", s.note)
		}
	}
	return b.String()
}

// against compares the subject with peer p: the ratios of wall (CPU)
// time, and of peak memory where the scenario sets a memory target
// against p; the targets and whether they are met.
func (s scenario) against(p measurement) (ratio, target, met string) {
	if p.skipped != "" || p.median <= 0 || p.cpu <= 0 {
		return "", "", ""
	}
	var ratios, targets, mets []string
	r := float64(s.subject.median) / float64(p.median)
	ratios = append(ratios, fmt.Sprintf("%.2f (%.2f)", r, float64(s.subject.cpu)/float64(p.cpu)))
	if t, ok := s.targets[p.name]; ok {
		targets, mets = append(targets, fmt.Sprintf("≤ %.2f", t)), append(mets, verdict(r <= t))
	}
	if t, ok := s.memoryTargets[p.name]; ok && p.peakRSS > 0 && s.subject.peakRSS > 0 {
		m := float64(s.subject.peakRSS) / float64(p.peakRSS)
		ratios = append(ratios, fmt.Sprintf("memory %.2f", m))
		targets, mets = append(targets, fmt.Sprintf("memory ≤ %.2f", t)), append(mets, verdict(m <= t))
	}
	return strings.Join(ratios, "; "), strings.Join(targets, ", "), strings.Join(mets, ", ")
}

// ownTargets are the targets the subject meets on its own: peak memory,
// and a time limit when the scenario has one.
func (s scenario) ownTargets() (target, met string) {
	var targets, mets []string
	if s.limit > 0 {
		targets = append(targets, fmt.Sprintf("≤ %d ms", s.limit.Milliseconds()))
		if s.subject.skipped != "" {
			mets = append(mets, "not measured")
		} else {
			mets = append(mets, verdict(s.subject.median <= s.limit))
		}
	}
	if s.largest > 0 && s.subject.peakRSS > 0 {
		limit := 4*s.largest + memoryAllowance
		targets = append(targets, fmt.Sprintf("≤ %.1f MiB", float64(limit)/(1<<20)))
		mets = append(mets, verdict(s.subject.peakRSS <= limit))
	}
	if s.maxMemory > 0 && s.subject.peakRSS > 0 {
		targets = append(targets, fmt.Sprintf("≤ %d MiB", s.maxMemory>>20))
		mets = append(mets, verdict(s.subject.peakRSS <= s.maxMemory))
	}
	return strings.Join(targets, ", "), strings.Join(mets, ", ")
}

func verdict(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

func ms(d time.Duration, m measurement) string {
	if m.skipped != "" {
		return m.skipped
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
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
