"""lazycl.profile: the launches and transfers of a block of code, with their device times.

    with lc.profile() as p:
        y = (x * 2 + 1).sum().compute()
    print(p.table())
    p.save_trace("trace.json")       # ui.perfetto.dev or chrome://tracing opens it

While the block runs, every kernel launch and transfer on every queue, from every thread, is
recorded (runtime/profile.c); at its end lazycl waits for them and reads their times. Outside a
profile nothing is recorded (a command pays one atomic load). docs/api.md, "Profiles", says how
the times are taken.

Layer: over the extension alone (package docstring)."""
import json

from . import _lazycl as _c

# The keys of each record of Profile.kernels, in this order.
KEYS = ("name", "kind", "queue", "device", "start_ms", "end_ms", "ms", "bytes", "gbps", "ops",
        "inthread")


def _record(r):
    ms = max(r["end_ms"] - r["start_ms"], 0.0)
    r["ms"] = ms
    r["gbps"] = r["bytes"] / (ms * 1e6) if ms > 0 else 0.0
    return {k: r[k] for k in KEYS}


def _size(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def _render(header, rows, right):
    """A text table: columns as wide as their widest cell; `right` says which are numbers."""
    cells = [header] + rows
    width = [max(len(c[i]) for c in cells) for i in range(len(header))]

    def line(c):
        return "  ".join(c[i].rjust(width[i]) if right[i] else c[i].ljust(width[i])
                         for i in range(len(c))).rstrip()
    rule = "  ".join("-" * w for w in width)
    return "\n".join([line(header), rule] + [line(c) for c in rows[:-1]] + [rule, line(rows[-1])])


class Profile:
    """The launches and transfers of a `with lazycl.profile() as p:` block.

    p.kernels: one dict per command, in start order, with the keys `name` (the kernel's name,
    or the kind of a transfer), `kind` ('kernel', 'h2d', 'd2h', 'copy', 'fill', 'map',
    'unmap'), `queue` (its Queue's `id`), `device` (the device's name), `start_ms` and
    `end_ms` (since the block began; the commands of one device share one time line, so
    overlaps between its queues show), `ms`, `bytes` (read and written), `gbps`, `ops` (graph
    ops fused into the kernel; 0 for transfers and hand-written kernels) and `inthread` (run
    in the calling thread by the device's in-thread companion). Empty until the block ends.
    """

    def __init__(self):
        self.kernels = []
        self._mark = None

    def __enter__(self):
        if self._mark is not None:
            raise RuntimeError("this profile is already open")
        self.kernels = []
        self._mark = _c._profile_begin()
        return self

    def __exit__(self, *exc):
        mark, self._mark = self._mark, None
        self.kernels = [_record(r) for r in _c._profile_end(*mark)]
        return False

    def __repr__(self):
        state = "open" if self._mark is not None else f"{len(self.kernels)} commands"
        return f"<lazycl.profile: {state}>"

    def table(self, group=False):
        """The records as a text table: one row per command in start order, then the total;
        with group=True, one row per kernel name (and transfer kind) with its count, the
        longest total first. `busy` is the sum of the commands' times, `span` the time from
        the first start to the last end."""
        ks = self.kernels
        busy = sum(k["ms"] for k in ks)
        span = (max(k["end_ms"] for k in ks) - min(k["start_ms"] for k in ks)) if ks else 0.0
        nbytes = sum(k["bytes"] for k in ks)
        devices = sorted({k["device"] for k in ks})
        queues = {k["queue"] for k in ks}
        inthread = any(k["inthread"] for k in ks)

        def gbps(b, ms):
            return f"{b / (ms * 1e6):.2f}" if ms > 0 else "-"

        if group:
            groups = {}
            for k in ks:
                g = groups.setdefault((k["name"], k["kind"]), [0, 0.0, 0, 0])
                g[0] += 1
                g[1] += k["ms"]
                g[2] += k["bytes"]
                g[3] = max(g[3], k["ops"])
            header = ["name", "kind", "count", "total ms", "mean ms", "%", "bytes", "GB/s", "ops"]
            right = [False, False, True, True, True, True, True, True, True]
            rows = [[name, kind, str(n), f"{ms:.3f}", f"{ms / n:.3f}",
                     f"{100 * ms / busy:.1f}" if busy > 0 else "-", _size(b), gbps(b, ms),
                     str(ops) if ops else ""]
                    for (name, kind), (n, ms, b, ops) in
                    sorted(groups.items(), key=lambda kv: -kv[1][1])]
            rows.append(["total", "", str(len(ks)), f"{busy:.3f}", "", "", _size(nbytes),
                         gbps(nbytes, busy), ""])
        else:
            header = ["start ms", "ms", "kind", "name", "queue", "bytes", "GB/s", "ops"]
            right = [True, True, False, False, True, True, True, True]
            rows = [[f"{k['start_ms']:.3f}", f"{k['ms']:.3f}", k["kind"], k["name"],
                     str(k["queue"]), _size(k["bytes"]), gbps(k["bytes"], k["ms"]),
                     str(k["ops"]) if k["ops"] else ""] for k in ks]
            rows.append(["total", f"{busy:.3f}", "", "", "", _size(nbytes), gbps(nbytes, busy),
                         ""])
            if inthread:
                header.append("in-thread")
                right.append(False)
                for r, k in zip(rows, ks):
                    r.append("yes" if k["inthread"] else "")
                rows[-1].append("")
            if len(devices) > 1:
                header.append("device")
                right.append(False)
                for r, k in zip(rows, ks):
                    r.append(k["device"])
                rows[-1].append("")
        if not ks:
            summary = "no commands"
        else:
            summary = (f"{len(ks)} command{'s' * (len(ks) != 1)} on {len(queues)} "
                       f"queue{'s' * (len(queues) != 1)}"
                       + (f" of {devices[0]}" if len(devices) == 1 else
                          f", {len(devices)} devices")
                       + f": busy {busy:.3f} ms of a {span:.3f} ms span")
        return _render(header, rows, right) + "\n" + summary

    def trace(self):
        """The records as Chrome's trace event format (a dict): one complete event ('X') per
        command, ts and dur in microseconds, pid = the device, tid = the queue, named by
        metadata events."""
        devices = {}
        events = []
        for k in self.kernels:
            pid = devices.setdefault(k["device"], len(devices) + 1)
            events.append({"name": k["name"], "cat": k["kind"], "ph": "X", "pid": pid,
                           "tid": k["queue"], "ts": k["start_ms"] * 1e3, "dur": k["ms"] * 1e3,
                           "args": {"bytes": k["bytes"], "gbps": k["gbps"], "ops": k["ops"],
                                    "inthread": k["inthread"]}})
        meta = [{"name": "process_name", "ph": "M", "pid": pid, "args": {"name": name}}
                for name, pid in devices.items()]
        queues = sorted({(devices[k["device"]], k["queue"]) for k in self.kernels})
        meta += [{"name": "thread_name", "ph": "M", "pid": pid, "tid": q,
                  "args": {"name": f"queue {q}"}} for pid, q in queues]
        return {"traceEvents": meta + events, "displayTimeUnit": "ms"}

    def save_trace(self, path):
        """Write trace() as JSON to `path` (ui.perfetto.dev and chrome://tracing open it)."""
        with open(path, "w") as f:
            json.dump(self.trace(), f)


def profile():
    """A profile to open with `with`: `with lazycl.profile() as p:` records every launch and
    transfer of the block (on every queue, from every thread); then p.kernels, p.table() and
    p.save_trace(path) show them."""
    return Profile()


__all__ = ["profile"]
