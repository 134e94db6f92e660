"""lazycl: a lazy dataflow-graph array engine with kernel fusion on OpenCL devices.

NumPy-style expressions build a graph; forcing a result (``.compute()``,
``np.asarray(x)``, ``float(x)``, printing) fuses the graph into as few
OpenCL kernels as the data dependencies allow and runs them on the device
that holds the data.

    >>> import numpy as np, lazycl as lc
    >>> x = lc.asarray(np.arange(10, dtype=np.float32))
    >>> float((x * 2 + 1).sum())
    100.0

The package is in layers; a module imports only modules of the layers below its own
(tests/test_layers.py checks it; docs/layout.md draws the map):

 1. _lazycl (the extension), _util (shared helpers), _fallback (the host fallback)
 2. _index, _compact, _write, _tiling, _join, _histogram, _dlpack, _info, _host, _profile,
    _pytocl
 3. _creation, _views, _complex, _reductions, _sort, _scans (the core; their elementwise
    steps call the extension's ops)
 4. _ufuncs (the ufunc type and the ufuncs of graph/ops.def), _elementwise
 5. the feature modules: _setops, _select, _indexmaps, _linalg, _einsum, _mathfns, _stats,
    linalg, _shapes, _arrayapi, fft, random, _userkernels (ElementwiseKernel, ReductionKernel),
    _rawkernel (RawKernel), _vectorize (vectorize, func)
 6. _namespace (re-exports), _dispatch (NumPy's protocols), _array (lazycl.Array)
 7. this package, and dask (imported only when Dask is)
"""
from . import _lazycl
from ._lazycl import (  # noqa: F401
    CompileError, Device, DeviceError, PlacementError, Queue, default_device, devices,
    reset_stats, stats,
)
from ._array import Array  # noqa: F401
# NumPy's name for the array type (isinstance checks, annotations): lazycl's arrays only, as
# numpy.ndarray is NumPy's; a NumPy array is not an lc.ndarray.
ndarray = Array
from ._namespace import *  # noqa: F401,F403
from ._namespace import (  # noqa: F401
    abs, all, any, asarray, asnumpy, compute, explain, max, min, pow, round, sum,
)
from . import _namespace
from ._fallback import HostFallbackWarning  # noqa: F401
from . import random  # noqa: E402  (lazycl.random: counter-based random numbers)
from . import linalg  # noqa: E402  (lazycl.linalg: norms, traces, cross, the products)
from . import fft  # noqa: E402  (lazycl.fft: the array API's fft extension)
from ._info import __array_api_version__, __array_namespace_info__  # noqa: E402,F401
from ._array import _join_dask  # noqa: E402

_join_dask()   # lazycl.dask (a Dask chunk type) when dask.array is already loaded
del _join_dask

__version__ = "0.1.0"

# dtypes, as NumPy's (the array API names them in the namespace).
from numpy import (  # noqa: E402,F401
    bool_ as bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64,
    complex64, complex128,
    pi, e, inf, nan, newaxis,
)
# NumPy's names for the same dtypes and their classes, its dtype utilities and constants: they
# describe dtypes, shapes and index expressions and never hold data (docs/api.md, "NumPy's
# names"). errstate governs NumPy's own computations only: lazycl's kernels raise no
# floating-point errors. Names the running NumPy lacks (long, ulong before NumPy 2) are skipped.
import numpy as _np  # noqa: E402
for _n in ("dtype bool_ int_ intp uintp intc uintc uint long ulong longlong ulonglong short "
           "ushort byte ubyte single double csingle cdouble generic number integer "
           "signedinteger unsignedinteger inexact floating complexfloating False_ True_ "
           "ScalarType sctypeDict typecodes little_endian euler_gamma promote_types issubdtype "
           "mintypecode typename isscalar iterable broadcast_shapes ndindex index_exp s_ "
           "errstate").split():
    if hasattr(_np, _n):
        globals()[_n] = getattr(_np, _n)
del _n, _np

__all__ = list(_namespace.__all__) + [
    "Array", "ndarray", "HostFallbackWarning", "CompileError", "Device", "DeviceError",
    "PlacementError", "Queue", "default_device", "devices", "reset_stats", "stats"]
