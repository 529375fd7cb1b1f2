// The register workload's checker: per-key read / write / compare-and-set
// registers, checked for linearizability with Porcupine, each key on its
// own.
//
// Operations: {"f":"write","value":5}; {"f":"cas","value":[5,6]} completing
// with true or false; {"f":"read"} completing with the value or null (never
// written). A failed operation did not happen and is left out; an unknown
// write or CAS may have happened at any point after its invocation; an
// unknown read tells nothing and is left out.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/anishathalye/porcupine"
)

type registerState struct {
	set   bool
	value int64
}

type registerInput struct {
	f        string
	value    int64 // write: the value; cas: the new value
	expected int64 // cas: the value it must find
}

type registerOutput struct {
	unknown bool
	found   bool  // read: a value was there; cas: it swapped
	value   int64 // read: the value
}

var registerModel = porcupine.NondeterministicModel{
	Init: func() []interface{} { return []interface{}{registerState{}} },
	Step: func(state, input, output interface{}) []interface{} {
		s, in, out := state.(registerState), input.(registerInput), output.(registerOutput)
		switch in.f {
		case "read":
			if out.found == s.set && (!s.set || out.value == s.value) {
				return []interface{}{s}
			}
			return nil
		case "write":
			written := registerState{set: true, value: in.value}
			if out.unknown {
				return []interface{}{s, written}
			}
			return []interface{}{written}
		default: // cas
			matches := s.set && s.value == in.expected
			swapped := registerState{set: true, value: in.value}
			switch {
			case out.unknown && matches:
				return []interface{}{s, swapped}
			case out.unknown:
				return []interface{}{s}
			case out.found && matches:
				return []interface{}{swapped}
			case !out.found && !matches:
				return []interface{}{s}
			}
			return nil
		}
	},
	DescribeOperation: func(input, output interface{}) string {
		in, out := input.(registerInput), output.(registerOutput)
		result := "?"
		if !out.unknown {
			switch in.f {
			case "read":
				result = "null"
				if out.found {
					result = fmt.Sprint(out.value)
				}
			default:
				result = fmt.Sprint(out.found)
			}
		}
		switch in.f {
		case "read":
			return "read → " + result
		case "write":
			return fmt.Sprintf("write %d → %s", in.value, result)
		}
		return fmt.Sprintf("cas %d→%d → %s", in.expected, in.value, result)
	},
	DescribeState: func(state interface{}) string {
		s := state.(registerState)
		if !s.set {
			return "null"
		}
		return fmt.Sprint(s.value)
	},
}

// RegisterResult is the verdict on a register history.
type RegisterResult struct {
	Keys         int
	Operations   int
	Linearizable string // "yes", "no", or "unknown" (the search timed out)
	Visualized   string // the HTML file showing the violation, if any
}

// CheckRegisters checks every key's history; on a violation it writes an
// HTML visualization into outDir (when not empty).
func CheckRegisters(h *History, timeout time.Duration, outDir string) (RegisterResult, error) {
	var ops []porcupine.Operation
	keys := map[string]int{}
	for _, op := range h.Ops {
		in, out, keep, err := registerOperation(op)
		if err != nil {
			return RegisterResult{}, err
		}
		if !keep {
			continue
		}
		id, seen := keys[op.Key]
		if !seen {
			id = len(keys)
			keys[op.Key] = id
		}
		ops = append(ops, porcupine.Operation{ClientId: op.Process, Input: in, Output: out, Call: op.Call,
			Return: op.Return, Metadata: id})
	}
	model := registerModel
	model.Partition = byKey
	m := model.ToModel()
	verdict, info := porcupine.CheckOperationsVerbose(m, ops, timeout)
	result := RegisterResult{Keys: len(keys), Operations: len(ops)}
	switch verdict {
	case porcupine.Ok:
		result.Linearizable = "yes"
	case porcupine.Illegal:
		result.Linearizable = "no"
	default:
		result.Linearizable = "unknown"
	}
	if verdict == porcupine.Illegal && outDir != "" {
		path := filepath.Join(outDir, "linearizability.html")
		f, err := os.Create(path)
		if err != nil {
			return result, err
		}
		defer f.Close()
		if err := porcupine.Visualize(m, info, f); err != nil {
			return result, err
		}
		result.Visualized = path
	}
	return result, nil
}

// byKey puts each key's operations in a partition of its own.
func byKey(history []porcupine.Operation) [][]porcupine.Operation {
	groups := map[int][]porcupine.Operation{}
	var order []int
	for _, op := range history {
		k := op.Metadata.(int)
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], op)
	}
	out := make([][]porcupine.Operation, 0, len(order))
	for _, k := range order {
		out = append(out, groups[k])
	}
	return out
}

// registerOperation converts one operation; keep is false for what tells nothing.
func registerOperation(op Op) (in registerInput, out registerOutput, keep bool, err error) {
	if op.Outcome == Failed || (op.Outcome == Unknown && op.F == "read") {
		return in, out, false, nil
	}
	in.f = op.F
	out.unknown = op.Outcome == Unknown
	bad := func(what string) error {
		return fmt.Errorf("register operation of process %d at %d: %s", op.Process, op.Call, what)
	}
	switch op.F {
	case "read":
		var v *int64
		if err := json.Unmarshal(op.Output, &v); err != nil {
			return in, out, false, bad("a read's value must be an integer or null")
		}
		out.found = v != nil
		if v != nil {
			out.value = *v
		}
	case "write":
		if err := json.Unmarshal(op.Input, &in.value); err != nil {
			return in, out, false, bad("a write's value must be an integer")
		}
	case "cas":
		var pair [2]int64
		if err := json.Unmarshal(op.Input, &pair); err != nil {
			return in, out, false, bad("a cas's value must be [expected, new]")
		}
		in.expected, in.value = pair[0], pair[1]
		if !out.unknown {
			if err := json.Unmarshal(op.Output, &out.found); err != nil {
				return in, out, false, bad("a cas completes with true or false")
			}
		}
	default:
		return in, out, false, bad("unknown register operation " + op.F)
	}
	return in, out, true, nil
}
