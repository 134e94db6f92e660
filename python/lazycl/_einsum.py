"""einsum: any contraction of transposes, diagonals, batched products and sums, as views and the
products' contraction (_linalg._contract): 'ij,jk->ik' is exactly matmul's kernel (the GEMM
schedule where it fits), and small contractions fuse into their consumers.

Three or more operands are contracted pairwise in the order NumPy's optimize=True chooses
(numpy.einsum_path, 'greedy', asked about the shapes only), whatever `optimize` says: the order
changes the cost, not the result (but for rounding)."""
import string

import numpy as np

from . import _creation, _lazycl as _c, _util as _u, _write
from ._indexmaps import diagonal
from ._linalg import _contract, _on_device_of

_LETTERS = string.ascii_letters


def _sublist_form(args):
    """einsum(op0, sublist0, op1, sublist1, ..., [sublistout]) as a subscripts string."""
    ops, terms = [], []
    args = list(args)
    out = args.pop() if len(args) % 2 else None

    def letters(sub):
        r = []
        for s in sub:
            if s is Ellipsis:
                r.append("...")
            elif isinstance(s, (int, np.integer)) and 0 <= s < len(_LETTERS):
                r.append(_LETTERS[s])
            else:
                raise ValueError("einsum: subscripts in the sublist form are integers in "
                                 f"[0, {len(_LETTERS)}) or Ellipsis")
        return "".join(r)
    for i in range(0, len(args), 2):
        ops.append(args[i])
        terms.append(letters(args[i + 1]))
    subs = ",".join(terms) + ("->" + letters(out) if out is not None else "")
    return subs, ops


def _parse(subscripts, ops):
    """([input terms as lists of letters], output term), ellipses expanded to letters."""
    subs = subscripts.replace(" ", "")
    if "->" in subs:
        lhs, rhs = subs.split("->")
        explicit = True
    else:
        lhs, rhs, explicit = subs, "", False
    terms = lhs.split(",")
    if len(terms) != len(ops):
        raise ValueError(f"einsum(): more operands were provided than specified in the "
                         f"subscripts string" if len(ops) > len(terms) else
                         "einsum(): fewer operands were provided than were specified in the "
                         "subscripts string")
    for ch in lhs.replace(",", "").replace(".", "") + rhs.replace(".", ""):
        if ch not in _LETTERS:
            raise ValueError(f"einsum(): invalid subscript '{ch}' in einstein sum subscripts "
                             "string, subscripts must be letters")
    used = set(lhs + rhs)
    spare = [ch for ch in _LETTERS if ch not in used]
    ell_nd = 0
    out_terms = []
    for t, x in zip(terms, ops):
        if "..." in t:
            nd = x.ndim - (len(t) - 3)
            if nd < 0:
                raise ValueError("einsum(): operand has more dimensions than subscripts given in "
                                 "einstein sum")
            ell_nd = max(ell_nd, nd)
            out_terms.append((t, nd))
        else:
            if len(t) != x.ndim:
                raise ValueError(f"einsum(): the number of subscripts in the equation ({len(t)}) "
                                 f"does not match the number of dimensions ({x.ndim}) for "
                                 "operand")
            out_terms.append((t, 0))
    ell = spare[:ell_nd]
    res = []
    for t, nd in out_terms:
        if "..." in t:
            a, b = t.split("...")
            res.append(list(a) + ell[ell_nd - nd:] + list(b))
        else:
            res.append(list(t))
    if explicit:
        if "..." in rhs:
            a, b = rhs.split("...")
            out = list(a) + ell + list(b)
        else:
            out = list(rhs)
        if len(set(out)) != len(out):
            raise ValueError("einsum(): output subscript appears more than once in the output")
        for ch in out:
            if not any(ch in t for t in res):
                raise ValueError(f"einsum(): output subscript '{ch}' does not appear in the "
                                 "input subscripts")
    else:
        flat = [ch for t in res for ch in t]
        out = ell + sorted(ch for ch in set(flat) if flat.count(ch) == 1 and ch not in ell)
    return res, out


def _diagonals(x, term):
    """x with each letter repeated within its term taken along the diagonal once."""
    term = list(term)
    while len(set(term)) != len(term):
        ch = next(c for c in term if term.count(c) > 1)
        i = term.index(ch)
        j = term.index(ch, i + 1)
        if x.shape[i] != x.shape[j]:
            raise ValueError("einsum(): dimensions in operand for collapsing index '%s' don't "
                             "match (%d != %d)" % (ch, x.shape[i], x.shape[j]))
        x = diagonal(x, 0, i, j)
        term = [c for k, c in enumerate(term) if k not in (i, j)] + [ch]
    return x, term


