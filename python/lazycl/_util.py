"""The bottom layer of the package: the helpers every module shares, written once.

It imports only NumPy and the extension (_lazycl); every other module may import it. Each
helper raises NumPy's exception with NumPy's message, so that a caller needs no checks of its
own."""
import numbers
import operator

import numpy as np

from . import _lazycl as _c

AxisError = np.exceptions.AxisError


def is_array(x):
    """Whether x is a lazycl array (the C base type, which the registered subclass
    lazycl.Array of _array.py extends)."""
    return isinstance(x, _c.ArrayBase)


def as_array(x, queue=None):
    """x as it is when it is a lazycl array, else x uploaded (scalars and sequences with
    NumPy's dtype for them) to `queue` (None: the default device)."""
    return x if isinstance(x, _c.ArrayBase) else _c.asarray(x, None, queue)


def queue_of(*xs):
    """The queue of the first lazycl array among xs, or None when there is none."""
    for x in xs:
        if isinstance(x, _c.ArrayBase):
            return x.queue
    return None


def float_of(dt):
    """The dtype of a float result computed from dtype dt (NumPy's mean, angle): dt itself when
    it is a float or complex dtype, else float64."""
    return dt if dt.kind in "fc" else np.dtype(np.float64)


# ---- axes --------------------------------------------------------------------------------

def norm_axis(axis, ndim, msg_prefix=None):
    """axis in [0, ndim) from NumPy's [-ndim, ndim); anything else is NumPy's AxisError (with
    `msg_prefix`, the argument's name, as NumPy's normalize_axis_index gives it)."""
    a = operator.index(axis)
    if a < -ndim or a >= ndim:
        raise AxisError(a, ndim, msg_prefix)
    return a + ndim if a < 0 else a


def norm_axes(axis, ndim):
    """A sorted tuple of distinct non-negative axes; None means all. Like NumPy, a 0-d array
    takes axis 0 (or -1) as "all of it"; a repeated axis is NumPy's ValueError."""
    if axis is None:
        return tuple(range(ndim))
    if ndim == 0 and not isinstance(axis, (tuple, list)) and operator.index(axis) in (0, -1):
        return ()
    if isinstance(axis, (tuple, list)):
        axes = tuple(norm_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    return (norm_axis(axis, ndim),)


def norm_axis_tuple(axis, ndim, argname=None):
    """NumPy's normalize_axis_tuple: axes in the order given (None: all), non-negative; a
    repeated axis is its ValueError."""
    if axis is None:
        return tuple(range(ndim))
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    axes = tuple(norm_axis(a, ndim, argname) for a in axis)
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else
                         "repeated axis")
    return axes


def shape_tuple(shape):
    """A shape argument (an integer or a sequence of them) as a tuple of ints."""
    if isinstance(shape, numbers.Integral) or hasattr(shape, "__index__"):
        return (operator.index(shape),)
    return tuple(operator.index(s) for s in shape)


# ---- out= and order= ---------------------------------------------------------------------

def no_out(out):
    """Functions that take no out=: NumPy's signature has one, lazycl's result is new."""
    if out is not None:
        raise TypeError("lazycl does not take out= here: assign the result instead "
                        "(out[...] = result)")


def out_of(out):
    """out= of a reduction, scan or ufunc method: None, or one array (lazycl or NumPy; a
    1-tuple is unpacked), as NumPy checks it."""
    if out is None:
        return None
    if isinstance(out, tuple):
        if len(out) != 1:
            raise TypeError("lazycl: out= takes one array")
        out = out[0]
    if not (isinstance(out, (_c.ArrayBase, np.ndarray))):
        raise TypeError("return arrays must be of ArrayType")
    return out


def check_order(order, allowed="KAC"):
    """lazycl arrays have no memory order a user can choose: NumPy's C-like orders pass, and
    Fortran order raises rather than being ignored."""
    if order is not None and (not isinstance(order, str) or order.upper() not in allowed):
        if isinstance(order, str) and order.upper() == "F":
            raise NotImplementedError("lazycl arrays are laid out in C order only (order='F')")
        raise ValueError(f"order must be one of {', '.join(repr(o) for o in allowed)}, "
                         f"not {order!r}")


# ---- NumPy dispatch ----------------------------------------------------------------------

# {NumPy function: lazycl's}, for the functions whose lazycl implementation is not the
# namespace's function of the same name (numpy.linalg's); _dispatch.py reads it.
IMPLEMENTS = {}


def implements(np_func):
    """Decorator: the function is lazycl's implementation of the NumPy function np_func, to
    which np_func(lazycl array) dispatches (__array_function__). np_func None (a name the
    running NumPy lacks) registers nothing."""
    def register(f):
        if np_func is not None:
            IMPLEMENTS[np_func] = f
        return f
    return register
