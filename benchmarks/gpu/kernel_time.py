"""The GPU scripts' timing (benchmarks/gpu/*.py, run from the repository root): a forced
result's kernels under lc.profile, the best of several runs after a warm-up."""
import lazycl as lc


def best_kernels(f, reps=8):
    """f() returns a lazy result; it is forced `reps` times under lc.profile. Of all but the
    first (the warm-up), the run of the least total kernel time: (total ms, its kernels as
    [(name, ms), ...] in launch order)."""
    best = None
    for r in range(reps):
        with lc.profile() as p:
            y = f()
            y.compute()
        ks = [(k["name"], k["ms"]) for k in p.kernels if k["kind"] == "kernel"]
        tot = sum(ms for _, ms in ks)
        if r and (best is None or tot < best[0]):
            best = (tot, ks)
        del y
    return best
