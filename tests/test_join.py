"""concatenate, stack and their variants, the split family, choose and select: index maps read in
the consumer's kernel, checked against NumPy over dtypes, shapes and input kinds, with NumPy's
exceptions and messages, and launch counts proving the fusion."""
import warnings

import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, WIDTH_DTYPES, assert_same, core, lz, make


def launches(*arrays):
    lazycl.reset_stats()
    lazycl.compute(*arrays)
    return lazycl.stats()["launches"]


def same_error(f_lazycl, f_numpy):
    """f_lazycl raises what f_numpy raises: the same type and message."""
    with pytest.raises(Exception) as want:
        f_numpy()
    with pytest.raises(type(want.value)) as got:
        f_lazycl()
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_dtypes(dev, dtype):
    a, b = make(dtype, (3, 4), seed=1), make(dtype, (2, 4), seed=2)
    x, y = lz(a, dev), lz(b, dev)
    assert_same(lazycl.concatenate([x, y]), np.concatenate([a, b]))
    assert_same(lazycl.stack([x, x[::-1]], axis=2), np.stack([a, a[::-1]], axis=2))
    assert_same(lazycl.hstack([x.T, y.T]), np.hstack([a.T, b.T]))
    i = np.array([[0, 1, 1, 0]] * 3)
    assert_same(lazycl.choose(lz(i, dev), [x, x[::-1]]), np.choose(i, [a, a[::-1]]))
    assert_same(lazycl.select([x > a[0, 0], x < a[1, 1]], [x, x[::-1]]),
                np.select([a > a[0, 0], a < a[1, 1]], [a, a[::-1]]))


AXES = [((2, 3, 4), (5, 3, 4), 0), ((2, 3, 4), (2, 1, 4), 1), ((2, 3, 4), (2, 3, 7), -1),
        ((2, 3, 4), (3, 2), None), ((5,), (1,), 0), ((2, 0, 4), (2, 3, 4), 1),
        ((0, 3), (0, 3), 0), ((4, 1), (4, 1), 1)]


@pytest.mark.parametrize("s1,s2,axis", AXES, ids=str)
def test_concatenate_axes(dev, s1, s2, axis):
    a, b = make("float32", s1, seed=3), make("float32", s2, seed=4)
    assert_same(lazycl.concatenate((lz(a, dev), lz(b, dev)), axis=axis),
                np.concatenate((a, b), axis=axis))
    assert_same(lazycl.concatenate([lz(a, dev)], axis=axis), np.concatenate([a], axis=axis))
    assert_same(lazycl.concatenate([lz(b, dev), lz(a, dev), lz(b, dev)] if axis is None else
                                   [lz(a, dev), lz(b, dev), lz(b, dev), lz(a, dev)], axis=axis),
                np.concatenate([b, a, b] if axis is None else [a, b, b, a], axis=axis))


def test_concatenate_input_kinds(dev):
    a = make("int32", (4, 6), seed=5)
    x = lz(a, dev)
    # non-contiguous, negative strides, pending, NumPy arrays, lists, views of pending arrays
    parts = [x[:, ::2], x[::-1, 1::2], np.arange(8, dtype=np.int32).reshape(4, 2),
             [[1, 2]] * 4, (x * 3 - 1)[:, 2:4], (x + 1).T[:3].T[:, ::-1]]
    ref = [a[:, ::2], a[::-1, 1::2], np.arange(8, dtype=np.int32).reshape(4, 2),
           np.array([[1, 2]] * 4), (a * 3 - 1)[:, 2:4], (a + 1).T[:3].T[:, ::-1]]
    assert_same(lazycl.concatenate(parts, axis=1), np.concatenate(ref, axis=1))
    assert_same(lazycl.concatenate(parts, axis=None), np.concatenate(ref, axis=None))
    # only host inputs: the result is a lazycl array all the same
    r = lazycl.concatenate([[1, 2], np.array([3.5])])
    assert isinstance(r, lazycl.Array)
    assert_same(r, np.concatenate([[1, 2], np.array([3.5])]))
    # a lazycl array as the sequence: its rows
    assert_same(lazycl.concatenate(x), np.concatenate(a))
    assert_same(lazycl.concatenate([lz(np.float64(2.5), dev), x], axis=None),
                np.concatenate([np.float64(2.5), a], axis=None))


