"""Numba `@njit(parallel=True)` versions of the workloads (benchmarks/run.py's numba column): a
workload's `numba` key names its function here."""
import numpy as np

from workloads import A

def numba_impls(numba):
    from numba import njit, prange

    @njit(parallel=True, fastmath=False)
    def axpy(x, y):
        out = np.empty_like(x)
        for i in prange(x.size):
            out[i] = np.float32(A) * x[i] + y[i]
        return out

    @njit(parallel=True)
    def chain(x, y):
        out = np.empty_like(x)
        for i in prange(x.size):
            a, b = x[i], y[i]
            out[i] = (a * np.float32(1.5) + b) * (a - b) / (np.float32(1) + a * a)
        return out

    @njit(parallel=True)
    def transc(x, y):
        out = np.empty_like(x)
        for i in prange(x.size):
            a, b = x[i], y[i]
            out[i] = np.exp(-a * a) * np.sqrt(b + np.float32(1)) + np.log1p(a)
        return out

    @njit(parallel=True)
    def l2(x, y):
        s = 0.0
        for i in prange(x.size):
            d = x[i] - y[i]
            s += d * d
        return np.float32(s)

    @njit(parallel=True)
    def softmax(x):
        m = -np.inf
        for i in prange(x.size):
            m = max(m, x[i])
        m32 = np.float32(m)
        out = np.empty_like(x)
        s = 0.0
        for i in prange(x.size):
            e = np.exp(x[i] - m32)
            out[i] = e
            s += e
        s32 = np.float32(s)
        for i in prange(x.size):
            out[i] = out[i] / s32
        return out

    @njit(parallel=True)
    def standardize(X):
        R, C = X.shape
        mean = np.zeros(C)
        sq = np.zeros(C)
        nb = 64
        for j0 in prange((C + nb - 1) // nb):      # column blocks, rows inner: contiguous rows
            for i in range(R):
                for j in range(j0 * nb, min(C, j0 * nb + nb)):
                    v = np.float64(X[i, j])
                    mean[j] += v
                    sq[j] += v * v
        m32 = np.empty(C, np.float32)
        s32 = np.empty(C, np.float32)
        for j in range(C):
            m = mean[j] / R
            m32[j] = m
            s32[j] = np.sqrt(max(sq[j] / R - m * m, 0.0))
        out = np.empty_like(X)
        for i in prange(R):
            for j in range(C):
                out[i, j] = (X[i, j] - m32[j]) / s32[j]
        return out

    @njit
    def cumsum(x):
        out = np.empty_like(x)
        s = 0.0
        for i in range(x.size):
            s += x[i] * x[i]
            out[i] = s
        return out

    return dict(axpy=axpy, chain=chain, transc=transc, l2=l2, softmax=softmax,
                standardize=standardize, cumsum=cumsum)
