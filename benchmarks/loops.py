"""Polybench-style loop kernels written as a NumPy user writes them (the model: npbench's NumPy
versions), timed with NumPy and with lazycl running the very same function.

    python benchmarks/loops.py [--device FILTER] [--sizes 100,250,500] [--big] [--reps R]
                               [--only cholesky,lu,...]

Each kernel takes the namespace module first (`numpy`, or `lazycl` imported as np) and then its
inputs; it writes into its inputs as the polybench kernels do and returns its outputs. These
loops are the opposite of what a lazy engine is built for: many small slices, scalar reads and
scalar writes per Python iteration. They show what such code costs, and whether it runs at all.

A kernel whose lazycl run would take far too long at a size runs capped: only its first
`iters` outer iterations (the same cap for NumPy and lazycl, so the ratio is fair); the row's
`note` says so. Inputs follow polybench's init formulas, made well-conditioned (the note on
each `init_*`), float64.

run(devices, sizes) returns rows {kernel, n, device, numpy_ms, lazycl_ms, ratio, ok, max_err,
note}: min of `reps` runs each (the result forced: NumPy's outputs as arrays; lazycl's computed
and the queue finished), lazycl's result checked against NumPy's with np.allclose (rtol 1e-9,
atol 1e-9 x max |NumPy's|). A lazycl exception is the row's `error`; a lazycl warning (a host
fallback) is listed in the row's `warnings`.
"""
import argparse
import math
import os
import sys
import time
import warnings

import numpy


# ---- the kernels: the namespace first, then the inputs -------------------------------------

def cholesky(np, A, iters=None):
    """In place: the lower triangle of A becomes L with L @ L.T = A (row by row; the strict
    upper triangle is left as it was). `iters` stops after that many rows."""
    n = A.shape[0]
    rows = n if iters is None else min(n, iters)
    A[0, 0] = np.sqrt(A[0, 0])
    for i in range(1, rows):
        for j in range(i):
            A[i, j] -= np.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= np.dot(A[i, :i], A[i, :i])
        A[i, i] = np.sqrt(A[i, i])
    return A


def lu(np, A, iters=None):
    """In place, no pivoting (Doolittle, row by row): the strict lower triangle of A becomes L
    (unit diagonal implied), the upper triangle U."""
    n = A.shape[0]
    rows = n if iters is None else min(n, iters)
    for i in range(rows):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, n):
            A[i, j] -= A[i, :i] @ A[:i, j]
    return A


def trisolv(np, L, x, b, iters=None):
    """Forward substitution into x: L @ x = b for lower-triangular L."""
    n = x.shape[0]
    rows = n if iters is None else min(n, iters)
    for i in range(rows):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def gramschmidt(np, A, iters=None):
    """Modified Gram-Schmidt: A (m x n) = Q @ R, Q's columns orthonormal, R upper triangular;
    A is overwritten by the remainders."""
    m, n = A.shape
    cols = n if iters is None else min(n, iters)
    Q = np.zeros_like(A)
    R = np.zeros((n, n), dtype=A.dtype)
    for k in range(cols):
        R[k, k] = np.sqrt(np.dot(A[:, k], A[:, k]))
        Q[:, k] = A[:, k] / R[k, k]
        for j in range(k + 1, n):
            R[k, j] = np.dot(Q[:, k], A[:, j])
            A[:, j] -= Q[:, k] * R[k, j]
    return Q, R


def durbin(np, r, iters=None):
    """Levinson-Durbin: y solves the Yule-Walker system of the autocorrelations (1, r[0],
    r[1], ...)."""
    n = r.shape[0]
    steps = n if iters is None else min(n, iters)
    y = np.empty_like(r)
    y[0] = -r[0]
    alpha = -r[0]
    beta = 1.0
    for k in range(1, steps):
        beta = beta * (1.0 - alpha * alpha)
        alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / beta
        y[:k] += alpha * np.flip(y[:k])
        y[k] = alpha
    return y[:steps]


