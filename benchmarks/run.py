"""The lazycl fusion benchmark suite (`make bench`): lazycl against NumPy, numexpr, other
installed array libraries and a hand-written OpenCL kernel through the same runtime, with the
device's measured copy bandwidth as the ceiling. The spec is shared/BENCHMARKS.md.

    python benchmarks/run.py [--device FILTER] [--n N] [--quick] [--only a,b] [--reps R]
                             [--skip SYSTEMS] [--out DIR]

Workloads (float32): axpy, chain, transc, l2, softmax, standardize, cumsum, gather (x[idx], idx
int64 uniform over N) and `small` (chain at N = 1e3 ... 1e6). N = 2^24 on a CPU device, 2^28 on a GPU (standardize: 4096^2 / 16384^2).
Indexing and writes: compaction (x[x > 0.5], a data-dependent length; no hand-written kernel on a
GPU), bincount (bincount(idx, weights=x, minlength=65536), idx int64 uniform over the bins,
float64 bins as NumPy), jacobi_2d (npbench's kernel, float64 2000x2000, 10 steps of two stencil
assignments; the row's note gives lazycl's launches per assignment, which should be 1 each) and
slicewrite (x[1000:1000+L] = y for L = 2^10, 2^16, 2^20, x[::256] = y, x[::16] = y, and the whole
x[:] = y, into an N-element x: the time should follow the slice). The writes mutate their inputs:
each system checks its result on fresh copies, then is timed on the same arrays again.

Selection: topk (top_k(x, 16), values and indices, of N and per row of the side x side matrix;
NumPy: argpartition + a sort of the 16), sparse_pca (examples/sparse_pca.py's batched form, p =
100000, d = 3, k = 10, S = 4096 float32; --spca-p / --spca-S) and sparse_pca_loop (the seed's
loop, p = 1000, 512 directions, float64). A lazycl error (e.g. out of device memory) is the
cell's status "error" with its message; the suite goes on.

Systems: lazycl device-resident (inputs on the device, `.compute()` + queue.finish() timed),
lazycl end-to-end (NumPy in, np.asarray out), NumPy, numexpr, the hand-written kernel, and where
installed Numba (@njit(parallel=True)), Dask, JAX (jit), PyOpenCL (eager arrays; its
ElementwiseKernel / ReductionKernel as `pyopencl.kernel`), CLBlast (pyclblast) for the product,
CuPy (eager, fuse), PyTorch (eager, compile). `make bench` installs the CPU peers
(scripts/deps.sh bench); a peer that is missing is a note, its cells "—".

Every result is checked against a float64 NumPy reference before it is timed; a result off by
more than the workload's tolerance is reported as WRONG, with its time beside it (NumPy's own
float32 cumsum is sequential and misses the tolerance at 2^24). Cells are the median of
at least --reps timed runs after warm-up, in ms, with the ratio to lazycl (device-resident):
x2.0 means that system took twice as long as lazycl. A cell whose median moves the row's bytes
(each input read once, each output written once) faster than 1.1x the best copy bandwidth
of the run is marked SUSPECT (report.suspect): not computed, or its data in a cache; the
JSON gives each cell's suspect, suspect_note and runs_over_ceiling.

dask_standardize (benchmarks/cluster.py, needs dask.distributed): examples/dask_standardize.py on
a LocalCluster, one worker process per device (every CPU device, or the GPU), lazycl chunks in the
lazycl column against NumPy chunks in the numpy column, 2^26 float32 on a CPU (--dask-log2n).

loops (benchmarks/loops.py): polybench loop kernels written as NumPy users write them (cholesky,
lu, trisolv, gramschmidt, durbin, seidel_2d; npbench's NumPy versions are the model), the same
function run by NumPy and by lazycl, n = 100, 250, 500 (--loops-sizes; --loops-big adds 2000),
float64; min of --loops-reps runs, lazycl's result checked against NumPy's. Their own table
(lazycl / numpy time: > 1 = lazycl slower), in the JSON's "loops".

user_elementwise, user_reduction: the axpy and l2 rows as lc.ElementwiseKernel and
lc.ReductionKernel (CuPy's own kernels in its cell; the plain expression for peers without them).

mandelbrot (benchmarks/mandelbrot.py): @lc.vectorize against NumPy's vectorized form, Numba's
@vectorize(target='parallel') and the loop hand-written in OpenCL C, 1000^2 x 200 iterations,
float64; rows of their own, in the JSON's "mandelbrot".

On a GPU the table adds `e2e floor ms` (the inputs over pinned h2d plus the outputs over pinned
d2h bandwidth, from the run's _runtime_bench) and `e2e/floor`.

Writes benchmarks/results/<device-kind>-<date>.{json,md} (and .png when matplotlib is there).

The suite's parts: workloads.py (the rows), peers.py and numba_impls.py (the other systems),
timing.py (checking and timing), report.py (machine description, table, chart), overhead.py
(per-call overhead); this file runs them.
"""
import argparse
import datetime
import json
import os
import sys
import time

