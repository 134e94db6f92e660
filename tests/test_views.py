"""Views against NumPy: reshape, transpose, broadcast, expand/squeeze, slicing, indexing, flip,
ravel; views of pending arrays stay pending, views of realized arrays allocate nothing."""
import numpy as np
import pytest

import lazycl

from conftest import assert_same, make

try:
    from numpy.exceptions import AxisError
except ImportError:  # NumPy < 1.25
    from numpy import AxisError

A = make("int32", (4, 6), 1)          # realized base
B = make("float64", (2, 3, 4), 2)


def realized(a):
    return lazycl.asarray(a).compute()


def pending(a):
    """A pending array with the values of `a` (a + 0 in the graph)."""
    r = lazycl.asarray(a) + np.zeros((), a.dtype)
    assert r.pending
    return r


VIEWS = {
    "reshape": lambda x: x.reshape(3, 8),
    "reshape_-1": lambda x: x.reshape(-1, 4),
    "reshape_tuple": lambda x: x.reshape((2, -1, 3)),
    "reshape_0d_size1": lambda x: x[:1, :1].reshape(()),
    "T": lambda x: x.T,
    "transpose_axes": lambda x: x.transpose(1, 0),
    "transpose_neg": lambda x: x.transpose((-1, -2)),
    "slice": lambda x: x[1:3, 2:],
    "slice_step": lambda x: x[::2, 1::3],
    "slice_neg_step": lambda x: x[::-1, ::-2],
    "slice_neg_bounds": lambda x: x[-3:-1, -5:],
    "slice_empty": lambda x: x[3:1],
    "slice_past_end": lambda x: x[2:100, -100:2],
    "int_index": lambda x: x[2],
    "int_index_neg": lambda x: x[-1, -2],
    "int_and_slice": lambda x: x[1:, 3],
    "none": lambda x: x[None, :, None],
    "ellipsis": lambda x: x[..., 1],
    "ellipsis_none": lambda x: x[..., None],
    "ellipsis_first": lambda x: x[1, ...],
    "chain": lambda x: x.T[::-1][1:4].reshape(-1)[::3],
    "T_reshape_copy": lambda x: x.T.reshape(4, 6),
    "slice_reshape_copy": lambda x: x[:, ::2].reshape(-1),
    "slice_then_T": lambda x: x[::-2, 1:5].T[1:],
}


COPIES = {"chain", "T_reshape_copy"}

KNOWN_BUGS = []


@pytest.mark.parametrize("name", list(VIEWS))
def test_view_of_realized(name):
    x = realized(A)
    lazycl.reset_stats()
    v = VIEWS[name](x)
    # A reshape that no strided layout expresses is a pending copy; the rest are views.
    assert v.pending == (name in COPIES)
    assert lazycl.stats()["buffers_allocated"] == 0
    assert v.shape == VIEWS[name](A).shape
    assert_same(v, VIEWS[name](A))


@pytest.mark.parametrize("name", list(VIEWS))
def test_view_of_pending(name):
    x = pending(A)
    v = VIEWS[name](x)
    assert v.pending
    assert x.pending
    assert_same(v, VIEWS[name](A))
    # Computing the view also works through an elementwise consumer.
    assert_same(VIEWS[name](pending(A)) * 2, VIEWS[name](A) * 2)


FUNCS = {
    "reshape": lambda m, x: m.reshape(x, (4, 6)),
    "permute_dims": lambda m, x: (m.permute_dims(x, (2, 0, 1)) if m is lazycl
                                  else np.permute_dims(x, (2, 0, 1))),
    "transpose": lambda m, x: m.transpose(x),
    "transpose_axes": lambda m, x: m.transpose(x, (1, 2, 0)),
    "broadcast_to": lambda m, x: m.broadcast_to(x[:, :1], (5, 2, 3, 4)),
    "broadcast_to_0d": lambda m, x: m.broadcast_to(x[0, 0, 0], (2, 2)),
    "expand_dims": lambda m, x: m.expand_dims(x, 1),
    "expand_dims_neg": lambda m, x: m.expand_dims(x, -1),
    "expand_dims_tuple": lambda m, x: m.expand_dims(x, (0, 3)),
    "squeeze": lambda m, x: m.squeeze(x[:1, :, 2:3]),
    "squeeze_axis": lambda m, x: m.squeeze(x[:1, :, 2:3], axis=2),
    "squeeze_method": lambda m, x: x[:1, :, 2:3].squeeze(0),
    "flip": lambda m, x: m.flip(x),
    "flip_axis": lambda m, x: m.flip(x, axis=1),
    "flip_axes": lambda m, x: m.flip(x, axis=(0, 2)),
    "ravel": lambda m, x: m.ravel(x),
    "ravel_T": lambda m, x: m.ravel(x.T),
    "flatten": lambda m, x: x.transpose(1, 0, 2).flatten(),
    "swapaxes": lambda m, x: m.swapaxes(x, 0, 2),
    "moveaxis": lambda m, x: m.moveaxis(x, 0, -1),
    "mT": lambda m, x: x.mT,
}


@pytest.mark.parametrize("name", list(FUNCS))
@pytest.mark.parametrize("kind", ["realized", "pending"])
def test_view_functions(name, kind):
    x = realized(B) if kind == "realized" else pending(B)
    lazycl.reset_stats()
    v = FUNCS[name](lazycl, x)
    if kind == "realized":
        assert lazycl.stats()["buffers_allocated"] == 0
    ref = FUNCS[name](np, B)
    assert v.shape == ref.shape
    assert_same(v, ref)
    # Through NumPy's own functions (__array_function__ keeps them lazy).
    if name in ("reshape", "transpose", "broadcast_to", "expand_dims", "squeeze", "flip",
                "ravel", "swapaxes", "moveaxis"):
        w = FUNCS[name](np, x)
        assert isinstance(w, lazycl.Array)
        assert_same(w, ref)


