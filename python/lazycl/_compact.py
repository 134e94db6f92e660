"""The reads whose shape depends on the data: x[mask], nonzero, argwhere, flatnonzero, compress,
extract. Each writes the kept elements with a store kernel (graph/store.c, codegen/store.c)
whose slot for each is its running count of Trues: a compaction. The count of Trues (the
result's length, read to the host) comes first, or on GPUs from the store's own pass."""
import numpy as np

from . import _index, _lazycl as _c
from ._util import is_array as _is_array, norm_axis as _norm_axis


def _counts(flat):
    """A flat mask as the integers its running count is summed in: int32 where every count fits
    (half the bytes of int64), else int64."""
    return _c.astype(flat, "int32" if flat.shape[0] < 2**31 else "int64")


def _positions(m):
    """The flat mask's inclusive count (computed; _counts' dtype) and the number of Trues."""
    flat = _c.reshape(m, (-1,))
    if not flat.shape[0]:
        return flat, 0
    cs = _c._scan("cumsum", _counts(flat), 0)
    _c.compute(cs)
    return cs, int(np.asarray(cs[-1]))


def _slots(cs, shape):
    """The slot of each True (its running count - 1, clamped to 0 where the count is 0), shaped
    as `shape`."""
    pos = _c.reshape(_c._binary("subtract", cs, 1), shape)
    return _c.where(_c._binary("less", pos, 0), 0, pos)


# ---- data-dependent shapes -----------------------------------------------------------

# On CPUs a compaction over the whole (flat) mask runs as the hand-written one does: the mask in
# P chunks (rows of a (P, c) view, and a tail of fewer than P elements), each chunk's count in
# one pass (a reduction over the rows), the counts read to the host (the result's length, each
# chunk's first slot), then one pass in which an item per chunk walks it in order and writes
# every element at the current slot (the chunk's first plus the Trues before it), which the next
# kept element overwrites, up to the chunk's last kept one: a store in row order
# (LC_STORE_IN_ORDER) whose running count is a scan that only the store reads, computed in the
# store's kernel (fusion.h's LC_FUSE_SCAN_STORE) and never written. The mask is computed twice,
# the source read once, and nothing but the result is written; no branch on the mask.
_CHUNK_MIN = 256      # elements per chunk below which the plain scan and store serve
_IN_ORDER = -1        # graph.h's LC_STORE_IN_ORDER
_CLAMPED = -1         # graph.h's LC_GATHER_CLAMPED
_BOUNDED = -2         # graph.h's LC_GATHER_BOUNDED


class _Chunks:
    """The counts of a flat mask's chunks (computed): `carry` the first slot of each chunk and
    of the tail, `n` the number of Trues; `P` chunks of `c` elements, then the tail."""

    def __init__(self, flat, P):
        N = flat.shape[0]
        self.P, self.c = P, N // P
        head = self.P * self.c
        cnt = [_c._reduce("sum", _c.astype(_c.reshape(flat[:head], (P, self.c)), "int32"), (1,))]
        if head < N:
            cnt.append(_c._reduce("sum", _c.astype(flat[head:], "int32"), (0,)))
        _c.compute(*cnt)
        counts = np.concatenate([np.asarray(a, dtype=np.int64).reshape(-1) for a in cnt])
        self.carry = np.concatenate(([0], np.cumsum(counts)))
        self.n = int(self.carry[-1])


# On GPUs a compaction over a long flat mask is one store into a buffer of the mask's size,
# which computes the running count in its own pass (codegen/scan_lookback.c: tiles, each
# looking back for the count before it), writes each kept element at it, and writes the count
# too (the sum of the mask beside it: fusion.h's LC_FUSE_SCAN_TOTAL), read to the host after:
# the source and the mask are read once, nothing but the result is written. The result is the
# buffer's first n elements, or a copy of them when they are fewer than a quarter of it (so
# the buffer a result keeps is at most 4 times its size, and never more than its source's;
# the copy reads and writes at most a quarter of what the store did). With several
# coordinates to compact over one mask (nonzero of an n-d array), the Trues are counted first
# (_Count) and each coordinate takes the store alone. Shorter masks (no such schedule) take
# the scan and the store.
_ONE_PASS_MIN = 8192
_KEEP_VIEW = 4        # the result is a view of its buffer when it holds >= 1/_KEEP_VIEW of it


