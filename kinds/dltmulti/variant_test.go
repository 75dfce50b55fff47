package dltmulti

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/domain"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/kinds/kindtest"
)

// genFrom runs `gen dlt-multi` with args and seed and returns the instance or error.
func genFrom(t *testing.T, seed int64, args ...string) (*dm.Instance, error) {
	t.Helper()
	fs := pflag.NewFlagSet("dlt-multi", pflag.ContinueOnError)
	build := generators()[0].Flags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	v, err := build(seed)
	if err != nil {
		return nil, err
	}
	return v.(*dm.Instance), nil
}

// --from with --n, --m and --variant derives the instances of Figs. 6.3, 6.5 and 6.8
// from Table 6.1: each override changes only what it names, and the name tells them
// apart.
func TestDLTMultiGeneratorDerivesVariants(t *testing.T) {
	path := kindtest.InstancePath("dlt-multi-table6.1.json")
	orig := mustLoad(t, "dlt-multi-table6.1.json").(*Problem).Inst
	base := []string{"--from", path, "--objective", "min-energy", "--deadline", "700", "--fixed-length"}
	inRange := func(x, lo, hi float64) bool { return x >= lo && x <= hi }
	for _, c := range []struct {
		name    string
		args    []string
		seed    int64
		wantN   int
		wantM   int
		machine func(i int, got, was dm.Machine) bool // the expected change of machine i
	}{
		{"table6.1-min-energy-T700-fixed", nil, 1, 12, 10,
			func(_ int, got, was dm.Machine) bool { return dm.Identical(got, was) }},
		{"table6.1-min-energy-T700-fixed", []string{"--variant", "mixed"}, 1, 12, 10,
			func(_ int, got, was dm.Machine) bool { return dm.Identical(got, was) }},
		{"table6.1-n4-min-energy-T700-fixed", []string{"--n", "4"}, 1, 4, 10,
			func(_ int, got, was dm.Machine) bool { return dm.Identical(got, was) }},
		{"table6.1-m6-min-energy-T700-fixed", []string{"--m", "6"}, 1, 12, 6,
			func(_ int, got, was dm.Machine) bool { return dm.Identical(got, was) }},
		{"table6.1-m8-n10-min-energy-T700-fixed", []string{"--m", "8", "--n", "10"}, 1, 10, 8,
			func(_ int, got, was dm.Machine) bool { return dm.Identical(got, was) }},
		{"table6.1-hdd-s3-min-energy-T700-fixed", []string{"--variant", "hdd"}, 3, 12, 10,
			func(_ int, got, was dm.Machine) bool {
				return inRange(got.S, 40, 90) && inRange(got.PI, 1, 7) && math.Abs(got.O-got.S/100) < 1e-12 && sameButIdle(got, was)
			}},
		{"table6.1-ram-s3-min-energy-T700-fixed", []string{"--variant", "ram"}, 3, 12, 10,
			func(_ int, got, was dm.Machine) bool {
				return inRange(got.S, 0.1, 6) && inRange(got.PI, 70, 100) && math.Abs(got.O-got.S/100) < 1e-12 && sameButIdle(got, was)
			}},
		{"table6.1-cold-min-energy-T700-fixed", []string{"--variant", "cold"}, 1, 12, 10,
			func(_ int, got, was dm.Machine) bool {
				return got.S == 120 && got.PI == 0 && math.Abs(got.O-1.2) < 1e-12 && sameButIdle(got, was)
			}},
		{"table6.1-lb-min-energy-T700-fixed", []string{"--variant", "lb"}, 1, 12, 10,
			func(_ int, got, was dm.Machine) bool {
				return got.S == was.S && got.PI == 0 && math.Abs(got.O-was.O) < 1e-12 && sameButIdle(got, was)
			}},
	} {
		in, err := genFrom(t, c.seed, append(base, c.args...)...)
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		if in.Name != c.name || in.N != c.wantN || in.M() != c.wantM || in.V != orig.V || in.P0N != orig.P0N {
			t.Errorf("%v: got %s n %d m %d V %g P0N %g, want %s n %d m %d", c.args, in.Name, in.N, in.M(), in.V, in.P0N, c.name, c.wantN, c.wantM)
			continue
		}
		for i, mc := range in.Machines {
			if !c.machine(i, mc, orig.Machines[i]) {
				t.Errorf("%v: machine %d = %+v, was %+v", c.args, i+1, mc, orig.Machines[i])
			}
		}
	}
}

