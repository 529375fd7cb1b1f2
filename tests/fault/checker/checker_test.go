package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// history builds JSON lines: each entry is process, type, f, key, value, time.
func history(t *testing.T, lines ...string) *History {
	t.Helper()
	h, err := ReadHistory(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestRegisterLinearizableWithConcurrencyAndUnknownOutcomes(t *testing.T) {
	h := history(t,
		`{"process":0,"type":"invoke","f":"write","key":"a","value":1,"time":0}`,
		`{"process":1,"type":"invoke","f":"read","key":"a","time":5}`,
		`{"process":0,"type":"ok","f":"write","key":"a","value":1,"time":10}`,
		`{"process":1,"type":"ok","f":"read","key":"a","value":null,"time":12}`, // concurrent with the write: may precede it
		`{"process":2,"type":"invoke","f":"cas","key":"a","value":[1,2],"time":20}`,
		`{"process":2,"type":"info","f":"cas","key":"a","time":30}`, // unknown: may take effect later
		`{"process":0,"type":"invoke","f":"read","key":"a","time":40}`,
		`{"process":0,"type":"ok","f":"read","key":"a","value":1,"time":50}`,
		`{"process":1,"type":"invoke","f":"read","key":"a","time":60}`,
		`{"process":1,"type":"ok","f":"read","key":"a","value":2,"time":70}`, // ...and it did
		`{"process":3,"type":"invoke","f":"write","key":"b","value":9,"time":0}`,
		`{"process":3,"type":"fail","f":"write","key":"b","time":5}`, // did not happen
		`{"process":3,"type":"invoke","f":"read","key":"b","time":6}`,
		`{"process":3,"type":"ok","f":"read","key":"b","value":null,"time":7}`,
		`{"type":"nemesis","f":"kill","value":"host 2","time":15}`)
	r, err := CheckRegisters(h, time.Minute, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Linearizable != "yes" || r.Keys != 2 {
		t.Fatalf("got %+v", r)
	}
	if len(h.Nemesis) != 1 {
		t.Fatalf("nemesis lines: %d", len(h.Nemesis))
	}
}

func TestRegisterStaleReadIsNotLinearizableAndIsVisualized(t *testing.T) {
	h := history(t,
		`{"process":0,"type":"invoke","f":"write","key":"a","value":1,"time":0}`,
		`{"process":0,"type":"ok","f":"write","key":"a","value":1,"time":10}`,
		`{"process":0,"type":"invoke","f":"write","key":"a","value":2,"time":20}`,
		`{"process":0,"type":"ok","f":"write","key":"a","value":2,"time":30}`,
		`{"process":1,"type":"invoke","f":"read","key":"a","time":40}`,
		`{"process":1,"type":"ok","f":"read","key":"a","value":1,"time":50}`)
	dir := t.TempDir()
	r, err := CheckRegisters(h, time.Minute, dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Linearizable != "no" {
		t.Fatalf("a stale read passed: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "linearizability.html")); err != nil {
		t.Fatal("no visualization:", err)
	}
}

func TestRegisterFailedCasMustNotHaveSwapped(t *testing.T) {
	h := history(t,
		`{"process":0,"type":"invoke","f":"write","key":"a","value":1,"time":0}`,
		`{"process":0,"type":"ok","f":"write","key":"a","value":1,"time":10}`,
		`{"process":1,"type":"invoke","f":"cas","key":"a","value":[1,5],"time":20}`,
		`{"process":1,"type":"ok","f":"cas","key":"a","value":false,"time":30}`) // it matched, so false is a lie
	r, err := CheckRegisters(h, time.Minute, "")
	if err != nil || r.Linearizable != "no" {
		t.Fatalf("got %+v, %v", r, err)
	}
}

func TestSetFindsLostUnexpectedAndDirtyElements(t *testing.T) {
	h := history(t,
		`{"process":0,"type":"invoke","f":"add","value":1,"time":0}`,
		`{"process":0,"type":"ok","f":"add","value":1,"time":1}`,
		`{"process":0,"type":"invoke","f":"add","value":2,"time":2}`,
		`{"process":0,"type":"ok","f":"add","value":2,"time":3}`,
		`{"process":0,"type":"invoke","f":"add","value":3,"time":4}`,
		`{"process":0,"type":"fail","f":"add","value":3,"time":5}`,
		`{"process":0,"type":"invoke","f":"add","value":4,"time":6}`,
		`{"process":0,"type":"info","f":"add","value":4,"time":7}`,
		`{"process":1,"type":"invoke","f":"read","time":8}`,
		`{"process":1,"type":"ok","f":"read","value":[1,2,5],"time":9}`,
		`{"process":2,"type":"invoke","f":"read","final":true,"host":"127.0.0.2","time":20}`,
		`{"process":2,"type":"ok","f":"read","value":[1,3,4],"time":21}`,
		`{"process":3,"type":"invoke","f":"read","final":true,"host":"127.0.0.3","time":20}`,
		`{"process":3,"type":"ok","f":"read","value":[1,3,4],"time":21}`)
	r, err := CheckSet(h)
	if err != nil {
		t.Fatal(err)
	}
	if r.Passed() || len(r.Lost) != 1 || r.Lost[0] != 2 || len(r.Unexpected) != 1 || r.Unexpected[0] != 3 ||
		len(r.Dirty) != 2 || r.Dirty[0] != 2 || r.Dirty[1] != 5 || r.Disagreeing {
		t.Fatalf("got %+v", r)
	}
}

func TestSetPassesWhenEveryAcknowledgedAddIsEverywhere(t *testing.T) {
	h := history(t,
		`{"process":0,"type":"invoke","f":"add","value":1,"time":0}`,
		`{"process":0,"type":"ok","f":"add","value":1,"time":1}`,
		`{"process":0,"type":"invoke","f":"add","value":2,"time":2}`,
		`{"process":0,"type":"info","f":"add","value":2,"time":3}`,
		`{"process":2,"type":"invoke","f":"read","final":true,"host":"a","time":20}`,
		`{"process":2,"type":"ok","f":"read","value":[1,2],"time":21}`,
		`{"process":3,"type":"invoke","f":"read","final":true,"host":"b","time":20}`,
		`{"process":3,"type":"ok","f":"read","value":[2,1],"time":21}`)
	r, err := CheckSet(h)
	if err != nil || !r.Passed() {
		t.Fatalf("got %+v, %v", r, err)
	}
}

func TestBankFindsAReadWithAWrongTotal(t *testing.T) {
	h := history(t,
		`{"process":0,"type":"invoke","f":"transfer","value":{"from":0,"to":1,"amount":5},"time":0}`,
		`{"process":0,"type":"ok","f":"transfer","value":{"from":0,"to":1,"amount":5},"time":1}`,
		`{"process":1,"type":"invoke","f":"read","time":2}`,
		`{"process":1,"type":"ok","f":"read","value":{"0":45,"1":55},"time":3}`,
		`{"process":1,"type":"invoke","f":"read","time":4}`,
		`{"process":1,"type":"ok","f":"read","value":{"0":45,"1":50},"time":5}`)
	r, err := CheckBank(h, 100)
	if err != nil || r.Passed() || r.Reads != 2 || len(r.BadTotals) != 1 {
		t.Fatalf("got %+v, %v", r, err)
	}
}

func TestRedundantRegisterFindsATornRead(t *testing.T) {
	h := history(t,
		`{"process":0,"type":"invoke","f":"write","value":7,"time":0}`,
		`{"process":0,"type":"ok","f":"write","value":7,"time":1}`,
		`{"process":1,"type":"invoke","f":"read","time":2}`,
		`{"process":1,"type":"ok","f":"read","value":[7,7,7],"time":3}`,
		`{"process":1,"type":"invoke","f":"read","time":4}`,
		`{"process":1,"type":"ok","f":"read","value":[7,null,7],"time":5}`)
	r, err := CheckRedundant(h, time.Minute, "")
	if err != nil || r.Passed() || len(r.Torn) != 1 {
		t.Fatalf("got %+v, %v", r, err)
	}
}

func TestMalformedHistoriesNameTheLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"process":0,"type":"ok","f":"read","time":1}`, "line 1: process 0 completes read with nothing open"},
		{"{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}\n{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":2}", "line 2: process 0 invokes read with an operation still open"},
		{`{"process":0,"type":"maybe","f":"read","time":1}`, `line 1: unknown type "maybe"`},
		{`not json`, "line 1:"},
	} {
		_, err := ReadHistory(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

func TestCommandLineExitsOneOnAViolationAndWritesTheReport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history.jsonl")
	os.WriteFile(path, []byte(strings.Join([]string{
		`{"process":0,"type":"invoke","f":"add","value":1,"time":0}`,
		`{"process":0,"type":"ok","f":"add","value":1,"time":1}`,
		`{"process":1,"type":"invoke","f":"read","final":true,"host":"a","time":2}`,
		`{"process":1,"type":"ok","f":"read","value":[],"time":3}`}, "\n")), 0o644)
	var out, errOut bytes.Buffer
	code := run([]string{"--workload", "set", "--history", path, "--out", filepath.Join(dir, "report")}, &out, &errOut)
	if code != 1 || !strings.Contains(out.String(), "acknowledged writes lost: 1 [1]") ||
		!strings.Contains(out.String(), "verdict: FAIL") {
		t.Fatalf("exit %d, output:\n%s%s", code, out.String(), errOut.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "report", "report.json")); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"--workload", "nonsense", "--history", path}, &out, &errOut); code != 2 {
		t.Fatalf("an unknown workload exits %d", code)
	}
}