class _Count:
    """The number of Trues `n` of a flat mask (computed)."""

    def __init__(self, flat):
        self.n = int(np.asarray(_c._reduce("sum", _counts(flat), (0,))))


def _one_pass(m, src):
    """Whether src[m] (m of src's shape) takes the GPU's one-pass store: a mask long enough for
    its tiles, and a buffer of its size that _buffer_fits the device."""
    dev = src.device
    return (dev.schedule == "gpu" and m.size >= _ONE_PASS_MIN and
            _buffer_fits(m.size * np.dtype(src.dtype).itemsize, int(dev.max_alloc),
                         int(dev.global_mem)))


def _buffer_fits(nbytes, max_alloc, global_mem):
    """Whether a buffer of the mask's size (nbytes) may be allocated for a result that may be
    much smaller: it fits one allocation and takes at most an eighth of the device's memory
    (else the Trues are counted first and the result allocated at its size)."""
    return nbytes <= max_alloc and 8 * nbytes <= global_mem


def _exact_mask(m):
    """The count and the store each compute the mask, by different code (a SIMD reduction, a
    loop per chunk or tile): where those could differ in the last bit (transcendental math,
    normal random numbers, user functions), the mask is computed once and both read it."""
    if not _c._exact(m):
        _c.compute(m)


def _chunks(m, src_device):
    """_Chunks of m's flat mask on CPU targets when its chunks are long enough, its _Count on
    GPU targets when it is long enough, else None."""
    N = m.size
    gpu = src_device.schedule == "gpu"
    P = max(16, 2 * int(src_device.compute_units))
    if not N or N < (_ONE_PASS_MIN if gpu else P * _CHUNK_MIN):
        return None
    _exact_mask(m)
    flat = _c.reshape(m, (-1,))
    return _Count(flat) if gpu else _Chunks(flat, P)


def _compact_counting(src, m):
    """src[m] for a long mask of src's shape on GPUs: one store that writes the kept elements
    and their count (see above)."""
    _exact_mask(m)
    N = m.size
    out = _c._empty(src, (N,), np.dtype(src.dtype).name)
    fm = _c.reshape(m, (-1,))
    cnt = _counts(fm)
    total = _c._reduce("sum", cnt, (0,))
    _store_kept(out, fm, _c.reshape(src, (-1,)), cnt, total)   # the count forced with it
    n = int(np.asarray(total))
    if n * _KEEP_VIEW >= N:
        return out[:n]
    res = _c._copy(out[:n])
    _c.compute(res)
    return res


def _compact_one_pass(src, m, n):
    """src[m] for a mask of src's shape with n Trues: one store over the flat mask, the slot of
    each True its running count less one (held by nothing but this expression, so that the store
    computes it: fusion.h's LC_FUSE_SCAN_STORE)."""
    out = _c._empty(src, (n,), np.dtype(src.dtype).name)
    if n == 0:
        return out
    fm = _c.reshape(m, (-1,))
    _store_kept(out, fm, _c.reshape(src, (-1,)), _counts(fm))
    return out


def _store_kept(out, fm, fs, cnt, total=None):
    """fs where the flat mask fm holds into out, in order: one store whose slot for each kept
    element is its running count of Trues (cnt, fm's counts) less one. That slot is in range
    where the mask holds; the gather clamps the others' (-1 before the first True), never checks
    it, and the store skips them. `total` (the Trues' count), when given, is forced with it."""
    slot = _c._binary("subtract", _c._scan("cumsum", cnt, 0), 1)
    _c._store(out, _c._gather(out, slot, 0, _CLAMPED), fs, fm, 0, 1, total)


