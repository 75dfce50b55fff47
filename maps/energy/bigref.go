package energy

import (
	"math"
	"math/big"
)

// BigPrec is the precision, in bits, of BigDLT: enough that the cancellations in
// (1 − κ) and (m(1 − κ) − 1 + κ^m) leave over 200 correct bits for every C/a ≥ 1e-60.
const BigPrec = 1024

// BigDLT evaluates the energy (4.16) and length (4.9) of the divisible-load model at p
// in BigPrec-bit arithmetic, with the thesis's formulas taken literally: κ = 1 + C/a,
// α_m from (4.8), z1 and z2 from (4.10)-(4.11), T = S·z1 + V·z2 (4.9). At C = 0 it uses
// their limits z1 = (m+1)/2, z2 = a/m, α_m = V/m − S(m−1)/(2a). It shares no code with
// DLT.Eval and is the independent reference the tests and `schedopt map --verify`
// measure traced points against. feasible is α_m ≥ 0.
func BigDLT(p []float64) (e, t float64, feasible bool) {
	nf := func(x float64) *big.Float { return new(big.Float).SetPrec(BigPrec).SetFloat64(x) }
	add := func(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(BigPrec).Add(x, y) }
	sub := func(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(BigPrec).Sub(x, y) }
	mul := func(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(BigPrec).Mul(x, y) }
	quo := func(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(BigPrec).Quo(x, y) }
	pow := func(x *big.Float, n int) *big.Float { // x^n by squaring
		r, b := nf(1), new(big.Float).SetPrec(BigPrec).Set(x)
		for ; n > 0; n >>= 1 {
			if n&1 == 1 {
				r = mul(r, b)
			}
			b = mul(b, b)
		}
		return r
	}
	m := int(p[M])
	one := nf(1)
	bm, ba, bc, bs, bv := nf(p[M]), nf(p[A]), nf(p[C]), nf(p[S]), nf(p[V])
	var z1, z2, am *big.Float
	if p[C] == 0 {
		z1 = quo(add(bm, one), nf(2))
		z2 = quo(ba, bm)
		am = sub(quo(bv, bm), quo(mul(bs, sub(bm, one)), mul(nf(2), ba)))
	} else {
		kap := add(one, quo(bc, ba))
		omk := sub(one, kap)                 // 1 − κ
		km := pow(kap, m)                    // κ^m
		km1 := pow(kap, m-1)                 // κ^{m−1}
		omkm := sub(one, km)                 // 1 − κ^m
		w := add(sub(mul(bm, omk), one), km) // m(1 − κ) − 1 + κ^m
		// (4.8)
		am = sub(quo(mul(bv, omk), omkm), quo(mul(bs, w), mul(mul(ba, omkm), omk)))
		// (4.10)
		br := sub(sub(one, km1), quo(mul(km1, w), omkm))
		z1 = add(one, mul(quo(kap, omk), br))
		// (4.11)
		z2 = quo(mul(mul(add(bc, ba), omk), km1), omkm)
	}
	T := add(mul(bs, z1), mul(bv, z2))
	bk, bpc, bpn := nf(p[K]), nf(p[PC]), nf(p[PN])
	kk := quo(sub(bk, one), bk)                                                     // (k − 1)/k
	ms := mul(bm, bs)                                                               // mS
	cv := mul(bc, bv)                                                               // CV
	ei := quo(mul(T, add(mul(add(bm, one), bpc), bpn)), bk)                         // (4.13)
	ern := mul(mul(bpn, kk), add(ms, cv))                                           // (4.14)
	erc := mul(mul(bpc, kk), add(add(mul(nf(2), ms), mul(nf(2), cv)), mul(ba, bv))) // (4.15)
	E := add(add(ei, ern), erc)                                                     // (4.16)
	ef, _ := E.Float64()
	tf, _ := T.Float64()
	return ef, tf, am.Sign() >= 0
}

// RelErr is |got − want| / |want|, or |got| when want is 0; it is +Inf when exactly
// one of them is NaN or infinite.
func RelErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	if math.IsNaN(got) || math.IsNaN(want) || math.IsInf(got, 0) || math.IsInf(want, 0) {
		return math.Inf(1)
	}
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}
