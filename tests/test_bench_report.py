"""The benchmark suite's pure helpers (benchmarks/, imported by path): the mark of a cell faster
than its row's bandwidth ceiling (report.suspect / mark_suspects / fmt_cell), the chart's data
(report.heatmap_data / fmt_ratio: no matplotlib) and the cupy.fuse wrapper (peers.positional /
fuse_named). No clock, no device, no CuPy."""
import inspect
import math
import sys

import pytest

from conftest import load_bench

report = load_bench("report")
timing = load_bench("timing")
peers = load_bench("peers")

GB = 1e9


# ---- suspect: a cell whose time implies more than the bandwidth ceiling -------------------------

def test_suspect_when_median_beats_ceiling_by_more_than_the_tolerance():
    # 1 GB at 10 GB/s: no run can take less than 0.1 s; the median 0.05 s implies 20 GB/s
    r = report.suspect([0.05, 0.04, 0.2], 1 * GB, 10.0)
    assert r["suspect"] is True
    assert r["runs_over_ceiling"] == 2
    assert "20.0 GB/s, 2.0x" in r["suspect_note"]
    assert "2 of 3 runs" in r["suspect_note"]


def test_not_suspect_at_or_below_the_ceiling():
    r = report.suspect([0.2, 0.15, 0.12], 1 * GB, 10.0)
    assert r == {"suspect": False, "suspect_note": "", "runs_over_ceiling": 0}


@pytest.mark.parametrize("scale,expect", [(1.01, False), (0.99, True)])
def test_tolerance_bound(scale, expect):
    # just inside and just past 1.1x the ceiling
    t = 0.1 / report.SUSPECT_OVER_CEILING * scale
    assert report.suspect([t] * 3, 1 * GB, 10.0)["suspect"] is expect


def test_tolerance_is_a_parameter():
    # 1.05x the ceiling: inside the default 1.1, past a 1.0 tolerance
    t = 0.1 / 1.05
    assert report.suspect([t], 1 * GB, 10.0)["suspect"] is False
    assert report.suspect([t], 1 * GB, 10.0, factor=1.0)["suspect"] is True


def test_a_lone_fast_run_is_counted_not_marked():
    # the dask row before its fix: one repeat served from memory among computed ones
    r = report.suspect([0.40, 0.42, 0.41, 0.01, 0.39], 1 * GB, 10.0)
    assert r["suspect"] is False
    assert r["runs_over_ceiling"] == 1


@pytest.mark.parametrize("times,nbytes,gbps", [([], 1 * GB, 10.0), (None, 1 * GB, 10.0),
                                               ([0.001], 0, 10.0), ([0.001], None, 10.0),
                                               ([0.001], 1 * GB, 0.0), ([0.001], 1 * GB, None)])
def test_nothing_to_judge_is_not_suspect(times, nbytes, gbps):
    assert report.suspect(times, nbytes, gbps) == {"suspect": False, "suspect_note": "",
                                                   "runs_over_ceiling": 0}


def test_mark_suspects_sets_every_cell_and_names_the_suspect_ones():
    Cell = timing.Cell
    row = {"bytes": 2 * GB, "cells": {
        "lazycl": Cell("ok", [0.25, 0.3, 0.28]).json(),     # 0.28 s: 7.1 GB/s, under 10
        "numpy": Cell("ok", [0.01, 0.01, 0.5]).json(),      # 0.01 s: 200 GB/s
        "jax": Cell("error", note="boom").json(),           # no runs
        "torch": Cell("WRONG", [0.02], 0.5, "max error").json()}}
    assert report.mark_suspects(row, 10.0) == ["numpy", "torch"]
    for name, cell in row["cells"].items():
        assert set(cell) >= {"suspect", "suspect_note", "runs_over_ceiling"}, name
    assert row["cells"]["lazycl"]["suspect"] is False
    assert row["cells"]["jax"]["suspect"] is False
    assert row["cells"]["numpy"]["runs_over_ceiling"] == 2
    # a higher ceiling (the best bandwidth seen at the end) clears a provisional mark
    assert report.mark_suspects(row, 1000.0) == []
    assert row["cells"]["numpy"]["suspect"] is False


