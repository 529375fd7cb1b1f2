// checker: reads a fault run's history (history.go) and checks it for the
// run's workload. Prints what it found, one fact per line, writes
// report.json (and, on a linearizability violation, linearizability.html)
// into --out, and exits 0 iff every check passed (1: a check failed, 2: bad
// usage or a malformed history).
//
//	checker --workload register --history history.jsonl --out results/run-1
//	checker --workload bank --total 1000 --history history.jsonl
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("checker", flag.ContinueOnError)
	flags.SetOutput(stderr)
	workload := flags.String("workload", "", "register, set, dirty-read, bank or redundant-register")
	historyPath := flags.String("history", "", "the run's history (JSON lines)")
	outDir := flags.String("out", "", "where report.json (and a violation's HTML) go; none when empty")
	total := flags.Int64("total", -1, "bank: the total every read must show")
	timeout := flags.Duration("timeout", time.Minute, "register: how long the linearizability search may take")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if *workload == "" || *historyPath == "" {
		fmt.Fprintln(stderr, "checker: --workload and --history are required")
		flags.Usage()
		return 2
	}
	f, err := os.Open(*historyPath)
	if err != nil {
		fmt.Fprintln(stderr, "checker:", err)
		return 2
	}
	defer f.Close()
	h, err := ReadHistory(f)
	if err != nil {
		fmt.Fprintln(stderr, "checker:", err)
		return 2
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "checker:", err)
			return 2
		}
	}
	report, passed, err := check(*workload, h, *total, *timeout, *outDir)
	if err != nil {
		fmt.Fprintln(stderr, "checker:", err)
		return 2
	}
	printCounts(stdout, *workload, h)
	for _, line := range report.Lines {
		fmt.Fprintln(stdout, line)
	}
	verdict := "PASS"
	if !passed {
		verdict = "FAIL"
	}
	fmt.Fprintln(stdout, "verdict:", verdict)
	if *outDir != "" {
		data, _ := json.MarshalIndent(report.Details, "", "  ")
		if err := os.WriteFile(filepath.Join(*outDir, "report.json"), data, 0o644); err != nil {
			fmt.Fprintln(stderr, "checker:", err)
			return 2
		}
	}
	if passed {
		return 0
	}
	return 1
}

// Report is what a workload's check found: lines for people, details for report.json.
type Report struct {
	Lines   []string
	Details interface{}
}

func check(workload string, h *History, total int64, timeout time.Duration, outDir string) (Report, bool, error) {
	switch workload {
	case "register":
		r, err := CheckRegisters(h, timeout, outDir)
		lines := []string{fmt.Sprintf("keys: %d", r.Keys), "linearizable: " + r.Linearizable}
		if r.Visualized != "" {
			lines = append(lines, "violation shown in: "+r.Visualized)
		}
		return Report{lines, r}, r.Linearizable == "yes", err
	case "set", "dirty-read":
		r, err := CheckSet(h)
		lines := []string{
			fmt.Sprintf("final reads: %d (agree: %s)", r.FinalReads, yesNo(!r.Disagreeing)),
			fmt.Sprintf("acknowledged writes lost: %d %v", len(r.Lost), limit(r.Lost)),
			fmt.Sprintf("failed writes present: %d %v", len(r.Unexpected), limit(r.Unexpected)),
			fmt.Sprintf("dirty reads: %d %v", len(r.Dirty), limit(r.Dirty)),
		}
		return Report{lines, r}, r.Passed(), err
	case "bank":
		if total < 0 {
			return Report{}, false, fmt.Errorf("bank needs --total")
		}
		r, err := CheckBank(h, total)
		lines := []string{fmt.Sprintf("reads: %d", r.Reads),
			fmt.Sprintf("reads with a wrong total: %d", len(r.BadTotals)),
			fmt.Sprintf("reads with a negative balance: %d", len(r.Negative))}
		lines = append(lines, firstLines(r.BadTotals)...)
		return Report{lines, r}, r.Passed(), err
	case "redundant-register":
		r, err := CheckRedundant(h, timeout, outDir)
		lines := []string{fmt.Sprintf("reads: %d", r.Reads), fmt.Sprintf("torn reads: %d", len(r.Torn)),
			"linearizable: " + r.Register.Linearizable}
		lines = append(lines, firstLines(r.Torn)...)
		return Report{lines, r}, r.Passed(), err
	}
	return Report{}, false, fmt.Errorf("unknown workload %q (register, set, dirty-read, bank, redundant-register)", workload)
}

func printCounts(w io.Writer, workload string, h *History) {
	counts := map[Outcome]int{}
	for _, op := range h.Ops {
		counts[op.Outcome]++
	}
	fmt.Fprintf(w, "workload: %s\n", workload)
	fmt.Fprintf(w, "operations: %d (ok %d, failed %d, unknown %d)\n", len(h.Ops), counts[Ok], counts[Failed], counts[Unknown])
	fmt.Fprintf(w, "fault events: %d\n", len(h.Nemesis))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// limit keeps a report line short: the first ten values.
func limit(values []int64) []int64 {
	if len(values) > 10 {
		return values[:10]
	}
	return values
}

func firstLines(lines []string) []string {
	if len(lines) > 5 {
		return lines[:5]
	}
	return lines
}