def _sum_out(x, term, keep):
    """x summed over the letters of its term not in `keep`."""
    axes = tuple(i for i, ch in enumerate(term) if ch not in keep)
    if not axes:
        return x, term
    if x.dtype == np.bool_:
        x = _c._reduce("any", x, axes)
    else:
        x = _c._reduce("sum", x, axes)
    return x, [ch for ch in term if ch in keep]


def _pair(x, tx, y, ty, keep, dt):
    """The contraction of two operands over their shared letters not in `keep`: the result and
    its term (shared letters kept, then x's own, then y's own)."""
    x, tx = _sum_out(x, tx, keep | set(ty))
    y, ty = _sum_out(y, ty, keep | set(tx))
    shared = [ch for ch in tx if ch in ty]
    batch = [ch for ch in shared if ch in keep]
    con = [ch for ch in shared if ch not in keep]
    fa = [ch for ch in tx if ch not in ty]
    fb = [ch for ch in ty if ch not in tx]
    for ch in shared:
        n1, n2 = x.shape[tx.index(ch)], y.shape[ty.index(ch)]
        if n1 != n2 and 1 not in (n1, n2):
            raise ValueError(f"einsum(): operands could not be broadcast together: subscript "
                             f"'{ch}' has sizes {n1} and {n2}")
    xs = dict(zip(tx, x.shape))
    ys = dict(zip(ty, y.shape))
    x2 = _c.reshape(_c.permute_dims(x, [tx.index(ch) for ch in batch + fa + con]),
                    [xs[ch] for ch in batch + fa] + [1] * len(fb) + [xs[ch] for ch in con])
    y2 = _c.reshape(_c.permute_dims(y, [ty.index(ch) for ch in batch + fb + con]),
                    [ys[ch] for ch in batch] + [1] * len(fa) + [ys[ch] for ch in fb + con])
    if con:
        # a contracted letter of size 1 on one side broadcasts: give both the larger size
        shape = np.broadcast_shapes(tuple(x2.shape), tuple(y2.shape))
        x2 = _c.broadcast_to(x2, tuple(x2.shape[:len(shape) - len(con)]) + shape[len(shape) - len(con):])
        y2 = _c.broadcast_to(y2, tuple(y2.shape[:len(shape) - len(con)]) + shape[len(shape) - len(con):])
    return _contract(x2, y2, len(con), dt), batch + fa + fb


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """numpy.einsum: transposes, diagonals, sums and products of any number of operands."""
    if order not in ("K", "C", "A"):
        raise NotImplementedError(f"lazycl: einsum writes C-ordered results (order={order!r})")
    if not operands:
        raise TypeError("einsum() missing required argument 'subscripts' (pos 0)")
    if isinstance(operands[0], str):
        subscripts, ops = operands[0], list(operands[1:])
    else:
        subscripts, ops = _sublist_form(operands)
    first = next((o for o in ops if _u.is_array(o)), None)
    ops = [_on_device_of(o, first) if first is not None else _creation.asarray(o) for o in ops]
    if dtype is None:
        dt = np.result_type(*[o.dtype for o in ops])
    else:
        dt = np.dtype(dtype)
        for o in ops:
            if not np.can_cast(o.dtype, dt, casting):
                raise TypeError(f"Cannot cast array data from dtype('{o.dtype}') to "
                                f"dtype('{dt}') according to the rule '{casting}'")
    if dt.kind not in "biufc":
        raise TypeError(f"lazycl: einsum of dtype {dt} is not supported")
    terms, outt = _parse(subscripts, ops)
    items = []
    for x, t in zip(ops, terms):
        x, t = _diagonals(_c.astype(x, dt), t)
        items.append((x, t))
    if len(items) > 2:
        dummies = [np.broadcast_to(np.zeros((), dt), tuple(x.shape)) for x, _ in items]
        spec = ",".join("".join(t) for _, t in items) + "->" + "".join(outt)
        path = np.einsum_path(spec, *dummies, optimize="greedy")[0][1:]
    else:
        path = [tuple(range(len(items)))]
    for step in path:
        picked = [items[i] for i in sorted(step)]          # in the operands' order
        items = [it for i, it in enumerate(items) if i not in step]
        rest = set(outt) | {ch for _, t in items for ch in t}
        x, tx = picked[0]
        for j in range(1, len(picked)):
            y, ty = picked[j]
            others = {ch for _, t in picked[j + 1:] for ch in t}
            x, tx = _pair(x, tx, y, ty, rest | others, dt)
        if len(picked) == 1:
            x, tx = _sum_out(x, tx, rest)
        items.append((x, tx))
    (x, tx), = items
    x, tx = _sum_out(x, tx, set(outt))
    r = _c.permute_dims(x, [tx.index(ch) for ch in outt]) if tx != outt else x
    if out is not None:
        return _write.assign_out(_u.out_of(out), r, "einsum", casting=casting)
    return r


__all__ = [
    "einsum",
]