def test_nested_joins(dev):
    a = make("float32", (4,), seed=25)
    x = lz(a, dev)
    r, want = x, a
    for k in range(6):      # past four gathers deep an inner join is written first: still right
        r = lazycl.concatenate([r, x * k]) if k % 2 else lazycl.hstack([x[::-1], r])
        want = np.concatenate([want, a * k]) if k % 2 else np.hstack([a[::-1], want])
    assert_same(r, want)


PROMOTIONS = [("int8", "uint8"), ("int32", "float32"), ("bool", "int8"), ("uint64", "int64"),
              ("bool", "bool"), ("float32", "float64"), ("uint16", "int8")]


@pytest.mark.parametrize("t1,t2", PROMOTIONS, ids=str)
def test_promotion(dev, t1, t2):
    a, b = make(t1, (3, 2), seed=6), make(t2, (1, 2), seed=7)
    x, y = lz(a, dev), lz(b, dev)
    assert_same(lazycl.concatenate([x, y]), np.concatenate([a, b]))
    assert_same(lazycl.concatenate([y, b, x]), np.concatenate([b, b, a]))
    assert_same(lazycl.stack([x[0], y[0], b[0]]), np.stack([a[0], b[0], b[0]]))
    assert_same(lazycl.vstack([x, b]), np.vstack([a, b]))


def test_dtype_and_casting(dev):
    a, b = make("float64", (2, 3), seed=8), make("int16", (2, 3), seed=9)
    x, y = lz(a, dev), lz(b, dev)
    for dtype, casting in [("float32", "same_kind"), ("int32", "unsafe"), ("uint8", "unsafe"),
                           ("float64", "safe"), ("bool", "unsafe")]:
        assert_same(lazycl.concatenate([x, y], dtype=dtype, casting=casting),
                    np.concatenate([a, b], dtype=dtype, casting=casting))
        assert_same(lazycl.stack([x, b], 1, dtype=dtype, casting=casting),
                    np.stack([a, b], 1, dtype=dtype, casting=casting))
        assert_same(lazycl.hstack([x, y], dtype=dtype, casting=casting),
                    np.hstack([a, b], dtype=dtype, casting=casting))
        assert_same(lazycl.vstack([x, y], dtype=dtype, casting=casting),
                    np.vstack([a, b], dtype=dtype, casting=casting))
    for args in [dict(dtype="int32"), dict(casting="no"), dict(dtype="float32", casting="safe"),
                 dict(dtype="int16", casting="equiv"), dict(casting="bogus")]:
        same_error(lambda: lazycl.concatenate([x, y], **args),
                   lambda: np.concatenate([a, b], **args))
        same_error(lambda: lazycl.stack([x, y], **args), lambda: np.stack([a, b], **args))


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 0, 3), ()], ids=str)
def test_stack_family(dev, shape):
    a, b = make("int64", shape, seed=10), make("int64", shape, seed=11)
    x, y = lz(a, dev), lz(b, dev)
    for axis in range(-len(shape) - 1, len(shape) + 1):
        assert_same(lazycl.stack([x, y, x], axis=axis), np.stack([a, b, a], axis=axis))
    for f in ("hstack", "vstack", "dstack", "column_stack"):
        if f == "column_stack" and len(shape) == 3:
            continue
        assert_same(getattr(lazycl, f)([x, b]), getattr(np, f)([a, b]))
        assert_same(getattr(lazycl, f)((x,)), getattr(np, f)((a,)))


def test_stack_family_mixed_ndims(dev):
    v, m = make("float32", (3,), seed=12), make("float32", (3, 2), seed=13)
    assert_same(lazycl.column_stack([lz(v, dev), lz(m, dev), v]), np.column_stack([v, m, v]))
    assert_same(lazycl.vstack([lz(v, dev), m.T, [1, 2, 3]]), np.vstack([v, m.T, [1, 2, 3]]))
    assert_same(lazycl.hstack([lz(m, dev), m[:, :1]]), np.hstack([m, m[:, :1]]))
    assert_same(lazycl.hstack([lz(np.float32(1), dev), v, 2]), np.hstack([np.float32(1), v, 2]))
    assert_same(lazycl.dstack([lz(m, dev), m]), np.dstack([m, m]))
    assert_same(lazycl.dstack([lz(v, dev), v]), np.dstack([v, v]))


