"""Views: reshapes, transposes, flips, broadcasts and the shape queries; none copies.

Layer: the core (package docstring); imports only the extension and _util."""
import numpy as np

from . import _lazycl as _c
from ._util import (
    as_array as _as, is_array as _is_array, norm_axes as _norm_axes, norm_axis as _norm_axis,
)


def broadcast_to(x, shape):
    """A read-only broadcast view of x, as NumPy's."""
    r = _c.broadcast_to(_as(x), shape)
    _c._set_readonly(r, 1)
    return r


def reshape(x, /, shape, *, copy=None):
    """x with a new shape (a view where NumPy would make one); copy=True makes a copy.
    copy=False is refused: lazycl cannot yet promise that a reshape makes no copy."""
    if copy is False:
        raise NotImplementedError("reshape(copy=False) is not supported: lazycl cannot tell "
                                  "whether the reshape copies")
    r = _c.reshape(x, shape)
    return _c._copy(r) if copy else r


def permute_dims(x, axes):
    """A transposed view; an axis out of range is NumPy's AxisError."""
    axes = tuple(axes)
    if _is_array(x) and len(axes) == x.ndim:
        axes = tuple(_norm_axis(a, x.ndim) for a in axes)
    return _c.permute_dims(x, axes)


def transpose(x, axes=None):
    return x.T if axes is None else permute_dims(x, axes)


def expand_dims(x, axis):
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    nd = x.ndim + len(axes)
    axes = sorted(_norm_axis(a, nd) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return _c.reshape(x, shape)


def squeeze(x, axis=None):
    if axis is None:
        return _c.reshape(x, [s for s in x.shape if s != 1])
    axes = _norm_axes(axis, x.ndim)
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return _c.reshape(x, [s for i, s in enumerate(x.shape) if i not in axes])


def flip(x, axis=None):
    axes = _norm_axes(axis, x.ndim)
    starts, steps, lens = [], [], []
    for d, n in enumerate(x.shape):
        if d in axes:
            starts.append(n - 1 if n else 0)
            steps.append(-1)
        else:
            starts.append(0)
            steps.append(1)
        lens.append(n)
    return _c._slice(x, starts, steps, lens)


def ravel(x, order="C"):
    """The elements in C order ('C', 'A', 'K': lazycl arrays have no memory order of their
    own) or Fortran order ('F')."""
    x = _as(x)
    if order == "F":
        return _c.reshape(permute_dims(x, tuple(reversed(range(x.ndim)))), (-1,))
    if order not in ("C", "A", "K", None):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))
    return _c.reshape(x, (-1,))


def swapaxes(x, a, b):
    a, b = _norm_axis(a, x.ndim), _norm_axis(b, x.ndim)
    axes = list(range(x.ndim))
    axes[a], axes[b] = axes[b], axes[a]
    return _c.permute_dims(x, axes)


def moveaxis(x, source, destination):
    """x with the axes `source` (an int or a sequence) moved to `destination`, as
    numpy.moveaxis: a transposed view."""
    def axes(a, name):
        a = tuple(a) if isinstance(a, (tuple, list)) else (a,)
        a = tuple(_norm_axis(i, x.ndim) for i in a)
        if len(set(a)) != len(a):
            raise ValueError(f"repeated axis in `{name}` argument")
        return a
    src, dst = axes(source, "source"), axes(destination, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of "
                         "elements")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _c.permute_dims(x, order)


def broadcast_arrays(*xs):
    shape = np.broadcast_shapes(*[x.shape for x in xs])
    return [broadcast_to(x, shape) for x in xs]


def shape(x):
    return x.shape


def ndim(x):
    return x.ndim


def size(x):
    return x.size


def reduce_axes(a, axis):
    """(a with the reduced axes moved to the end and flattened into one axis, the kept shape,
    the reduced axes sorted); axis None reduces all of them."""
    if axis is None:
        return _c.reshape(a, (a.size,)), (), tuple(range(a.ndim))
    given = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    axes = tuple(sorted(_norm_axis(x, a.ndim) for x in given))
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    keep = [d for d in range(a.ndim) if d not in axes]
    t = _c.permute_dims(a, keep + list(axes)) if keep + list(axes) != list(range(a.ndim)) else a
    kept = tuple(a.shape[d] for d in keep)
    n = 1
    for d in axes:
        n *= a.shape[d]
    return _c.reshape(t, kept + (n,)), kept, axes


__all__ = [
    "broadcast_to", "reshape", "permute_dims", "transpose", "expand_dims", "squeeze", "flip",
    "ravel", "swapaxes", "moveaxis", "broadcast_arrays", "shape", "ndim", "size",
]
