"""NumPy's __array_function__ on lazycl arrays: the table is built from the namespace's __all__
(python/lazycl/_dispatch.py), so every NumPy function that lazycl has under the same name stays
lazy, with no hand list to forget one in."""
import warnings

import numpy as np
import pytest

import lazycl as lc
from lazycl import _dispatch


def _dispatching(name):
    return hasattr(getattr(np, name, None), "_implementation")


def test_every_namespace_function_numpy_dispatches_is_in_the_table():
    missing = [n for n in lc._namespace.__all__
               if _dispatching(n) and n not in _dispatch._HOST_ONLY and
               getattr(np, n) not in _dispatch._LAZY]
    assert not missing, missing


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod", "unstack"])
def test_array_api_functions_stay_lazy(name):
    if not _dispatching(name):
        pytest.skip(f"numpy.{name} is not in this NumPy")
    h = np.arange(1, 7, dtype=np.float64).reshape(2, 3)
    x = lc.asarray(h)
    with warnings.catch_warnings():
        warnings.simplefilter("error", lc.HostFallbackWarning)
        got = getattr(np, name)(x, axis=0)
    want = getattr(np, name)(h, axis=0)
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        assert isinstance(g, lc.ndarray)
        np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize("call, want", [
    (lambda x: np.result_type(x, np.float32), np.dtype(np.float64)),
    (lambda x: np.result_type(x, 1), np.dtype(np.float64)),
    (lambda x: np.can_cast(x, np.float32), False),
    (lambda x: np.can_cast(x, np.complex128), True),
])
def test_dtype_queries_do_not_compute(call, want):
    x = lc.arange(1000.0) * 2          # pending: computing it would launch a kernel
    lc.reset_stats()
    with warnings.catch_warnings():
        warnings.simplefilter("error", lc.HostFallbackWarning)
        assert call(x) == want
    assert x.pending
    assert lc.stats()["launches"] == 0


def test_numpy_alias_goes_to_the_function_of_its_own_name():
    """np.permute_dims is np.transpose (NumPy 2): lazycl's transpose answers it."""
    assert _dispatch._LAZY[np.transpose] is lc.transpose