# OpenBLAS's worker threads spin for about 2^28 cycles after each call (THREAD_TIMEOUT 28): timed
# in turns, they took the cores from the next system's run (PoCL, A @ v 2000x30000: lazycl 15.7 ms
# after NumPy's 8.9, 7.9 with a timeout of 2^4 cycles, where NumPy took 8.35). Set before NumPy
# loads OpenBLAS; a value already in the environment is kept.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

import numpy as np  # noqa: E402

# JAX would otherwise take 75% of the GPU's memory at import.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lazycl as lc  # noqa: E402
from lazycl import _lazycl  # noqa: E402

import kernels  # noqa: E402
import timing  # noqa: E402
from overhead import graph_overhead  # noqa: E402
from peers import NS, _noop, build_peers, detect, release_memory  # noqa: E402
from report import (Progress, device_kind, fmt_cell, machine_info, mark_suspects,  # noqa: E402
                    render_md, write_chart)
from selection import argpartition_top_k  # noqa: E402
from timing import Cell, Timer, setup_system, time_interleaved  # noqa: E402
from workloads import build_workloads  # noqa: E402

ROWS = ("axpy chain transc l2 user_elementwise user_reduction softmax standardize cumsum gather compaction bincount jacobi_2d "
        "slicewrite sort argsort sort_rows topk topk_rows matmul matmul_relu matmul_norm mlp gemv random "
        "randn sparse_pca sparse_pca_loop small dask_standardize loops mandelbrot").split()


def lc_force(r):
    """A lazycl result forced on the device: one array, or the arrays of a tuple at once."""
    if isinstance(r, tuple):
        arrs = [v for v in r if isinstance(v, lc.Array)]
        done = lc.compute(*arrs) if arrs else ()
        done = iter(done if isinstance(done, (tuple, list)) else (done,))
        return tuple(next(done) if isinstance(v, lc.Array) else v for v in r)
    return r.compute()


def lc_numpy(r):
    """A lazycl result as NumPy (each array of a tuple)."""
    if isinstance(r, tuple):
        return tuple(np.asarray(v) if isinstance(v, lc.Array) else v for v in r)
    return np.asarray(r)


