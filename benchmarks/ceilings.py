"""Runtime ceilings per device: copy bandwidth, host transfers and kernel launch latency.

For each OpenCL device (or only LAZYCL_DEVICE / --device), measures in C
(lazycl._lazycl._runtime_bench), as medians over --reps runs:

  d2d copy   clEnqueueCopyBuffer, GB/s counted as bytes read + bytes written
  d2d kernel a copy kernel, one work-item per uint4, GB/s as above
  h2d / d2h  pageable (NumPy's) memory to and from the device as lazycl moves it (blocking
             lc_buffer_write / lc_buffer_read: through pinned staging on a GPU), GB/s
  pageable   the same with staging off (LAZYCL_STAGE=0): the driver's own path
  pinned     from and to pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped): the link's
             speed, and the floor of a transfer
  launch     an empty kernel's launch + clFinish, microseconds

These are the ceilings a fused lazycl kernel is compared with: an
elementwise kernel cannot beat the copy kernel's bandwidth, and no forced
expression returns faster than one launch.

    python benchmarks/ceilings.py [--n N] [--reps R] [--device FILTER] [--json PATH]
"""
import argparse
import json
import os
import platform
import sys
import time

import lazycl
from lazycl import _lazycl


def measure(dev, nbytes, reps):
    t0 = time.perf_counter()
    r = _lazycl._runtime_bench(dev, nbytes, reps)
    r["wall_s"] = time.perf_counter() - t0
    return r


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1 << 24, help="float32 elements per buffer (default 2^24 = 64 MiB)")
    ap.add_argument("--reps", type=int, default=10, help="timed repetitions, the median is reported")
    ap.add_argument("--device", default=None,
                    help="a filter string; default LAZYCL_DEVICE when set, else every device")
    ap.add_argument("--json", metavar="PATH", default=None, help="also write the results as JSON")
    args = ap.parse_args(argv)

    if args.device:
        devices = [lazycl.Device(args.device)]
    elif os.environ.get("LAZYCL_DEVICE"):
        devices = [lazycl.default_device()]
    else:
        devices = lazycl.devices()

    nbytes = 4 * args.n
    rows = []
    print(f"lazycl runtime ceilings: N = {args.n} float32 ({nbytes / 2**20:.0f} MiB), median of {args.reps}")
    cols = ["h2d", "d2h", "pg h2d", "pg d2h", "pin h2d", "pin d2h"]
    head = (f"{'device':<18} {'name':<34} {'d2d copy':>9} {'d2d kern':>9} "
            + " ".join(f"{c:>8}" for c in cols) + f" {'launch':>9}")
    print(head)
    print(f"{'':<18} {'':<34} {'GB/s':>9} {'GB/s':>9} " + " ".join(f"{'GB/s':>8}" for _ in cols)
          + f" {'us':>9}")
    print("-" * len(head))
    for d in devices:
        try:
            r = measure(d, nbytes, args.reps)
        except (MemoryError, lazycl.DeviceError, lazycl.CompileError) as e:
            print(f"{d.filter_string:<18} {d.name[:34]:<34} failed: {e}")
            rows.append({"device": d.filter_string, "name": d.name, "error": str(e)})
            continue
        print(f"{d.filter_string:<18} {d.name[:34]:<34} {r['d2d_GBps']:9.1f} {r['d2d_kernel_GBps']:9.1f} "
              f"{r['h2d_GBps']:8.1f} {r['d2h_GBps']:8.1f} {r['pageable_h2d_GBps']:8.1f} "
              f"{r['pageable_d2h_GBps']:8.1f} {r['pinned_h2d_GBps']:8.1f} {r['pinned_d2h_GBps']:8.1f} "
              f"{r['launch_us']:9.1f}")
        rows.append({
            "device": d.filter_string, "name": d.name, "platform": d.platform_name,
            "driver": d.driver_version, "type": d.type, "takes_spirv": d.takes_spirv,
            "n": args.n, "nbytes": r["nbytes"], "reps": args.reps,
            "d2d_GBps": r["d2d_GBps"], "d2d_kernel_GBps": r["d2d_kernel_GBps"],
            "h2d_GBps": r["h2d_GBps"], "d2h_GBps": r["d2h_GBps"], "launch_us": r["launch_us"],
            "pageable_h2d_GBps": r["pageable_h2d_GBps"], "pageable_d2h_GBps": r["pageable_d2h_GBps"],
            "pinned_h2d_GBps": r["pinned_h2d_GBps"], "pinned_d2h_GBps": r["pinned_d2h_GBps"],
            "wall_s": r["wall_s"],
        })
    if args.json:
        out = {
            "benchmark": "ceilings", "lazycl": lazycl.__version__, "host": platform.node(),
            "python": sys.version.split()[0], "time": time.strftime("%Y-%m-%dT%H:%M:%S"), "results": rows,
        }
        d = os.path.dirname(os.path.abspath(args.json))
        os.makedirs(d, exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
        print(f"wrote {args.json}")
    return 0 if all("error" not in r for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
