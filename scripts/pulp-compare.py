#!/usr/bin/python3
"""The PuLP side of scripts/pulp-compare.sh.

build: reads a dlt-multi instance (schedopt's instance JSON, min-energy with a deadline)
builds the strengthened MIP (6.6)-(6.28) of seed 004 §6 in PuLP, exactly as
formulations/dltmulti.Build builds it with fdm.Options{} (same columns, rows, bounds and
coefficients; the row and column names are ours before sanitising), writes it with
LpProblem.writeMPS and prints one line of JSON: the build and write times (wall and
process CPU), the peak RSS of the process and the model's size.

    pulp-compare.py build INSTANCE.json OUT.mps

compare: reads two free MPS files (PuLP's and schedopt's) and checks that they describe
the same model: the same rows (type and right-hand side), columns (bounds, integrality),
objective and every coefficient, up to PuLP's 13 significant digits. Names are compared
after mapping every character other than a letter, digit or '.' to '_' and dropping
leading '_' (PuLP and schedopt sanitise "x[1,2]" differently). It prints the counts and
exits 1 at the first difference.

    pulp-compare.py compare A.mps B.mps

The model is written the way a PuLP user writes it: one LpVariable per column, one
expression per row built with operators and lpSum, as in the equations.
"""

import json
import math
import re
import resource
import sys
import time


def valid_lower_bound_time(inst):
    """ValidLowerBoundTime of domain/dltmulti/bounds.go."""
    ms = inst["machines"]
    rs = sorted(((mc["S"] + mc["O"], 1 / mc["a1"]) for mc in ms), key=lambda t: t[0])
    water = math.inf
    sum_w = sum_rw = 0.0
    for k, (r, w) in enumerate(rs):
        sum_w += w
        sum_rw += r * w
        t = (inst["V"] + sum_rw) / sum_w
        nxt = rs[k + 1][0] if k + 1 < len(rs) else math.inf
        if t <= nxt:
            water = t
            break
    link = min(mc["S"] for mc in ms) + inst["n"] * min(mc["O"] for mc in ms) + min(mc["C"] for mc in ms) * inst["V"]
    return max(water, link)


def valid_lower_bound_energy(inst):
    """ValidLowerBoundEnergy of domain/dltmulti/bounds.go."""
    ms = inst["machines"]
    sps = min(mc["S"] * mc["PS"] for mc in ms)
    opn = min(mc["O"] * mc["PN"] for mc in ms)
    cpn = min(mc["C"] * mc["PN"] for mc in ms)
    k1 = min(mc["k1"] for mc in ms)
    return sps + inst["n"] * opn + inst["V"] * cpn + inst["V"] * k1 + inst["P0N"] * valid_lower_bound_time(inst)


