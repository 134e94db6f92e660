"""Per-call overhead (benchmarks/run.py): graph building per node, and where a forced 10-op
chain's time goes, against the same kernel hand-written."""
import statistics
import time

import numpy as np

import lazycl as lc
from lazycl import _lazycl

# ---- overhead --------------------------------------------------------------------------------

def graph_overhead(queue_dev, reps=300):
    x = lc.asarray(np.ones(1000, np.float32), device=queue_dev, copy=True).compute()

    def build():
        r = x
        for _ in range(5):
            r = r * 1.0001
            r = r + 0.5
        return r

    for _ in range(20):
        build()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        build()
        ts.append(time.perf_counter() - t0)
    per_node_us = statistics.median(ts) / 10 * 1e6
    xn = np.ones(1000, np.float32)
    tn = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = xn
        for _ in range(5):
            r = r * np.float32(1.0001)
            r = r + np.float32(0.5)
        tn.append(time.perf_counter() - t0)
    r = build()
    lc.reset_stats()
    r.compute()
    x.queue.finish()
    s = lc.stats()
    # Where the per-call time of a forced 10-op chain goes: building the graph, compute()
    # returning (fusion, codegen, cache lookup, enqueue), then the device finishing; and the same
    # kernel hand-written through _launch. Also lc.explain (fusion + codegen, nothing run).
    q = x.queue
    out = _lazycl._alloc((1000,), np.float32, q)
    src = ("__kernel void hand_ovh(__global float *restrict o, __global const float *restrict a) {\n"
           "  const long i = get_global_id(0); float v = a[i];\n"
           "  v = v * 1.0001f + 0.5f; v = v * 1.0001f + 0.5f; v = v * 1.0001f + 0.5f;\n"
           "  v = v * 1.0001f + 0.5f; v = v * 1.0001f + 0.5f; o[i] = v; }\n")
    gpu = queue_dev.type == "gpu"
    g, l = ((1024,), (256,)) if gpu else ((1000,), None)
    if gpu:
        out = _lazycl._alloc((1024,), np.float32, q)
        x2 = lc.asarray(np.ones(1024, np.float32), device=queue_dev, copy=True).compute()
    else:
        x2 = x
    _lazycl._launch(q, src, "hand_ovh", g, l, [out, x2])
    q.finish()
    # compute() and the hand-written launch take turns in one loop, so that both see the same
    # state of the driver (a CPU driver's worker threads wake up slower after an idle spell);
    # explain() has a loop of its own (between two computes it would leave them cold caches).
    tb, tc, tf, th, te = [], [], [], [], []
    for _ in range(reps // 3):
        t0 = time.perf_counter()
        r = build()
        t1 = time.perf_counter()
        r = r.compute()
        t2 = time.perf_counter()
        q.finish()
        t3 = time.perf_counter()
        _lazycl._launch(q, src, "hand_ovh", g, l, [out, x2])
        q.finish()
        t4 = time.perf_counter()
        tb.append(t1 - t0)
        tc.append(t2 - t1)
        tf.append(t3 - t2)
        th.append(t4 - t3)
        del r
    for _ in range(reps // 10):
        r = build()
        t3 = time.perf_counter()
        lc.explain(r)
        te.append(time.perf_counter() - t3)
    med = (lambda v: statistics.median(v) * 1e6)
    split = {"build_us": med(tb), "compute_return_us": med(tc), "finish_us": med(tf),
             "explain_us": med(te), "hand_launch_finish_us": med(th)}
    return {"us_per_node": per_node_us, "numpy_us_per_op_1e3": statistics.median(tn) / 10 * 1e6,
            "launches": s["launches"], "buffers": s["buffers_allocated"] + s["pool_hits"],
            "buffers_allocated": s["buffers_allocated"], "pool_hits": s["pool_hits"],
            "chain10_1e3_split": split}