def test_views_of_empty_and_0d():
    e = np.zeros((3, 0), np.float32)
    le = realized(e)
    assert_same(le.T, e.T)
    assert_same(le.reshape(0, 5), e.reshape(0, 5))
    assert_same(le[1:, ::-1], e[1:, ::-1])
    assert_same(le.reshape(-1), e.reshape(-1))
    z = np.array(3.5)
    lz = realized(z)
    assert_same(lz.reshape(1, 1), z.reshape(1, 1))
    assert_same(lz[None], z[None])
    assert_same(lz[...], z[...])
    assert_same(lz.T, z.T)
    assert_same(lazycl.broadcast_to(lz, (2, 3)), np.broadcast_to(z, (2, 3)))


INT_KEYS = [1, -1, (0, 2), (-1, -3, -4), (np.int64(1), np.int32(-1)), (1, Ellipsis, 2),
            (None, 1, None, 2), (1, slice(None, None, -1)), (np.uint8(1), 2, np.intp(3)),
            (slice(1, None), 0), np.array(1), (0, np.array(-2))]


@pytest.mark.parametrize("key", INT_KEYS, ids=repr)
def test_integer_keys_like_numpy(key):
    """Integer keys (a realized buffer's view is one node, py_index.c): negative and NumPy
    integers, 0-d index arrays, with None and Ellipsis; realized, viewed and pending bases."""
    assert_same(realized(B)[key], B[key])
    assert_same(realized(B)[:, ::-1][key], B[:, ::-1][key])
    assert_same(pending(B)[key], B[key])


def test_integer_key_errors_and_writes():
    x = realized(B)
    for key, msg in [(2, "index 2 is out of bounds for axis 0 with size 2"),
                     ((0, -4), "index -4 is out of bounds for axis 1 with size 3"),
                     ((0, 0, 0, 0), "too many indices for array: array is 3-dimensional, but 4 "
                      "were indexed")]:
        with pytest.raises(IndexError) as want:
            B[key]
        assert str(want.value) == msg
        with pytest.raises(IndexError, match=msg):
            x[key]
    for key in (1.0, "a"):
        with pytest.raises(IndexError):
            x[key]
    for key in (True, np.False_):
        assert_same(x[key], B[key])                      # bool: a mask, not an integer
    v, w = x[1], x[1, 2, 3]
    x[1, 2, 3] = 7.0                                     # the views see a write, as NumPy's do
    ref = B.copy()
    ref[1, 2, 3] = 7.0
    assert_same(v, ref[1])
    assert_same(w, ref[1, 2, 3])
    assert_same(x[1, 2], ref[1, 2])


def test_negative_strides_of_numpy_input():
    a = make("int16", (5, 7), 3)[::-1, ::-2]
    la = lazycl.asarray(a)
    assert_same(la, a)
    assert_same(la[::-1], a[::-1])
    assert_same(la.T[1:, ::-1] + 1, a.T[1:, ::-1] + 1)


def test_view_keeps_base_alive():
    x = realized(A)
    v = x[1:, ::-1].T
    del x
    assert_same(v + 0, A[1:, ::-1].T)


def test_broadcast_arrays():
    a, b = make("float32", (3, 1), 4), make("float32", (1, 4), 5)
    la, lb = lazycl.broadcast_arrays(realized(a), realized(b))
    ra, rb = np.broadcast_arrays(a, b)
    assert_same(la, ra)
    assert_same(lb, rb)


# ---- errors ---------------------------------------------------------------------------

# Each case: a function of (namespace, array), run with (np, ndarray) and (lazycl, Array).
ERRORS = [
    (lambda m, x: x.reshape(5, 5), ValueError),
    (lambda m, x: x.reshape(-1, 5), ValueError),
    (lambda m, x: x.reshape(-1, -1), ValueError),
    (lambda m, x: x[0, 0, 0], IndexError),
    (lambda m, x: x[4], IndexError),
    (lambda m, x: x[-5], IndexError),
    (lambda m, x: x[:, 6], IndexError),
    (lambda m, x: x[..., ...], IndexError),
    (lambda m, x: x[::0], ValueError),
    (lambda m, x: x.transpose(0, 0), ValueError),
    (lambda m, x: m.transpose(x, (0, 2)), AxisError),
    (lambda m, x: x.transpose(0), ValueError),
    (lambda m, x: m.broadcast_to(x, (4, 5)), ValueError),
    (lambda m, x: m.broadcast_to(x, (6,)), ValueError),
    (lambda m, x: m.expand_dims(x, 3), AxisError),
    (lambda m, x: m.squeeze(x, 0), ValueError),
    (lambda m, x: m.squeeze(x, 2), AxisError),
    (lambda m, x: m.flip(x, 2), AxisError),
    (lambda m, x: m.swapaxes(x, 0, 2), AxisError),
    (lambda m, x: x[1.5], IndexError),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_view_errors_match_numpy(i):
    f, exc = ERRORS[i]
    with pytest.raises(exc):
        f(np, A)
    x = realized(A)
    with pytest.raises(exc):
        f(lazycl, x)
    assert_same(x[1:] + 1, A[1:] + 1)  # the engine keeps working
