"""The suite's report (benchmarks/run.py): the machine description, the markdown table, the PNG
chart."""
import datetime
import os
import platform
import statistics
import subprocess
import sys

import numpy as np

import lazycl as lc

from timing import Cell

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- machine description --------------------------------------------------------------------

# Every peer's package (distribution names; CuPy's wheels carry the CUDA version in theirs).
PACKAGES = ("numpy", "numexpr", "numba", "llvmlite", "scipy", "dask", "distributed", "jax",
            "jaxlib", "jax-cuda12-plugin", "pyopencl", "pyclblast", "cupy", "cupy-cuda12x",
            "cupy-cuda13x", "cupy-cuda11x", "torch", "triton", "dpnp", "matplotlib", "tqdm")


def package_versions():
    """name -> version of every peer's package installed here (the others are left out)."""
    import importlib.metadata as md
    out = {}
    for name in PACKAGES:
        try:
            out[name] = md.version(name)
        except md.PackageNotFoundError:
            pass
    return out


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _os_name():
    for line in _read("/etc/os-release").splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip().strip('"')
    return platform.system()


def _gpus():
    """nvidia-smi's name, driver and memory of each NVIDIA GPU (none: [])."""
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                            "--format=csv,noheader"], capture_output=True, text=True, timeout=20)
        return [line.strip() for line in r.stdout.splitlines() if line.strip()]
    except Exception:  # noqa: BLE001
        return []


def machine_info(dev):
    cpu = platform.processor()
    for line in _read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem = 0
    for line in _read("/proc/meminfo").splitlines():
        if line.startswith("MemTotal:"):
            mem = int(line.split()[1]) * 1024
            break
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception:  # noqa: BLE001
        commit = ""
    return {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "host": platform.node(), "cpu": cpu, "cpu_count": os.cpu_count(), "cpus_usable": usable,
        "memory_bytes": mem, "os": _os_name(), "kernel": platform.release(),
        "machine": platform.machine(), "nvidia_gpus": _gpus(),
        "python": sys.version.split()[0], "numpy": np.__version__, "lazycl": lc.__version__,
        "git_commit": commit, "packages": package_versions(),
        "device": {
            "filter": dev.filter_string, "name": dev.name, "type": dev.type,
            "platform": dev.platform_name, "platform_version": dev.platform_version,
            "driver": dev.driver_version, "vendor": dev.vendor, "compute_units": dev.compute_units,
            "global_mem": dev.global_mem, "opencl_c": dev.opencl_c_version,
            "takes_spirv": dev.takes_spirv,
        },
    }


def device_kind(dev):
    parts = dev.filter_string.split(":")
    return f"{parts[1]}-{parts[0]}" if len(parts) >= 2 else dev.filter_string.replace(":", "-")


# ---- cells faster than the bandwidth allows ---------------------------------------------------

#: A cell whose time (the median of its runs) moved its row's bytes faster than this many
#: times the bandwidth ceiling is suspect: the ceiling is measured in the same run, and 10%
#: covers its spread.
SUSPECT_OVER_CEILING = 1.1


def suspect(times_s, nbytes, ceiling_gbps, factor=SUSPECT_OVER_CEILING):
    """{"suspect", "suspect_note", "runs_over_ceiling"} for a cell's timed runs (seconds) of a
    row that must move `nbytes` (each input read once, each output written once) at a ceiling of
    `ceiling_gbps` GB/s. The cell is suspect when its median implies more than `factor` x the
    ceiling, i.e. takes less than nbytes / (factor x ceiling): then it did not compute what the
    row asks (a result served from an earlier run, work skipped), or its data sat in a cache
    faster than the copy that measured the ceiling. runs_over_ceiling counts the single runs
    past that bound (a lone fast run on a shared machine is not enough to mark the cell). No
    runs, no bytes or no ceiling: not suspect, 0 runs."""
    out = {"suspect": False, "suspect_note": "", "runs_over_ceiling": 0}
    if not times_s or not nbytes or not ceiling_gbps or ceiling_gbps <= 0:
        return out
    floor_s = nbytes / (ceiling_gbps * 1e9)
    out["runs_over_ceiling"] = sum(1 for t in times_s if t * factor < floor_s)
    med = statistics.median(times_s)
    if med * factor < floor_s:
        implied = nbytes / med / 1e9 if med > 0 else float("inf")
        out["suspect"] = True
        out["suspect_note"] = (
            f"median {med * 1e3:.3g} ms implies {implied:.1f} GB/s, {implied / ceiling_gbps:.1f}x "
            f"the ceiling ({nbytes / 1e6:.3g} MB at {ceiling_gbps:.1f} GB/s = "
            f"{floor_s * 1e3:.3g} ms; {out['runs_over_ceiling']} of {len(times_s)} runs past "
            f"{factor:g}x): not computed, or its data in a cache")
    return out


