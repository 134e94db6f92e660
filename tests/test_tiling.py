"""roll, tile, repeat and pad: index maps read through gathers in the consumer's kernel, checked
against NumPy over dtypes, shapes and arguments, with launch counts proving the fusion."""
import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, WIDTH_DTYPES, assert_same, core, lz, make


def launches(*arrays):
    lazycl.reset_stats()
    lazycl.compute(*arrays)
    return lazycl.stats()["launches"]


@pytest.mark.parametrize("dtype", core(ALL_DTYPES, WIDTH_DTYPES))
def test_dtypes(dev, dtype):
    a = make(dtype, (3, 5), seed=1)
    x = lz(a, dev)
    assert_same(lazycl.roll(x, 2, axis=1), np.roll(a, 2, axis=1))
    assert_same(lazycl.tile(x, (2, 2)), np.tile(a, (2, 2)))
    assert_same(lazycl.repeat(x, 2, axis=0), np.repeat(a, 2, axis=0))
    for mode in ("constant", "edge", "wrap", "reflect", "symmetric"):
        assert_same(lazycl.pad(x, ((1, 2), (3, 0)), mode=mode), np.pad(a, ((1, 2), (3, 0)), mode=mode))


ROLLS = [(3, None), (-8, None), (2, 0), (-1, 1), (7, -1), ((1, 2), (0, 1)), ((1, -1), 1), (4, (0, 1)),
         (0, 0), (100, 2)]


@pytest.mark.parametrize("shift,axis", ROLLS)
def test_roll(dev, shift, axis):
    a = make("float32", (3, 4, 5), seed=2)
    assert_same(lazycl.roll(lz(a, dev), shift, axis=axis), np.roll(a, shift, axis=axis))


@pytest.mark.parametrize("reps", [2, (2,), (1, 3), (2, 1, 2), (0, 2), (3, 1, 1, 1)])
def test_tile(dev, reps):
    for a in (make("int16", (2, 3), seed=3), make("int16", 4, seed=4), np.array(5, np.int16)):
        assert_same(lazycl.tile(lz(a, dev), reps), np.tile(a, reps))


@pytest.mark.parametrize("repeats,axis", [(3, None), (2, 0), (2, 1), (0, 1), ([1, 0, 2], 0),
                                          ([2], 1), (np.array([0, 1, 3, 1]), 1)])
def test_repeat(dev, repeats, axis):
    a = make("float64", (3, 4), seed=5)
    assert_same(lazycl.repeat(lz(a, dev), repeats, axis=axis), np.repeat(a, repeats, axis=axis))


PADS = [1, (2, 3), ((0, 1), (4, 2)), ((3, 3),), ((7, 9), (0, 0))]


@pytest.mark.parametrize("mode", ["constant", "edge", "wrap", "reflect", "symmetric"])
@pytest.mark.parametrize("width", PADS, ids=str)
def test_pad(dev, mode, width):
    a = make("float32", (4, 3), seed=6)
    assert_same(lazycl.pad(lz(a, dev), width, mode=mode), np.pad(a, width, mode=mode))
    one = make("int32", (1, 5), seed=7)          # a single element along axis 0
    assert_same(lazycl.pad(lz(one, dev), width, mode=mode), np.pad(one, width, mode=mode))


def test_pad_constant_values_and_empty_axes(dev):
    a = make("int8", (2, 3), seed=8)
    x = lz(a, dev)
    for cv in (7, (1, 2), ((1, 2), (3, -4)), 2.9):
        assert_same(lazycl.pad(x, 2, constant_values=cv), np.pad(a, 2, constant_values=cv))
    e = np.zeros((0, 3), np.float32)
    assert_same(lazycl.pad(lz(e, dev), ((1, 2), (0, 1)), constant_values=5),
                np.pad(e, ((1, 2), (0, 1)), constant_values=5))
    with pytest.raises(ValueError, match="can't extend empty axis 0"):
        lazycl.pad(lz(e, dev), 1, mode="edge")
    with pytest.raises(ValueError):
        lazycl.pad(x, -1)
    with pytest.raises(ValueError, match="unsupported keyword"):
        lazycl.pad(x, 1, mode="edge", constant_values=3)
    with pytest.raises(NotImplementedError):
        lazycl.pad(x, 1, mode="linear_ramp")


def test_non_contiguous_and_pending(dev):
    a = make("float32", (6, 5), seed=9)
    x = lz(a, dev)
    assert_same(lazycl.roll(x.T[::-1], 2, axis=0), np.roll(a.T[::-1], 2, axis=0))
    assert_same(lazycl.pad((x * 2)[:, 1:], 2, mode="reflect"), np.pad((a * 2)[:, 1:], 2, mode="reflect"))


def test_fused_into_one_kernel(dev):
    a = make("float32", (64, 32), seed=10)
    x = lz(a, dev)
    r = lazycl.roll(x * 2, 3, axis=1) + 1
    assert launches(r) == 1
    assert_same(r, np.roll(a * 2, 3, axis=1) + 1)
    p = lazycl.pad(x, 2, mode="reflect").sum(axis=0)
    assert launches(p) == 1
    assert_same(p, np.pad(a, 2, mode="reflect").sum(axis=0), rtol=1e-5)
    t = lazycl.tile(x, (2, 3)) * lazycl.repeat(lazycl.ones((64, 1), dtype="float32", device=dev), 96, axis=1)[:1]
    assert launches(t) == 1
    c = lazycl.pad(x - 1, 1, constant_values=9)
    assert launches(c) == 1
    assert_same(c, np.pad(a - 1, 1, constant_values=9))


def test_numpy_functions_stay_lazy(dev):
    a = make("int32", (3, 4), seed=11)
    x = lz(a, dev)
    for r, ref in ((np.roll(x, 1), np.roll(a, 1)), (np.tile(x, 2), np.tile(a, 2)),
                   (np.repeat(x, 2), np.repeat(a, 2)), (np.pad(x, 1, mode="wrap"), np.pad(a, 1, mode="wrap"))):
        assert isinstance(r, lazycl.Array)
        assert_same(r, ref)


def test_errors(dev):
    x = lz(make("float32", (2, 3), seed=12), dev)
    with pytest.raises(ValueError, match="negative"):
        lazycl.repeat(x, [1, -1], axis=0)
    with pytest.raises(ValueError):
        lazycl.repeat(x, [1, 2, 3], axis=0)
    with pytest.raises(ValueError):
        lazycl.tile(x, -1)
    with pytest.raises(np.exceptions.AxisError):
        lazycl.roll(x, 1, axis=2)