def seidel_2d(np, A, tsteps=2, iters=None):
    """Gauss-Seidel sweeps of the 9-point average, in place: each row's vertical part at once,
    then the left-to-right dependence along the row one element at a time. Two sweeps by
    default (polybench runs more: the time is per sweep anyway); `iters` limits each sweep to
    the first that many interior rows."""
    n = A.shape[0]
    rows = n - 1 if iters is None else min(n - 1, iters + 1)
    for t in range(tsteps):
        for i in range(1, rows):
            A[i, 1:-1] += (A[i - 1, :-2] + A[i - 1, 1:-1] + A[i - 1, 2:] + A[i, 2:]
                           + A[i + 1, :-2] + A[i + 1, 1:-1] + A[i + 1, 2:])
            for j in range(1, n - 1):
                A[i, j] += A[i, j - 1]
                A[i, j] /= 9.0
    return A


# ---- the inputs (NumPy, float64): polybench's init, made well-conditioned ------------------

def _tril_init(n):
    """polybench's cholesky / lu init: B[i, j] = (-j % n) / n + 1 below the diagonal, 1 on
    it, 0 above."""
    i, j = numpy.indices((n, n))
    B = numpy.where(j < i, (-j % n) / n + 1.0, 0.0)
    numpy.fill_diagonal(B, 1.0)
    return B


def init_spd(n):
    """A = B @ B.T + n I (B: _tril_init): symmetric positive definite, well-conditioned."""
    B = _tril_init(n)
    return (B @ B.T + n * numpy.eye(n),)


def init_trisolv(n):
    """polybench's L[i, j] = (i + n - j + 1) * 2 / n below the diagonal, scaled by 1/n, and a
    diagonal of 5 (strictly diagonally dominant); b[i] = i, x = -999 (overwritten)."""
    i, j = numpy.indices((n, n))
    L = numpy.where(j < i, (i + n - j + 1) * 2.0 / n / n, 0.0)
    numpy.fill_diagonal(L, 5.0)
    return L, numpy.full(n, -999.0), numpy.arange(n, dtype=numpy.float64)


def init_gramschmidt(n):
    """m = n + n // 5 rows: polybench's A[i, j] = ((i * j) % m) / m * 100 + 10, plus m on the
    leading diagonal (full column rank, well-conditioned)."""
    m = n + n // 5
    i, j = numpy.indices((m, n))
    return (((i * j) % m) / m * 100.0 + 10.0 + m * numpy.eye(m, n),)


def init_durbin(n):
    """r[i] = 0.5 (n + 1 - i) / ((n + 1) (i + 1)^2): polybench's (n + 1 - i) made a decaying
    autocorrelation (diagonally dominant Toeplitz system, beta stays away from 0)."""
    i = numpy.arange(n, dtype=numpy.float64)
    return (0.5 * (n + 1 - i) / ((n + 1) * (i + 1) ** 2),)


def init_seidel(n):
    """polybench's A[i, j] = (i (j + 2) + 2) / n."""
    i, j = numpy.indices((n, n))
    return ((i * (j + 2) + 2.0) / n,)


#: name -> (kernel, init, caps): caps {n0: iters} runs every n >= n0 capped at `iters` outer
#: iterations (the largest n0 <= n applies; none: the whole kernel). The caps keep one lazycl run
#: of these scalar loops to a few seconds on a CPU device; NumPy runs the same capped work.
KERNELS = {
    "cholesky": (cholesky, init_spd, {250: 120}),
    "lu": (lu, init_spd, {250: 40, 500: 20, 2000: 5}),
    "trisolv": (trisolv, init_trisolv, {}),
    "gramschmidt": (gramschmidt, init_gramschmidt, {250: 50, 500: 25, 2000: 6}),
    "durbin": (durbin, init_durbin, {500: 250}),
    "seidel_2d": (seidel_2d, init_seidel, {250: 20, 500: 10, 2000: 3}),
}


def cap(name, n):
    """The outer iterations kernel `name` runs at size n (None: all of them)."""
    caps = KERNELS[name][2]
    keys = [k for k in caps if k <= n]
    return caps[max(keys)] if keys else None