def test_join_errors():
    a, b, c = np.zeros((2, 3)), np.zeros((2, 4)), np.zeros(3)
    x, y, z = lazycl.asarray(a), lazycl.asarray(b), lazycl.asarray(c)
    same_error(lambda: lazycl.concatenate([x, y]), lambda: np.concatenate([a, b]))
    same_error(lambda: lazycl.concatenate([x, b], axis=0), lambda: np.concatenate([a, b], axis=0))
    same_error(lambda: lazycl.concatenate([x, z]), lambda: np.concatenate([a, c]))
    same_error(lambda: lazycl.concatenate([z, a]), lambda: np.concatenate([c, a]))
    same_error(lambda: lazycl.concatenate([z, 1]), lambda: np.concatenate([c, 1]))
    same_error(lambda: lazycl.concatenate([]), lambda: np.concatenate([]))
    same_error(lambda: lazycl.concatenate([lazycl.asarray(1.0), z]),
               lambda: np.concatenate([np.float64(1), c]))
    same_error(lambda: lazycl.concatenate([x, x], axis=2), lambda: np.concatenate([a, a], axis=2))
    same_error(lambda: lazycl.concatenate([x, x], axis=-3),
               lambda: np.concatenate([a, a], axis=-3))
    same_error(lambda: lazycl.concatenate(z for z in [x, x]),
               lambda: np.concatenate(z for z in [a, a]))
    same_error(lambda: lazycl.stack([x, y]), lambda: np.stack([a, b]))
    same_error(lambda: lazycl.stack([]), lambda: np.stack([]))
    same_error(lambda: lazycl.stack([x, x], axis=3), lambda: np.stack([a, a], axis=3))
    same_error(lambda: lazycl.stack(z for z in [x, x]), lambda: np.stack(z for z in [a, a]))
    same_error(lambda: lazycl.hstack(z for z in [x, x]), lambda: np.hstack(z for z in [a, a]))
    same_error(lambda: lazycl.vstack([x, c[:2]]), lambda: np.vstack([a, c[:2]]))
    same_error(lambda: lazycl.hstack([]), lambda: np.hstack([]))
    same_error(lambda: lazycl.vstack([x, y]), lambda: np.vstack([a, b]))
    same_error(lambda: lazycl.column_stack([z, x]), lambda: np.column_stack([c, a]))
    for f in (lazycl.concatenate, lazycl.stack):
        with pytest.raises(TypeError, match="out="):
            f([x, x], out=lazycl.asarray(np.zeros((4, 3))))
    with pytest.raises(TypeError, match="out="):
        np.concatenate([x, x], out=np.zeros((4, 3)))


SPLITS = [(2, 0), (3, 1), ([1, 3], 1), ([-1], 0), ([0, 10, 2], 1), (np.array([1, 2]), -1),
          ([], 0), ([5, 1], 1)]


@pytest.mark.parametrize("ios,axis", SPLITS, ids=str)
def test_split(dev, ios, axis):
    a = make("float32", (4, 6), seed=14)
    x = lz(a, dev)
    for f in ("split", "array_split"):
        try:
            want = getattr(np, f)(a, ios, axis=axis)
        except ValueError:
            with pytest.raises(ValueError):
                getattr(lazycl, f)(x, ios, axis=axis)
            continue
        got = getattr(lazycl, f)(x, ios, axis=axis)
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)


def test_array_split_uneven_and_nd(dev):
    a = make("int16", (7, 4, 6), seed=15)
    x = lz(a, dev)
    for n in (1, 3, 7, 9):
        for g, w in zip(lazycl.array_split(x, n), np.array_split(a, n)):
            assert_same(g, w)
    for f, ios in (("hsplit", 2), ("hsplit", [1, 3]), ("vsplit", 7), ("dsplit", [2, 3]),
                   ("dsplit", 3)):
        want = getattr(np, f)(a, ios)
        got = getattr(lazycl, f)(x, ios)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    v = make("int16", (6,), seed=16)
    for g, w in zip(lazycl.hsplit(lz(v, dev), 3), np.hsplit(v, 3)):
        assert_same(g, w)


