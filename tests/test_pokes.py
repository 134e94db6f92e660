"""Writes that wait (engine/pokes.h, python/py_poke.c): x[i, j] = constant into an array no
pending graph reads is recorded, and every recorded element of a buffer is written by one
launch when something reads it. Each test compares with NumPy doing the same writes."""
import numpy as np
import pytest

import lazycl
from conftest import ALL_DTYPES, core, lz
from conftest import assert_same as same

COMPLEX = ["complex64", "complex128"]


def launches():
    return lazycl.stats()["launches"]


@pytest.mark.parametrize("dtype", core(ALL_DTYPES + COMPLEX))
def test_many_writes_one_launch(dev, dtype):
    h = (np.arange(60) % 7).astype(dtype).reshape(6, 10)
    x = lz(h, dev).compute()
    lazycl.reset_stats()
    vals = [1, 0, 5, 3, 2, 6]
    for i in range(6):
        for j in range(0, 10, 3):
            v = vals[(i + j) % 6]
            x[i, j] = v
            h[i, j] = v
    x[-1, -1] = True
    h[-1, -1] = True
    assert launches() == 0           # recorded, nothing run yet
    same(x, h)
    assert launches() == 1           # one launch wrote them all
    same(x, h)
    assert launches() == 1


def test_last_write_of_a_place_wins(dev):
    h = np.zeros(5, np.float64)
    x = lz(h, dev).compute()
    for v in (1.0, 2.0, -0.0, np.nan, 7.5):
        x[2] = v
        h[2] = v
    x[-3] = 9.0
    h[-3] = 9.0
    same(x, h)


def test_values_cast_as_numpy_assigns(dev):
    specs = [("int8", [3.9, -3.9, True, np.float32(-7.2), np.int64(5)]),
             ("uint64", [2 ** 64 - 1, 2 ** 63, 0]),
             ("float32", [1e-50, -0.0, np.float64(1.5), 3]),
             ("bool", [2, 0, 0.5, np.bool_(False)]),
             ("complex64", [1 + 2j, 3, -1.5]),
             ("int64", [np.array(7), np.uint8(200)])]
    for dt, vals in specs:
        h = np.zeros(len(vals), dt)
        x = lz(h, dev).compute()
        for i, v in enumerate(vals):
            x[i] = v
            h[i] = v
        same(x, h)


def test_errors_are_numpys(dev):
    x = lz(np.zeros((3, 4), np.int8), dev).compute()
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[3, 0] = 1
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1 with size 4"):
        x[0, -5] = 1
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
        x[0, 0] = 300
    with pytest.raises((TypeError, ValueError)):
        x[0, 0] = "a"
    with pytest.raises(TypeError):
        lz(np.zeros(2), dev).compute()[0] = 1 + 2j
    x[1, 1] = 4                       # still usable
    h = np.zeros((3, 4), np.int8)
    h[1, 1] = 4
    same(x, h)
    r = lazycl.broadcast_to(lz(np.zeros(3), dev).compute(), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        r[0, 0] = 1


def test_views_alias_and_see_the_writes(dev):
    h = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = lz(h, dev).compute()
    row, col, sub = x[1], x[:, 2], x[1:, ::2][1:]       # a view of a view too
    x[1, 2] = -1
    h[1, 2] = -1
    sub[0, 1] = 50                    # through the view of a view: x[2, 2]
    h[2, 2] = 50
    row[-1] = 7                       # through a view: x[1, 5]
    h[1, 5] = 7
    same(row, h[1])
    same(col, h[:, 2])
    same(sub, h[1:, ::2][1:])
    same(x, h)


def test_readers_built_before_keep_old_values_after_see_new(dev):
    h = np.arange(10, dtype=np.float64)
    x = lz(h, dev).compute()
    x[0] = 100.0                      # recorded
    before = x * 2                    # pending: sees x[0] = 100, not x[1] = 200 below
    x[1] = 200.0                      # a pending reader: taken by the general path
    after = x.sum()
    hb = h.copy()
    hb[0] = 100.0
    h_before = hb * 2
    hb[1] = 200.0
    same(before, h_before)
    same(after, np.asarray(hb.sum()))
    same(x, hb)


def test_order_with_general_writes_and_reads_of_the_array(dev):
    h = np.zeros((3, 5), np.int32)
    x = lz(h, dev).compute()
    x[0, 0] = 1                       # recorded
    x[0, :] += 2                      # a general store: the recorded write goes first
    x[0, 1] = 9                       # recorded after it
    x[1] = x[0]                       # reads x (after both)
    x[2, 4] = x[0, 0]                 # x[i] = x[j] reads before it writes
    x[0, 0] = 0
    h[0, 0] = 1
    h[0, :] += 2
    h[0, 1] = 9
    h[1] = h[0]
    h[2, 4] = h[0, 0]
    h[0, 0] = 0
    same(x, h)


def test_more_writes_than_a_record_holds(dev):
    n = 5000                          # past LC_POKES_MAX (4096): applied as it fills
    h = np.zeros(n, np.int64)
    x = lz(h, dev).compute()
    lazycl.reset_stats()
    for i in range(n):
        x[i] = i * 3
        h[i] = i * 3
    assert launches() == 1
    same(x, h)
    assert launches() == 2


def test_copy_on_write_takes_the_recorded_writes(dev):
    h = np.arange(6, dtype=np.float32)
    x = lz(h, dev).compute()
    x[0] = -1                         # recorded
    reader = x + 0                    # pending reader of x
    x[1] = -2                         # general path: x is copied for the reader
    h0 = h.copy()
    h0[0] = -1
    same(reader, h0)
    h0[1] = -2
    same(x, h0)


def test_export_and_compute_apply_them(dev):
    h = np.zeros(4, np.float32)
    x = lz(h, dev).compute()
    x[2] = 5
    h[2] = 5
    x.compute()
    x.queue.finish()
    same(x, h)
    x[3] = 6
    h[3] = 6
    np.testing.assert_array_equal(np.from_dlpack(x), h)
    x[0] = 1                          # and an array dropped with writes recorded
    del x


def test_zero_d_and_tuple_keys(dev):
    x = lz(np.array(1.5), dev).compute()
    x[()] = 4.0
    same(x, np.array(4.0))
    y = lz(np.zeros((2, 2, 2), np.uint16), dev).compute()
    y[np.int8(1), 0, -1] = 65535
    h = np.zeros((2, 2, 2), np.uint16)
    h[1, 0, -1] = 65535
    same(y, h)


def test_augmented_element_assignment_writes_once(dev):
    """`A[i, j] -= v` is A[i, j].__isub__(v), which writes A, then A[i, j] = that 0-d view
    of the same element: a no-op, not a second store."""
    h = np.arange(12, dtype=np.float64).reshape(3, 4)
    x = lz(h, dev).compute()
    lazycl.reset_stats()
    x[1, 2] -= 5
    assert launches() == 1
    x[1, 2] *= x[0, 3]
    x[2, 1] = x[2, 1]                 # itself: nothing to do
    x[0, 0] = x[2, 3]                 # another element: a store
    h[1, 2] -= 5
    h[1, 2] *= h[0, 3]
    h[0, 0] = h[2, 3]
    same(x, h)
