"""lazycl arrays as Dask chunks: pickling, the NumPy entry points Dask calls on chunks, Dask
arrays of lazycl chunks against the same Dask computation on NumPy chunks, kernels per block,
and a LocalCluster with one worker per device."""
import pickle
import warnings

import numpy as np
import pytest

# dask and distributed are optional (pyproject's `dask` extra): without them this module skips.
da = pytest.importorskip("dask.array", reason="dask is not installed (pip install lazycl[dask])")
distributed = pytest.importorskip("distributed",
                                  reason="distributed is not installed (pip install lazycl[dask])")
Callback = pytest.importorskip("dask.callbacks").Callback

import lazycl  # noqa: E402 (after the optional imports above)
import lazycl.dask as lcd
from conftest import ALL_DTYPES, DEVICE_FILTERS, core, make

# ---- pickling ---------------------------------------------------------------------------

def _views(a):
    """(name, NumPy view, lazycl view builder) over a 2-d array: plain, reversed and strided,
    broadcast, a 0-d element, empty."""
    return [("plain", a, lambda x: x),
            ("negstride", a[::-1, ::2], lambda x: x[::-1, ::2]),
            ("broadcast", np.broadcast_to(a[:1], a.shape), lambda x: lazycl.broadcast_to(
                x[:1], a.shape)),
            ("0d", a[1, 2], lambda x: x[1, 2]),
            ("empty", a[:0], lambda x: x[:0])]


@pytest.mark.parametrize("dtype", core(ALL_DTYPES))
def test_pickle_round_trip(dtype):
    a = make(dtype, (4, 6))
    x = lazycl.asarray(a)
    for name, ref, view in _views(a):
        realized = view(x)
        pending = view(x + x) if dtype != "bool" else view(x | x)
        with np.errstate(over="ignore"):
            ref_pending = ref + ref if dtype != "bool" else ref | ref
        for arr, want in ((realized, ref), (pending, ref_pending)):
            for proto in (2, pickle.HIGHEST_PROTOCOL):
                y = pickle.loads(pickle.dumps(arr, protocol=proto))
                assert isinstance(y, lazycl.Array), name
                assert not y.pending
                assert y.device == lazycl.default_device()
                assert y.dtype == np.dtype(dtype) and y.shape == np.shape(want), name
                np.testing.assert_array_equal(y.numpy(), want)


def test_pickle_device_policy(monkeypatch):
    """Unpickling puts an array on the default device, or with LAZYCL_UNPICKLE_DEVICE=origin
    on the device it came from."""
    a = make("float32", (3, 5))
    for filt in DEVICE_FILTERS:
        x = lazycl.asarray(a, device=filt) * 2
        blob = pickle.dumps(x)
        monkeypatch.setenv("LAZYCL_UNPICKLE_DEVICE", "origin")
        y = pickle.loads(blob)
        assert y.device == lazycl.Device(filt)
        monkeypatch.setenv("LAZYCL_UNPICKLE_DEVICE", "default")
        z = pickle.loads(blob)
        assert z.device == lazycl.default_device()
        np.testing.assert_array_equal(y.numpy(), a * 2)
        np.testing.assert_array_equal(z.numpy(), a * 2)
    monkeypatch.setenv("LAZYCL_UNPICKLE_DEVICE", "elsewhere")
    with pytest.raises(ValueError, match="LAZYCL_UNPICKLE_DEVICE"):
        pickle.loads(blob)


# ---- the NumPy entry points Dask calls on chunks ------------------------------------------

def test_like_creation(device):
    """NumPy's creation functions with like=<a lazycl array> (NEP 35) make lazycl arrays on
    the like array's device, no host fallback."""
    x = lazycl.asarray(np.ones(3, np.float32), device=device)
    cases = [(lambda m: np.array([1, 2], like=m), np.array([1, 2])),
             (lambda m: np.array(3, ndmin=2, like=m), np.array(3, ndmin=2)),
             (lambda m: np.asarray([1.5], dtype=np.float32, like=m), np.float32([1.5])),
             (lambda m: np.empty((2, 0), like=m), np.zeros((2, 0))),
             (lambda m: np.zeros(3, dtype=np.int16, like=m), np.zeros(3, np.int16)),
             (lambda m: np.ones((2, 2), like=m), np.ones((2, 2))),
             (lambda m: np.full(2, 7, like=m), np.full(2, 7)),
             (lambda m: np.arange(1, 7, 2, like=m), np.arange(1, 7, 2)),
             (lambda m: np.eye(3, k=1, like=m), np.eye(3, k=1)),
             (lambda m: np.identity(2, like=m), np.identity(2))]
    with warnings.catch_warnings():
        warnings.simplefilter("error", lazycl.HostFallbackWarning)
        for make_it, ref in cases:
            r = make_it(x)
            assert isinstance(r, lazycl.Array) and r.device == lazycl.Device(device)
            assert r.dtype == ref.dtype and r.shape == ref.shape
            np.testing.assert_array_equal(r.numpy(), ref)
        same = np.asarray(x, like=x)
        assert same is x
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            np.asarray([1, 2], like=x, copy=False)
        with pytest.raises(NotImplementedError):
            np.zeros(3, order="F", like=x)


