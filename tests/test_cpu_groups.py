"""CPU work-groups (codegen/params.c: lc_small_group, lc_cpu_groups, lc_cpu_groups_nd): small
launches, PoCL's SIMD maps and reductions of one item per output run in groups of the
ladder 8, 64, 512, 4096 with every range rounded up and tested; maps of 2-3 dims run each row
in groups of the ladder within it, the last one shifted back to the row's end; longer 1-d item
maps (bool) keep the driver's groups. Lengths around the groups and prime counts (where the
driver, left to choose, runs a group per item) against NumPy. On GPUs the same tests run the
fixed groups."""
import numpy as np
import pytest

import lazycl

from conftest import assert_same, make


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_one_dim_lengths_across_groups(device, dtype):
    """1-d maps of lengths around the CPU groups (one group up to 4096 items, then groups of
    the ladder 8, 64, 512, 4096 with the range rounded up: the items past the end return) and
    of prime item counts (the driver, left to choose, ran a group per item): every element
    written once, none past the end."""
    for n in (1, 7, 8, 9, 4095, 4097, 8 * 4096 - 1, 8 * 4096 + 1, 8 * 4099, 8 * 4099 + 5,
              8 * 65537, 8 * 65537 + 3):
        a = make(dtype, n, seed=n)
        b = make(dtype, n, seed=n + 1)
        la, lb = lazycl.asarray(a, device=device), lazycl.asarray(b, device=device)
        if dtype == "bool":
            assert_same(la ^ lb, a ^ b)
        else:
            assert_same(la * 3 + lb, a * 3 + b)
            assert_same(lazycl.sin(la * 3 + lb) if dtype == "float32" else -la, np.sin(a * 3 + b)
                        if dtype == "float32" else -a, *((1e-6, 1e-6) if dtype == "float32" else ()))


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_strided_maps_across_groups(device, dtype):
    """2-d and 3-d maps over views (not one run of memory) on CPU groups of the ladder, every
    range rounded up and tested: rows of 7 of a prime number of rows, one row per group and
    many, a transposed view, 3-d."""
    for shape, key in (((3, 5), np.s_[:, 1:]), ((4099, 8), np.s_[:, :7]),
                       ((65537, 8), np.s_[::-1, 1:]), ((7, 4099), np.s_[:, 2:]),
                       ((9, 513, 3), np.s_[1:, :, ::2]), ((5, 4, 1031), np.s_[:, 1:3, :-1])):
        a = make(dtype, shape, seed=shape[0])
        x = lazycl.asarray(a, device=device)
        assert_same(x[key] * 3 - 1, a[key] * 3 - 1)
        assert_same(x.T[::-1] + 2, a.T[::-1] + 2)
        if dtype == "float32":
            assert_same(lazycl.exp(x[key] / 8), np.exp(a[key] / 8), 1e-6, 1e-6)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_rows_in_shifted_groups(device, dtype):
    """Maps of 2-3 dims on CPUs run each row in groups of a size of the ladder within it,
    the row's last group shifted back to end at the row's end (its first items compute and
    write again what the group before it wrote): rows one longer than a group, a group and
    a few, shorter than the ladder's first size, of one element; contiguous, a row
    broadcast, strided and reversed views; the SIMD maps (exp) with their 8 elements an
    item. Every element equals NumPy's; a slice written with the same values (a store:
    the driver's groups) keeps its neighbours."""
    for shape in ((3, 1000), (5, 513), (4099, 9), (7, 5), (2, 1), (3, 4097), (2, 3, 1003)):
        a = make(dtype, shape, seed=shape[-1])
        row = make(dtype, shape[-1:], seed=1)
        x, r = lazycl.asarray(a, device=device), lazycl.asarray(row, device=device)
        assert_same(x * 3 - r, a * 3 - row)
        assert_same(x[..., ::-1] + r, a[..., ::-1] + row)
        if dtype == "float32":
            assert_same(lazycl.exp(x / 8) - r, np.exp(a / 8) - row, 1e-6, 1e-6)
        wide = make(dtype, shape[:-1] + (shape[-1] + 6,), seed=2)
        w = lazycl.asarray(wide.copy(), device=device)
        w[..., 3:-3] = x * 2 + r
        want = wide.copy()
        want[..., 3:-3] = a * 2 + row
        assert_same(w, want)


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_many_rows_in_groups(device, dtype):
    """Reductions of one item per output (or per few outputs) over more rows than one CPU
    group holds: groups of the ladder with the range rounded up (the items past the last
    row return), prime row counts included (left to choose, the driver ran a group per
    row)."""
    for rows, n in ((4095, 3), (4097, 8), (8191, 16), (40961, 5), (65537, 2), (100003, 64)):
        a = np.random.default_rng(rows).integers(-50, 50, (rows, n)).astype(dtype)
        x = lazycl.asarray(a, device=device)
        assert_same(lazycl.sum(x, axis=1), a.sum(axis=1))
        assert_same(lazycl.max(x * 2, axis=1), (a * 2).max(axis=1))
        assert_same(lazycl.argmin(x, axis=1), a.argmin(axis=1))


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_strided_stores_across_groups(device, dtype):
    """Slice writes of 2 dims (the driver's groups; the ladder's cost jacobi_2d half again):
    a prime number of rows, inner slices, every element written once and only inside."""
    for shape in ((4099, 10), (65537, 6), (7, 4103)):
        a = make(dtype, shape, seed=shape[0])
        b = make(dtype, shape, seed=shape[1])
        x = lazycl.asarray(a.copy(), device=device)
        y = lazycl.asarray(b, device=device)
        x[1:-1, 1:-1] = y[1:-1, 1:-1] * 2
        want = a.copy()
        want[1:-1, 1:-1] = b[1:-1, 1:-1] * 2
        assert_same(x, want)
