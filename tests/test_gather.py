"""Gathers: integer-array indexing with NumPy's rules, take and take_along_axis, checked
against NumPy over dtypes and shapes; indices checked on the device (IndexError at the forcing
call, nothing read out of bounds); the gather fused into its consumer's kernel."""
import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, INT_DTYPES, WIDTH_DTYPES, assert_same, core, lz, make


def launches(*arrays):
    lazycl.reset_stats()
    lazycl.compute(*arrays)
    return lazycl.stats()["launches"]


A3 = make("float32", (4, 5, 6), seed=1)
KEYS = {
    "1-d list": lambda: ([3, -1, 0, 3],),
    "axis 1": lambda: (slice(None), np.array([4, 0, -5, 2])),
    "axis 2 with ellipsis": lambda: (Ellipsis, np.array([[5, 0], [1, -6]])),
    "2-d index on axis 0": lambda: (np.array([[0, 3], [2, 1], [3, 3]]),),
    "int and array, adjacent": lambda: (1, np.array([0, 4, 2])),
    "array and int, adjacent": lambda: (np.array([0, 3, 2]), 4),
    "int, slice, array: apart": lambda: (2, slice(1, 4), np.array([0, 5, 1, 1])),
    "two arrays broadcast": lambda: (np.array([[0], [3]]), np.array([1, 4, 2])),
    "two arrays apart": lambda: (np.array([0, 3]), slice(None), np.array([5, 0])),
    "three arrays": lambda: (np.array([0, 3]), np.array([4, 1]), np.array([5, 0])),
    "with None": lambda: (None, np.array([1, 2]), None, slice(None, None, -2)),
    "negative-step slice then array": lambda: (slice(None, None, -1), np.array([2, -1])),
    "empty list": lambda: ([],),
    "empty array on axis 1": lambda: (slice(None), np.array([], np.int64)),
    "0-d index array": lambda: (np.array(2),),
}


@pytest.mark.parametrize("what", sorted(KEYS))
def test_getitem_like_numpy(dev, what):
    key = KEYS[what]()
    x = lz(A3, dev)
    assert_same(x[key], A3[key])


@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_source_dtypes(dev, dtype):
    a = make(dtype, (7, 3), seed=2)
    i = np.array([6, 0, -7, 3, 3])
    assert_same(lz(a, dev)[i], a[i])
    assert_same(lz(a, dev)[:, [2, -3]], a[:, [2, -3]])


@pytest.mark.parametrize("idt", core(INT_DTYPES))
def test_index_dtypes_on_the_device(dev, idt):
    # The index is a lazycl array: checked on the device.
    a = make("float32", 12, seed=3)
    i = np.array([11, 0, 5, 7], dtype=idt)
    assert_same(lz(a, dev)[lz(i, dev)], a[i])
    if np.dtype(idt).kind == "i":
        j = np.array([-1, -12, 3], dtype=idt)
        assert_same(lz(a, dev)[lz(j, dev)], a[j])


@pytest.mark.parametrize("src, idx", [((12,), (5,)), ((12,), (2, 3)), ((12, 3), (4,)),
                                      ((12, 3, 2), (2, 2)), ((12,), (0,)), ((12, 2), (1, 1, 1))],
                         ids=str)
@pytest.mark.parametrize("idt", core(["int64", "int8", "uint16"], ["int64", "uint16"]))
def test_lazycl_index_array_on_axis_0(dev, src, idx, idt):
    # x[i] with i a lazycl integer array: one gather built in C (py_index.c); negative
    # indices count from the end; realized, viewed and pending sources
    a = make("float32", src, seed=11)
    lo = -src[0] if np.dtype(idt).kind == "i" else 0
    i = np.random.default_rng(12).integers(lo, src[0], idx).astype(idt)
    I = lz(i, dev)
    x = lz(a, dev)
    assert_same(x[I], a[i])
    assert_same((x * 2)[I], (a * 2)[i])
    assert_same(x[::-1][I], a[::-1][i])
    assert_same(x[I + 0], a[i])                                   # a pending index


