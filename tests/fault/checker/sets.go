// The set and dirty-read workloads' checkers: elements added (unique
// inserts) and read back.
//
// set: {"f":"add","value":17}; final reads {"f":"read","final":true,
// "host":"127.0.0.2"} complete with every element ([…]). Every element whose
// add was acknowledged must be in every final read (lost otherwise); an
// element in a final read whose add failed is unexpected (a failed add must
// not have happened).
//
// dirty-read adds reads during the run ({"f":"read"} without "final"): an
// element seen by one of them that no final read holds was read but never
// became durable (a dirty read).
package main

import (
	"encoding/json"
	"fmt"
	"sort"
)

// SetResult is the verdict on a set or dirty-read history.
type SetResult struct {
	Acknowledged int
	FinalReads   int
	Lost         []int64 // acknowledged, missing from a final read
	Unexpected   []int64 // failed, yet in a final read
	Dirty        []int64 // seen during the run, in no final read
	Disagreeing  bool    // the final reads of different hosts differ
}

// Passed is true iff nothing was lost, nothing unexpected appeared, no dirty read was seen, and the hosts agree.
func (r SetResult) Passed() bool {
	return r.FinalReads > 0 && len(r.Lost) == 0 && len(r.Unexpected) == 0 && len(r.Dirty) == 0 && !r.Disagreeing
}

// CheckSet checks a set (or dirty-read) history.
func CheckSet(h *History) (SetResult, error) {
	var r SetResult
	acknowledged := map[int64]bool{}
	failed := map[int64]bool{}
	seen := map[int64]bool{}
	var finals []map[int64]bool
	for _, op := range h.Ops {
		switch op.F {
		case "add":
			var v int64
			if err := json.Unmarshal(op.Input, &v); err != nil {
				return r, fmt.Errorf("add of process %d at %d: the value must be an integer", op.Process, op.Call)
			}
			switch op.Outcome {
			case Ok:
				acknowledged[v] = true
			case Failed:
				failed[v] = true
			}
		case "read":
			if op.Outcome != Ok {
				if op.Final {
					return r, fmt.Errorf("the final read from %q did not complete", op.Host)
				}
				continue
			}
			var values []int64
			if err := json.Unmarshal(op.Output, &values); err != nil {
				return r, fmt.Errorf("read of process %d at %d: the value must be a list of integers", op.Process, op.Call)
			}
			if op.Final {
				final := map[int64]bool{}
				for _, v := range values {
					final[v] = true
				}
				finals = append(finals, final)
			} else {
				for _, v := range values {
					seen[v] = true
				}
			}
		default:
			return r, fmt.Errorf("unknown set operation %q", op.F)
		}
	}
	r.Acknowledged, r.FinalReads = len(acknowledged), len(finals)
	for i := 1; i < len(finals); i++ {
		if !sameSet(finals[0], finals[i]) {
			r.Disagreeing = true
		}
	}
	for v := range acknowledged {
		if !inAll(finals, v) {
			r.Lost = append(r.Lost, v)
		}
	}
	for v := range failed {
		if inAny(finals, v) {
			r.Unexpected = append(r.Unexpected, v)
		}
	}
	for v := range seen {
		if !inAny(finals, v) {
			r.Dirty = append(r.Dirty, v)
		}
	}
	for _, s := range [][]int64{r.Lost, r.Unexpected, r.Dirty} {
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	}
	return r, nil
}

func sameSet(a, b map[int64]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for v := range a {
		if !b[v] {
			return false
		}
	}
	return true
}

func inAll(sets []map[int64]bool, v int64) bool {
	for _, s := range sets {
		if !s[v] {
			return false
		}
	}
	return len(sets) > 0
}

func inAny(sets []map[int64]bool, v int64) bool {
	for _, s := range sets {
		if s[v] {
			return true
		}
	}
	return false
}