def test_like_functions_take_shape():
    x = lazycl.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    for f, v in ((np.zeros_like, 0), (np.ones_like, 1), (np.empty_like, 0)):
        r = f(x, shape=(4,), dtype=np.float32)
        assert isinstance(r, lazycl.Array) and r.shape == (4,) and r.dtype == np.float32
        np.testing.assert_array_equal(r.numpy(), np.full(4, v, np.float32))
    r = np.full_like(x, 5, shape=(1, 2))
    assert r.dtype == np.int32 and r.shape == (1, 2)
    with pytest.raises(NotImplementedError):
        np.zeros_like(x, order="F")


def test_unravel_ravel_index():
    idx = np.array([0, 5, 11, 7], dtype=np.int32)
    x = lazycl.asarray(idx)
    for order in ("C", "F"):
        got = np.unravel_index(x, (3, 4), order=order)
        ref = np.unravel_index(idx, (3, 4), order=order)
        assert len(got) == 2
        for g, r in zip(got, ref):
            assert isinstance(g, lazycl.Array)
            np.testing.assert_array_equal(g.numpy(), r)
        back = np.ravel_multi_index(got, (3, 4), order=order)
        assert isinstance(back, lazycl.Array)
        np.testing.assert_array_equal(back.numpy(), idx)
    coords = (np.array([1, -1, 4]), np.array([2, 3, -2]))
    lcoords = tuple(lazycl.asarray(c) for c in coords)
    for mode in ("wrap", "clip", ("clip", "wrap")):
        np.testing.assert_array_equal(np.ravel_multi_index(lcoords, (3, 4), mode=mode).numpy(),
                                      np.ravel_multi_index(coords, (3, 4), mode=mode))
    for bad_call in (lambda m: np.unravel_index(m(np.array([12])), (3, 4)),
                     lambda m: np.unravel_index(m(np.array([-1])), (3, 4)),
                     lambda m: np.unravel_index(m(np.array([1.0])), (3, 4)),
                     lambda m: np.ravel_multi_index((m(np.array([3])), 0), (3, 4)),
                     lambda m: np.ravel_multi_index((m(np.array([1])),), (3, 4)),
                     lambda m: np.ravel_multi_index((m(np.array([1])), 0), (3, 4), mode="x")):
        with pytest.raises(Exception) as want:
            bad_call(np.asarray)
        with pytest.raises(type(want.value), match=str(want.value)[:30].replace("(", r"\(")):
            bad_call(lazycl.asarray)


# ---- Dask arrays of lazycl chunks against NumPy chunks --------------------------------------

A = make("float32", (12, 10), seed=3)
CHUNKS = (5, 4)


def _pair(a=A, chunks=CHUNKS, device=None):
    return (lcd.from_lazycl(lazycl.asarray(a, device=device), chunks),
            da.from_array(a, chunks=chunks))