def test_lazycl_index_array_keys_numpy_takes_otherwise(dev):
    a = make("float32", (6, 4), seed=13)
    x = lz(a, dev)
    i0 = np.array(-2)
    assert_same(x[lz(i0, dev)], a[i0])                            # 0-d: an integer
    m = a[:, 0] > 0
    assert_same(x[lz(m, dev)], a[m])                              # bool: a mask
    with pytest.raises(IndexError, match="integer"):
        x[lz(np.array([0.5]), dev)]
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        lz(np.zeros((0, 3), np.float32), dev)[lz(np.array([0]), dev)]
    with pytest.raises(IndexError, match="too many indices for array: array is 0-dimensional"):
        lz(np.float32(1), dev)[lz(np.array([0]), dev)]
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        x[lz(np.array([0, 6]), dev)].compute()


def test_non_contiguous_and_pending_sources(dev):
    x = lz(A3, dev)
    i = np.array([2, 0, 1])
    assert_same(x.T[i], A3.T[i])
    assert_same(x[::-1, :, ::2][:, i], A3[::-1, :, ::2][:, i])
    assert_same((x * 2 + 1)[i], (A3 * 2 + 1)[i])
    assert_same(x[i][:, ::-1][1], A3[i][:, ::-1][1])


def test_pending_index_is_computed_in_the_kernel(dev):
    a = make("float32", 100, seed=4)
    x = lz(a, dev)
    i = (lazycl.arange(0, 30, dtype="int64", device=dev) * 7) % 100
    r = x[i] * 3
    assert launches(r) == 1
    assert_same(r, a[(np.arange(30) * 7) % 100] * 3)


def test_gather_fuses_with_map_and_reduction(dev):
    a = make("float32", (50, 8), seed=5)
    x = lz(a, dev)
    i = np.array([49, 0, 10, 10, -1])
    r = (x * 2)[i]
    assert launches(r) == 1
    assert_same(r, (a * 2)[i])
    s = x[i].sum()
    assert launches(s) == 1
    assert_same(s, a[i].sum(), rtol=1e-5)
    c = lazycl.cumsum(x[:, [7, 0]], axis=0)
    assert launches(c) == 1
    assert_same(c, np.cumsum(a[:, [7, 0]], axis=0), rtol=1e-5, atol=1e-5)
    # Two gathers on one leaf path: still one kernel.
    t = x[[1, 2, 3]][:, [0, 7]] + 1
    assert launches(t) == 1
    assert_same(t, a[[1, 2, 3]][:, [0, 7]] + 1)


def test_host_index_out_of_range_raises_at_once(dev):
    x = lz(A3, dev)
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        x[[0, 4]]
    with pytest.raises(IndexError, match="index -7 is out of bounds for axis 2 with size 6"):
        x[:, :, [-7]]
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 1 with size 5"):
        x[np.array([0]), 9]


def test_device_index_out_of_range_raises_at_force(dev):
    a = make("float32", 10, seed=6)
    x = lz(a, dev)
    i = lz(np.array([1, 12, 3], np.int64), dev)
    r = x[i] * 2                    # built fine: the index is data
    with pytest.raises(IndexError, match="index 12 is out of bounds for axis 0 with size 10"):
        r.compute()
    assert r.pending
    with pytest.raises(IndexError, match="index -11 is out of bounds"):
        np.asarray(x[lz(np.array([-11], np.int32), dev)])
    # In a reduction's prologue too, and the engine stays usable.
    with pytest.raises(IndexError):
        float(x[i].sum())
    assert_same(x[lz(np.array([9, 0]), dev)], a[[9, 0]])


