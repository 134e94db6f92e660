"""einsum and lazycl.linalg against NumPy: contractions, diagonals, sums, ellipses, three or more
operands in NumPy's optimized order, the sublist form and NumPy's errors; vector and matrix
norms, cross, trace, diagonal; fusion by launch counts."""
import math
import warnings

import numpy as np
import pytest

import lazycl
from conftest import assert_same, lz, make

EINSUMS = [("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(30, 40), (40, 50)]), ("ii->i", [(4, 4)]),
           ("ii", [(4, 4)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]),
           ("bij,bjk->bik", [(2, 3, 20), (2, 20, 5)]), ("i,i->", [(5,), (5,)]),
           ("i,j->ij", [(3,), (4,)]), ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
           ("ij,jk,kl->il", [(10, 20), (20, 30), (30, 5)]), ("ijk,jl,lk->i", [(3, 4, 5), (4, 6), (6, 5)]),
           ("iij->j", [(3, 3, 4)]), ("ij,ij->i", [(3, 4), (3, 4)]),
           ("abc,cd,de->abe", [(2, 3, 4), (4, 5), (5, 2)]), ("i...->...", [(3, 2, 2)])]


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_einsum(dev, dtype):
    for i, (spec, shapes) in enumerate(EINSUMS):
        if dtype != "float64" and i % 2:
            continue
        ops = [make(dtype, s, seed=10 * i + j) for j, s in enumerate(shapes)]
        tol = dict(rtol=1e-12, atol=1e-12) if dtype == "float64" else {}
        assert_same(lazycl.einsum(spec, *[lz(o, dev) for o in ops]), np.einsum(spec, *ops), **tol)
    x = make("float64", (3, 4), seed=3)
    X = lz(x, dev)
    assert_same(np.einsum(X, [0, 1], X, [2, 1], [0, 2]), np.einsum(x, [0, 1], x, [2, 1], [0, 2]),
                rtol=1e-12, atol=1e-12)


def test_einsum_errors(dev):
    for spec, shapes in [("ij,jk->ik", [(3, 4), (5, 6)]), ("ij->k", [(3, 4)]), ("ij", [(3,)]),
                         ("ij,jk", [(3, 4)]), ("ij->ii", [(3, 3)]), ("i1->i", [(3, 3)])]:
        ops = [np.ones(s) for s in shapes]
        with pytest.raises(Exception) as want:
            np.einsum(spec, *ops)
        with pytest.raises(want.type):
            lazycl.einsum(spec, *[lz(o, dev) for o in ops]).compute()


def test_einsum_is_the_product_kernel(dev):
    """'ij,jk->ik' is matmul's kernel; a bias and relu after it run in its epilogue."""
    a, b = make("float32", (96, 80), seed=1), make("float32", (80, 72), seed=2)
    A, B = lz(a, dev), lz(b, dev)
    lazycl.compute(A, B)
    lazycl.reset_stats()
    r = lazycl.maximum(lazycl.einsum("ij,jk->ik", A, B) - 1, 0)
    r.compute()
    assert lazycl.stats()["launches"] == 1
    assert_same(r, np.maximum(a @ b - 1, 0), rtol=1e-5, atol=1e-3)


def test_norms(dev):
    v = make("float64", (5, 6), seed=4)
    V = lz(v, dev)
    t = dict(rtol=1e-12, atol=1e-12)
    for o in [None, 1, 2, math.inf, -math.inf, 0, 3, -1]:
        assert_same(np.linalg.norm(V[0], o), np.linalg.norm(v[0], o), **t)
    for o in [None, "fro", 1, -1, math.inf, -math.inf]:
        assert_same(np.linalg.norm(V, o), np.linalg.norm(v, o), **t)
        assert_same(np.linalg.norm(V, o, axis=(1, 0), keepdims=True),
                    np.linalg.norm(v, o, axis=(1, 0), keepdims=True), **t)
    assert_same(np.linalg.norm(V, axis=1), np.linalg.norm(v, axis=1), **t)
    assert_same(np.linalg.norm(V, keepdims=True), np.linalg.norm(v, keepdims=True), **t)
    i = make("int16", (7, 3), seed=5)
    assert_same(lazycl.linalg.vector_norm(lz(i, dev), axis=0), np.linalg.vector_norm(i, axis=0), **t)
    assert_same(lazycl.linalg.vector_norm(V, axis=(0, 1), ord=3),
                np.linalg.vector_norm(v, axis=(0, 1), ord=3), **t)
    assert_same(lazycl.linalg.matrix_norm(V, ord=1), np.linalg.matrix_norm(v, ord=1), **t)
    f = make("float32", (4, 9), seed=6)
    assert_same(np.linalg.norm(lz(f, dev), axis=0), np.linalg.norm(f, axis=0), rtol=1e-6, atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lazycl.HostFallbackWarning)
        for ord in (2, -2, "nuc"):                 # singular values from the host
            assert_same(np.linalg.norm(V, ord), np.linalg.norm(v, ord), **t)
    with pytest.raises(ValueError):
        np.linalg.norm(lz(np.ones((2, 2, 2)), dev), 1)
    with pytest.raises(ValueError):
        np.linalg.norm(V[0], "fro")


def test_cross_trace_diagonal(dev):
    a, b = make("float64", (4, 3), seed=7), make("float64", (4, 3), seed=8)
    A, B = lz(a, dev), lz(b, dev)
    assert_same(np.cross(A, B), np.cross(a, b), rtol=1e-12, atol=1e-12)
    assert_same(lazycl.linalg.cross(A.T, B.T, axis=0), np.cross(a.T, b.T, axis=0), rtol=1e-12,
                atol=1e-12)
    assert_same(lazycl.linalg.cross(A, B[0]), np.cross(a, b[0]), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError):
        lazycl.linalg.cross(lz(np.ones((2, 4)), dev), lz(np.ones((2, 4)), dev))
    m = make("int32", (2, 5, 5), seed=9)
    assert_same(lazycl.linalg.trace(lz(m, dev)), np.linalg.trace(m))
    assert_same(lazycl.linalg.trace(lz(m, dev), offset=1), np.linalg.trace(m, offset=1))
    assert_same(lazycl.linalg.diagonal(lz(m, dev), offset=-1), np.linalg.diagonal(m, offset=-1))
    assert_same(lazycl.linalg.outer(A[0], B[1]), np.linalg.outer(a[0], b[1]), rtol=1e-12)


def test_norm_of_a_small_k_product_fuses(dev):
    """norm(Vd @ C, axis=0) with K = 3: one reduction computes the product (no p x S buffer)."""
    vd, c = make("float32", (20000, 3), seed=1), make("float32", (3, 300), seed=2)
    VD, C = lz(vd, dev), lz(c, dev)
    lazycl.compute(VD, C)
    lazycl.reset_stats()
    n = np.linalg.norm(VD @ C, axis=0)
    n.compute()
    s = lazycl.stats()
    assert s["buffers_allocated"] + s["pool_hits"] <= 2      # the norms (and a split's partials)
    assert s["launches"] <= 2
    assert_same(n, np.linalg.norm(vd @ c, axis=0), rtol=1e-5, atol=1e-4)