CASES = {
    "elementwise": lambda d: da.exp(d * 0.5) - d / 3 + abs(d),
    "compare_where": lambda d: da.where(d > 0, d, -2 * d),
    "broadcast": lambda d: d - d[0] + d[:, :1],
    "astype": lambda d: (d * 10).astype(np.int32) % 7,
    "rechunk": lambda d: d.rechunk((3, 10)) + 1,
    "rechunk_all": lambda d: d.rechunk(-1) * 2,
    "concatenate0": lambda d: da.concatenate([d, d * 2], axis=0),
    "concatenate1": lambda d: da.concatenate([d, d[:, :3]], axis=1),
    "stack": lambda d: da.stack([d, d + 1], axis=1),
    "slice": lambda d: d[2:11, 1:9:2],
    "negstride": lambda d: d[::-1, ::-3],
    "fancy": lambda d: d[[0, 7, 3, 11]],
    "take": lambda d: da.take(d, [1, 9, 4], axis=1),
    "transpose": lambda d: d.T + 1,
    "reshape": lambda d: d.reshape(120)[10:50],
    "matmul_TT": lambda d: d.T @ d,
    "matmul_T": lambda d: d @ d.T,
    "tensordot": lambda d: da.tensordot(d, d, axes=([0], [0])),
    "dot_vec": lambda d: d.dot(d[0]),
    "map_blocks": lambda d: d.map_blocks(lambda b: b * b + 1),
    "map_blocks_reduce": lambda d: d.map_blocks(lambda b: b.sum(axis=0, keepdims=True),
                                                chunks=((1,) * 3, (4, 4, 2))),
    "cumsum0": lambda d: d.cumsum(axis=0),
    "cumsum1": lambda d: d.cumsum(axis=1),
    "clip_round": lambda d: d.clip(-1, 1).round(2),
    "topk": lambda d: da.topk(d.ravel(), 4),
    "percentile": lambda d: da.percentile(d.ravel(), [10, 50, 90]),
}
REDUCTIONS = ["sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "any",
              "all", "nansum", "nanmean"]
AXES = [None, 0, 1, (0, 1)]
for _r in REDUCTIONS:
    for _ax in AXES:
        if _r.startswith("arg") and isinstance(_ax, tuple):
            continue
        f = getattr(da, _r)
        CASES[f"{_r}_{_ax}"] = (lambda f, ax: lambda d: f(d > 0.2 if f in (da.any, da.all)
                                                          else d, axis=ax))(f, _ax)
CASES["sum_keepdims_dtype"] = lambda d: d.sum(axis=1, keepdims=True, dtype=np.float64)
CASES["mean_keepdims"] = lambda d: d.mean(axis=0, keepdims=True)


@pytest.mark.parametrize("name", list(CASES))
def test_against_numpy_chunks(name):
    """The same Dask expression on lazycl chunks and on NumPy chunks: equal values, lazycl
    chunks (and lazycl metadata) from end to end, and no host fallback."""
    dl, dn = _pair()
    with warnings.catch_warnings():
        warnings.simplefilter("error", lazycl.HostFallbackWarning)
        rl = CASES[name](dl)
        rn = CASES[name](dn)
        assert isinstance(rl._meta, lazycl.Array) or name == "percentile"
        got = rl.compute(scheduler="sync")
    assert isinstance(got, lazycl.Array) or name == "percentile"
    ref = rn.compute(scheduler="sync")
    got = np.asarray(got)
    assert got.shape == ref.shape
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    tol = 1e-3 if name.startswith(("prod", "matmul", "tensordot", "dot")) else 2e-5
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float64"])
def test_dtypes(dtype):
    a = make(dtype, (9, 7), seed=1)
    dl, dn = _pair(a, (4, 3))
    for f in (lambda d: (d + d) * 2 if dtype != "bool" else d ^ (d | ~d),
              lambda d: d.sum(axis=0), lambda d: d.max(), lambda d: d[::2, ::-1],
              lambda d: da.concatenate([d, d], axis=1).rechunk((9, 2))):
        got, ref = f(dl).compute(scheduler="sync"), f(dn).compute(scheduler="sync")
        assert isinstance(got, lazycl.Array)
        np.testing.assert_array_equal(got.numpy(), ref)
        assert got.dtype == ref.dtype


def test_meta_and_helpers(device):
    x = lazycl.asarray(A, device=device)
    d = lcd.from_lazycl(x, CHUNKS)
    assert isinstance(d._meta, lazycl.Array)
    assert d._meta.shape == (0, 0) and d._meta.dtype == np.float32
    assert d._meta.device == lazycl.Device(device)
    assert "lazycl.Array" in repr(d)
    y = lcd.to_lazycl(d * 2)
    assert isinstance(y, lazycl.Array) and y.device == lazycl.Device(device)
    np.testing.assert_array_equal(y.numpy(), A * 2)
    z = lcd.to_lazycl(da.from_array(A, chunks=CHUNKS) + 1, device=device)
    assert isinstance(z, lazycl.Array) and z.device == lazycl.Device(device)
    np.testing.assert_array_equal(z.numpy(), A + 1)
    # NumPy chunks turned into lazycl chunks on the device, as in examples/dask_standardize.py
    w = da.from_array(A, chunks=CHUNKS).map_blocks(lazycl.asarray, device=device)
    assert isinstance(w._meta, lazycl.Array)
    np.testing.assert_allclose(lcd.to_lazycl(w.sum(axis=0)).numpy(), A.sum(axis=0), rtol=1e-5)
    with pytest.raises(TypeError):
        lcd.from_lazycl(A, CHUNKS)
    with pytest.raises(TypeError):
        lcd.to_lazycl(x)