def test_bad_keys(dev):
    x = lz(A3, dev)
    with pytest.raises(IndexError, match="integer"):
        x[np.array([0.5])]
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[A3[:1] > 0]
    with pytest.raises(IndexError, match="shape mismatch"):
        x[np.array([0, 1]), np.array([0, 1, 2])]
    with pytest.raises(IndexError, match="too many indices"):
        x[[0], 0, 0, 0]
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        lz(np.zeros((0, 3), np.float32), dev)[[0]]


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(dev, axis, mode):
    a = make("int32", (6, 7), seed=7)
    i = np.array([[0, 5], [-2, 3]]) if mode == "raise" else np.array([[0, 9], [-9, 3]])
    assert_same(lazycl.take(lz(a, dev), i, axis=axis, mode=mode), np.take(a, i, axis=axis,
                                                                          mode=mode))
    assert_same(lazycl.take(lz(a, dev), 2, axis=axis), np.take(a, 2, axis=axis))


def test_numpy_functions_stay_lazy(dev):
    a = make("float32", (5, 4), seed=8)
    x = lz(a, dev)
    r = np.take(x, [4, 0], axis=0)
    assert isinstance(r, lazycl.Array) and r.pending
    assert_same(r, np.take(a, [4, 0], axis=0))
    order = np.argsort(a, axis=1)
    t = np.take_along_axis(x, lz(order, dev), axis=1)
    assert isinstance(t, lazycl.Array)
    assert_same(t, np.take_along_axis(a, order, axis=1))


@pytest.mark.parametrize("axis", [0, 1, None])
def test_take_along_axis(dev, axis):
    a = make("float64", (4, 6), seed=9)
    if axis is None:
        i = np.array([23, 0, -1, 5])
    elif axis == 0:
        i = np.array([[3, 0, 1, 2, 0, 0]])           # broadcast along the other dim
    else:
        i = np.array([[5, 0], [1, 1], [2, 3], [0, -6]])
    assert_same(lazycl.take_along_axis(lz(a, dev), i, axis), np.take_along_axis(a, i, axis))
    with pytest.raises(ValueError, match="same number of dimensions"):
        lazycl.take_along_axis(lz(a, dev), np.array([0]), 1)
    with pytest.raises(IndexError, match="integer"):
        lazycl.take_along_axis(lz(a, dev), np.zeros((4, 1)), 1)


def test_gathers_share_a_plan(dev):
    a = make("float32", 64, seed=10)
    x = lz(a, dev)
    lazycl.reset_stats()
    for k in range(4):
        i = np.array([k, 63 - k, 7])
        assert_same(x[i] + k, a[i] + np.float32(k))
    s = lazycl.stats()
    assert s["plan_misses"] == 1 and s["plan_hits"] == 3


