"""The float functions in SIMD code: maps long enough to take W-lane vectors (float8 and
double8 on PoCL), against NumPy, on every device (the random numbers' vector loops:
test_random.py's moments).

test_elementwise.py's matrices read 7 elements, which the SIMD maps' scalar tails compute
alone. PoCL 3.1 on an AVX2 host (no AVX-512) returned garbage from math builtins on vectors
wider than its native 256 bits (double8 sin, cos, log1p, pow; float16 cbrt, erf, ...), so
lazycl.sin of 1003 float64 was wrong there while the 7-element tests passed: the target now
calls them on halves (simd_math_bits). Each function is forced alone: forced together, one
function that is not vector-safe puts the whole kernel in scalar code."""
import numpy as np
import pytest

import lazycl
from lazycl._ufuncs import BINARY, UNARY

from conftest import lz
from test_elementwise import _check, _outcome, binary_data, np_ref, unary_data

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

N = 1003   # vectors of 8 and 16 lanes, and a scalar tail


def _float_ops(ops, dtype, arity):
    """The ops NumPy computes in `dtype` from `dtype` inputs (float functions, not tests)."""
    out = []
    for op in ops:
        f = getattr(np, op)
        x = np.full(2, 0.5, dtype)
        try:
            r = f(x) if arity == 1 else f(x, x)
        except TypeError:
            continue
        if r.dtype == dtype:
            out.append(op)
    return out


def results(dev, dtype, arity):
    """op -> (ref, ref_exc, got, got_exc), each op's lazycl result forced on its own."""
    out = {}
    for op in _float_ops(UNARY if arity == 1 else BINARY, np.dtype(dtype), arity):
        if arity == 1:
            args = (unary_data(op, dtype, (N,), seed=3),)
        else:
            args = binary_data(op, dtype, dtype, (N,), (N,))
        ref, rexc = _outcome(lambda: np_ref(getattr(np, op), *args))
        got, gexc = _outcome(lambda: getattr(lazycl, op)(*[lz(a, dev) for a in args]).numpy())
        out[op] = (ref, rexc, got, gexc)
    return out


@pytest.mark.parametrize("arity", [1, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_functions_in_vectors(dev, dtype, arity):
    """Every float function of one or two operands over 1003 elements."""
    res = results(dev, dtype, arity)
    assert len(res) >= (20 if arity == 1 else 10)
    bad = []
    for op, r in res.items():
        try:
            _check(r, op)
        except AssertionError as e:
            bad.append(f"{op}: {str(e).strip().splitlines()[0]}")
    assert not bad, "\n".join(bad)