def build(inst):
    """The MIP (6.6)-(6.28) of formulations/dltmulti.Build for a min-energy instance
    with a deadline (so H = Z = deadline)."""
    import pulp
    from pulp import LpProblem, LpVariable, LpMinimize, lpSum

    assert inst.get("objective") == "min-energy" and inst.get("deadline") is not None
    assert not inst.get("fixedLength") and inst.get("energyLimit") is None
    ms, n, V, P0N = inst["machines"], inst["n"], inst["V"], inst["P0N"]
    m = len(ms)
    H = Z = inst["deadline"]
    b2 = [mc["rho"] * (mc["a1"] - mc["a2"]) for mc in ms]
    l2 = [mc["rho"] * (mc["k1"] - mc["k2"]) for mc in ms]
    tau_max = [max(mc["a1"] * V, mc["a2"] * V + b2[i]) for i, mc in enumerate(ms)]
    eps_max = [max(mc["k1"] * V, mc["k2"] * V + l2[i]) for i, mc in enumerate(ms)]
    s_min = min(mc["S"] for mc in ms)

    prob = LpProblem("dlt-multi", LpMinimize)
    T = LpVariable("T", min(valid_lower_bound_time(inst), H), H)
    t = [LpVariable(f"t[{j+1}]", min(s_min, H), H) for j in range(n)]
    x = [[None] * n for _ in range(m)]
    y = [[None] * n for _ in range(m)]
    u = [[None] * n for _ in range(m)]
    alpha = [[None] * n for _ in range(m)]
    q = [[None] * n for _ in range(m)]
    tau = [[None] * n for _ in range(m)]
    for i in range(m):
        for j in range(n):
            x[i][j] = LpVariable(f"x[{i+1},{j+1}]", cat="Binary")
            y[i][j] = LpVariable(f"y[{i+1},{j+1}]", cat="Binary")
            u[i][j] = LpVariable(f"u[{i+1},{j+1}]", cat="Binary")
            alpha[i][j] = LpVariable(f"alpha[{i+1},{j+1}]", 0, V)
            q[i][j] = LpVariable(f"q[{i+1},{j+1}]", 0, H)
            tau[i][j] = LpVariable(f"tau[{i+1},{j+1}]", 0, tau_max[i])
    idle_start = [LpVariable(f"idleStart[{i+1}]", 0, H) for i in range(m)]
    idle = [LpVariable(f"idle[{i+1}]", 0, H) for i in range(m)]

    for j in range(n):
        prob += lpSum(x[i][j] for i in range(m)) == 1, f"6.13[{j+1}]"
        prob += lpSum(mc["S"] * x[i][j] for i, mc in enumerate(ms)) - t[j] <= 0, f"6.15[{j+1}]"
        nxt = t[j + 1] if j + 1 < n else T
        prob += t[j] + lpSum(mc["C"] * alpha[i][j] + mc["O"] * x[i][j] for i, mc in enumerate(ms)) - nxt <= 0, f"6.16[{j+1}]"
    for i, mc in enumerate(ms):
        C, O, S, A1, A2 = mc["C"], mc["O"], mc["S"], mc["a1"], mc["a2"]
        zp, zpp = (A2 - A1) * V, -b2[i]
        for j in range(n):
            xa, a, qa, ta, ua = x[i][j], alpha[i][j], q[i][j], tau[i][j], u[i][j]
            k = f"{i+1},{j+1}"
            prob += a - V * xa <= 0, f"6.14[{k}]"
            for l in range(j + 1, n):
                prob += qa + C * a + O * xa + ta - q[i][l] + Z * x[i][l] <= Z, f"6.17[{k},{l+1}]"
            prob += qa - Z * xa <= 0, f"6.18a[{k}]"
            prob += qa - t[j] <= 0, f"6.18b[{k}]"
            prob += qa - t[j] - Z * xa >= -Z, f"6.18c[{k}]"
            prob += ta - A1 * a - zp * ua <= 0, f"6.19a[{k}]"
            prob += ta - A1 * a >= 0, f"6.19b[{k}]"
            prob += ta - A2 * a - b2[i] * xa + zpp * ua <= zpp, f"6.19c[{k}]"
            prob += ta - A2 * a - b2[i] * xa >= 0, f"6.19d[{k}]"
            prob += qa + C * a + O * xa + ta - T <= 0, f"6.20[{k}]"
            prob += xa - y[i][j] <= 0, f"6.24[{k}]"
            if j + 1 < n:
                prob += y[i][j] - y[i][j + 1] <= 0, f"6.25[{k}]"
            if j > 0:
                prob += y[i][j] - y[i][j - 1] - xa <= 0, f"6.26[{k}]"
                prob += idle_start[i] - t[j] + (S - Z) * y[i][j] + Z * y[i][j - 1] >= -Z, f"6.22a[{k}]"
                prob += idle_start[i] - t[j] + (S + Z) * y[i][j] - Z * y[i][j - 1] <= Z, f"6.22b[{k}]"
        prob += y[i][0] - x[i][0] == 0, f"6.27[{i+1}]"
        prob += idle_start[i] - t[0] + (S - Z) * y[i][0] >= -Z, f"6.23a[{i+1}]"
        prob += idle_start[i] - t[0] + (S + Z) * y[i][0] <= Z, f"6.23b[{i+1}]"
        prob += idle_start[i] - T + Z * y[i][n - 1] >= 0, f"6.23c[{i+1}]"
        prob += idle_start[i] - T - Z * y[i][n - 1] <= 0, f"6.23d[{i+1}]"
        prob += (idle[i] - T + idle_start[i] + S * y[i][n - 1]
                 + lpSum(C * alpha[i][j] + O * x[i][j] + tau[i][j] for j in range(n)) == 0), f"6.28[{i+1}]"
    prob += lpSum(alpha[i][j] for i in range(m) for j in range(n)) == V, "6.21"
    # Symmetry: identical machines ordered by first use (none in random instances).
    keys = ("a1", "a2", "k1", "k2", "rho", "C", "O", "S", "PI", "PN", "PS")
    for i in range(m):
        for k in range(i + 1, m):
            if all(ms[i][f] == ms[k][f] for f in keys):
                for j in range(n):
                    prob += y[i][j] - y[k][j] >= 0, f"sym[{i+1},{k+1},{j+1}]"
                break

    # (6.6)-(6.12): energy.
    e_max = sum(eps_max[i] + mc["PN"] * (mc["O"] * n + mc["C"] * V) for i, mc in enumerate(ms))
    p_max = sum(max(mc["PI"], mc["PN"]) * H + mc["S"] * mc["PS"] for mc in ms)
    E0 = LpVariable("E0", 0, P0N * H)
    ER = LpVariable("ER", 0, e_max)
    EI = LpVariable("EI", 0, p_max)
    ES = LpVariable("ES", 0, p_max)
    EN = LpVariable("EN", 0, e_max)
    total = P0N * H + 2 * e_max + 2 * p_max
    E = LpVariable("E", min(valid_lower_bound_energy(inst), total), total)
    prob += E - E0 - ER - EI - ES - EN == 0, "6.6"
    prob += E0 - P0N * T == 0, "6.7"
    eij = []
    for i, mc in enumerate(ms):
        for j in range(n):
            v = LpVariable(f"E[{i+1},{j+1}]", 0, eps_max[i])
            prob += v - mc["k1"] * alpha[i][j] >= 0, f"6.9a[{i+1},{j+1}]"
            prob += v - mc["k2"] * alpha[i][j] >= l2[i], f"6.9b[{i+1},{j+1}]"
            eij.append(v)
    prob += ER - lpSum(eij) == 0, "6.8"
    prob += EI - lpSum(mc["PI"] * idle_start[i] + mc["PN"] * idle[i] for i, mc in enumerate(ms)) == 0, "6.10"
    prob += ES - lpSum(mc["S"] * mc["PS"] * y[i][n - 1] for i, mc in enumerate(ms)) == 0, "6.11"
    prob += EN - lpSum(mc["O"] * mc["PN"] * x[i][j] + mc["C"] * mc["PN"] * alpha[i][j]
                       for i, mc in enumerate(ms) for j in range(n)) == 0, "6.12"
    prob += E  # (6.6) objective: min E
    return prob


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cmd_build(path, out):
    import pulp

    with open(path) as f:
        inst = json.load(f)
    w0, c0 = time.perf_counter(), cpu()
    prob = build(inst)
    w1, c1 = time.perf_counter(), cpu()
    prob.writeMPS(out)
    w2, c2 = time.perf_counter(), cpu()
    nnz = sum(len(c) for c in prob.constraints.values())
    print(json.dumps({
        "pulp": pulp.__version__, "python": sys.version.split()[0],
        "columns": len(prob.variables()), "rows": len(prob.constraints), "nonzeros": nnz,
        "build_s": round(w1 - w0, 3), "write_s": round(w2 - w1, 3), "total_s": round(w2 - w0, 3),
        "build_cpu_s": round(c1 - c0, 3), "write_cpu_s": round(c2 - c1, 3), "total_cpu_s": round(c2 - c0, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }))


def norm(name):
    return re.sub(r"[^A-Za-z0-9.]", "_", name).lstrip("_")


def read_mps(path):
    """A small free-MPS reader: enough for what PuLP and schedopt write."""
    rows, obj_row, cols, coef, rhs, rng = {}, None, {}, {}, {}, {}
    section, integer = None, False
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("*"):
                continue
            if not line[0].isspace():
                section = line.split()[0]
                continue
            tok = line.split()
            if section == "ROWS":
                if tok[0] == "N":
                    if obj_row is None:
                        obj_row = tok[1]
                    continue
                rows[norm(tok[1])] = tok[0]
            elif section == "COLUMNS":
                if len(tok) >= 3 and tok[1] == "'MARKER'":
                    integer = tok[2] == "'INTORG'"
                    continue
                c = norm(tok[0])
                cols.setdefault(c, [0.0, math.inf, integer, 0.0])
                for r, v in zip(tok[1::2], tok[2::2]):
                    if r == obj_row:
                        cols[c][3] = float(v)
                    else:
                        coef[(norm(r), c)] = float(v)
            elif section == "RHS":
                for r, v in zip(tok[1::2], tok[2::2]):
                    if r != obj_row:
                        rhs[norm(r)] = float(v)
            elif section == "RANGES":
                for r, v in zip(tok[1::2], tok[2::2]):
                    rng[norm(r)] = float(v)
            elif section == "BOUNDS":
                t, c = tok[0], norm(tok[2])
                b = cols[c]
                v = float(tok[3]) if len(tok) > 3 else None
                if t == "UP":
                    b[1] = v
                elif t == "LO":
                    b[0] = v
                elif t == "FX":
                    b[0] = b[1] = v
                elif t == "FR":
                    b[0], b[1] = -math.inf, math.inf
                elif t == "MI":
                    b[0] = -math.inf
                elif t == "PL":
                    b[1] = math.inf
                elif t == "BV":
                    b[0], b[1], b[2] = 0.0, 1.0, True
                else:
                    raise ValueError(f"{path}: bound type {t}")
    return rows, cols, coef, rhs, rng


def close(a, b):
    return a == b or abs(a - b) <= 1e-11 * max(abs(a), abs(b))


def cmd_compare(a, b):
    ma, mb = read_mps(a), read_mps(b)
    ra, ca, ka, ha, ga = ma
    rb, cb, kb, hb, gb = mb
    print(f"{a}: {len(ca)} columns, {len(ra)} rows, {len(ka)} nonzeros")
    print(f"{b}: {len(cb)} columns, {len(rb)} rows, {len(kb)} nonzeros")
    bad = []
    if ra != rb:
        bad.append("row names or types differ")
    if set(ca) != set(cb):
        bad.append(f"column names differ: {sorted(set(ca) ^ set(cb))[:5]}")
    if set(ka) != set(kb):
        bad.append(f"nonzero patterns differ: {sorted(set(ka) ^ set(kb))[:5]}")
    if ga or gb:
        bad.append("RANGES present")
    for c in set(ca) & set(cb):
        x, y = ca[c], cb[c]
        if x[2] != y[2] or not all(close(p, q) for p, q in zip(x[:2] + x[3:], y[:2] + y[3:])):
            bad.append(f"column {c}: (lo, hi, integer, cost) {x} vs {y}")
            break
    for k in set(ka) & set(kb):
        if not close(ka[k], kb[k]):
            bad.append(f"coefficient {k}: {ka[k]} vs {kb[k]}")
            break
    for r in set(ra) | set(rb):
        if not close(ha.get(r, 0.0), hb.get(r, 0.0)):
            bad.append(f"rhs of {r}: {ha.get(r, 0.0)} vs {hb.get(r, 0.0)}")
            break
    if bad:
        print("DIFFERENT: " + "; ".join(bad))
        sys.exit(1)
    print("same model: rows, columns, bounds, integrality, objective and every coefficient agree")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "build":
        cmd_build(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        cmd_compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
