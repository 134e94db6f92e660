"""The suite's selection rows (benchmarks/workloads.py): top_k, and the seed's sparse PCA
(examples/sparse_pca.py) in its batched and loop forms, with each peer's own spelling where
the NumPy code does not run unchanged, and the checks of their (values, indices) and
(opt_x, best value, best column) results."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))

import sparse_pca  # noqa: E402

TOPK = 16
SPCA_D, SPCA_K = 3, 10
SPCA_LOOP_P, SPCA_LOOP_EPS = 1000, 0.5


# ---- top_k -----------------------------------------------------------------------------------

def f_topk(ns, x):
    """(values, indices) of the TOPK largest along the last axis, largest first."""
    return ns.top_k(x, TOPK)


def argpartition_top_k(mod):
    """NumPy's spelling of top_k (CuPy's too): argpartition, then sort the k picked."""
    def top_k(x, k):
        i = mod.argpartition(x, x.shape[-1] - k, axis=-1)[..., x.shape[-1] - k:]
        v = mod.take_along_axis(x, i, axis=-1)
        o = mod.argsort(-v, axis=-1)
        return mod.take_along_axis(v, o, axis=-1), mod.take_along_axis(i, o, axis=-1)
    return top_k


def topk_check(x, k):
    """A check of (values, indices): the values must be exactly the k largest along the last
    axis, largest first (a selection computes nothing); the indices must be distinct and point
    at those values (equal values may come in any order)."""
    top = argpartition_top_k(np)(x, k)[0]

    def check_topk(r):
        if not isinstance(r, (tuple, list)) or len(r) != 2:
            return False, float("nan"), "not a (values, indices) pair"
        v, i = np.asarray(r[0]), np.asarray(r[1]).astype(np.int64)
        if v.shape != top.shape or i.shape != top.shape:
            return False, float("nan"), f"shapes {v.shape}, {i.shape} != {top.shape}"
        scale = float(np.max(np.abs(top))) or 1.0
        err = float(np.max(np.abs(v.astype(np.float64) - top))) / scale
        if not np.array_equal(v, top):
            return False, err, "values differ from the k largest"
        if i.min() < 0 or i.max() >= x.shape[-1]:
            return False, err, "index out of range"
        if not np.array_equal(np.take_along_axis(x, i, axis=-1), top):
            return False, err, "indices do not point at the values"
        s = np.sort(i, axis=-1)
        if np.any(s[..., 1:] == s[..., :-1]):
            return False, err, "repeated index"
        return True, err, ""
    return check_topk


# ---- sparse PCA --------------------------------------------------------------------------------

def f_spca(ns, Vd, C):
    """The batched form as every module runs it: (opt_x, best value, best column)."""
    return sparse_pca.spca_batched(ns.mod, Vd, C, SPCA_K)


def f_spca_loop(ns, Vd, C):
    """The seed's loop form, one direction at a time: opt_x."""
    return sparse_pca.spca_loop(ns.mod, Vd, C, SPCA_K)


def spca_jax(jax):
    """The batched form in JAX, jitted whole: jax.lax.top_k along the last axis (so on A.T), the
    scatter as .at[].set; the best column stays on the device."""
    jnp = jax.numpy

    def f(ns, Vd, C):
        C = C / jnp.linalg.norm(C, axis=0)
        A = Vd @ C
        _, I = jax.lax.top_k(jnp.abs(A).T, SPCA_K)                  # S x k
        vals = jnp.linalg.norm(jnp.take_along_axis(A.T, I, axis=1), axis=1)
        best = jnp.argmax(vals)
        rows = I[best]
        opt_x = jnp.zeros((Vd.shape[0], 1), A.dtype).at[rows, 0].set(A[rows, best] / vals[best])
        return opt_x, vals[best], best
    return f