def first_array(r):
    return next((v for v in r if isinstance(v, lc.Array)), None) if isinstance(r, tuple) else r


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    ap.add_argument("--device", default=None, help="lazycl device filter (default: lazycl's default)")
    ap.add_argument("--n", type=int, default=None, help="elements (default 2^24 CPU, 2^28 GPU)")
    ap.add_argument("--side", type=int, default=None, help="standardize matrix side (4096 CPU, 16384 GPU)")
    ap.add_argument("--quick", action="store_true", help="a fast smoke run (N = 2^20, 3 reps)")
    ap.add_argument("--only", default=None, help="comma-separated rows: " + ",".join(ROWS))
    ap.add_argument("--reps", type=int, default=7, help="timed runs per cell (at least)")
    ap.add_argument("--skip", default="", help="comma-separated peers to leave out (e.g. torch.compile)")
    ap.add_argument("--max-run-s", type=float, default=3.0,
                    help="report a system whose single run takes longer from that run alone")
    ap.add_argument("--dask-log2n", type=int, default=None,
                    help="log2 of the dask_standardize row's elements (26 CPU, 28 GPU, 20 quick)")
    ap.add_argument("--spca-p", type=int, default=None,
                    help="the sparse_pca row's p (default 100000; 2000 with --quick)")
    ap.add_argument("--spca-S", type=int, default=None,
                    help="the sparse_pca row's directions S (default 4096; 256 with --quick)")
    ap.add_argument("--loops-sizes", default=None,
                    help="the loops group's sizes n (default 100,250,500; 100 with --quick)")
    ap.add_argument("--loops-big", action="store_true",
                    help="the loops group at n = 2000 too (slow; capped iterations)")
    ap.add_argument("--loops-reps", type=int, default=3,
                    help="timed runs per loop kernel (the min is reported)")
    ap.add_argument("--no-progress", action="store_true",
                    help="plain lines instead of a progress bar (the default without a terminal "
                         "or without tqdm)")
    ap.add_argument("--tag", default="", help="a suffix for the result files' names")
    ap.add_argument("--out", default=os.path.join(HERE, "results"), help="results directory")
    args = ap.parse_args(argv)
    timing.MAX_RUN_S = args.max_run_s

    if args.device:
        # The workloads' own arrays (np.zeros in the seed's sparse PCA, the loops' temporaries)
        # go to the default device: make it this one (read at lazycl's first default_device()).
        os.environ["LAZYCL_DEVICE"] = args.device
    dev = lc.Device(args.device) if args.device else lc.default_device()
    if args.device and lc.default_device() is not dev:
        sys.exit(f"--device {args.device}: the default device was already chosen "
                 f"({lc.default_device().filter_string})")
    gpu = dev.type == "gpu"
    n = args.n or (1 << 20 if args.quick else (1 << 28 if gpu else 1 << 24))
    side = args.side or (1024 if args.quick else (16384 if gpu else 4096))
    reps = 3 if args.quick and args.reps == 7 else args.reps
    budget = 0.05 if args.quick else 1.0          # seconds per fast cell (more reps when fast)
    small = [1000, 100000] if args.quick else [1000, 10000, 20000, 50000, 100000, 1000000]
    only = set(args.only.split(",")) if args.only else None
    if only and only - set(ROWS):
        ap.error(f"unknown rows {sorted(only - set(ROWS))}; the rows: {', '.join(ROWS)}")
    spca = (args.spca_p or (2000 if args.quick else 100000),
            args.spca_S or (256 if args.quick else 4096))

    info = machine_info(dev)
    print(f"lazycl benchmarks on {dev.filter_string}: {dev.name} ({dev.platform_name}, driver "
          f"{dev.driver_version}, {dev.compute_units} CU)")
    print(f"host: {info['cpu']} x{info['cpu_count']}, numpy {np.__version__}, N = {n}, "
          f"standardize {side}x{side}, reps >= {reps}")

    # The copy-bandwidth ceiling, measured in this run.
    t0 = time.perf_counter()
    bw = _lazycl._runtime_bench(dev, 4 * min(n, 1 << 28), 5)
    bw_gbps = max(bw["d2d_GBps"], bw["d2d_kernel_GBps"])
    print(f"copy bandwidth: clEnqueueCopyBuffer {bw['d2d_GBps']:.1f} GB/s, copy kernel "
          f"{bw['d2d_kernel_GBps']:.1f} GB/s (ceiling uses {bw_gbps:.1f}); h2d {bw['h2d_GBps']:.1f}, "
          f"d2h {bw['d2h_GBps']:.1f} GB/s (pinned {bw['pinned_h2d_GBps']:.1f}, "
          f"{bw['pinned_d2h_GBps']:.1f}); launch+finish {bw['launch_us']:.0f} us "
          f"({time.perf_counter() - t0:.1f} s)")

    ne, ne_v = detect("numexpr")
    peers, peer_notes = build_peers(args, gpu)
    systems = ["lazycl", "lazycl e2e", "numpy"] + (["numexpr"] if ne else []) + ["hand"] + list(peers)
    print("systems: " + ", ".join(systems))
    for k, v in peer_notes.items():
        print(f"  {k}: {v}")

    queue = lc.asarray(np.zeros(1, np.float32), device=dev).queue
    ctx = kernels.HandContext(dev, queue)
    lrng, nrng = lc.random.default_rng(0, device=dev), np.random.default_rng(0)
    lns = NS(lc, randn=lambda n, tok: lrng.standard_normal(n, dtype=np.float32),
             randn_mat=lambda n, tok: lc.copy(lrng.standard_normal(n, dtype=np.float32)))
    nrand = (lambda n, tok: nrng.standard_normal(n, dtype=np.float32))
    npns = NS(np, randn=nrand, randn_mat=nrand,
              argsort=lambda x: np.argsort(x, kind="stable"), top_k=argpartition_top_k(np))
    wls = build_workloads(n, side, small, only, spca)
    cluster_row = ((only is None or "dask_standardize" in only)
                   and "dask_standardize" not in args.skip.split(","))
    loops_group = only is None or "loops" in only
    mandel_group = only is None or "mandelbrot" in only
    progress = Progress(len(wls) + cluster_row + loops_group + mandel_group,
                        plain=args.no_progress)
    say = progress.write

    results = []
    for w in wls:
        progress.start(w.label)
        t_w = time.perf_counter()
        ref = w.ref if w.ref is not None else np.asarray(
            w.fn(npns, *[a.astype(np.float64) if a.dtype.kind == "f" else a for a in w.inputs]),
            dtype=np.float64)
        cells = {}

        def fresh_lc():
            r = [lc.asarray(a, device=dev, copy=True).compute() for a in w.inputs]
            queue.finish()
            return r
        lc_in = fresh_lc()
        # A workload that writes into its inputs checks each system on fresh copies of them.
        np_in = (lambda: [a.copy() for a in w.inputs]) if w.mutates else (lambda: w.inputs)

        cells["lazycl"] = setup_system(
            lambda: lc_in, lambda st: lc_force(w.fn(lns, *st)), lambda r: queue.finish(),
            lc_numpy, ref, w.tol)
        # kernels and buffers per forced result
        stats = {}
        try:
            lc.reset_stats()
            r = lc_force(w.fn(lns, *lc_in))
            queue.finish()
            s = lc.stats()
            del r
            stats = {"launches": s["launches"], "buffers_allocated": s["buffers_allocated"],
                     "pool_hits": s["pool_hits"], "kernels_compiled": s["kernels_compiled"]}
            stats["plan"] = str(lc.explain(first_array(w.fn(lns, *lc_in))))
        except Exception as e:  # noqa: BLE001
            stats = {"error": str(e)}
        row_note = ""
        if w.stats:
            try:
                extra, row_note = w.stats(lns, lc_in, queue)
                stats.update(extra)
            except Exception as e:  # noqa: BLE001
                row_note = f"stats failed: {type(e).__name__}: {e}"[:200]

        # NumPy in, NumPy out: lc.asarray shares the inputs' memory on a CPU device, so a row
        # that writes into its inputs gets fresh copies, as NumPy's cell does.
        cells["lazycl e2e"] = setup_system(
            np_in,
            lambda st: lc_numpy(w.fn(lns, *[lc.asarray(a, device=dev) for a in st])),
            _noop, lambda r: r, ref, w.tol)
        cells["numpy"] = setup_system(np_in, lambda st: w.fn(npns, *st), _noop,
                                    lambda r: r, ref, w.tol)
        if ne:
            if w.ne is None:
                cells["numexpr"] = Cell("skip", note="numexpr cannot express it (no scans, "
                                        "gathers or writes)")
            else:
                cells["numexpr"] = setup_system(np_in, lambda st: w.ne(ne, *st), _noop,
                                              lambda r: r, ref, w.tol)
        hand_src = []
        try:
            hrun = w.hand(ctx, fresh_lc() if w.mutates else lc_in)
            hand_src = kernels.sources(hrun)
            cells["hand"] = setup_system(lambda: None, lambda st: hrun(), lambda r: queue.finish(),
                                       lambda r: np.asarray(r), ref, w.tol)
        except NotImplementedError as e:
            cells["hand"] = Cell("skip", note=str(e)[:300])
        except Exception as e:  # noqa: BLE001
            cells["hand"] = Cell("error", note=f"{type(e).__name__}: {e}"[:300])
        for name, (label, factory) in peers.items():
            why = w.peers_skip.get(name.split(".")[0])
            if why:
                cells[name] = Cell("skip", note=why)
                continue
            try:
                sysdef = factory(w)
            except Exception as e:  # noqa: BLE001
                cells[name] = Cell("error", note=f"{type(e).__name__}: {e}"[:200])
                continue
            if isinstance(sysdef, str):
                cells[name] = Cell("skip", note=sysdef)
                continue
            prep, run, sync, to_np = sysdef
            cells[name] = setup_system(prep, run, sync, to_np, ref, w.tol)
        timers = {k: c for k, c in cells.items() if isinstance(c, Timer)}
        timed = time_interleaved(timers, reps, budget, pre_run=True)
        cells = {k: timed.get(k, c) for k, c in cells.items()}
        del lc_in, timers, timed
        release_memory(peers)

        base = cells["lazycl"]
        row = {"workload": w.name, "label": w.label, "expr": w.expr, "n": w.n, "bytes": w.bytes,
               "tolerance": w.tol,
               "cells": {k: c.json() for k, c in cells.items()}, "lazycl_stats": stats,
               "hand_sources": hand_src, "wall_s": time.perf_counter() - t_w, "note": row_note}
        # NumPy in -> NumPy out on a device with memory of its own: the inputs cross the link
        # once each way at pinned speed at best (the floor issue 29 measures e2e against).
        e2e = cells.get("lazycl e2e")
        if gpu and bw.get("pinned_h2d_GBps") and e2e is not None and e2e.status == "ok":
            in_bytes = sum(getattr(a, "nbytes", 0) for a in w.inputs)
            out_bytes = max(w.bytes - in_bytes, 0)
            row["e2e_floor_ms"] = (in_bytes / bw["pinned_h2d_GBps"]
                                   + out_bytes / bw["pinned_d2h_GBps"]) * 1e-6
            row["e2e_over_floor"] = e2e.ms / row["e2e_floor_ms"]
        if base.status == "ok":
            row["lazycl_ms"] = base.ms
            h = cells.get("hand")
            if h and h.status == "ok":
                row["lazycl_over_hand"] = base.ms / h.ms
        results.append(row)
        # provisional, from the bandwidth measured at the start; redone at the end from the best
        mark_suspects(row, bw_gbps)
        cells = {k: Cell.from_json(v) for k, v in row["cells"].items()}
        line = "  ".join(f"{k}={fmt_cell(c, base)}" for k, c in cells.items())
        say(f"{w.label:<26} {line}  kernels={stats.get('launches')}  [{row['wall_s']:.1f} s]")
        for k, c in cells.items():
            if c.status in ("WRONG", "error"):
                say(f"    {k}: {c.status} {c.note}")
            if c.suspect:
                say(f"    {k}: SUSPECT {c.suspect_note}")
        if row_note:
            say(f"    note: {row_note}")
        progress.done()

    if cluster_row:
        # the cluster row (benchmarks/cluster.py): its own LocalClusters, built apart
        import cluster
        progress.start("dask_standardize")
        t_w = time.perf_counter()
        log2n = args.dask_log2n or (20 if args.quick else (28 if gpu else 26))
        row = cluster.dask_standardize_row(dev, lc, Cell, log2n, reps)
        row["wall_s"] = time.perf_counter() - t_w
        results.append(row)
        mark_suspects(row, bw_gbps)
        cells = {k: Cell.from_json(v) for k, v in row["cells"].items()}
        line = "  ".join(f"{k}={fmt_cell(c, cells.get('lazycl'))}" for k, c in cells.items())
        say(f"{row['label']:<26} {line}  [{row['wall_s']:.1f} s]")
        for k, c in cells.items():
            if c.suspect:
                say(f"    {k}: SUSPECT {c.suspect_note}")
        if row["note"]:
            say(f"    note: {row['note']}")
        progress.done()

    loop_rows = []
    if loops_group:
        # the loop kernels (benchmarks/loops.py): NumPy against lazycl only, rows of their own
        import loops
        progress.start("loops")
        t_w = time.perf_counter()
        sizes = ([int(s) for s in args.loops_sizes.split(",") if s] if args.loops_sizes
                 else ([100] if args.quick else list(loops.DEFAULT_SIZES)))
        loop_rows = loops.run([dev], sizes, reps=args.loops_reps, big=args.loops_big,
                              say=lambda s: say("  loops " + s))
        say(f"{'loops':<26} {len(loop_rows)} rows  [{time.perf_counter() - t_w:.1f} s]")
        progress.done()
    mandel_rows = []
    if mandel_group:
        # @lc.vectorize against NumPy's vectorized form, Numba and hand-written OpenCL
        # (benchmarks/mandelbrot.py): rows of their own
        import mandelbrot
        progress.start("mandelbrot")
        t_w = time.perf_counter()
        side = 256 if args.quick else 1000
        mandel_rows = [{"system": s, "ms": ms} for s, ms in mandelbrot.main(
            ["--device", dev.filter_string, "--n", str(side), "--iters", "200",
             "--reps", "3" if args.quick else "5"])]
        say(f"{'mandelbrot':<26} {len(mandel_rows)} systems  [{time.perf_counter() - t_w:.1f} s]")
        progress.done()
    progress.close()

    bw_end = _lazycl._runtime_bench(dev, 4 * min(n, 1 << 28), 5)
    bw_gbps = max(bw_gbps, bw_end["d2d_GBps"], bw_end["d2d_kernel_GBps"])
    print(f"copy bandwidth at the end: {bw_end['d2d_GBps']:.1f} / {bw_end['d2d_kernel_GBps']:.1f} GB/s; "
          f"the ceilings use the best seen, {bw_gbps:.1f} GB/s")
    suspects = []
    for row in results:   # ceilings from the best copy bandwidth seen in this run
        row["bandwidth_ceiling_ms"] = row["bytes"] / (bw_gbps * 1e9) * 1e3
        if "lazycl_ms" in row:
            row["pct_of_bandwidth_ceiling"] = 100 * row["bandwidth_ceiling_ms"] / row["lazycl_ms"]
        suspects += [f"{row['label']} / {k}" for k in mark_suspects(row, bw_gbps)]
    if suspects:
        print(f"SUSPECT (faster than {bw_gbps:.1f} GB/s allows): {', '.join(suspects)}")
    ovh = graph_overhead(dev)
    print(f"graph building: {ovh['us_per_node']:.2f} us per node (NumPy eager op on 1e3 floats: "
          f"{ovh['numpy_us_per_op_1e3']:.2f} us); a 10-op chain: {ovh['launches']} launch, "
          f"{ovh['buffers']} buffer(s) (allocated {ovh['buffers_allocated']} + pool hits {ovh['pool_hits']})")
    sp = ovh["chain10_1e3_split"]
    print(f"per call (10-op chain, 1e3 floats): build {sp['build_us']:.0f} us, compute() (which waits "
          f"for the device) {sp['compute_return_us']:.0f} us, a finish() after it {sp['finish_us']:.0f} us; explain "
          f"{sp['explain_us']:.0f} us; the hand-written kernel's launch + finish {sp['hand_launch_finish_us']:.0f} us")

    # ---- write results ----
    date = datetime.datetime.now().strftime("%Y-%m-%d")
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, f"{device_kind(dev)}-{date}" + ("-quick" if args.quick else "")
                        + (f"-{args.tag}" if args.tag else ""))
    systems_used = [s for s in systems if any(s in r["cells"] for r in results)]
    doc = {"benchmark": "lazycl fusion suite", "machine": info, "n": n, "side": side, "reps": reps,
           "bandwidth": bw, "bandwidth_end": bw_end, "bandwidth_ceiling_GBps": bw_gbps, "systems": systems_used,
           "peer_labels": {k: v[0] for k, v in peers.items()}, "peer_notes": peer_notes,
           "numexpr": ne_v, "graph_overhead": ovh, "results": results, "loops": loop_rows,
           "mandelbrot": mandel_rows,
           "ratio_convention": "system median / lazycl device-resident median"}
    with open(stem + ".json", "w") as f:
        json.dump(doc, f, indent=1)
    md = render_md(doc, dev, systems_used)
    chart = write_chart(doc, systems_used, stem + ".png")
    md += f"\n{chart}\n"
    with open(stem + ".md", "w") as f:
        f.write(md)
    print()
    print(md)
    print(f"wrote {stem}.json, {stem}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