#: What each kernel does at size n, for the row (outer iterations of a full run).
OUTER = {"cholesky": "rows", "lu": "rows", "trisolv": "rows", "gramschmidt": "columns",
         "durbin": "steps", "seidel_2d": "rows per sweep"}

DEFAULT_SIZES = (100, 250, 500)
BIG_SIZE = 2000
RTOL = 1e-9


# ---- running and checking --------------------------------------------------------------------

def _outputs(r):
    return r if isinstance(r, tuple) else (r,)


def _lc_force(lc, outs):
    """Compute lazycl outputs at once and wait for the queue."""
    arrs = [o for o in outs if isinstance(o, lc.Array)]
    if arrs:
        done = lc.compute(*arrs)
        done = done if isinstance(done, (tuple, list)) else (done,)
        for d in done:
            d.queue.finish()


def check(got, ref, rtol=RTOL):
    """(ok, max error relative to max |ref|) of lazycl's outputs (as NumPy) against NumPy's."""
    ok, err = True, 0.0
    for g, r in zip(got, ref):
        g = numpy.asarray(g)
        scale = float(numpy.max(numpy.abs(r))) if r.size else 1.0
        if g.shape != r.shape:
            return False, float("nan")
        ok = ok and bool(numpy.allclose(g, r, rtol=rtol, atol=rtol * scale))
        if r.size:
            err = max(err, float(numpy.max(numpy.abs(g - r))) / (scale or 1.0))
    return ok, err


def run_numpy(name, n, iters=None):
    """NumPy's outputs of kernel `name` at size n (fresh inputs)."""
    fn, init, _ = KERNELS[name]
    return tuple(numpy.asarray(o) for o in _outputs(fn(numpy, *init(n), iters=iters)))


def run_lazycl(lc, name, n, device=None, iters=None):
    """lazycl's outputs of kernel `name` at size n (fresh inputs), as NumPy arrays."""
    fn, init, _ = KERNELS[name]
    ins = [lc.asarray(a.copy(), device=device) for a in init(n)]
    outs = _outputs(fn(lc, *ins, iters=iters))
    _lc_force(lc, outs)
    return tuple(numpy.asarray(o) for o in outs)


def _time(prep, call, force, reps, budget_s):
    """min over reps of call(prep()) + force(result), seconds, after one untimed warm-up run
    (lazycl compiles its kernels there); fewer reps once budget_s is spent (at least one).
    Returns (best, last result)."""
    force(call(prep()))
    best, r, spent = math.inf, None, 0.0
    for _ in range(reps):
        args = prep()
        t0 = time.perf_counter()
        r = call(args)
        force(r)
        dt = time.perf_counter() - t0
        best, spent = min(best, dt), spent + dt
        if spent > budget_s:
            break
    return best, r


def bench_one(lc, name, n, device=None, reps=3, iters=None, budget_s=20.0):
    """One row: kernel `name` at size n on NumPy and on lazycl (`device`)."""
    fn, init, _ = KERNELS[name]
    if iters is None:
        iters = cap(name, n)
    inputs = init(n)
    row = {"kernel": name, "n": n, "device": getattr(device, "filter_string", str(device)),
           "numpy_ms": None, "lazycl_ms": None, "ratio": None, "ok": False, "max_err": None,
           "note": "", "error": "", "warnings": []}
    if iters is not None:
        row["note"] = f"capped: first {iters} {OUTER[name]} of {n} (NumPy too)"
    t_np, ref = _time(lambda: [a.copy() for a in inputs],
                      lambda a: _outputs(fn(numpy, *a, iters=iters)),
                      lambda r: [numpy.asarray(o) for o in r], reps, budget_s)
    ref = tuple(numpy.asarray(o) for o in ref)
    row["numpy_ms"] = t_np * 1e3

    def prep():
        ins = [lc.asarray(a.copy(), device=device).compute() for a in inputs]
        ins[0].queue.finish()
        return ins
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t_lc, got = _time(prep, lambda a: _outputs(fn(lc, *a, iters=iters)),
                              lambda r: _lc_force(lc, r), reps, budget_s)
        row["warnings"] = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
    except Exception as e:  # noqa: BLE001
        row["error"] = f"{type(e).__name__}: {e}"[:300]
        return row
    row["lazycl_ms"] = t_lc * 1e3
    row["ratio"] = t_lc / t_np if t_np > 0 else None
    row["ok"], row["max_err"] = check([numpy.asarray(o) for o in got], ref)
    return row