@pytest.mark.parametrize("idt", ["int64", "int32", "uint64"])
def test_long_gathers_check_indices_apart(dev, idt):
    """A CPU's 1-d gather of 2^18 elements or more reads at wrapped and clamped indices and
    checks them in a kernel of its own (codegen/map.c, lc_check_apart: chunks of 1024 indices
    an item): the gather right, negative indices from the end, every out-of-range index
    reported at the forcing call wherever it falls (first, last, in a chunk cut short by the
    end), nested and computed indices, and the engine usable after."""
    n = (1 << 18) + 3
    a = make("float32", n, seed=7)
    rng = np.random.default_rng(8)
    lo = 0 if idt == "uint64" else -n
    ih = rng.integers(lo, n, n).astype(idt)
    x, i = lz(a, dev), lz(ih, dev)
    r = (x * 2)[i] + 1
    apart = "indices checked apart" in lazycl.explain(r)
    assert apart == (dev.type == "cpu" and dev.schedule != "gpu")
    assert launches(r) == 1 + apart
    assert_same(r, (a * 2)[ih] + 1)
    # Nested and computed: x[i2[i]] and x[(i * 7) % n].
    i2 = rng.integers(0, n, n).astype(idt)
    assert_same(x[lz(i2, dev)[i]], a[i2[ih]])
    assert_same(x[(i * 7) % n], a[(ih.astype(np.int64) * 7) % n])
    for place in (0, n - 1, (n // 1024) * 1024 + 1, 5000):
        for bad in ([n, -n - 1] if idt != "uint64" else [n, 2 ** 62]):
            jh = ih.copy()
            jh[place] = bad
            with pytest.raises(IndexError, match=f"index {bad} is out of bounds for axis 0 "
                                                 f"with size {n}"):
                np.asarray(x[lz(jh, dev)])
    # An index of the nested gather's inner array out of range is reported too.
    i3 = i2.copy()
    i3[n // 2] = n + 5
    with pytest.raises(IndexError, match=f"index {n + 5} is out of bounds"):
        np.asarray(x[lz(i3, dev)[i]] * 2)
    assert_same(x[i], a[ih])


def test_long_gathers_in_reductions_and_rows(dev):
    """Long gathers that each item checks as it reads (a CPU checks apart only in 1-d maps:
    in a reduction's loop or a 2-d map a check of its own was no faster, measured): in a
    reduction's per-element part (x[i].sum(), a row sum of x[i] * w) and in a 2-d map (rows
    gathered, A[j]), each right, and an index out of range reported at the forcing call."""
    n = (1 << 18) + 7
    rng = np.random.default_rng(9)
    a = make("float32", n, seed=10)
    ih = rng.integers(-n, n, n)
    x, i = lz(a, dev), lz(ih, dev)
    s = x[i].sum()
    assert_same(s, a[ih].sum(dtype=np.float32), rtol=1e-4)
    w = make("float32", (n // 64 + 1, 64), seed=11)
    i2 = rng.integers(0, n, w.shape)
    r = (x[lz(i2, dev)] * lz(w, dev)).sum(axis=1)
    assert_same(r, (a[i2] * w).sum(axis=1), rtol=1e-5, atol=1e-5)
    A = make("float32", (n // 4, 4), seed=12)
    j = rng.integers(-(n // 4), n // 4, n // 2)
    assert_same(lz(A, dev)[lz(j, dev)] + 1, A[j] + 1)
    for bad, make_key in ((n, lambda k: k), (-n - 1, lambda k: k[::-1].copy())):
        jh = make_key(ih.copy())
        jh[n // 3] = bad
        with pytest.raises(IndexError, match=f"index {bad} is out of bounds for axis 0 "
                                             f"with size {n}"):
            float(x[lz(jh, dev)].sum())
    i2[5, 63] = n + 1
    with pytest.raises(IndexError, match=f"index {n + 1} is out of bounds"):
        np.asarray((x[lz(i2, dev)] * lz(w, dev)).sum(axis=1))
    j[-1] = n // 4
    with pytest.raises(IndexError, match=f"index {n // 4} is out of bounds for axis 0"):
        np.asarray(lz(A, dev)[lz(j, dev)] + 1)
    assert_same(x[i].sum(), a[ih].sum(dtype=np.float32), rtol=1e-4)


@pytest.mark.parametrize("where", ["device", "host"])
def test_uint64_indices_wrap_as_numpy(dev, where):
    """NumPy casts a uint64 index array to intp ('same_kind'): 2**64 - 1 is -1 (the last
    element) and 2**63 is -2**63, out of range with that value in the message; reads and
    writes alike, whether the index is a lazycl array or a NumPy one."""
    a = make("float32", 10, seed=13)
    key = np.array([2 ** 64 - 1, 0, 2 ** 64 - 10, 3], np.uint64)
    k = lz(key, dev) if where == "device" else key
    assert_same(lz(a, dev)[k], a[key])
    x, b = lz(a, dev), a.copy()
    x[k] = 7
    b[key] = 7
    assert_same(x, b)
    big = np.array([1, 2 ** 63], np.uint64)
    kb = lz(big, dev) if where == "device" else big
    with pytest.raises(IndexError, match="index -9223372036854775808 is out of bounds for "
                                         "axis 0 with size 10"):
        np.asarray(lz(a, dev)[kb])
