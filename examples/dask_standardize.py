"""Standardize a large float32 array in chunks on a Dask LocalCluster with one worker per
OpenCL device: (X - X.mean(0)) / X.std(0), X of 2^30 elements (4 GiB) by default, with lazycl
chunks and with NumPy chunks on the same cluster layout (a fresh LocalCluster per system, so
neither inherits the other's memory). Prints the time and each worker's peak memory for each.

    python examples/dask_standardize.py [--log2n 30] [--cols 1024] [--chunk-log2 24]
                                        [--devices pocl:cpu,intel:cpu] [--systems lazycl,numpy]
                                        [--repeats 1] [--no-warmup]

Both systems standardize the same data: each block is made on its worker by NumPy's generator
(seeded by the block's index) and, for lazycl, copied to the worker's device. Making the data
is not timed. The timed part computes the column means and standard deviations over every
block and writes the standardized blocks, kept in the workers' memory (persisted) as X is:
from the persist of Z's graph (built beforehand) until its last block is there. Each repeat
starts after the previous Z is released and computes a graph with keys of its own, so that no
repeat is served from the memory of the one before. Before the timed runs the computation runs
once untimed over X's first blocks, so that each worker process has loaded its kernels
(lazycl's disk cache) as a long-lived worker has;
--no-warmup times the first run of fresh workers instead. The peak memory of a worker is its
process's peak resident set (VmHWM), reset after X is made: X, Z and the work in between; on a
CPU OpenCL device lazycl's buffers are in that memory too.
"""
import argparse
import gc
import time

import numpy as np

import dask.array as da
import dask.core
import distributed
from dask.graph_manipulation import clone

import lazycl
import lazycl.dask as lcd


def _block(block_info=None, *, cols, seed, system):
    """Block i of X: uniform floats from NumPy's generator seeded by (seed, i)."""
    loc = block_info[None]["chunk-location"][0]
    rows = block_info[None]["chunk-shape"][0]
    a = np.random.default_rng([seed, loc]).random((rows, cols), dtype=np.float32)
    if system == "lazycl":
        x = lazycl.asarray(a)
        lazycl.compute(x)
        return x
    return a