def spca_torch(torch):
    """The batched form in PyTorch: torch.topk along dim 0, gather, the scatter by indexing."""
    def f(ns, Vd, C):
        C = C / torch.linalg.norm(C, dim=0)
        A = Vd @ C
        I = torch.topk(A.abs(), SPCA_K, dim=0).indices               # k x S
        vals = torch.linalg.norm(torch.gather(A, 0, I), dim=0)
        best = int(torch.argmax(vals))
        rows = I[:, best]
        opt_x = torch.zeros((Vd.shape[0], 1), dtype=A.dtype, device=A.device)
        opt_x[rows, 0] = A[rows, best] / vals[best]
        return opt_x, float(vals[best]), best
    return f


def spca_inputs(rng, p, S, dtype):
    Vd = (rng.random((p, SPCA_D)) - 0.5).astype(dtype)
    C = sparse_pca.directions(SPCA_D, S).astype(dtype)
    return Vd, C


def spca_check(Vd, C, rtol):
    """A check of (opt_x, best value, best column) against float64 NumPy: the best column must be
    NumPy's, or one whose value is within rtol of the best (a tie at the inputs' precision,
    said in the note); the value and opt_x must be that column's. The column values are
    computed in blocks of columns (the p x S product is not held whole)."""
    V64, C64 = Vd.astype(np.float64), C.astype(np.float64)
    Cn = C64 / np.linalg.norm(C64, axis=0)
    p, S = V64.shape[0], Cn.shape[1]
    k = SPCA_K
    cache = {}

    def col(j):
        a = V64 @ Cn[:, j]
        rows = np.argpartition(np.abs(a), p - k)[p - k:]
        val = float(np.linalg.norm(a[rows]))
        x = np.zeros((p, 1))
        x[rows, 0] = a[rows] / val
        return val, x

    def values():
        if "vals" not in cache:
            vals = np.empty(S)
            step = max(1, (1 << 25) // p)
            for j0 in range(0, S, step):
                A = V64 @ Cn[:, j0:j0 + step]
                I = np.argpartition(np.abs(A), p - k, axis=0)[p - k:]
                vals[j0:j0 + step] = np.linalg.norm(np.take_along_axis(A, I, axis=0), axis=0)
            cache["vals"] = vals
        return cache["vals"]

    def check_spca(r):
        if not isinstance(r, (tuple, list)) or len(r) != 3:
            return False, float("nan"), "not an (opt_x, value, column) triple"
        x, v, b = np.asarray(r[0], dtype=np.float64), float(np.asarray(r[1])), int(np.asarray(r[2]))
        vals = values()
        bref = int(np.argmax(vals))
        if not 0 <= b < S:
            return False, float("nan"), f"best column {b} out of range"
        note = ""
        if b != bref:
            if vals[b] < vals[bref] * (1 - rtol):
                return False, float("nan"), (f"best column {b} ({vals[b]:.7g}), NumPy's {bref} "
                                             f"({vals[bref]:.7g})")
            note = f"best column {b}, NumPy's {bref}: a tie within {rtol:g}"
        val, xr = col(b)
        if x.size != p:
            return False, float("nan"), f"opt_x has {x.size} elements, not {p}"
        err = max(abs(v - val) / val, float(np.max(np.abs(x.reshape(p, 1) - xr))))
        ok = bool(np.all(np.isfinite(x))) and err <= rtol
        return ok, err, note if ok else (note + "; " if note else "") + f"error {err:.3g}"
    return check_spca


def spca_loop_inputs(rng, p=SPCA_LOOP_P, eps=SPCA_LOOP_EPS):
    S = int(round((4.0 / eps) ** SPCA_D))
    Vd = rng.random((p, SPCA_D)) - 0.5
    C = sparse_pca.directions(SPCA_D, S)
    return Vd, C


def spca_flops(p, S):
    """The batched form's arithmetic: the product (2 d per element) and |.| (1): a FLOP count
    for the row's note, not a ceiling."""
    return p * S * (2 * SPCA_D + 1)


def spca_bytes(p, S, itemsize):
    """What must move: Vd and C read once, opt_x (float64) written once."""
    return (p * SPCA_D + SPCA_D * S) * itemsize + 8 * p

