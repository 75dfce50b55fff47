package measure

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

func TestSamplesRoundTrip(t *testing.T) {
	nan := math.NaN()
	in := []Sample{
		{Processor: "cpu", Size: 1, Repetition: 1, Time: 0.25, Energy: 3.5, TotalEnergy: 9, Phase: PhaseAlone, Reached: "true"},
		{Processor: "gpu", Size: 2, Repetition: 1, Time: 0.125, Energy: nan, TotalEnergy: nan, Phase: PhaseConcurrent, Reached: "false"},
		{Processor: "gpu", Size: 2, Repetition: 1, Time: nan, Energy: -0.5, TotalEnergy: 1, Phase: PhaseAlone, Reached: ""},
	}
	var b bytes.Buffer
	if err := WriteSamples(&b, in); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), strings.Join(Columns, ",")+"\n") {
		t.Fatalf("header: %q", b.String())
	}
	out, err := ReadSamples(&b, "s.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("%d samples back, want %d", len(out), len(in))
	}
	for i := range in {
		if !sameSample(in[i], out[i]) {
			t.Errorf("sample %d: %+v back as %+v", i, in[i], out[i])
		}
	}
}

func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

func sameSample(a, b Sample) bool {
	return a.Processor == b.Processor && a.Size == b.Size && a.Repetition == b.Repetition &&
		sameFloat(a.Time, b.Time) && sameFloat(a.Energy, b.Energy) && sameFloat(a.TotalEnergy, b.TotalEnergy) &&
		a.Phase == b.Phase && a.Reached == b.Reached
}

func TestReadSamplesSchema(t *testing.T) {
	// Columns in any order, extra columns ignored, no energy column: time-only.
	in := "# comment\nsize , processor,repetition,time,note\n\n2,cpu,1,0.5,x\n2,cpu,2,0.7,y\n"
	s, err := ReadSamples(strings.NewReader(in), "a.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 || s[1].Processor != "cpu" || s[1].Size != 2 || s[1].Time != 0.7 || !math.IsNaN(s[1].Energy) {
		t.Fatalf("%+v", s)
	}
}

func TestReadSamplesBadInput(t *testing.T) {
	const h = "processor,size,repetition,time,energy\n"
	cases := []struct {
		name, csv, want string
	}{
		{"empty file", "", "a.csv: empty"},
		{"missing column", "processor,size,time\ncpu,1,2\n", "a.csv: line 1: no column \"repetition\""},
		{"column twice", "processor,size,size,repetition,time\n", "a.csv: line 1: column \"size\" appears twice"},
		{"no rows", h, "a.csv: no samples"},
		{"no processor", h + ",1,1,0.5,1\n", "a.csv: line 2, processor: empty"},
		{"size not an integer", h + "cpu,1.5,1,0.5,1\n", "a.csv: line 2, size: \"1.5\" is not a positive integer"},
		{"size zero", h + "cpu,0,1,0.5,1\n", "a.csv: line 2, size"},
		{"size too large", h + "cpu,99999999999,1,0.5,1\n", "a.csv: line 2, size"},
		{"repetition missing", h + "cpu,1,,0.5,1\n", "a.csv: line 2, repetition: empty"},
		{"negative time", h + "cpu,1,1,-0.5,1\n", "a.csv: line 2, time: must be >= 0"},
		{"time not a number", h + "cpu,1,1,fast,1\n", "a.csv: line 2, time: \"fast\" is not a finite number"},
		{"infinite energy", h + "cpu,1,1,0.5,Inf\n", "a.csv: line 2, energy"},
		{"neither time nor energy", h + "cpu,1,1,,\n", "a.csv: line 2, time: empty, and so is energy"},
		{"repetition twice", h + "cpu,1,1,0.5,1\n# x\ncpu,1,1,0.6,1\n", "a.csv: line 4, repetition: repetition 1 of cpu at size 1 again (first on line 2)"},
		{"wrong number of cells", h + "cpu,1,1,0.5\n", "a.csv: line 2: wrong number of fields"},
		{"bad quote", h + "\"cpu,1,1,0.5,1\n", "a.csv: line 2"},
		{"processor like a comment", h + "\"#cpu\",1,1,0.5,1\n", "a.csv: line 2, processor: \"#cpu\" starts with #"},
		{"unknown phase", "processor,size,repetition,time,phase\ncpu,1,1,0.5,later\n", "a.csv: line 2, phase"},
		{"bad reached", "processor,size,repetition,time,reached\ncpu,1,1,0.5,yes\n", "a.csv: line 2, reached"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSamples(strings.NewReader(c.csv), "a.csv")
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %q, want prefix %q", err, c.want)
			}
		})
	}
}

func TestTestdataProfileReads(t *testing.T) {
	f, err := os.Open("testdata/profile.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := ReadSamples(f, "profile.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 48 {
		t.Fatalf("%d samples, want 2 processors × 4 sizes × 6 runs", len(s))
	}
}

// FuzzReadSamples: any input is either rejected with a FieldError naming the file, or
// read into samples that survive a write and a second read unchanged.
func FuzzReadSamples(f *testing.F) {
	seed, _ := os.ReadFile("testdata/profile.csv")
	f.Add(string(seed))
	f.Add("processor,size,repetition,time,energy,total_energy,phase,reached\ncpu,1,1,0.5,,,concurrent,true\n")
	f.Add("processor,size,repetition,time\n\"a\"\"b\",3,1,1e-3\n")
	f.Add("processor,size,repetition,time\n\"#a\",3,1,1e-3\n\" b\r\nc\",1,1,2\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ReadSamples(strings.NewReader(in), "f.csv")
		if err != nil {
			var fe *domain.FieldError
			if !errors.As(err, &fe) || fe.File != "f.csv" {
				t.Fatalf("error %v is not a FieldError for f.csv", err)
			}
			return
		}
		var b bytes.Buffer
		if err := WriteSamples(&b, s); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSamples(&b, "g.csv")
		if err != nil {
			t.Fatalf("written samples do not read back: %v\n%s", err, b.String())
		}
		if len(back) != len(s) {
			t.Fatalf("%d samples back, want %d", len(back), len(s))
		}
		for i := range s {
			if !sameSample(s[i], back[i]) {
				t.Fatalf("sample %d: %+v back as %+v", i, s[i], back[i])
			}
		}
		_ = Aggregate(s, 0.95, 0.025)
	})
}