def test_split_errors():
    a = np.zeros((4, 6))
    x = lazycl.asarray(a)
    c, s = np.zeros(3), np.float64(1)
    same_error(lambda: lazycl.split(x, 5), lambda: np.split(a, 5))
    same_error(lambda: lazycl.array_split(x, 0), lambda: np.array_split(a, 0))
    same_error(lambda: lazycl.array_split(x, -2), lambda: np.array_split(a, -2))
    same_error(lambda: lazycl.hsplit(lazycl.asarray(s), 2), lambda: np.hsplit(s, 2))
    same_error(lambda: lazycl.vsplit(lazycl.asarray(c), 3), lambda: np.vsplit(c, 3))
    same_error(lambda: lazycl.dsplit(x, 2), lambda: np.dsplit(a, 2))
    with pytest.raises(IndexError):       # NumPy: IndexError; lazycl: AxisError, a subclass
        lazycl.split(x, 2, axis=2)
    with pytest.raises(IndexError):
        np.split(a, 2, axis=2)


def test_split_views_of_pending(dev):
    a = make("float32", (6, 5), seed=17)
    p = lz(a, dev) * 2 + 1
    lazycl.reset_stats()
    parts = lazycl.split(p, 3)
    assert lazycl.stats()["launches"] == 0
    assert all(q.pending for q in parts)
    for q, w in zip(parts, np.split(a * 2 + 1, 3)):
        assert launches(q * 1) == 1
        assert_same(q, w)


CHOICE_MODES = ["raise", "wrap", "clip"]


@pytest.mark.parametrize("mode", CHOICE_MODES)
def test_choose(dev, mode):
    a = make("float64", (3, 4), seed=18)
    ch = [lz(a, dev), a[::-1] * 2, lz(a, dev)[:, ::-1] + 1, 7.5, [1, 2, 3, 4]]
    chn = [a, a[::-1] * 2, a[:, ::-1] + 1, 7.5, [1, 2, 3, 4]]
    ok = np.array([[0, 1, 2, 3], [4, 3, 2, 1], [0, 0, 4, 4]])
    bad = np.array([[0, -1, 2, 5], [9, 3, -7, 1], [0, 0, 4, 4]])
    for i in (ok, bad) if mode != "raise" else (ok,):
        for idx in (lz(i, dev), i, lz(i.astype(np.int8), dev), (lz(i, dev) + 1) - 1):
            assert_same(lazycl.choose(idx, ch, mode=mode), np.choose(i, chn, mode=mode))
    # broadcasting: the index, the choices and both
    i = np.array([[1], [0], [1]])
    assert_same(lazycl.choose(lz(i, dev), [lz(a[0], dev), 0], mode=mode),
                np.choose(i, [a[0], 0], mode=mode))
    assert_same(lazycl.choose(1, [lz(a, dev), a[0]], mode=mode), np.choose(1, [a, a[0]], mode=mode))
    b = np.array([True, False, True, True])
    assert_same(lazycl.choose(lz(b, dev), [lz(a, dev), -a], mode=mode),
                np.choose(b, [a, -a], mode=mode))
    stacked = make("int32", (3, 4), seed=19)
    assert_same(lazycl.choose(lz(ok[:, :3] % 3, dev), lz(stacked[:, :3], dev), mode=mode),
                np.choose(ok[:, :3] % 3, stacked[:, :3], mode=mode))


def test_choose_dtypes(dev):
    i = np.array([0, 1, 1, 0])
    for c0, c1 in [(np.arange(4, dtype=np.int8), np.arange(4, dtype=np.uint8)),
                   (np.arange(4, dtype=np.int8), 3), (np.arange(4, dtype=np.int8), 3.5),
                   (np.arange(4, dtype=np.float32), np.int16(3)),
                   (np.arange(4, dtype=np.int8), 300), (np.ones(4, bool), 2)]:
        assert_same(lazycl.choose(lz(i, dev), [lz(c0, dev), c1]), np.choose(i, [c0, c1]))


