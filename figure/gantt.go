package figure

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Phase is what a machine does during a span of a Gantt chart.
type Phase int

// Phases of a machine in a divisible-load schedule (seed 004, §6.1).
const (
	Idle    Phase = iota // switched off or idle, power P^I
	Startup              // starting, power P^S, duration S
	Comm                 // receiving a chunk, power P^N
	Compute              // computing a chunk
	Wait                 // busy-waiting for the next chunk, power P^N
)

var phaseNames = [...]string{"idle", "startup", "communication", "computation", "busy-wait"}
var phaseColors = [...]color.Color{colIdle, colStartup, colComm, colCompute, colWait}

// String names the phase.
func (p Phase) String() string { return phaseNames[p] }

// Span is one phase of one machine, from Start to End.
type Span struct {
	Start, End float64
	Phase      Phase
}

// Row is one machine of a Gantt chart.
type Row struct {
	Label string
	Spans []Span
}

// Gantt draws rows as a Gantt chart (first row at the top) and saves it to base.
func Gantt(rows []Row, title, base string) ([]string, error) {
	if len(rows) == 0 {
		return nil, ErrNoData
	}
	p := New(title, "time [s]", "")
	n := len(rows)
	const barHalf = 0.35
	used := map[Phase]bool{}
	tmax := 0.0
	for i, r := range rows {
		y := float64(n - 1 - i)
		for _, s := range r.Spans {
			if !(s.End > s.Start) {
				continue
			}
			poly, err := plotter.NewPolygon(plotter.XYs{
				{X: s.Start, Y: y - barHalf}, {X: s.End, Y: y - barHalf},
				{X: s.End, Y: y + barHalf}, {X: s.Start, Y: y + barHalf},
			})
			if err != nil {
				return nil, err
			}
			poly.Color = phaseColors[s.Phase]
			poly.LineStyle = draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(0.3)}
			p.Add(poly)
			used[s.Phase] = true
			tmax = math.Max(tmax, s.End)
		}
	}
	ticks := make(plot.ConstantTicks, n)
	for i, r := range rows {
		ticks[i] = plot.Tick{Value: float64(n - 1 - i), Label: r.Label}
	}
	p.Y.Tick.Marker = ticks
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	// Leave a margin right of the schedule for the legend, so it never hides a bar.
	p.X.Min, p.X.Max = 0, tmax*1.32
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.ThumbnailWidth = vg.Points(14)
	for ph := Idle; ph <= Wait; ph++ {
		if !used[ph] {
			continue
		}
		sw, _ := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}, {X: 0, Y: 0}, {X: 0, Y: 0}})
		sw.Color = phaseColors[ph]
		sw.LineStyle.Width = vg.Points(0.3)
		p.Legend.Add(ph.String(), sw)
	}
	p.Legend.Padding = vg.Points(2)
	h := vg.Length(math.Max(8, 2+0.7*float64(n))) * vg.Centimeter
	return Save(p, base, Width, h)
}

// dltMultiInstance is the part of a dlt-multi instance (spec: `dlt-multi`) a Gantt
// chart needs.
type dltMultiInstance struct {
	Name     string `json:"name"`
	Machines []struct {
		A1  float64 `json:"a1"`
		A2  float64 `json:"a2"`
		Rho float64 `json:"rho"`
		C   float64 `json:"C"`
		O   float64 `json:"O"`
		S   float64 `json:"S"`
	} `json:"machines"`
}

// dltMultiSolution is the dlt-multi solution object of the spec.
type dltMultiSolution struct {
	T        float64 `json:"T"`
	Messages []struct {
		Machine int     `json:"machine"`
		Size    float64 `json:"size"`
		Start   float64 `json:"start"`
	} `json:"messages"`
	Used []bool `json:"used"`
}

// DLTMultiRows decodes a dlt-multi schedule into Gantt rows, with the semantics of MIP
// (6.6)-(6.28) of seed 004: a used machine is idle until it starts just in time for its
// first message (startup S_i), each message is received for O_i + C_i·α and then
// computed for τ_i(α) = max{a_1i·α, a_2i·α + b_2i} with b_2i = ρ_i(a_1i − a_2i), and the
// machine busy-waits in between and until T. solution is the result's solution object
// (any value that encodes to the spec's JSON).
func DLTMultiRows(instance []byte, solution any) ([]Row, float64, error) {
	var in dltMultiInstance
	if err := json.Unmarshal(instance, &in); err != nil {
		return nil, 0, fmt.Errorf("plot: dlt-multi instance: %w", err)
	}
	b, err := json.Marshal(solution)
	if err != nil {
		return nil, 0, fmt.Errorf("plot: dlt-multi solution: %w", err)
	}
	var sol dltMultiSolution
	if err := json.Unmarshal(b, &sol); err != nil {
		return nil, 0, fmt.Errorf("plot: dlt-multi solution: %w", err)
	}
	msgs := make([][]int, len(in.Machines))
	for k, m := range sol.Messages {
		if m.Machine < 0 || m.Machine >= len(in.Machines) {
			return nil, 0, fmt.Errorf("plot: dlt-multi solution: messages[%d].machine %d out of range", k, m.Machine)
		}
		msgs[m.Machine] = append(msgs[m.Machine], k)
	}
	rows := make([]Row, len(in.Machines))
	for i, mc := range in.Machines {
		r := Row{Label: fmt.Sprintf("M%d", i+1)}
		ks := msgs[i]
		sort.Slice(ks, func(a, b int) bool { return sol.Messages[ks[a]].Start < sol.Messages[ks[b]].Start })
		if len(ks) == 0 {
			r.Spans = []Span{{0, sol.T, Idle}}
			rows[i] = r
			continue
		}
		first := sol.Messages[ks[0]].Start
		r.Spans = append(r.Spans, Span{0, first - mc.S, Idle}, Span{first - mc.S, first, Startup})
		t := first
		b2 := mc.Rho * (mc.A1 - mc.A2)
		for _, k := range ks {
			m := sol.Messages[k]
			if m.Start > t {
				r.Spans = append(r.Spans, Span{t, m.Start, Wait})
			}
			ce := m.Start + mc.O + mc.C*m.Size
			tau := math.Max(mc.A1*m.Size, mc.A2*m.Size+b2)
			r.Spans = append(r.Spans, Span{m.Start, ce, Comm}, Span{ce, ce + tau, Compute})
			t = ce + tau
		}
		if sol.T > t {
			r.Spans = append(r.Spans, Span{t, sol.T, Wait})
		}
		rows[i] = r
	}
	return rows, sol.T, nil
}
