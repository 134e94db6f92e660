"""Functions lazycl has no device ops for, run by NumPy on the host: the array API's linalg
decompositions (lazycl.linalg.inv, solve, svd, ...) and the fft extension (lazycl.fft). Each
computes its lazycl arguments, copies them to the host, calls NumPy, and uploads the result to
the first argument's queue, with the HostFallbackWarning once per function (as a NumPy function
lazycl does not implement does through __array_function__). Results are lazycl arrays; named
tuples (SVDResult, ...) keep NumPy's type and field names, which are the standard's."""
import warnings

import numpy as np

from . import _fallback
from . import _lazycl as _c
from ._util import queue_of


def _upload(r, queue):
    if isinstance(r, tuple):
        return type(r)(*(_upload(v, queue) for v in r))
    return _c.asarray(np.asarray(r), None, queue)


def call(name, func, *args, **kwargs):
    """NumPy's func(*args, **kwargs) on the host, the result uploaded to the arguments' queue;
    `name` is the function's public name, for the HostFallbackWarning."""
    if _fallback.WARN and name not in _fallback.WARNED:
        _fallback.WARNED.add(name)
        warnings.warn(f"{name} has no lazycl device ops: its lazycl arguments were computed and "
                      "copied to the host, and NumPy answered there (shown once per function; "
                      "LAZYCL_HOST_FALLBACK_WARNING=0 turns it off)",
                      _fallback.HostFallbackWarning, stacklevel=3)
    queue = queue_of(*args)
    return _upload(func(*_fallback.numpy_args(args), **_fallback.numpy_args(kwargs)), queue)