def run(devices, sizes=DEFAULT_SIZES, kernels=None, reps=3, big=False, say=None, budget_s=20.0):
    """Rows {kernel, n, device, numpy_ms, lazycl_ms, ratio, ok, max_err, note, error, warnings}
    of every kernel (or those named in `kernels`) at every size (and BIG_SIZE when `big`) on
    each lazycl device of `devices` (Device objects or filter strings)."""
    import lazycl as lc
    devs = [lc.Device(d) if isinstance(d, str) else d for d in (devices or [lc.default_device()])]
    sizes = list(sizes) + ([BIG_SIZE] if big and BIG_SIZE not in sizes else [])
    rows = []
    for dev in devs:
        for name in (kernels or KERNELS):
            for n in sizes:
                row = bench_one(lc, name, n, dev, reps=reps, budget_s=budget_s)
                rows.append(row)
                if say:
                    say(format_row(row))
    return rows


# ---- the table ---------------------------------------------------------------------------------

def _ms(v):
    if v is None:
        return "—"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def status(row):
    if row["error"]:
        return "error"
    if not row["ok"]:
        return f"WRONG ({row['max_err']:.2g})" if row["max_err"] == row["max_err"] else "WRONG"
    return "ok" + (" (fallback)" if row["warnings"] else "")


def format_row(row):
    r = "—" if row["ratio"] is None else f"{row['ratio']:.3g}"
    return (f"{row['kernel']:<12} {row['n']:>5} {_ms(row['numpy_ms']):>10} "
            f"{_ms(row['lazycl_ms']):>10} {r:>8}  {status(row)}"
            + (f"  {row['note']}" if row["note"] else ""))


def table_md(rows):
    """The rows as a markdown table, then their errors and warnings as notes."""
    out = ["| kernel | n | numpy ms | lazycl ms | lazycl / numpy | check | note |",
           "|---|---|---|---|---|---|---|"]
    notes = []
    for r in rows:
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.3g}"
        out.append(f"| {r['kernel']} | {r['n']} | {_ms(r['numpy_ms'])} | {_ms(r['lazycl_ms'])} "
                   f"| {ratio} | {status(r)} | {r['note'] or ''} |")
        if r["error"]:
            notes.append(f"- {r['kernel']} n={r['n']}: {r['error']}")
        for w in r["warnings"]:
            notes.append(f"- {r['kernel']} n={r['n']}: {w}")
    return "\n".join(out + ([""] + notes if notes else [])) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    ap.add_argument("--device", default=None, help="lazycl device filter (default: lazycl's)")
    ap.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    ap.add_argument("--big", action="store_true", help=f"add n = {BIG_SIZE} (slow)")
    ap.add_argument("--reps", type=int, default=3, help="timed runs (the min is reported)")
    ap.add_argument("--only", default=None, help="comma-separated kernels: " + ",".join(KERNELS))
    args = ap.parse_args(argv)
    kernels = args.only.split(",") if args.only else None
    if kernels and set(kernels) - set(KERNELS):
        ap.error(f"unknown kernels {sorted(set(kernels) - set(KERNELS))}")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.device:   # the kernels' own arrays (gramschmidt's np.zeros) go to the default device
        os.environ["LAZYCL_DEVICE"] = args.device
    print(f"{'kernel':<12} {'n':>5} {'numpy ms':>10} {'lazycl ms':>10} {'ratio':>8}  check")
    rows = run([args.device] if args.device else None, sizes, kernels, args.reps, args.big,
               say=lambda s: print(s, flush=True))
    print()
    print(table_md(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
