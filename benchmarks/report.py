"""The suite's report (benchmarks/run.py): the machine description, the markdown table, the PNG
chart (a heatmap of peer / lazycl time ratios). Run as a script, it renders the table and the
chart of a results JSON again without running anything: `report.py X.json --png X.png`."""
import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import types

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
           f"{bw['d2h_GBps']:.1f} GB/s"
           + (f" (pinned {bw['pinned_h2d_GBps']:.1f}, {bw['pinned_d2h_GBps']:.1f})"
              if "pinned_h2d_GBps" in bw else "")
           + f"; launch+finish {bw['launch_us']:.0f} µs",
           f"- N = {doc['n']}, median of ≥ {doc['reps']} runs after warm-up. Cells: ms (x ratio to "
           "lazycl device-resident; >1 = slower than lazycl). `lazycl e2e` = NumPy in → NumPy out. "
           "`ceiling` = bytes that must move / copy bandwidth. **SUSPECT**: the cell's time beats "
           f"the ceiling by more than {SUSPECT_OVER_CEILING:g}x (see the notes).", ""]
    floors = any("e2e_floor_ms" in r for r in doc["results"])
    if floors:
        out[-2] += (" `e2e floor` = the inputs over pinned h2d + the outputs over pinned d2h "
                    "bandwidth; `e2e/floor` = lazycl e2e over it.")
    hdr = (["workload"] + systems + ["lazycl/hand", "ceiling ms", "% of ceiling"]
           + (["e2e floor ms", "e2e/floor"] if floors else []) + ["kernels", "buffers"])
    if doc["results"]:     # (none when only the loops group ran)
        out.append("| " + " | ".join(hdr) + " |")
        out.append("|" + "---|" * len(hdr))
    for r in doc["results"]:
        cells = {k: Cell.from_json(v) for k, v in r["cells"].items()}
        base = cells.get("lazycl")
        row = [r["label"]] + [fmt_cell(cells.get(s), base) for s in systems]
        row.append(f"{r['lazycl_over_hand']:.2f}" if "lazycl_over_hand" in r else "—")
        row.append(f"{r['bandwidth_ceiling_ms']:.3g}")
        row.append(f"{r['pct_of_bandwidth_ceiling']:.0f}%" if "pct_of_bandwidth_ceiling" in r else "—")
        if floors:
            row.append(f"{r['e2e_floor_ms']:.3g}" if "e2e_floor_ms" in r else "—")
            row.append(f"{r['e2e_over_floor']:.2f}" if "e2e_over_floor" in r else "—")
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
    if doc.get("loops"):
        out += ["", render_loops_md(doc["loops"])]
    if doc.get("mandelbrot"):
        rows = doc["mandelbrot"]
        base = next((r["ms"] for r in rows if r["system"].startswith("lazycl @vectorize, device")),
                    None)
        out += ["", "Mandelbrot with `@lc.vectorize` (benchmarks/mandelbrot.py, float64, 200 "
                "iterations; x = time / lazycl device-resident):", "",
                "| system | ms | x |", "|---|---|---|"]
        out += [f"| {r['system']} | {r['ms']:.1f} | {r['ms'] / base:.2f} |"
                if r["ms"] == r["ms"] and base else f"| {r['system']} | — | — |" for r in rows]
    return "\n".join(out) + "\n"


def render_loops_md(rows):
    """The loops group's section (benchmarks/loops.py rows): NumPy against lazycl per kernel and
    size, the ratio lazycl / NumPy (> 1: lazycl slower), then the rows' errors and warnings."""
    import loops
    return ("## Loop kernels (benchmarks/loops.py)\n\npolybench kernels written as NumPy users "
            "write them, the same function run by NumPy and by lazycl; float64, min of the timed "
            "runs after a warm-up, lazycl's result checked against NumPy's (np.allclose, rtol "
            f"{loops.RTOL:g}). A capped row runs only its first iterations, NumPy too.\n\n"
            + loops.table_md(rows))


# ---- the chart: a heatmap of peer / lazycl time ratios ----------------------------------------

#: The heatmap's colours saturate at this ratio and its inverse (100x either way); the numbers
#: printed in the cells are not clipped.
HEATMAP_SATURATE = 100.0


def fmt_ratio(r):
    """A ratio as printed in a heatmap cell: two significant digits below 10, whole numbers above
    (0.034, 0.78, 1.7, 29, 410)."""
    if r >= 9.95:
        return f"{r:.0f}"
    if r >= 0.995:
        return f"{r:.1f}"
    return f"{r:.2g}"