def _compact_chunks(src, m, ch):
    """src[m] for a mask of src's shape, over m's chunks `ch` (see _Chunks)."""
    n, P, c = ch.n, ch.P, ch.c
    dt = np.dtype(src.dtype)
    out = _c._empty(src, (n,), dt.name)
    if n == 0:
        return out
    slots = _c.reshape(out, (n, 1))
    fm, fs = _c.reshape(m, (-1,)), _c.reshape(src, (-1,))
    head = P * c
    counts = np.diff(ch.carry)
    parts = [(fm[:head], fs[:head], (P, c), slice(0, P))]
    if head < fm.shape[0]:
        parts.append((fm[head:], fs[head:], (1, fm.shape[0] - head), slice(P, P + 1)))
    for pm, ps, shape, rows in parts:
        pm, ps = _c.reshape(pm, shape), _c.reshape(ps, shape)
        col = (shape[0], 1)
        first = _c.asarray(ch.carry[rows].astype(np.int64).reshape(col), None, src.queue)
        cnt = _c.asarray(counts[rows].astype(np.int64).reshape(col), None, src.queue)
        one = _c.astype(pm, "int64")
        # The Trues before each element: the running count (held by nothing but this
        # expression: a scan held elsewhere would be written and kept, engine/keep.c) less
        # its own.
        before = _c._binary("subtract", _c._scan("cumsum", one, 1), one)
        # In range where the store writes: the predicate bounds `before` by the chunk's count,
        # and a row's writes end at its first false predicate, so the slot is neither checked
        # nor clamped (graph.h's LC_GATHER_BOUNDED: the clamp cost a quarter of the store).
        target = _c._gather(slots, _c._binary("add", first, before), 0, _BOUNDED)
        _c._store(out, target, ps, _c._binary("less", before, cnt), _IN_ORDER, 1)
    return out


def _compact(src, m, ch=None):
    """The elements of src (leading dims: m's) where m holds, in order. With a mask of src's
    shape, on CPUs over the mask's chunks (_Chunks, given or counted here; see above), on GPUs
    in one store that counts too (_compact_counting), or after the count when given (_Count).
    Otherwise a scan of the mask, then one store that writes each kept element at its running
    count (src computed inside it).

    On CPUs that store has no branch: the output has one spare row, where every element the mask
    drops is written (a branch on a random mask cost 7x the whole store on PoCL); the result is
    the other rows. The dropped elements all write zero there, not their own values, so the spare
    row holds the same bits whichever write lands last (Oclgrind reports such uniform writes only
    on request; different values would be a race). On GPUs, where a branch costs little and one
    spare address would serialize the writes, the store is predicated."""
    rest = tuple(src.shape[m.ndim:])
    if not rest and ch is None and _one_pass(m, src):
        return _compact_counting(src, m)
    if not rest and (ch is not None or (ch := _chunks(m, src.device)) is not None):
        if isinstance(ch, _Count):
            return _compact_one_pass(src, m, ch.n)
        return _compact_chunks(src, m, ch)
    cs, n = _positions(m)
    if n == 0 or 0 in rest:
        return _c._full(0, (n,) + rest, src.dtype, src.queue)
    spare = src.device.schedule != "gpu"
    rows = n + 1 if spare else n
    out = _c._empty(src, (rows,) + rest, np.dtype(src.dtype).name)
    shape = tuple(src.shape)
    mshape = tuple(m.shape) + (1,) * len(rest)
    pos = _slots(cs, mshape)
    if spare:
        pos = _c.where(_c.reshape(m, mshape), pos, n)
    idx = _c.broadcast_to(pos, shape) if tuple(pos.shape) != shape else pos
    t = _c._gather(_c.reshape(out, (rows,) + (1,) * (m.ndim - 1) + rest), idx, 0, 0)
    pred = None
    if not spare:
        pred = _c.reshape(m, mshape)
        if tuple(pred.shape) != shape:
            pred = _c.broadcast_to(pred, shape)
    if spare:
        src = _c.where(_c.reshape(m, mshape), src, _c._full(0, (), src.dtype, src.queue))
    _c._store(out, t, src, pred, 0, 1)
    return out[:n] if spare else out


