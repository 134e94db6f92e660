"""Checking and timing (benchmarks/run.py): every result is checked against the NumPy reference
before its time counts; the systems are timed in turns (time_interleaved)."""
import statistics
import time

import numpy as np

# ---- checking and timing ---------------------------------------------------------------------

def check(result, ref, tol):
    """(ok, max error relative to max |ref|, note); a callable ref checks the result itself."""
    if callable(ref):
        return ref(result)
    try:
        r = np.asarray(result, dtype=np.float64)
    except Exception as e:  # noqa: BLE001
        return False, float("nan"), f"not convertible: {e}"
    if r.shape != ref.shape:
        r = r.reshape(ref.shape) if r.size == ref.size else r
        if r.shape != ref.shape:
            return False, float("nan"), f"shape {r.shape} != {ref.shape}"
    rtol, arel = tol
    scale = float(np.max(np.abs(ref))) if ref.size else 1.0
    err = np.abs(r - ref)
    finite = bool(np.all(np.isfinite(r)))
    ok = finite and bool(np.all(err <= arel * scale + rtol * np.abs(ref)))
    maxrel = float(np.max(err) / scale) if ref.size and scale else float(np.max(err))
    return ok, maxrel, "" if finite else "non-finite values"


class Cell:
    def __init__(self, status, times=None, err=None, note="", suspect=False, suspect_note=""):
        self.status = status      # ok | WRONG | skip | error | slow
        self.times = times or []
        self.err = err
        self.note = note
        self.suspect = suspect            # its time beats the row's bandwidth ceiling (report.suspect)
        self.suspect_note = suspect_note

    @property
    def ms(self):
        return statistics.median(self.times) * 1e3 if self.times else None

    def json(self):
        return {"status": self.status, "median_ms": self.ms, "times_s": self.times,
                "max_rel_err": self.err, "note": self.note, "suspect": self.suspect,
                "suspect_note": self.suspect_note}

    @classmethod
    def from_json(cls, v):
        """The Cell of a json() dict (a result file's cell; one written before the suspect
        mark existed reads as not suspect)."""
        return cls(v["status"], v["times_s"], v["max_rel_err"], v["note"],
                   v.get("suspect", False), v.get("suspect_note", ""))


class Timer:
    """A checked, warmed-up system, ready to be timed one run at a time."""

    def __init__(self, run, sync):
        self.run, self.sync, self.times = run, sync, []
        self.warm_s = 0.0

    def once(self):
        t0 = time.perf_counter()
        r = self.run()
        self.sync(r)
        dt = time.perf_counter() - t0
        del r
        return dt


MAX_RUN_S = 3.0   # a system whose warm run takes longer is reported from that one run


def setup_system(prepare, run, sync, to_np, ref, tol):
    """prepare() -> state; run(state) -> result. Runs once and checks the result against the
    reference, then warms up once more: a Timer, or a Cell (WRONG / error)."""
    try:
        st = prepare()
        r = run(st)
        sync(r)
        ok, err, note = check(to_np(r), ref, tol)
        del r
        tm = Timer(lambda: run(st), sync)
        tm.err = err
        tm.wrong = None if ok else (note or f"max error {err:.3g} of max|ref|")
        if not ok and note:     # non-finite: not worth timing
            return Cell("WRONG", err=err, note=tm.wrong)
        tm.warm_s = tm.once()
        if tm.warm_s > MAX_RUN_S:
            return Cell("WRONG" if tm.wrong else "slow", [tm.warm_s], err,
                        tm.wrong or f"one run took {tm.warm_s:.1f} s (> {MAX_RUN_S:g} s): one timed run only")
        return tm
    except Exception as e:  # noqa: BLE001
        msg = f"{type(e).__name__}: {e}".splitlines()[0][:200]
        return Cell("error", note=msg)


def time_interleaved(timers, reps, budget_s, pre_run=False):
    """Round-robin over the systems, one run each per round, so that the drift of a shared
    machine falls on every system alike. At least `reps` rounds; more (up to 200) when a round
    is fast, to about budget_s seconds per system. With pre_run, each fast system first runs
    once untimed in its turn, so that no system pays for the one before it: on GPUs switching
    between CUDA peers and OpenCL costs ~0.2 ms; on a 2-core CPU numexpr's worker threads
    slowed the next system by ~30% (measured on l2: lazycl/hand 1.33 interleaved, 0.9-1.0
    with the untimed run or without numexpr)."""
    live = {k: t for k, t in timers.items()}
    round_s = sum(t.warm_s for t in live.values())
    if round_s > 0:
        reps = int(min(200, max(reps, budget_s * len(live) / round_s)))
    cells = {}
    for _ in range(reps):
        for k, t in live.items():
            try:
                if pre_run and t.warm_s < 0.05:
                    t.once()   # untimed: pays the switch between device APIs (CUDA <-> OpenCL)
                t.times.append(t.once())
            except Exception as e:  # noqa: BLE001
                cells[k] = Cell("error", note=f"{type(e).__name__}: {e}"[:200])
        for k in cells:
            live.pop(k, None)
    for k, t in timers.items():
        if k not in cells:
            bad = getattr(t, "wrong", None)
            cells[k] = Cell("WRONG" if bad else "ok", t.times, t.err, bad or "")
    return cells