def test_choose_raise_checks_the_index(dev):
    c = [lz(np.arange(4.0), dev), lz(np.arange(4.0) * 10, dev)]
    for bad in ([0, 1, 2, 0], [0, -1, 1, 0]):
        with pytest.raises(ValueError, match="^invalid entry in choice array$"):
            lazycl.choose(lz(np.array(bad), dev), c)
        with pytest.raises(ValueError, match="^invalid entry in choice array$"):
            lazycl.choose(np.array(bad), c)
    # a lazycl index is checked by one small reduction (its min and max) at call time
    idx = lz(np.array([1, 0, 1, 1]), dev) * 1
    lazycl.reset_stats()
    r = lazycl.choose(idx, c)
    assert lazycl.stats()["launches"] == 1
    assert r.pending and launches(r) == 1
    assert_same(r, np.choose([1, 0, 1, 1], [np.arange(4.0), np.arange(4.0) * 10]))
    assert_same(lazycl.choose(lz(np.zeros(0, np.int64), dev), [lz(np.zeros(0), dev)]),
                np.choose(np.zeros(0, np.int64), [np.zeros(0)]))


def test_choose_errors():
    c = np.arange(3.0)
    x = lazycl.asarray(c)
    i = np.array([0, 1, 2])
    same_error(lambda: lazycl.choose(i, [x, x, x], mode="bogus"),
               lambda: np.choose(i, [c, c, c], mode="bogus"))
    same_error(lambda: lazycl.choose(i.astype(float), [x, x, x]),
               lambda: np.choose(i.astype(float), [c, c, c]))
    same_error(lambda: lazycl.choose(lazycl.asarray(i.astype(np.uint64)), [x, x, x]),
               lambda: np.choose(i.astype(np.uint64), [c, c, c]))
    same_error(lambda: lazycl.choose(i, [x, x, x[:2]]), lambda: np.choose(i, [c, c, c[:2]]))
    same_error(lambda: lazycl.choose(i, []), lambda: np.choose(i, []))
    same_error(lambda: lazycl.choose([[0, 1, 1]], [x.reshape(3, 1), np.zeros((1, 4))]),
               lambda: np.choose([[0, 1, 1]], [c.reshape(3, 1), np.zeros((1, 4))]))
    with pytest.raises(TypeError, match="out="):
        lazycl.choose(i, [x, x, x], out=x)


def test_select(dev):
    a = make("int32", (5, 4), seed=20)
    x = lz(a, dev)
    conds = [x > 50, a < -50, (x % 3) == 0, lz(np.array([True, False, False, True]), dev)]
    nconds = [a > 50, a < -50, (a % 3) == 0, np.array([True, False, False, True])]
    choices = [x, -a, x * 2, 7]
    nchoices = [a, -a, a * 2, 7]
    for default in (0, -1.5, np.int8(-1), a[0], lz(a[::-1], dev)):
        nd = np.asarray(default.numpy()) if isinstance(default, lazycl.Array) else default
        assert_same(lazycl.select(conds, choices, default), np.select(nconds, nchoices, nd))
    assert_same(lazycl.select([x > 0], [x[::-1, ::-1]]), np.select([a > 0], [a[::-1, ::-1]]))
    assert_same(lazycl.select([True, False], [1, 2]), np.select([True, False], [1, 2]))
    i8 = a.astype(np.int8)
    assert_same(lazycl.select([x < 2, x > 3], [lz(i8, dev), i8], default=300),
                np.select([a < 2, a > 3], [i8, i8], default=300))
    assert_same(lazycl.select([x < 2, x > 3], [lz(i8, dev).astype(np.float32), 5.5]),
                np.select([a < 2, a > 3], [i8.astype(np.float32), 5.5]))


def test_select_errors():
    a = np.arange(6)
    x = lazycl.asarray(a)
    same_error(lambda: lazycl.select([x < 2], [x, x]), lambda: np.select([a < 2], [a, a]))
    same_error(lambda: lazycl.select([], []), lambda: np.select([], []))
    same_error(lambda: lazycl.select([x, x > 3], [x, x]), lambda: np.select([a, a > 3], [a, a]))
    same_error(lambda: lazycl.select([x < 2, 1], [x, x]), lambda: np.select([a < 2, 1], [a, a]))
    same_error(lambda: lazycl.select([x < 2, x > 3], [x, x[:3]]),
               lambda: np.select([a < 2, a > 3], [a, a[:3]]))
    same_error(lambda: lazycl.select([x < 2, x[:4] > 3], [x, x]),
               lambda: np.select([a < 2, a[:4] > 3], [a, a]))
    same_error(lambda: lazycl.select([x < 2], [x], default=np.ones(5)),
               lambda: np.select([a < 2], [a], default=np.ones(5)))


