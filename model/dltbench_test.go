package model_test

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	fdm "github.com/schedopt/schedopt/formulations/dltmulti"
	"github.com/schedopt/schedopt/model"
)

// The benchmarks of this file build and write the MIP (6.6)-(6.28) of seed 004 §6 on
// the instance of issue 17: `schedopt gen dlt-multi --m M --n 12 --seed 1 --objective
// min-energy --deadline 1000`, whose model at m = 1000 has 86,019 columns, 260,043 rows
// and 1,076,048 nonzeros (a 54 MB MPS file). The nonzero count grows linearly with m
// (about 1,076 per machine), so m = 10, 100, 1000 and 10000 give the sizes 10^4 to 10^7.
// scripts/pulp-compare.sh builds the same model in PuLP.

// dltInstance returns the benchmark instance with m machines.
func dltInstance(tb testing.TB, m int) *dm.Instance {
	tb.Helper()
	in, err := dm.Generate(dm.GenConfig{M: m, N: 12, V: 24000, P0N: 100, Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	deadline := 1000.0
	in.Objective, in.Deadline = dm.MinEnergy, &deadline
	return in
}

// dltModel builds the benchmark model of in.
func dltModel(tb testing.TB, in *dm.Instance) *model.Model {
	tb.Helper()
	f, err := fdm.Build(in, fdm.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return f.Model
}

// dltSizes are the machine counts of the size benchmarks, named by their order of
// magnitude of nonzeros.
var dltSizes = []struct {
	name string
	m    int
}{
	{"nnz=1e4", 10},
	{"nnz=1e5", 100},
	{"nnz=1e6", 1000},
	{"nnz=1e7", 10000},
}

// byteCount counts bytes without storing them.
type byteCount int64

func (c *byteCount) Write(p []byte) (int, error) { *c += byteCount(len(p)); return len(p), nil }

// processCPU returns the user+system CPU time of the process.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportDLT reports per-operation CPU time, nonzeros and, with bytes > 0, MB/s.
func reportDLT(b *testing.B, nnz int, cpu time.Duration, bytes int64) {
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nnz), "ns/nnz")
	if bytes > 0 {
		b.SetBytes(bytes)
	}
}

// BenchmarkDLTBuildWriteMPS is goal 1 of issue 17: build the model from the instance
// and write it as free MPS (to a byte counter, so no disk time is included), per size.
func BenchmarkDLTBuildWriteMPS(b *testing.B) {
	for _, s := range dltSizes {
		b.Run(s.name, func(b *testing.B) {
			in := dltInstance(b, s.m)
			nnz := dltModel(b, in).NumNonzeros()
			b.ReportAllocs()
			var n byteCount
			runtime.GC()
			cpu0 := processCPU()
			for b.Loop() {
				n = 0
				w := bufio.NewWriterSize(&n, 64<<10)
				if err := dltModel(b, in).WriteMPS(w); err != nil {
					b.Fatal(err)
				}
				if err := w.Flush(); err != nil {
					b.Fatal(err)
				}
			}
			reportDLT(b, nnz, processCPU()-cpu0, int64(n))
		})
	}
}

// BenchmarkDLTBuild times the build alone at m = 1000.
func BenchmarkDLTBuild(b *testing.B) {
	in := dltInstance(b, 1000)
	nnz := dltModel(b, in).NumNonzeros()
	b.ReportAllocs()
	runtime.GC()
	cpu0 := processCPU()
	for b.Loop() {
		dltModel(b, in)
	}
	reportDLT(b, nnz, processCPU()-cpu0, 0)
}

// BenchmarkDLTWriteMPS times WriteMPS alone at m = 1000, on a prebuilt model.
func BenchmarkDLTWriteMPS(b *testing.B) {
	m := dltModel(b, dltInstance(b, 1000))
	b.ReportAllocs()
	var n byteCount
	runtime.GC()
	cpu0 := processCPU()
	for b.Loop() {
		n = 0
		if err := m.WriteMPS(&n); err != nil {
			b.Fatal(err)
		}
	}
	reportDLT(b, m.NumNonzeros(), processCPU()-cpu0, int64(n))
}

// BenchmarkDLTRawBytes is the floor goal 1 compares WriteMPS with: the model's
// nonzeros written as raw text lines "column row value" with strconv.AppendInt and
// strconv.AppendFloat into a preallocated buffer and a bufio.Writer, with no names,
// no transposition and no other sections.
func BenchmarkDLTRawBytes(b *testing.B) {
	m := dltModel(b, dltInstance(b, 1000))
	rows := m.Rows()
	b.ReportAllocs()
	var n byteCount
	runtime.GC()
	cpu0 := processCPU()
	for b.Loop() {
		n = 0
		writeRaw(&n, rows)
	}
	reportDLT(b, m.NumNonzeros(), processCPU()-cpu0, int64(n))
}

// writeRaw writes the nonzeros of rows as "column row value" lines.
func writeRaw(w io.Writer, rows model.Rows) {
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 64)
	for r := 0; r+1 < len(rows.Start); r++ {
		for k := rows.Start[r]; k < rows.Start[r+1]; k++ {
			buf = strconv.AppendInt(buf[:0], int64(rows.Index[k]), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(r), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, rows.Value[k], 'g', -1, 64)
			buf = append(buf, '\n')
			bw.Write(buf)
		}
	}
	bw.Flush()
}

// TestDLTModelSize pins the size of the benchmark model, so that the benchmarks and
// docs/benchmarks.md keep describing the model of issue 17.
func TestDLTModelSize(t *testing.T) {
	for _, tc := range []struct{ m, cols, rows int }{
		{10, 86*10 + 19, 260*10 + 43},
		{100, 86*100 + 19, 260*100 + 43},
	} {
		t.Run(fmt.Sprint("m=", tc.m), func(t *testing.T) {
			m := dltModel(t, dltInstance(t, tc.m))
			if m.NumVars() != tc.cols || m.NumRows() != tc.rows {
				t.Errorf("%d columns and %d rows, want %d and %d", m.NumVars(), m.NumRows(), tc.cols, tc.rows)
			}
		})
	}
}