# ---- kernels per block ----------------------------------------------------------------------

class KernelsPerTask(Callback):
    """With the synchronous scheduler: the kernels launched during each task, by task name and
    block, and the tasks that handed on a pending lazycl array (alone or in a dict or list, as
    Dask's reduction steps return them). Nothing is computed here: each task computes its own
    results (lazycl.dask's step after Dask's array optimization)."""

    def _start(self, dsk):
        self.launches = {}
        self.pending = []

    def _pretask(self, key, dsk, state):
        lazycl.reset_stats()

    def _posttask(self, key, result, dsk, state, id):
        self.launches[key] = lazycl.stats()["launches"]
        if any(a.pending for a in lcd._lazycl_arrays(result, [])):
            self.pending.append(key)

    def per(self, name):
        """{block index: launches} of the tasks whose name is `name`."""
        return {k[1:]: v for k, v in self.launches.items()
                if isinstance(k, tuple) and k[0].rsplit("-", 1)[0] == name}


@pytest.mark.parametrize("device", DEVICE_FILTERS)
def test_one_kernel_per_block(device):
    """Dask fuses the elementwise chain and a reduction's chunk step into one task per block;
    lazycl runs that task's work as one kernel, inside the task, and the aggregate as one
    more."""
    dl, dn = _pair(device=device)
    nblocks = dl.npartitions
    expr = (da.exp(dl * 0.5) * 2 + 1 - dl).sum(axis=1)
    with KernelsPerTask() as cb:
        got = expr.compute(scheduler="sync")
    assert cb.pending == []
    blocks = cb.per("sum")
    assert len(blocks) == nblocks and set(blocks.values()) == {1}, blocks
    assert set(cb.per("sum-aggregate").values()) == {1}
    np.testing.assert_allclose(got.numpy(), (da.exp(dn * 0.5) * 2 + 1 - dn).sum(axis=1)
                               .compute(scheduler="sync"), rtol=2e-5)
    # mean: the chunk step's total and count (a dict of two arrays) are one kernel per block
    with KernelsPerTask() as cb:
        m = (dl * dl + 1).mean(axis=0).compute(scheduler="sync")
    assert cb.pending == []
    blocks = cb.per("mean_chunk")
    assert len(blocks) == nblocks and set(blocks.values()) == {1}, blocks
    np.testing.assert_allclose(m.numpy(), (A * A + 1).mean(axis=0), rtol=2e-5)
    # an elementwise chain with no reduction: one kernel per block, and realize() keeps it so
    with KernelsPerTask() as cb:
        r = lcd.realize(da.sqrt(dl * dl + 1) - 1).compute(scheduler="sync")
    blocks = cb.per("_realize_block")
    assert len(blocks) == nblocks and set(blocks.values()) == {1}, cb.launches
    np.testing.assert_allclose(r.numpy(), np.sqrt(A * A + 1) - 1, rtol=2e-5)


def _standardize(d):
    return (d - d.mean(axis=0)) / d.std(axis=0)


def test_standardize_kernels_per_block():
    """The example's graph: the column mean and deviation are computed once, in their own
    tasks, so each block of the result is one kernel reading them (a pending mean handed on
    would be computed again by every block that reads it); the reductions' chunk steps are one
    kernel per block for the mean, two for the deviation (its mean, then its squared
    deviations)."""
    a = make("float32", (64, 12), seed=7)
    dl, dn = _pair(a, (8, 12))
    with KernelsPerTask() as cb:
        z = _standardize(dl).compute(scheduler="sync")
    assert cb.pending == []
    nblocks = dl.npartitions
    for name, launches in (("mean_chunk", 1), ("var", 2), ("truediv", 1)):
        blocks = cb.per(name)
        assert len(blocks) == nblocks and set(blocks.values()) == {launches}, (name, blocks)
    assert sum(cb.launches.values()) < 6 * nblocks, cb.launches
    np.testing.assert_allclose(z.numpy(), _standardize(dn).compute(scheduler="sync"),
                               rtol=1e-4, atol=1e-5)
    # persisted blocks are computed arrays
    zp = _standardize(dl).persist(scheduler="sync")
    blocks = list(zp.__dask_graph__().values())
    assert len(blocks) == nblocks
    assert all(isinstance(b, lazycl.Array) and not b.pending for b in blocks)


