package dlt

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/schedopt/schedopt/domain/dltmulti"
)

// MinChunk is the smallest chunk GSS sends, "1" in its formula: 1 MB (§5.2.1, §6.2.1).
const MinChunk = 1.0

// Rule is a chunk-sizing rule of §5.2.1.
type Rule string

// Chunk-sizing rules.
const (
	SSC Rule = "ssc" // simple static chunk: α = ρ
	SCU Rule = "scu" // static chunk with underload: α = V/(⌈V/(ρm)⌉·m)
	SCO Rule = "sco" // static chunk with overload: α = V/(m·max{1, ⌊V/(ρm)⌋})
	GSS Rule = "gss" // guided self-scheduling: α = min{V', max{1, min{V'/m, ρ}}}
)

// HomogeneousRules returns the §5.2.1 rules (a new slice on every call).
func HomogeneousRules() []Rule { return []Rule{SSC, SCU, SCO, GSS} }

// Homogeneous runs a §5.2.1 rule on an instance of identical machines: every machine
// is woken at time 0, chunks go round robin to M_1..M_m, each transfer starts when the
// link is free and the receiver has finished its previous chunk (the A5 simulation,
// consistent with (5.12)). Fixed rules send α until the load is exhausted, the last
// chunk α^f being the remainder. The schedule's energy under the chapter 5 accounting is
// dltmulti.EvaluateCh5; under chapter 6, dltmulti.Evaluate. At most MaxMessages chunks
// are sent, and ctx is checked every checkEvery chunks: a done ctx returns its error,
// wrapped.
func Homogeneous(ctx context.Context, in *dltmulti.Instance, rule Rule) (dltmulti.Schedule, error) {
	m := in.M()
	for i := 1; i < m; i++ {
		if !dltmulti.Identical(in.Machines[0], in.Machines[i]) {
			return dltmulti.Schedule{}, fmt.Errorf("dlt: %s: machine %d differs from machine 0; §5.2.1 needs identical machines", rule, i)
		}
	}
	mc := in.Machines[0]
	V, rho, fm := in.V, mc.Rho, float64(m)
	var fixed float64
	switch rule {
	case SSC:
		fixed = rho
	case SCU:
		fixed = V / (math.Ceil(V/(rho*fm)) * fm)
	case SCO:
		fixed = V / (fm * math.Max(1, math.Floor(V/(rho*fm))))
	case GSS:
	default:
		return dltmulti.Schedule{}, fmt.Errorf("dlt: unknown rule %q", rule)
	}
	var s dltmulti.Schedule
	link := mc.S
	free := make([]float64, m)
	for i := range free {
		free[i] = mc.S
	}
	rest := V
	for j := 0; rest > remainderTol*V; j++ {
		a := fixed
		if rule == GSS {
			a = math.Max(MinChunk, math.Min(rest/fm, rho))
		}
		a = math.Min(a, rest)
		if rest-a <= remainderTol*V { // absorb round-off into the last chunk
			a = rest
		}
		if j%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return dltmulti.Schedule{}, fmt.Errorf("dlt: %s: %w", rule, err)
			}
		}
		if j >= MaxMessages {
			return dltmulti.Schedule{}, fmt.Errorf("%w (%d): %s with V = %g, ρ = %g", ErrTooManyMessages, MaxMessages, rule, V, rho)
		}
		i := j % m
		start := math.Max(link, free[i])
		s.Messages = append(s.Messages, dltmulti.Message{Machine: i, Size: a, Start: start})
		link = start + mc.Comm(a)
		free[i] = link + mc.Tau(a)
		rest -= a
	}
	return s, nil
}

// remainderTol is the relative load below which the remainder is round-off, not a chunk.
const remainderTol = 1e-12

// MaxMessages bounds the number of chunks a §5.2.1 rule or the online heuristic may
// send. A valid instance can have ρ far below V (V/ρ = 10⁹ chunks would take tens of
// GB), or below V's rounding unit, where subtracting a chunk leaves the remainder
// unchanged and the loop would never end; such instances get ErrTooManyMessages.
const MaxMessages = 1 << 20

// ErrTooManyMessages is returned when a rule would send more than MaxMessages chunks.
var ErrTooManyMessages = errors.New("dlt: the rule needs more chunks than MaxMessages")

// ClosedFormCh5 returns T and E of the thesis's closed formulas (5.12)-(5.15) for a
// fixed chunk α on identical machines (O = 0). The energy formulas are only right when
// N_f >= 1 (see the reference: they miss the idle time when N_f = 0); ok is false then
// and E must be taken from a simulation.
func ClosedFormCh5(in *dltmulti.Instance, alpha float64) (T, E float64, ok bool) {
	mc := in.Machines[0]
	m := float64(in.M())
	V, C, S := in.V, mc.C, mc.S
	No := math.Floor(V / (alpha * m))
	Nf := math.Floor((V - No*m*alpha) / alpha)
	af := V - (m*No+Nf)*alpha
	tau, taf := mc.Tau(alpha), mc.Tau(af)
	T = S + No*(C*alpha+tau)
	if Nf > 0 {
		T += Nf*C*alpha + math.Max(af*C+taf, tau)
	} else {
		T += math.Max((m-1)*C*alpha, af*C+taf)
	}
	EAI := mc.PI * (m - 1) * m / 2 * C * alpha
	ES := mc.PS * m * S
	ER := (No*m+Nf)*(mc.PN*C*alpha+mc.Eps(alpha)) + mc.PN*C*af + mc.Eps(af)
	var I float64
	if af*C+taf < tau {
		I = (m-Nf)*tau + 0.5*(m-1)*(2*Nf-m)*C*alpha - C*af - taf // (5.13)
	} else {
		I = (m-1)*(taf+C*af) - Nf*tau + 0.5*(m-1)*(2*Nf-m)*C*alpha // (5.14)
	}
	E0 := mc.PN*T + (mc.PI-mc.PN)*math.Max(tau-C*af, taf)
	E = EAI + ES + ER + mc.PI*I + E0 // (5.15)
	return T, E, Nf >= 1
}