def mark_suspects(row, ceiling_gbps):
    """Set "suspect", "suspect_note" and "runs_over_ceiling" in each cell (a json() dict) of a
    result row, from its runs, the row's "bytes" and the ceiling (GB/s); return the names of the
    suspect cells."""
    marked = []
    for name, cell in row["cells"].items():
        cell.update(suspect(cell.get("times_s"), row.get("bytes"), ceiling_gbps))
        if cell["suspect"]:
            marked.append(name)
    return marked


def fmt_cell(c, base):
    """A table cell: ms (x ratio to lazycl's), with **WRONG** / **SUSPECT** where so."""
    s = _fmt_time(c, base)
    if c is not None and getattr(c, "suspect", False):
        s += " **SUSPECT**"
    return s


def _fmt_time(c, base):
    if c is None:
        return "—"
    if c.status == "error":
        return "error"
    if c.status == "skip":
        return "—"
    if c.status == "slow":
        return f"~{c.ms:.0f} (1 run)"
    tag = ""
    if c.status == "WRONG":
        tag = f"**WRONG** ({c.err:.2g})" if c.err == c.err else "**WRONG**"
        if not c.times:
            return tag
        tag += " "
    ms = c.ms
    s = f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"
    if base and base.status == "ok" and base.ms:
        s += f" (x{ms / base.ms:.2g})"
    return tag + s


def render_md(doc, dev, systems):
    m = doc["machine"]
    bw = doc["bandwidth"]
    out = [f"# lazycl benchmarks — {dev.filter_string}, {m['date']}", "",
           f"- device: {m['device']['name']} ({m['device']['platform']}, driver {m['device']['driver']}, "
           f"{m['device']['compute_units']} CU)",
           f"- host: {m['cpu']} x{m['cpu_count']} ({m.get('cpus_usable', m['cpu_count'])} usable), "
           f"{m.get('memory_bytes', 0) / 2**30:.0f} GiB, {m.get('os', '?')} (Linux {m.get('kernel', '?')}); "
           f"Python {m['python']}, NumPy {m['numpy']}, lazycl {m['lazycl']} ({m['git_commit']})"
           + (f"; GPU: {'; '.join(m['nvidia_gpus'])}" if m.get("nvidia_gpus") else ""),
           "- packages: " + (", ".join(f"{k} {v}" for k, v in m.get("packages", {}).items()) or "—"),
           f"- copy bandwidth (this run, start / end): {bw['d2d_GBps']:.1f} / {doc['bandwidth_end']['d2d_GBps']:.1f} GB/s "
           f"clEnqueueCopyBuffer, {bw['d2d_kernel_GBps']:.1f} / {doc['bandwidth_end']['d2d_kernel_GBps']:.1f} GB/s "
           f"copy kernel (ceilings use the best, {doc['bandwidth_ceiling_GBps']:.1f} GB/s); h2d {bw['h2d_GBps']:.1f}, d2h "
           f"{bw['d2h_GBps']:.1f} GB/s; launch+finish {bw['launch_us']:.0f} µs",
           f"- N = {doc['n']}, median of ≥ {doc['reps']} runs after warm-up. Cells: ms (x ratio to "
           "lazycl device-resident; >1 = slower than lazycl). `lazycl e2e` = NumPy in → NumPy out. "
           "`ceiling` = bytes that must move / copy bandwidth. **SUSPECT**: the cell's time beats "
           f"the ceiling by more than {SUSPECT_OVER_CEILING:g}x (see the notes).", ""]
    hdr = ["workload"] + systems + ["lazycl/hand", "ceiling ms", "% of ceiling", "kernels", "buffers"]
    out.append("| " + " | ".join(hdr) + " |")
    out.append("|" + "---|" * len(hdr))
    for r in doc["results"]:
        cells = {k: Cell.from_json(v) for k, v in r["cells"].items()}
        base = cells.get("lazycl")
        row = [r["label"]] + [fmt_cell(cells.get(s), base) for s in systems]
        row.append(f"{r['lazycl_over_hand']:.2f}" if "lazycl_over_hand" in r else "—")
        row.append(f"{r['bandwidth_ceiling_ms']:.3g}")
        row.append(f"{r['pct_of_bandwidth_ceiling']:.0f}%" if "pct_of_bandwidth_ceiling" in r else "—")
        st = r["lazycl_stats"]
        row.append(str(st.get("launches", "?")))
        row.append(str(st.get("buffers_allocated", 0) + st.get("pool_hits", 0)) if "launches" in st else "?")
        out.append("| " + " | ".join(row) + " |")
    o = doc["graph_overhead"]
    out += ["", f"Graph building from Python: {o['us_per_node']:.2f} µs per node (a NumPy eager op on "
            f"1e3 floats: {o['numpy_us_per_op_1e3']:.2f} µs). A 10-op chain forced: {o['launches']} "
            f"kernel launch, {o['buffers']} buffer (allocated {o['buffers_allocated']} + pool hits "
            f"{o['pool_hits']}) — {'OK' if o['buffers'] == 1 and o['launches'] == 1 else 'EXPECTED 1 and 1'}.",
            "", "Per-call time of that chain on 1e3 floats: build {build_us:.0f} µs, `compute()` (plan-cache "
            "lookup, launch, and the wait for the device) {compute_return_us:.0f} µs, a `finish()` after it "
            "{finish_us:.0f} µs more (the queue is idle by then); `lc.explain` (fusion + codegen only) "
            "{explain_us:.0f} µs; the same kernel hand-written, launch + finish: {hand_launch_finish_us:.0f} µs "
            "(taken in turns with `compute()`).".format(**o["chain10_1e3_split"]),
            "", "`kernels` = lazycl launches per forced result; `buffers` = buffers_allocated + "
            "pool_hits per forced result (scratch included).", ""]
    notes = []
    for r in doc["results"]:
        if r.get("note"):
            notes.append(f"- {r['label']}: {r['note']}")
        for k, v in r["cells"].items():
            if v["status"] in ("WRONG", "error", "skip", "slow") and v["note"]:
                notes.append(f"- {r['label']} / {k}: {v['status']} — {v['note']}")
            if v.get("suspect"):
                notes.append(f"- {r['label']} / {k}: SUSPECT — {v['suspect_note']}")
    for k, v in doc["peer_notes"].items():
        notes.append(f"- peer {k}: {v}")
    notes.append(f"- numexpr: {doc['numexpr']}")
    out += ["Notes:", ""] + notes
    return "\n".join(out) + "\n"