def test_fusion_one_kernel(dev):
    a, b = make("float32", (3, 4), seed=21), make("float32", (2, 4), seed=22)
    x, y = lz(a, dev), lz(b, dev)
    r = lazycl.concatenate([x + 1, y * 2]) * 3
    assert launches(r) == 1
    assert_same(r, np.concatenate([a + 1, b * 2]) * 3)
    r = lazycl.stack([x + 1, x[::-1] * 2], axis=1).sum(axis=1)
    assert launches(r) == 1
    assert_same(r, np.stack([a + 1, a[::-1] * 2], axis=1).sum(axis=1), rtol=1e-6)
    r = lazycl.concatenate([x.T, y.T], axis=1) - 1
    assert launches(r) == 1
    assert_same(r, np.concatenate([a.T, b.T], axis=1) - 1)
    i = lz(np.array([[0, 1, 2, 1]] * 3), dev)
    r = lazycl.choose(i, [x, x * 2, -x], mode="wrap") + 1
    assert launches(r) == 1
    assert_same(r, np.choose(np.array([[0, 1, 2, 1]] * 3), [a, a * 2, -a], mode="wrap") + 1)
    r = lazycl.select([x > 0, x < -1], [x, x * 2], default=-x) * 2
    assert launches(r) == 1
    assert_same(r, np.select([a > 0, a < -1], [a, a * 2], default=-a) * 2)
    r = lazycl.vstack(lazycl.hsplit(x + 1, 2)) * 2
    assert launches(r) == 1
    assert_same(r, np.vstack(np.hsplit(a + 1, 2)) * 2)


def test_many_inputs(dev):
    n = 64
    hs = [make("float32", (i % 3 + 1, 5), seed=100 + i) for i in range(n)]
    xs = [lz(h, dev) for h in hs]
    r = lazycl.concatenate([x * 2 for x in xs]) + 1
    assert launches(r) == 1
    assert_same(r, np.concatenate([h * 2 for h in hs]) + 1)
    r = lazycl.stack([x[0] for x in xs], axis=1)
    assert launches(r) == 1
    assert_same(r, np.stack([h[0] for h in hs], axis=1))
    k = (np.arange(5 * n).reshape(n, 5) * 7) % n
    r = lazycl.choose(lz(k, dev), [x[0] for x in xs])
    assert launches(r) == 1
    # (NumPy's choose takes at most 63 choices; lazycl has no such limit)
    assert_same(r, np.stack([h[0] for h in hs])[k, np.arange(5)])
    conds = [lz(h[0], dev) > 3.5 - i / 10 for i, h in enumerate(hs)]
    r = lazycl.select(conds, [x[0] for x in xs], default=-1)
    assert launches(r) == 1
    assert_same(r, np.select([h[0] > 3.5 - i / 10 for i, h in enumerate(hs)], [h[0] for h in hs],
                             default=-1))


def test_numpy_dispatch(dev):
    a, b = make("int16", (2, 3), seed=23), make("int16", (2, 3), seed=24)
    x, y = lz(a, dev), lz(b, dev)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no host fallback
        cases = [(np.concatenate, ([x, b],), {"axis": 1}), (np.stack, ([x, y],), {"axis": -1}),
                 (np.hstack, ([x, y],), {}), (np.vstack, ([b, y],), {}),
                 (np.dstack, ([x, y],), {}), (np.column_stack, ([x, y],), {}),
                 (np.concatenate, ([x, b],), {"axis": None, "dtype": "float32"}),
                 (np.choose, (lz(np.array([0, 1, 0]), dev), [x, y]), {"mode": "clip"}),
                 (np.select, ([x > 0, y > 0], [x, y]), {"default": 5})]
        for f, args, kwargs in cases:
            got = f(*args, **kwargs)
            assert isinstance(got, lazycl.Array), f
            nargs = [[v.numpy() if isinstance(v, lazycl.Array) else v for v in arg]
                     if isinstance(arg, list) else
                     (arg.numpy() if isinstance(arg, lazycl.Array) else arg) for arg in args]
            assert_same(got, f(*nargs, **kwargs))
        for f in (np.split, np.array_split, np.hsplit, np.vsplit):
            got = f(x, [1])
            assert all(isinstance(g, lazycl.Array) for g in got)
            for g, w in zip(got, f(a, [1])):
                assert_same(g, w)