def test_from_lazycl_pending():
    """A pending array handed to from_lazycl is computed once, there: its column mean is not
    computed again by every block's task. (With a name, Dask does not tokenize the array,
    which would pickle and so compute it.)"""
    x = lazycl.asarray(A)
    lazycl.reset_stats()
    d = lcd.from_lazycl(x - x.mean(axis=0), CHUNKS, name="centered")
    assert lazycl.stats()["launches"] >= 1
    with KernelsPerTask() as cb:
        got = (d * 2).compute(scheduler="sync")
    blocks = cb.per("mul")
    assert len(blocks) == d.npartitions and set(blocks.values()) == {1}, blocks
    np.testing.assert_allclose(got.numpy(), (A - A.mean(axis=0)) * 2, rtol=1e-5, atol=1e-6)


def test_realize_tasks_config():
    """Each task computes the lazycl arrays it returns unless the config's
    lazycl.realize-tasks is off; NumPy chunks pass through the step untouched; the step is
    installed once and pickles (a LocalCluster sends the config to its workers)."""
    import dask
    import pickle
    dl, dn = _pair()
    with KernelsPerTask() as cb:
        (dl * 2 + 1).compute(scheduler="sync")
    assert cb.pending == [] and set(cb.per("add").values()) == {1}
    with dask.config.set({"lazycl.realize-tasks": False}), KernelsPerTask() as cb:
        r = (dl * 2 + 1).compute(scheduler="sync")
    assert set(cb.per("add").values()) == {0}
    assert {k for k in cb.pending if k[0].startswith("add-")} == set(
        k for k in cb.launches if k[0].startswith("add-"))
    np.testing.assert_allclose(r.numpy(), A * 2 + 1, rtol=1e-6)
    with KernelsPerTask() as cb:
        rn = (dn * 2 + 1).compute(scheduler="sync")
    assert isinstance(rn, np.ndarray) and set(cb.per("add").values()) == {0}
    opt = dask.config.get("array_optimize")
    assert isinstance(opt, lcd._Optimize)
    lcd._install_optimization()
    assert dask.config.get("array_optimize") is opt
    assert isinstance(pickle.loads(pickle.dumps(opt)), lcd._Optimize)


# ---- one worker per device ------------------------------------------------------------------

def _device_of_worker():
    return lazycl.default_device().filter_string


def _mix_devices(block):
    other = [d for d in lazycl.devices() if d != block.device][0]
    return block + lazycl.asarray(np.ones(block.shape, block.dtype), device=other)


def _pending_blocks(dask_worker):
    """(lazycl blocks, pending ones) among the values this worker holds (client.run passes
    the worker as dask_worker)."""
    held = [v for v in dask_worker.data.values() if isinstance(v, lazycl.Array)]
    return len(held), sum(v.pending for v in held)


def test_local_cluster_one_worker_per_device():
    devices = DEVICE_FILTERS[:2] if len(DEVICE_FILTERS) > 1 else DEVICE_FILTERS * 2
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.register_plugin(lcd.DevicePerWorker(devices))
        got = client.run(_device_of_worker)
        assert sorted(v.rsplit(":", 1)[0] for v in got.values()) == sorted(devices)
        a = make("float32", (64, 40), seed=5)
        d = da.from_array(a, chunks=(16, 40)).map_blocks(lazycl.asarray)
        mean, std = d.mean(axis=0), d.std(axis=0)
        z = (d - mean) / std
        # each task computed the blocks it returned: the workers hold no pending array
        zp = client.persist(z)
        distributed.wait(zp)
        held = client.run(_pending_blocks)
        assert sum(h for h, _ in held.values()) >= z.npartitions
        assert sum(p for _, p in held.values()) == 0, held
        r = client.compute(zp.sum(axis=1)).result()
        del zp
        assert isinstance(r, lazycl.Array)
        np.testing.assert_allclose(r.numpy(), ((a - a.mean(0)) / a.std(0)).sum(axis=1),
                                   rtol=1e-4, atol=1e-4)
        # an error inside a worker reaches the client with its own type
        if len(lazycl.devices()) > 1:
            with pytest.raises(lazycl.PlacementError):
                client.compute(d.map_blocks(_mix_devices, meta=d._meta)).result()
        with pytest.raises(ValueError, match="cannot reshape"):
            client.compute(d.map_blocks(lambda b: b.reshape(7, -1), meta=d._meta)).result()
