"""Numba `@njit(parallel=True)` versions of the workloads (benchmarks/run.py's numba column): a
workload's `numba` key names its function here."""
import numpy as np

from workloads import A, BINS

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

    impl = dict(axpy=axpy, chain=chain, transc=transc, l2=l2, softmax=softmax,
                standardize=standardize, cumsum=cumsum)
    impl.update(more_impls(numba))
    return impl


def more_impls(numba):
    """Indexing, sorting, selection, products, random numbers and the sparse PCA: the loops a
    Numba user writes (np.sort / np.dot inside njit where Numba has them)."""
    from numba import njit, prange

    @njit(parallel=True)
    def gather(x, idx):
        out = np.empty(idx.size, x.dtype)
        for i in prange(idx.size):
            out[i] = x[idx[i]]
        return out

    @njit
    def compaction(x):
        return x[x > np.float32(0.5)]

    @njit(parallel=True)
    def bincount(idx, w):
        # one private set of bins per chunk, then their sum: no atomics
        nc = numba.get_num_threads()
        part = np.zeros((nc, BINS))
        n = idx.size
        step = (n + nc - 1) // nc
        for c in prange(nc):
            for i in range(c * step, min(n, c * step + step)):
                part[c, idx[i]] += w[i]
        out = np.zeros(BINS)
        for c in range(nc):
            out += part[c]
        return out

    @njit
    def sort(x):
        return np.sort(x)

    @njit
    def argsort(x):
        return np.argsort(x, kind="mergesort")     # stable, as the reference

    @njit(parallel=True)
    def sort_rows(X):
        out = np.empty_like(X)
        for i in prange(X.shape[0]):
            out[i] = np.sort(X[i])
        return out

    @njit
    def _insert(vals, idx, v, i):
        """v (at index i) into vals/idx, kept largest first, if it beats the smallest kept."""
        k = vals.size
        if v > vals[k - 1]:
            j = k - 1
            while j > 0 and vals[j - 1] < v:
                vals[j] = vals[j - 1]
                idx[j] = idx[j - 1]
                j -= 1
            vals[j] = v
            idx[j] = i

    @njit(parallel=True)
    def topk(x):
        k = 16
        nc = 4 * numba.get_num_threads()
        n = x.size
        step = (n + nc - 1) // nc
        cv = np.full((nc, k), -np.inf, dtype=x.dtype)
        ci = np.full((nc, k), -1, dtype=np.int64)
        for c in prange(nc):
            for i in range(c * step, min(n, c * step + step)):
                _insert(cv[c], ci[c], x[i], i)
        vals = np.full(k, -np.inf, dtype=x.dtype)
        idx = np.full(k, -1, dtype=np.int64)
        for c in range(nc):
            for j in range(k):
                if ci[c, j] >= 0:
                    _insert(vals, idx, cv[c, j], ci[c, j])
        return vals, idx

    @njit(parallel=True)
    def topk_rows(X):
        k = 16
        R, C = X.shape
        vals = np.full((R, k), -np.inf, dtype=X.dtype)
        idx = np.full((R, k), -1, dtype=np.int64)
        for r in prange(R):
            for i in range(C):
                _insert(vals[r], idx[r], X[r, i], i)
        return vals, idx

    @njit
    def matmul(A, B):
        return np.dot(A, B)

    @njit(parallel=True)
    def matmul_relu(A, B, b):
        r = np.dot(A, B)
        for i in prange(r.shape[0]):
            for j in range(r.shape[1]):
                v = r[i, j] + b[j]
                r[i, j] = v if v > 0 else np.float32(0)
        return r

    @njit(parallel=True)
    def matmul_norm(Vd, C):
        p, K = Vd.shape
        S = C.shape[1]
        out = np.empty(S, np.float32)
        for j in prange(S):
            s = np.float32(0)
            for i in range(p):
                a = np.float32(0)
                for d in range(K):
                    a += Vd[i, d] * C[d, j]
                s += a * a
            out[j] = np.sqrt(s)
        return out

    @njit(parallel=True)
    def random(tok, n):
        # Numba's generator (NumPy's algorithm, one state per thread), float64 draws
        s = 0.0
        for i in prange(n):
            z = np.random.standard_normal()
            s += z * z
        return np.float32(s / n)

    @njit(parallel=True)
    def randn(tok, n):
        out = np.empty(n, np.float32)
        for i in prange(n):
            out[i] = np.random.standard_normal()
        return out

    @njit(parallel=True)
    def jacobi_2d(A, B, steps):
        n = A.shape[0]
        for _ in range(steps):
            for i in prange(1, n - 1):
                for j in range(1, n - 1):
                    B[i, j] = 0.2 * (A[i, j] + A[i, j - 1] + A[i, j + 1] + A[i + 1, j] + A[i - 1, j])
            for i in prange(1, n - 1):
                for j in range(1, n - 1):
                    A[i, j] = 0.2 * (B[i, j] + B[i, j - 1] + B[i, j + 1] + B[i + 1, j] + B[i - 1, j])
        return A

    @njit
    def slicewrite(x, y, start, stop, step):
        x[start:stop:step] = y
        return x

    @njit(parallel=True)
    def spca(Vd, C, absval):
        """The sparse PCA, one direction per parallel iteration: the column of Vd @ c computed,
        its k largest (|a| batched, a in the seed's loop form) kept by insertion, their norm; then
        the best column (the first of equal ones) scattered into opt_x. Nothing p x S is stored."""
        k = 10
        p, d = Vd.shape
        S = C.shape[1]
        vals = np.empty(S)
        rows = np.empty((S, k), np.int64)
        for j in prange(S):
            nrm = 0.0
            for t in range(d):
                nrm += C[t, j] * C[t, j]
            nrm = np.sqrt(nrm)
            kv = np.full(k, -np.inf)
            ki = np.full(k, -1, np.int64)
            for i in range(p):
                a = 0.0
                for t in range(d):
                    a += Vd[i, t] * (C[t, j] / nrm)
                _insert(kv, ki, abs(a) if absval else a, i)
            s = 0.0
            for t in range(k):
                a = 0.0
                for u in range(d):
                    a += Vd[ki[t], u] * (C[u, j] / nrm)
                s += a * a
            vals[j] = np.sqrt(s)
            rows[j] = ki
        best = np.argmax(vals)
        nrm = np.sqrt(np.sum(C[:, best] * C[:, best]))
        opt_x = np.zeros((p, 1))
        for t in range(k):
            i = rows[best, t]
            a = 0.0
            for u in range(d):
                a += Vd[i, u] * (C[u, best] / nrm)
            opt_x[i, 0] = a / vals[best]
        return opt_x, vals[best], best

    def spca_loop(Vd, C):
        """The seed's loop form: the k largest of a (not |a|), opt_x alone."""
        return spca(Vd, C, False)[0]

    return dict(spca_loop=spca_loop, gather=gather, compaction=compaction, bincount=bincount, sort=sort,
                argsort=argsort, sort_rows=sort_rows, topk=topk, topk_rows=topk_rows,
                matmul=matmul, matmul_relu=matmul_relu, matmul_norm=matmul_norm,
                random=random, randn=randn, jacobi_2d=jacobi_2d,
                slicewrite=slicewrite, spca=spca)