def test_fmt_cell_and_json_round_trip_carry_the_mark():
    Cell = timing.Cell
    base = Cell("ok", [0.010])
    d = Cell("ok", [0.001]).json()
    d.update(report.suspect(d["times_s"], 1 * GB, 10.0))
    c = Cell.from_json(d)
    assert c.suspect is True and c.suspect_note == d["suspect_note"]
    assert report.fmt_cell(c, base) == "1 (x0.1) **SUSPECT**"
    assert report.fmt_cell(base, base) == "10 (x1)"
    # a result file written before the mark existed reads as not suspect
    old = {"status": "ok", "median_ms": 1.0, "times_s": [0.001], "max_rel_err": 0.0, "note": ""}
    assert Cell.from_json(old).suspect is False


# ---- the chart's data: peer / lazycl ratios, log-centred at 1 -----------------------------------

def _cell(status, ms=None, suspect=False):
    return {"status": status, "median_ms": ms, "times_s": [], "max_rel_err": 0.0, "note": "",
            "suspect": suspect}


def _doc(rows, systems):
    return {"systems": systems,
            "results": [{"label": label, "cells": cells} for label, cells in rows]}


def test_heatmap_ratios_and_log_centred_at_one():
    doc = _doc([("axpy", {"lazycl": _cell("ok", 10.0), "numpy": _cell("ok", 20.0),
                          "jax": _cell("ok", 5.0), "hand": _cell("ok", 10.0)})],
               ["lazycl", "numpy", "hand", "jax"])
    h = report.heatmap_data(doc)
    assert h["rows"] == ["axpy"]
    assert h["peers"] == ["numpy", "hand", "jax"]          # the doc's order, lazycl left out
    assert h["ratio"] == [[2.0, 1.0, 0.5]]                  # peer / lazycl: > 1, lazycl faster
    lg = h["log"][0]
    assert lg[1] == 0.0                                     # a ratio of 1 is the scale's centre
    assert lg[0] == pytest.approx(math.log10(2)) and lg[2] == pytest.approx(-math.log10(2))
    assert h["text"] == [["2.0", "1.0", "0.5"]]
    assert h["limit"] == pytest.approx(math.log10(2))      # symmetric around 0 by construction


def test_heatmap_missing_cells_are_none_and_blank():
    doc = _doc([("a", {"lazycl": _cell("ok", 1.0), "numpy": _cell("ok", 3.0),
                       "dask": _cell("skip")}),
                ("b", {"lazycl": _cell("ok", 1.0), "dask": _cell("ok", 4.0),
                       "numpy": _cell("error")}),
                ("c", {"lazycl": _cell("ok", 2.0), "numpy": _cell("WRONG", 1.0),
                       "dask": _cell("slow", 200.0, suspect=True)})],
               ["lazycl", "numpy", "dask", "jax"])
    h = report.heatmap_data(doc)
    assert h["peers"] == ["numpy", "dask"]                  # jax has no cell anywhere: no column
    assert h["ratio"] == [[3.0, None], [None, 4.0], [None, 100.0]]
    assert h["log"][0][1] is None and h["log"][1][0] is None and h["log"][2][0] is None
    # nothing printed where nothing was timed; a WRONG result says so, with no number
    assert h["text"] == [["3.0", ""], ["", "4.0"], ["wrong", "~100?"]]


def test_heatmap_rows_need_a_checked_lazycl_time():
    doc = _doc([("bad", {"lazycl": _cell("WRONG", 1.0), "numpy": _cell("ok", 1.0)}),
                ("err", {"lazycl": _cell("error"), "numpy": _cell("ok", 1.0)}),
                ("none", {"numpy": _cell("ok", 1.0)}),
                ("good", {"lazycl": _cell("ok", 4.0), "numpy": _cell("ok", 1.0)})],
               ["lazycl", "numpy"])
    h = report.heatmap_data(doc)
    assert h["rows"] == ["good"]
    assert h["ratio"] == [[0.25]]
    # no row or no peer: nothing to draw
    assert report.heatmap_data(_doc([], ["lazycl", "numpy"]))["rows"] == []
    only = report.heatmap_data(_doc([("x", {"lazycl": _cell("ok", 1.0)})], ["lazycl", "numpy"]))
    assert only["peers"] == [] and only["ratio"] == [[]]


