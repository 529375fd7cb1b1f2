// The bank workload's checker: accounts spread over partitions, money moved
// by multi-partition transfers ({"f":"transfer","value":{"from":1,"to":2,
// "amount":5}}), every account read at once ({"f":"read"} completing with
// {"0":100,"1":95,…}). Every successful read must show the same total and
// no negative balance: a transfer is all or nothing, and a read sees all of
// it or none of it.
package main

import (
	"encoding/json"
	"fmt"
)

// BankResult is the verdict on a bank history.
type BankResult struct {
	Reads     int
	BadTotals []string // one line per read whose total is wrong
	Negative  []string // one line per read with a negative balance
}

// Passed is true iff every read kept the total and no balance went negative.
func (r BankResult) Passed() bool {
	return r.Reads > 0 && len(r.BadTotals) == 0 && len(r.Negative) == 0
}

// CheckBank checks that every read sums to total.
func CheckBank(h *History, total int64) (BankResult, error) {
	var r BankResult
	for _, op := range h.Ops {
		if op.F == "transfer" {
			continue
		}
		if op.F != "read" {
			return r, fmt.Errorf("unknown bank operation %q", op.F)
		}
		if op.Outcome != Ok {
			continue
		}
		var balances map[string]int64
		if err := json.Unmarshal(op.Output, &balances); err != nil {
			return r, fmt.Errorf("read of process %d at %d: the value must map accounts to balances", op.Process, op.Call)
		}
		r.Reads++
		var sum int64
		for account, b := range balances {
			sum += b
			if b < 0 {
				r.Negative = append(r.Negative, fmt.Sprintf("read at %d: account %s has %d", op.Return, account, b))
			}
		}
		if sum != total {
			r.BadTotals = append(r.BadTotals, fmt.Sprintf("read at %d: total %d, expected %d", op.Return, sum, total))
		}
	}
	return r, nil
}
