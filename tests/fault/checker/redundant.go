// The redundant-register workload's checker: one value written atomically
// into several partitions ({"f":"write","value":7}) and read from all of
// them together ({"f":"read"} completing with [7,7,7]). A read must find
// the same value everywhere (a multi-partition write is all or nothing),
// and, read as one register, the history must be linearizable.
package main

import (
	"encoding/json"
	"fmt"
	"time"
)

// RedundantResult is the verdict on a redundant-register history.
type RedundantResult struct {
	Reads    int
	Torn     []string // reads that found different values in different partitions
	Register RegisterResult
}

// Passed is true iff no read was torn and the register is linearizable.
func (r RedundantResult) Passed() bool {
	return r.Reads > 0 && len(r.Torn) == 0 && r.Register.Linearizable == "yes"
}

// CheckRedundant checks every read for agreement, then the values as one register.
func CheckRedundant(h *History, timeout time.Duration, outDir string) (RedundantResult, error) {
	var r RedundantResult
	single := &History{Nemesis: h.Nemesis}
	for _, op := range h.Ops {
		if op.F == "read" && op.Outcome == Ok {
			var values []*int64
			if err := json.Unmarshal(op.Output, &values); err != nil || len(values) == 0 {
				return r, fmt.Errorf("read of process %d at %d: the value must be a non-empty list", op.Process, op.Call)
			}
			r.Reads++
			for _, v := range values[1:] {
				if (v == nil) != (values[0] == nil) || (v != nil && *v != *values[0]) {
					r.Torn = append(r.Torn, fmt.Sprintf("read at %d: %s", op.Return, op.Output))
					break
				}
			}
			first, _ := json.Marshal(values[0])
			op.Output = first
		}
		op.Key = "redundant"
		single.Ops = append(single.Ops, op)
	}
	reg, err := CheckRegisters(single, timeout, outDir)
	r.Register = reg
	return r, err
}