def masked(x, m):
    """x[m] for a boolean mask over x's leading dims."""
    return _compact(x, m)


def nonzero(a):
    a = a if _is_array(a) else _c.asarray(np.asarray(a), None, None)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar)"
                         ".nonzero() instead. If the context of this error is of the form "
                         "`arr[nonzero(cond)]`, just use `arr[cond]`.")
    m = _c.astype(a, "bool") if np.dtype(a.dtype) != np.bool_ else a
    shape = tuple(a.shape)
    # Counted once for every coordinate (a 1-d mask's one coordinate counts in its store).
    ch = _chunks(m, a.device) if a.ndim > 1 else None
    out = []
    for d in range(a.ndim):
        coord = _c.broadcast_to(_c.reshape(_c._iota(0, 1, shape[d], "int64", a.queue),
                                           (shape[d],) + (1,) * (a.ndim - d - 1)), shape)
        out.append(_compact(coord, m, ch))
    return tuple(out)


def argwhere(a):
    a = a if _is_array(a) else _c.asarray(np.asarray(a), None, None)
    if a.ndim == 0:
        m = _c.astype(a, "bool")
        return _c.reshape(_compact(_c._full(0, (1,), "int64", a.queue), _c.reshape(m, (1,))),
                          (-1, 0))
    return _stack_cols(nonzero(a))


def _stack_cols(cols):
    n = cols[0].shape[0]
    out = _c._full(0, (n, len(cols)), "int64", cols[0].queue)
    if n == 0:
        return out
    _c._writable(out)
    for d, c in enumerate(cols):
        _c._store(out, out[:, d], c, None, 0, 1)
    return out


def flatnonzero(a):
    a = a if _is_array(a) else _c.asarray(np.asarray(a), None, None)
    return nonzero(_c.reshape(a, (-1,)))[0]


def extract(condition, arr):
    arr = arr if _is_array(arr) else _c.asarray(np.asarray(arr), None, None)
    c = condition if _is_array(condition) else _c.asarray(np.asarray(condition), None, arr.queue)
    c = _c.reshape(_c.astype(c, "bool") if np.dtype(c.dtype) != np.bool_ else c, (-1,))
    a = _c.reshape(arr, (-1,))
    if c.shape[0] != a.shape[0]:
        raise ValueError("extract: condition and arr must have the same size")
    return masked(a, c)


def compress(condition, a, axis=None):
    a = a if _is_array(a) else _c.asarray(np.asarray(a), None, None)
    c = np.asarray(condition) if not _is_array(condition) else condition
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None:
        a = _c.reshape(a, (-1,))
        axis = 0
    axis = _norm_axis(axis, a.ndim)
    n = a.shape[axis]
    k = c.shape[0]
    if k > n:
        raise IndexError(f"index {n} is out of bounds for axis {axis} with size {n}")
    cm = c if _is_array(c) else _c.asarray(c.astype(bool), None, a.queue)
    cm = _c.astype(cm, "bool") if np.dtype(cm.dtype) != np.bool_ else cm
    if k < n:
        cm = _c.where(_c._binary("less", _c._iota(0, 1, n, "int64", a.queue), k),
                      _index.getitem(cm, (_c.where(_c._binary("less", _c._iota(0, 1, n, "int64",
                                                                               a.queue), k),
                                                   _c._iota(0, 1, n, "int64", a.queue), 0),)),
                      False)
    moved = _c.permute_dims(a, [axis] + [d for d in range(a.ndim) if d != axis])
    r = masked(moved, cm)
    back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, a.ndim))
    return _c.permute_dims(r, back)


__all__ = ["nonzero", "argwhere", "flatnonzero", "extract", "compress"]