def _reset_peak():
    """Reset this process's peak resident set (Linux: clear_refs 5); return the current one."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status("VmRSS")


def _status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return None


def _peak():
    return _status("VmHWM")


def _held(keys, dask_scheduler=None):
    """How many of `keys` the scheduler still knows (run on the scheduler)."""
    return sum(k in dask_scheduler.tasks for k in keys)


def _wait_released(client, keys, timeout_s=60.0):
    """Return once the scheduler has forgotten every key of `keys` (a released collection's
    keys go asynchronously); TimeoutError after timeout_s."""
    end = time.monotonic() + timeout_s
    while client.run_on_scheduler(_held, keys):
        if time.monotonic() > end:
            raise TimeoutError(f"the scheduler still holds keys {timeout_s:g} s after release")
        time.sleep(0.005)


def _device():
    return lazycl.default_device().filter_string


def _make_x(n, cols, chunk, system, seed):
    rows = n // cols
    chunk_rows = max(1, chunk // cols)
    meta = lazycl.zeros((0, 0), dtype=np.float32) if system == "lazycl" else \
        np.empty((0, 0), np.float32)
    return da.map_blocks(_block, chunks=(da.core.normalize_chunks(chunk_rows, (rows,))[0],
                                         (cols,)),
                         dtype=np.float32, meta=meta, cols=cols, seed=seed, system=system)


def _standardize(X):
    # Each task computes the lazycl blocks it returns (lazycl.dask's step after Dask's array
    # optimization): the column means and deviations once, each block of Z in its own task.
    return (X - X.mean(axis=0)) / X.std(axis=0)


def standardize(client, n, cols, chunk, system, seed=0, repeats=1, warmup=True):
    """One system's runs on the cluster: a dict of seconds and bytes. X is made and persisted
    first (not timed). With `warmup`, the same computation first runs untimed over X's first
    blocks (at most 4): each worker process loads its kernels once (lazycl's disk cache), as
    any long-lived worker would have; its time is reported as warmup_s."""
    X = _make_x(n, cols, chunk, system, seed)
    t0 = time.perf_counter()
    X = client.persist(X)
    distributed.wait(X)
    t_data = time.perf_counter() - t0
    t_warm = None
    if warmup:
        t0 = time.perf_counter()
        W = client.persist(_standardize(X[:sum(X.chunks[0][:4])]))
        distributed.wait(W)
        del W
        t_warm = time.perf_counter() - t0
    before = client.run(_reset_peak)
    client.run(lazycl.reset_stats)
    times = []
    for i in range(repeats):
        if times:
            # Z's release reaches the scheduler later; wait for it, so that no repeat overlaps
            # the previous one's freeing and the peak memory holds one Z.
            keys = list(dask.core.flatten(Z.__dask_keys__()))
            del Z
            gc.collect()          # futures held in a reference cycle are released now
            _wait_released(client, keys)
        # Each repeat's graph gets keys of its own (X's kept): the same keys as the Z just
        # released could be served from the workers' memory, not computed (a NumPy time at the
        # copy-bandwidth ceiling). Not timed.
        Zg = clone(_standardize(X), omit=X, seed=i)
        t0 = time.perf_counter()
        Z = client.persist(Zg)
        distributed.wait(Z)
        times.append(time.perf_counter() - t0)
        del Zg
    peaks = client.run(_peak)
    stats = client.run(lazycl.stats) if system == "lazycl" else None
    # check (not timed): each column of Z has mean 0 and standard deviation 1
    zm, zs = client.compute([Z.mean(axis=0), Z.std(axis=0)], sync=True)
    zm, zs = np.asarray(zm), np.asarray(zs)
    ok = bool(np.all(np.abs(zm) < 1e-3) and np.all(np.abs(zs - 1) < 1e-3))
    del X, Z
    return {"system": system, "n": n, "cols": cols, "chunk_elems": max(1, chunk // cols) * cols,
            "blocks": -(-(n // cols) // max(1, chunk // cols)),
            "data_s": t_data, "warmup_s": t_warm, "times_s": times,
            "standardize_s": sorted(times)[len(times) // 2],
            "rss_before": before, "peak_rss": peaks, "lazycl_stats": stats, "ok": ok,
            "max_abs_mean": float(np.max(np.abs(zm))), "max_abs_std_err": float(
                np.max(np.abs(zs - 1)))}


def run(log2n=30, cols=1024, chunk_log2=24, devices=("pocl:cpu", "intel:cpu"),
        systems=("lazycl", "numpy"), repeats=1, warmup=True, verbose=True):
    """For each system, start a LocalCluster with one worker process per device (a fresh one
    per system, so that neither inherits the other's memory or caches) and run it there;
    return the results (a list of dicts, `standardize_s` the median of `repeats` runs)."""
    n = 1 << log2n
    out = []
    for system in systems:
        with distributed.LocalCluster(n_workers=len(devices), threads_per_worker=1,
                                      processes=True, dashboard_address=None,
                                      memory_limit=0) as cluster, \
                distributed.Client(cluster) as client:
            client.register_plugin(lcd.DevicePerWorker(list(devices)))
            devs = client.run(_device)
            if verbose and not out:
                print(f"workers: {', '.join(f'{d}' for w, d in sorted(devs.items()))}, one "
                      "process each, a fresh cluster per system")
                print(f"X: {n} float32 ({n * 4 / 2**30:.2f} GiB) as {n // cols} x {cols}, "
                      f"blocks of {1 << chunk_log2} elements")
            r = standardize(client, n, cols, 1 << chunk_log2, system, repeats=repeats,
                            warmup=warmup)
        r["devices"] = devs
        r["peak_rss_by_device"] = {devs[w]: p for w, p in r["peak_rss"].items()}
        out.append(r)
        if verbose:
            peaks = ", ".join(f"{d} {p / 2**30:.2f} GiB"
                              for d, p in sorted(r["peak_rss_by_device"].items()))
            runs = f" (median of {repeats} runs)" if repeats > 1 else ""
            warm = f", warm-up {r['warmup_s']:.2f} s" if warmup else ""
            if r["lazycl_stats"]:
                launches = sum(st["launches"] for st in r["lazycl_stats"].values())
                runs += f", {launches / repeats / r['blocks']:.2f} kernels per block"
            print(f"{system:>7}: standardize {r['standardize_s']:.2f} s{runs} (making X: "
                  f"{r['data_s']:.2f} s{warm}); peak memory per worker: {peaks}; "
                  f"check {'ok' if r['ok'] else 'FAILED'} (|mean| <= "
                  f"{r['max_abs_mean']:.1e}, |std - 1| <= {r['max_abs_std_err']:.1e})",
                  flush=True)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=30, help="log2 of the element count (30: 4 GiB)")
    ap.add_argument("--cols", type=int, default=1024, help="columns of X")
    ap.add_argument("--chunk-log2", type=int, default=24, help="log2 of the elements per block")
    ap.add_argument("--devices", default="pocl:cpu,intel:cpu",
                    help="one worker per device filter string")
    ap.add_argument("--systems", default="lazycl,numpy")
    ap.add_argument("--repeats", type=int, default=1, help="timed runs per system (median)")
    ap.add_argument("--no-warmup", action="store_true",
                    help="time the first run of fresh workers (kernels loaded from disk)")
    args = ap.parse_args(argv)
    res = run(args.log2n, args.cols, args.chunk_log2, args.devices.split(","),
              args.systems.split(","), repeats=args.repeats, warmup=not args.no_warmup)
    return 0 if all(r["ok"] for r in res) else 1


if __name__ == "__main__":
    raise SystemExit(main())
