"""percall.py: where the time of one forced call goes, on each device named (default: all).

For a cached 10-op chain on 1e3 float32 (benchmarks/run.py's per-call row): building the graph,
compute() (plan-cache lookup, launch, and the wait for the device), explain(), and the same kernel
hand-written and launched through the same runtime, in turns with compute(). Prints one line per
device with compute() / (hand-written launch + finish), and a second line with a scalar read-back,
float(x[3]) of a computed array, against a 4-byte blocking read of a buffer alone (the runtime's
clEnqueueReadBuffer, no Python).

    python benchmarks/percall.py [filter ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import lazycl as lc  # noqa: E402
from lazycl import _lazycl  # noqa: E402
import run  # noqa: E402


def scalar_read(d, reps=2000):
    """float(x[3]) of a computed float32 array, and the runtime's 4-byte read alone (us)."""
    x = lc.asarray(np.arange(1000, dtype=np.float32), device=d, copy=True).compute()
    x.queue.finish()
    for _ in range(50):
        float(x[3])
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        float(x[3])
        ts.append(time.perf_counter() - t0)
    raw = _lazycl._runtime_bench(d, 16, reps)
    return statistics.median(ts) * 1e6, 16 / raw["d2h_GBps"] / 1e3


def main(argv):
    devs = [lc.Device(f) for f in argv] if argv else lc.devices()
    for d in devs:
        o = run.graph_overhead(d, reps=600)
        sp = o["chain10_1e3_split"]
        call = sp["compute_return_us"]
        hand = sp["hand_launch_finish_us"]
        print(f"{d.filter_string}: build {o['us_per_node']:.2f} us/node; compute() {call:.1f} us "
              f"(it waits for the device; a finish() after it {sp['finish_us']:.1f} us more); "
              f"hand-written launch+finish {hand:.1f} us; ratio {call / hand:.2f}; "
              f"explain {sp['explain_us']:.0f} us; {o['launches']} launch")
        f, raw = scalar_read(d)
        print(f"{d.filter_string}: float(x[3]) {f:.2f} us; a 16-byte blocking read alone "
              f"{raw:.2f} us; ratio {f / raw:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