def heatmap_data(doc, systems=None, saturate=HEATMAP_SATURATE):
    """The chart's content from a results document (run.py's JSON), as plain lists (no
    matplotlib, no NumPy):

      rows   the labels of the rows whose lazycl cell is a checked time ("ok"), in the doc's order;
      peers  the systems other than lazycl (`systems`, default the doc's "systems") that have a
             time ("ok" or a one-run "slow") in at least one of those rows, in that order;
      ratio  ratio[i][j] = peer j's median time / lazycl's on row i (> 1: lazycl faster), or None
             where peer j has no time there (not run, skipped, error, or WRONG);
      log    log10 of each ratio (None likewise): the colour coordinate, 0 at a ratio of 1;
      text   what each cell prints: the ratio (fmt_ratio), "~" before a one-run time, "?" after a
             SUSPECT one, "wrong" for a WRONG result, "" where there is nothing;
      limit  the colour scale runs over [-limit, limit] in log10 units, centred at 0 (ratio 1):
             the largest |log| seen, at most log10(saturate), at least log10(2)."""
    if systems is None:
        systems = doc.get("systems") or []
    rows = [r for r in doc["results"] if r["cells"].get("lazycl", {}).get("status") == "ok"
            and r["cells"]["lazycl"].get("median_ms")]

    def timed(c):
        return bool(c) and c.get("status") in ("ok", "slow") and bool(c.get("median_ms"))

    peers = [s for s in systems if s != "lazycl" and any(timed(r["cells"].get(s)) for r in rows)]
    ratio, log, text = [], [], []
    for r in rows:
        base = r["cells"]["lazycl"]["median_ms"]
        rr, lr, tr = [], [], []
        for s in peers:
            c = r["cells"].get(s)
            if timed(c):
                v = c["median_ms"] / base
                t = fmt_ratio(v)
                if c["status"] == "slow":
                    t = "~" + t
                if c.get("suspect"):
                    t += "?"
                rr.append(v)
                lr.append(math.log10(v))
                tr.append(t)
            else:
                rr.append(None)
                lr.append(None)
                tr.append("wrong" if c and c.get("status") == "WRONG" else "")
        ratio.append(rr)
        log.append(lr)
        text.append(tr)
    seen = [abs(v) for lr in log for v in lr if v is not None]
    limit = max(math.log10(2), min(math.log10(saturate), max(seen, default=0.0)))
    return {"rows": [r["label"] for r in rows], "peers": peers, "ratio": ratio, "log": log,
            "text": text, "limit": limit}


def chart_title(doc):
    """The chart's title: the run's date, then the device, its platform and driver."""
    m = doc["machine"]
    d = m["device"]
    return (f"Peer time / lazycl time, {m['date'][:10]}\n{d['name']} ({d['platform']}, driver "
            f"{d.get('driver', '?')}, {d.get('compute_units', '?')} CU)")


def write_chart(doc, systems, path):
    """The PNG: a heatmap of each peer's time over lazycl's (device-resident), rows x peers, on a
    log colour scale centred at 1 (blue: lazycl faster; red: the peer faster), the ratio printed
    in each cell, grey where the peer has no checked time (heatmap_data). About 900 px wide."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # noqa: BLE001
        return f"(no chart: matplotlib not importable — {type(e).__name__}; `make bench` installs it)"
    h = heatmap_data(doc, systems)
    if not h["rows"] or not h["peers"]:
        return "(no chart: no row with a checked lazycl time and a peer beside it)"
    nr, nc = len(h["rows"]), len(h["peers"])
    grid = np.ma.masked_invalid(np.array([[np.nan if v is None else v for v in lr]
                                          for lr in h["log"]], dtype=float))
    cmap = plt.get_cmap("RdBu").copy()
    cmap.set_bad("#e4e4e4")
    lim = h["limit"]
    fig, ax = plt.subplots(figsize=(7.5, 1.6 + 0.18 * nr))
    im = ax.imshow(grid, cmap=cmap, vmin=-lim, vmax=lim, aspect="auto", interpolation="nearest")
    for i in range(nr):
        for j in range(nc):
            t = h["text"][i][j]
            if not t:
                continue
            v = h["log"][i][j]
            dark = v is not None and abs(v) > 0.55 * lim
            ax.text(j, i, t, ha="center", va="center", fontsize=7.5,
                    color="white" if dark else "black", style="italic" if v is None else "normal")
    ax.set_xticks(range(nc))
    ax.set_xticklabels(h["peers"], fontsize=8.5, rotation=25, ha="left", rotation_mode="anchor")
    ax.xaxis.tick_top()
    ax.set_yticks(range(nr))
    ax.set_yticklabels(h["rows"], fontsize=8)
    ax.set_xticks([x - 0.5 for x in range(1, nc)], minor=True)
    ax.set_yticks([y - 0.5 for y in range(1, nr)], minor=True)
    ax.grid(which="minor", color="white", lw=1)
    ax.tick_params(which="minor", length=0)
    ticks = [t for t in (-3, -2, -1, 0, 1, 2, 3) if abs(t) <= lim + 1e-9]
    if len(ticks) < 3:
        ticks = [-lim, 0, lim]
    cb = fig.colorbar(im, ax=ax, fraction=0.035, pad=0.02, ticks=ticks)
    cb.ax.set_yticklabels([f"{10 ** t:.3g}x" for t in ticks], fontsize=8)
    cb.set_label("peer time / lazycl time (log scale)\nblue: lazycl faster, red: the peer faster",
                 fontsize=8)
    fig.suptitle(chart_title(doc), fontsize=9.5)
    fig.text(0.01, 0.005, "Grey: no checked time (not run, skipped, error). \"wrong\": the result "
             "missed the tolerance.\n~: a single run (over --max-run-s). ?: SUSPECT (faster than "
             "the copy bandwidth allows).", fontsize=7, ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=120)
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


# ---- rendering a committed run again, without running it -------------------------------------

def main(argv=None):
    """`python3 benchmarks/report.py RESULTS.json [--png OUT.png] [--md OUT.md]`: the chart and
    the table of a results JSON written by run.py, from its numbers alone (no benchmark runs)."""
    ap = argparse.ArgumentParser(description=main.__doc__.split("\n")[0].strip("`"))
    ap.add_argument("json", help="a results JSON of run.py (benchmarks/results/*.json)")
    ap.add_argument("--png", default=None, help="write the heatmap here")
    ap.add_argument("--md", default=None, help="write the markdown table here")
    args = ap.parse_args(argv)
    with open(args.json) as f:
        doc = json.load(f)
    systems = doc.get("systems") or []
    if not args.png and not args.md:
        ap.error("nothing to write: give --png and/or --md")
    if args.png:
        print(write_chart(doc, systems, args.png))
    if args.md:
        dev = types.SimpleNamespace(filter_string=doc["machine"]["device"]["filter"])
        with open(args.md, "w") as f:
            f.write(render_md(doc, dev, systems))
        print(f"wrote {args.md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