@pytest.mark.parametrize("ratios,limit", [([1.0], math.log10(2)),           # floor: log10(2)
                                          ([0.01, 3.0], 2.0),                 # the largest |log|
                                          ([1e4, 0.5], 2.0)])                 # capped at 100x
def test_heatmap_limit(ratios, limit):
    systems = ["lazycl"] + [f"p{i}" for i in range(len(ratios))]
    cells = {"lazycl": _cell("ok", 1.0)}
    cells.update({f"p{i}": _cell("ok", r) for i, r in enumerate(ratios)})
    h = report.heatmap_data(_doc([("r", cells)], systems))
    assert h["limit"] == pytest.approx(limit)
    assert h["ratio"][0] == pytest.approx(ratios)           # the numbers are not clipped
    assert report.heatmap_data(_doc([("r", cells)], systems), saturate=10.0)["limit"] <= 1.0


@pytest.mark.parametrize("r,s", [(0.0123, "0.012"), (0.034, "0.034"), (0.78, "0.78"), (1.0, "1.0"),
                                 (1.74, "1.7"), (9.94, "9.9"), (9.96, "10"), (29.4, "29"),
                                 (410.2, "410")])
def test_fmt_ratio(r, s):
    assert report.fmt_ratio(r) == s


def test_heatmap_data_needs_no_matplotlib(monkeypatch):
    # the data side must run where matplotlib is missing (CI's `make test` installs none)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    doc = _doc([("a", {"lazycl": _cell("ok", 1.0), "numpy": _cell("ok", 2.0)})],
               ["lazycl", "numpy"])
    assert report.heatmap_data(doc)["ratio"] == [[2.0]]
    # and the chart says why it is absent instead of failing
    assert report.write_chart(doc, ["lazycl", "numpy"], "/nonexistent/x.png").startswith("(no chart")


# ---- the cupy.fuse wrapper ------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3])
def test_positional_has_exactly_n_positional_parameters(n):
    f = peers.positional(lambda *a: tuple(a), n, "fused_small-1e3")
    params = list(inspect.signature(f).parameters.values())
    assert [p.name for p in params] == [f"a{i}" for i in range(n)]
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)
    assert f.__name__ == "fused_small_1e3"
    assert f(*range(n)) == tuple(range(n))
    with pytest.raises(TypeError):
        f(*range(n + 1))


def test_positional_rejects_no_arguments():
    with pytest.raises(ValueError):
        peers.positional(lambda: None, 0, "f")


class _FakeFused:
    def __init__(self, func, name=None):
        self.func, self.name = func, name or func.__name__
        self.nargs = len(inspect.signature(func).parameters)

    def __call__(self, *args):
        return self.func(*args)


def _fake_fuse(*args, **kwargs):
    """cupy.fuse's calling convention: fuse(f) fuses f; fuse(**options) (and so also
    fuse(f, kernel_name=...)) is a factory that returns a one-argument decorator."""
    def wrapper(f, kernel_name=None):
        return _FakeFused(f, kernel_name)
    if len(args) == 1 and not kwargs and callable(args[0]):
        return wrapper(args[0])
    return lambda f: wrapper(f, *args, **kwargs)


def test_fake_fuse_reproduces_the_old_failure():
    # the suite's old call: the decorator comes back, and the row's two arrays are too many
    def fused2(x, y):
        return x + y
    with pytest.raises(TypeError, match="positional argument"):
        _fake_fuse(fused2, kernel_name="fused_axpy")(1.0, 2.0)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_fuse_named_fuses_a_function_of_the_rows_arity(n):
    f = peers.fuse_named(_fake_fuse, lambda *a: sum(a), n, "fused_axpy")
    assert isinstance(f, _FakeFused)
    assert f.name == "fused_axpy" and f.nargs == n
    assert f(*range(1, n + 1)) == sum(range(1, n + 1))
