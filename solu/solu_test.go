package solu

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

func TestParse(t *testing.T) {
	f, err := Parse(strings.NewReader("# comment\n\n=opt= p0033 3089\n=best=  big  -12.5 \n=inf= none\n=feas= f\n=unbd= u\n=unkn= k\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Entry{
		"p0033": {"p0033", Opt, 3089, 3}, "big": {"big", Best, -12.5, 4}, "none": {"none", Inf, 0, 5},
		"f": {"f", Feas, 0, 6}, "u": {"u", Unbd, 0, 7}, "k": {"k", Unkn, 0, 8},
	}
	if len(f.Entries) != len(want) {
		t.Fatalf("%d entries, want %d", len(f.Entries), len(want))
	}
	for name, w := range want {
		if got, ok := f.Lookup(name); !ok || got != w {
			t.Errorf("%s: %+v, want %+v", name, got, w)
		}
	}
	if _, ok := f.Lookup("missing"); ok {
		t.Error("found an instance the file does not name")
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unknown tag", "=opt= a 1\n=best a 2\n", "line 2: want a tag"},
		{"unknown tag between signs", "=opti= a 1\n", "line 1: unknown tag"},
		{"no name", "=inf=\n", "line 1: =inf= without an instance name"},
		{"no value", "=opt= a\n", "line 1: =opt= a without a value"},
		{"bad value", "# x\n=opt= a 1x\n", "line 2: =opt= a: value \"1x\" is not a finite number"},
		{"infinite value", "=best= a inf\n", "line 1: =best= a: value \"inf\" is not a finite number"},
		{"extra text", "=inf= a 3\n", "line 1: =inf= a: unexpected text \"3\""},
		{"duplicate", "=opt= a 1\n=opt= a 1\n", "line 2: instance \"a\" already given on line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.in))
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a FieldError containing %q", err, tc.want)
			}
		})
	}
}

func TestReadFileNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "set.solu")
	if err := os.WriteFile(p, []byte("=opt= a 1\n=wrong= b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p)
	if err == nil || !strings.HasPrefix(err.Error(), p+": line 2:") {
		t.Fatalf("error %v, want it to start with %q", err, p+": line 2:")
	}
	if _, err := ReadFile(filepath.Join(dir, "none.solu")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestTol(t *testing.T) {
	for _, tc := range []struct{ v, want float64 }{{0, 1e-4}, {100, 1e-4}, {-100, 1e-4}, {1000, 1e-3}, {-2e6, 2}} {
		if got := Tol(tc.v); got != tc.want {
			t.Errorf("Tol(%g) = %g, want %g", tc.v, got, tc.want)
		}
	}
}

func TestJudge(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	opt := Entry{Name: "a", Expected: Opt, Value: 3089}
	best := Entry{Name: "a", Expected: Best, Value: 3089}
	small := Entry{Name: "a", Expected: Opt, Value: 0}
	for _, tc := range []struct {
		name  string
		e     Entry
		known bool
		a     Answer
		want  Verdict
	}{
		{"optimum matches", opt, true, Answer{Status: StatusOptimal, Objective: v(3089.001)}, OK},
		{"optimum differs beyond the relative tolerance", opt, true, Answer{Status: StatusOptimal, Objective: v(3089.01)}, Fail},
		{"optimum within the requested gap", opt, true, Answer{Status: StatusOptimal, Objective: v(3089.2), RelGap: 1e-4}, OK},
		{"a point better than the optimum", opt, true, Answer{Status: StatusFeasible, Objective: v(3000)}, Fail},
		{"better than the optimum even with a gap", opt, true, Answer{Status: StatusOptimal, Objective: v(3088), RelGap: 1e-2}, Fail},
		{"small optimum, absolute tolerance", small, true, Answer{Status: StatusOptimal, Objective: v(5e-5)}, OK},
		{"small optimum, beyond absolute tolerance", small, true, Answer{Status: StatusOptimal, Objective: v(2e-4)}, Fail},
		{"maximisation: larger is better", Entry{Expected: Opt, Value: 10}, true, Answer{Status: StatusFeasible, Objective: v(11), Maximize: true}, Fail},
		{"maximisation: smaller optimum is worse", Entry{Expected: Opt, Value: 10}, true, Answer{Status: StatusOptimal, Objective: v(9), Maximize: true}, Fail},
		{"maximisation: a point below the optimum at the limit", Entry{Expected: Opt, Value: 10}, true, Answer{Status: StatusFeasible, Objective: v(9), Maximize: true}, Timeout},
		{"better than best", best, true, Answer{Status: StatusOptimal, Objective: v(3000)}, Better},
		{"better than best at the limit", best, true, Answer{Status: StatusFeasible, Objective: v(3000)}, Better},
		{"optimal worse than a known solution", best, true, Answer{Status: StatusOptimal, Objective: v(3100)}, Fail},
		{"optimal equal to best", best, true, Answer{Status: StatusOptimal, Objective: v(3089)}, OK},
		{"infeasible on a known optimum", opt, true, Answer{Status: StatusInfeasible}, Fail},
		{"infeasible on feas", Entry{Expected: Feas}, true, Answer{Status: StatusInfeasible}, Fail},
		{"infeasible on inf", Entry{Expected: Inf}, true, Answer{Status: StatusInfeasible}, OK},
		{"point on inf", Entry{Expected: Inf}, true, Answer{Status: StatusFeasible, Objective: v(1)}, Fail},
		{"unbounded on unbd", Entry{Expected: Unbd}, true, Answer{Status: StatusUnbounded}, OK},
		{"unbounded on opt", opt, true, Answer{Status: StatusUnbounded}, Fail},
		{"optimal on unbd", Entry{Expected: Unbd}, true, Answer{Status: StatusOptimal, Objective: v(1)}, Fail},
		{"time limit without a point", opt, true, Answer{Status: StatusTimeLimit}, Timeout},
		{"time limit with a worse point", opt, true, Answer{Status: StatusFeasible, Objective: v(4000)}, Timeout},
		{"aborted", opt, true, Answer{Status: StatusError, Aborted: true}, Abort},
		{"error", opt, true, Answer{Status: StatusError}, Abort},
		{"bad point", opt, true, Answer{Status: StatusError, BadPoint: true}, Fail},
		{"no entry", Entry{}, false, Answer{Status: StatusOptimal, Objective: v(1)}, Unknown},
		{"unkn entry", Entry{Expected: Unkn}, true, Answer{Status: StatusInfeasible}, Unknown},
		{"no entry, time limit", Entry{}, false, Answer{Status: StatusTimeLimit}, Timeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := Judge(tc.e, tc.known, tc.a)
			if j.Verdict != tc.want {
				t.Fatalf("verdict %s (%s), want %s", j.Verdict, j.Reason, tc.want)
			}
			if (j.Verdict == Fail || j.Verdict == Better) && j.Reason == "" {
				t.Errorf("%s without evidence", j.Verdict)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"=opt= a 1\n", "=best= b -1e3\n# c\n\n=inf= c\n", "=feas= x\n=unbd= y\n=unkn= z\n", "=opt= a\n", "=x= a 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		file, err := Parse(strings.NewReader(in))
		if err != nil {
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "line ") {
				t.Fatalf("error %v is not a FieldError naming a line", err)
			}
			return
		}
		for name, e := range file.Entries {
			if name == "" || name != e.Name || e.Line < 1 {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}