// sameButIdle reports whether a and b agree on everything but S, P^I and O.
func sameButIdle(a, b dm.Machine) bool {
	a.S, a.PI, a.O = b.S, b.PI, b.O
	return dm.Identical(a, b)
}

// The random variants are one draw per seed: the same seed gives the same instance,
// another seed another one.
func TestDLTMultiVariantDrawsFollowTheSeed(t *testing.T) {
	path := kindtest.InstancePath("dlt-multi-table6.1.json")
	for _, v := range []string{VariantHDD, VariantRAM} {
		a, errA := genFrom(t, 1, "--from", path, "--variant", v)
		b, errB := genFrom(t, 1, "--from", path, "--variant", v)
		c, errC := genFrom(t, 2, "--from", path, "--variant", v)
		if err := errors.Join(errA, errB, errC); err != nil {
			t.Fatal(err)
		}
		for i := range a.Machines {
			if !dm.Identical(a.Machines[i], b.Machines[i]) {
				t.Errorf("%s: seed 1 twice differs at machine %d", v, i+1)
			}
		}
		if dm.Identical(a.Machines[0], c.Machines[0]) {
			t.Errorf("%s: seeds 1 and 2 give the same machine 1 %+v", v, a.Machines[0])
		}
		if a.Name == c.Name {
			t.Errorf("%s: seeds 1 and 2 share the name %s", v, a.Name)
		}
	}
}

// O_i follows S_i only when the file ties them by one ratio (Table 6.1, O = S/100);
// a generator instance (O drawn on its own) keeps its O.
func TestDLTMultiVariantKeepsUntiedOverheads(t *testing.T) {
	in, err := dm.Generate(dm.GenConfig{M: 4, N: 5, V: 3000, P0N: 100, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if _, tied := sameOverheadRatio(in.Machines); tied {
		t.Fatalf("generated machines unexpectedly have one O/S ratio: %+v", in.Machines)
	}
	path := filepath.Join(t.TempDir(), "gen.json")
	data, err := in.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := genFrom(t, 1, "--from", path, "--variant", "cold")
	if err != nil {
		t.Fatal(err)
	}
	for i, mc := range got.Machines {
		if mc.O != in.Machines[i].O || mc.S != 120 || mc.PI != 0 {
			t.Errorf("machine %d: O %g S %g PI %g, want O %g S 120 PI 0", i+1, mc.O, mc.S, mc.PI, in.Machines[i].O)
		}
	}
}

// Bad overrides are FieldErrors naming the flag (exit status 2 in the command).
func TestDLTMultiGeneratorRejectsBadOverrides(t *testing.T) {
	path := kindtest.InstancePath("dlt-multi-table6.1.json")
	for _, c := range []struct {
		args  []string
		field string
	}{
		{[]string{"--from", path, "--variant", "ssd"}, "--variant"},
		{[]string{"--variant", "cold"}, "--variant"}, // needs --from
		{[]string{"--from", path, "--m", "11"}, "--m"},
		{[]string{"--from", path, "--m", "0"}, "--m"},
		{[]string{"--from", path, "--n", "0"}, "--n"},
		{[]string{"--from", path, "--V", "-3"}, "--V"},
		{[]string{"--from", path, "--P0N", "NaN"}, "--P0N"},
		{[]string{"--from", path, "--m", "3", "--objective", "min-energy", "--deadline", "300"}, "--deadline"}, // below LB(T) of M1..M3
	} {
		_, err := genFrom(t, 1, c.args...)
		var fe *domain.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Reason == "" {
			t.Errorf("%v: error %v, want a FieldError on %s", c.args, err, c.field)
		}
	}
}