def write_chart(doc, systems, path):
    """The PNG: per row, each system's time over lazycl's (device-resident) on a log axis, a line
    at 1 (above it: slower than lazycl). Cells that are not a checked, timed result are left out."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # noqa: BLE001
        return f"(no chart: matplotlib not importable — {type(e).__name__}; `make bench` installs it)"
    rows = [r for r in doc["results"] if r["cells"].get("lazycl", {}).get("status") == "ok"]
    peers = [s for s in systems if s != "lazycl"
             and any(r["cells"].get(s, {}).get("status") in ("ok", "slow") for r in rows)]
    if not rows or not peers:
        return "(no chart: no row with a checked lazycl time and a peer beside it)"
    fig, ax = plt.subplots(figsize=(min(30, max(8, 0.12 * len(rows) * len(peers) + 3)), 6))
    width = 0.85 / len(peers)
    cmap = plt.get_cmap("tab20")
    for j, s in enumerate(peers):
        xs, vals = [], []
        for i, r in enumerate(rows):
            c, b = r["cells"].get(s), r["cells"]["lazycl"]
            if c and c["status"] in ("ok", "slow") and c["median_ms"] and b["median_ms"]:
                xs.append(i + (j - (len(peers) - 1) / 2) * width)
                vals.append(c["median_ms"] / b["median_ms"])
        # each bar from the line at 1 to its ratio: up when slower than lazycl, down when faster
        ax.bar(xs, [v - 1 for v in vals], width, bottom=1, label=s, color=cmap(j % 20))
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["workload"] for r in rows], rotation=35, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.axhline(1, color="k", lw=0.8)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    ax.set_ylabel("peer time / lazycl time (> 1: lazycl faster)")
    m = doc["machine"]
    ax.set_title(f"lazycl {m['lazycl']} on {m['device']['name']} ({m['device']['platform']}), "
                 f"{m['date'][:10]}", fontsize=9)
    ax.legend(fontsize=7, ncol=min(len(peers), 6), loc="upper left", bbox_to_anchor=(0, -0.28))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return f"![chart]({os.path.basename(path)})"


class Progress:
    """A progress bar over the rows (tqdm, on a terminal), else one plain line as each row
    starts; write() prints a line without breaking the bar."""

    def __init__(self, total, plain=False):
        self.total, self.i, self.bar = total, 0, None
        if not plain and sys.stderr.isatty():
            try:
                from tqdm import tqdm
                import shutil
                # a terminal of no size (a bare pty) would hide the bar: 80 x 24 then
                size = shutil.get_terminal_size()
                self.bar = tqdm(total=total, unit="row", ncols=size.columns or 80,
                                nrows=size.lines or 24)
            except Exception:  # noqa: BLE001
                self.bar = None

    def start(self, label):
        self.i += 1
        if self.bar is not None:
            self.bar.set_description(label[:40])
        else:
            print(f"[{self.i}/{self.total}] {label} ...", flush=True)

    def write(self, line):
        if self.bar is not None:
            self.bar.write(line)
        else:
            print(line, flush=True)

    def done(self):
        if self.bar is not None:
            self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()
