// History: the JSON-lines operation log a fault run writes, and pairing
// each invocation with its completion.
//
// One object per line:
//
//	{"process":3,"type":"invoke","f":"write","key":"7","value":5,"time":123456789}
//	{"process":3,"type":"ok","f":"write","key":"7","value":5,"time":123999999}
//
// type is invoke, ok (it happened, with its result), fail (it certainly did
// not happen) or info (unknown: a timeout or a lost connection); nemesis
// lines carry type "nemesis" and are kept apart. time is monotonic
// nanoseconds. A process has at most one operation open at a time.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// Event is one line of a history.
type Event struct {
	Process int             `json:"process"`
	Type    string          `json:"type"`
	F       string          `json:"f"`
	Key     string          `json:"key,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	Time    int64           `json:"time"`
	Final   bool            `json:"final,omitempty"`
	Host    string          `json:"host,omitempty"`
}

// Outcome of an operation.
type Outcome int

const (
	Ok Outcome = iota
	Failed
	Unknown
)

// Op is an invocation with its completion. An operation still open at the
// end of the history is Unknown, as is one completed with info.
type Op struct {
	Process int
	F       string
	Key     string
	Input   json.RawMessage // the invocation's value
	Output  json.RawMessage // the completion's value (Ok only)
	Call    int64
	Return  int64 // math.MaxInt64 when Unknown
	Outcome Outcome
	Final   bool
	Host    string
}

// History is a run's operations (in invocation order) and its fault lines.
type History struct {
	Ops     []Op
	Nemesis []Event
}

// ReadHistory parses and pairs a history; malformed lines are errors naming the line.
func ReadHistory(r io.Reader) (*History, error) {
	h := &History{}
	open := map[int]int{} // process -> index in h.Ops
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; scanner.Scan(); line++ {
		if len(scanner.Bytes()) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(scanner.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("history line %d: %v", line, err)
		}
		switch e.Type {
		case "nemesis":
			h.Nemesis = append(h.Nemesis, e)
		case "invoke":
			if _, busy := open[e.Process]; busy {
				return nil, fmt.Errorf("history line %d: process %d invokes %s with an operation still open", line, e.Process, e.F)
			}
			open[e.Process] = len(h.Ops)
			h.Ops = append(h.Ops, Op{Process: e.Process, F: e.F, Key: e.Key, Input: e.Value, Call: e.Time,
				Return: math.MaxInt64, Outcome: Unknown, Final: e.Final, Host: e.Host})
		case "ok", "fail", "info":
			i, busy := open[e.Process]
			if !busy {
				return nil, fmt.Errorf("history line %d: process %d completes %s with nothing open", line, e.Process, e.F)
			}
			delete(open, e.Process)
			op := &h.Ops[i]
			if op.F != e.F || op.Key != e.Key {
				return nil, fmt.Errorf("history line %d: process %d completes %s %q but invoked %s %q", line, e.Process, e.F, e.Key, op.F, op.Key)
			}
			switch e.Type {
			case "ok":
				op.Outcome, op.Output, op.Return = Ok, e.Value, e.Time
			case "fail":
				op.Outcome, op.Return = Failed, e.Time
			}
		default:
			return nil, fmt.Errorf("history line %d: unknown type %q", line, e.Type)
		}
	}
	if err := scanner.Err(); err != nil {
		return nil, err
	}
	return h, nil
}
