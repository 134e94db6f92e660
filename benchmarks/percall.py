"""percall.py: where the time of one forced call goes, on each device named (default: all).

For a cached 10-op chain on 1e3 float32 (benchmarks/run.py's per-call row): building the graph,
compute() (plan-cache lookup, launch, and the wait for the device), explain(), and the same kernel
hand-written and launched through the same runtime, in turns with compute(). Prints one line per
device with compute() / (hand-written launch + finish).

    python benchmarks/percall.py [filter ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lazycl as lc  # noqa: E402
import run  # noqa: E402


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


if __name__ == "__main__":
    main(sys.argv[1:])
