"""The suite's cluster row, dask_standardize: examples/dask_standardize.py's run() under
dask.distributed, lazycl chunks against NumPy chunks, one worker process per device.

It cannot be a plain Workload of run.py: each system runs on a LocalCluster of its own (fresh
worker processes), makes its data there and is timed from the client, so the row is built here
and handed to run.py as a finished result row (the same keys as the other rows). The devices:
on a GPU, one worker on that GPU; on a CPU device, one worker per CPU device lazycl finds (PoCL
and Intel's runtime here). Each system's time is the median of `reps` runs after an untimed
warm-up over the first blocks; the row's note gives each worker's peak resident memory and
lazycl's kernels per block.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _devices(dev, lc):
    if dev.type == "gpu":
        return [dev.filter_string]
    cpus = [d.filter_string for d in lc.devices() if d.type == "cpu"]
    return cpus or [dev.filter_string]


def dask_standardize_row(dev, lc, Cell, log2n, reps, cols=1024):
    """The result row (a dict as run.py's rows) of the standardize of 2^log2n float32 on a
    LocalCluster, or a row whose cells say why it could not run."""
    label = f"dask standardize 2^{log2n}"
    row = {"workload": "dask_standardize", "label": label, "n": 1 << log2n,
           "bytes": 8 << log2n, "tolerance": (1e-3, 1e-3), "hand_sources": [],
           "lazycl_stats": {}, "note": ""}
    try:
        import distributed  # noqa: F401
        sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
        import dask_standardize as ex
    except ImportError as e:
        why = f"dask.distributed unavailable: {e}"
        row.update(expr="(X - X.mean(0)) / X.std(0) under dask.distributed",
                   cells={s: Cell("skip", note=why).json() for s in ("lazycl", "numpy")})
        return row
    devices = _devices(dev, lc)
    chunk_log2 = max(10, min(log2n - 4, 24))      # at least 16 blocks, at most 64 MiB each
    row["expr"] = (f"(X - X.mean(0)) / X.std(0), X {1 << log2n} float32 as rows x {cols} in "
                   f"blocks of 2^{chunk_log2}, one Dask worker process per device "
                   f"({', '.join(devices)}), lazycl chunks vs NumPy chunks (the numpy column)")
    cells, notes = {}, []
    try:
        res = ex.run(log2n, cols, chunk_log2, devices, ("lazycl", "numpy"), repeats=reps,
                     verbose=False)
    except Exception as e:  # noqa: BLE001
        msg = f"{type(e).__name__}: {e}".splitlines()[0][:200]
        row["cells"] = {s: Cell("error", note=msg).json() for s in ("lazycl", "numpy")}
        return row
    for r in res:
        bad = None if r["ok"] else (f"|mean| {r['max_abs_mean']:.1e}, |std - 1| "
                                    f"{r['max_abs_std_err']:.1e}")
        cells[r["system"]] = Cell("WRONG" if bad else "ok", r["times_s"], None, bad or "")
        peaks = ", ".join(f"{d} {p / 2**30:.2f} GiB"
                          for d, p in sorted(r["peak_rss_by_device"].items()))
        notes.append(f"{r['system']} peak memory per worker {peaks}")
        if r["lazycl_stats"]:
            st = list(r["lazycl_stats"].values())
            per_run = {k: sum(s[k] for s in st) / max(1, reps)
                       for k in ("launches", "buffers_allocated", "pool_hits")}
            row["lazycl_stats"] = {
                "launches": round(per_run["launches"]),
                "buffers_allocated": round(per_run["buffers_allocated"]),
                "pool_hits": round(per_run["pool_hits"]),
                "kernels_compiled": sum(s["kernels_compiled"] for s in st),
                "kernels_per_block": per_run["launches"] / r["blocks"],
                "blocks": r["blocks"], "warmup_s": r["warmup_s"]}
            notes.append(f"lazycl {per_run['launches']:.0f} kernels per run over {r['blocks']} "
                         f"blocks, {per_run['launches'] / r['blocks']:.2f} per block (each "
                         "block: mean 1, std 2, the result 1; the rest are the reductions' "
                         "combine and aggregate steps)")
    row["cells"] = {k: c.json() for k, c in cells.items()}
    row["note"] = "; ".join(notes)
    base = cells.get("lazycl")
    if base is not None and base.status == "ok":
        row["lazycl_ms"] = base.ms
    return row
