"""The NumPy-style namespace: the public names of every module below, re-exported. Nothing is
defined here; each name lives in the module of its concept, which lists it in its __all__.

Layer: above every module it re-exports (package docstring); _dispatch and the package import
it."""
from . import (
    _arrayapi, _compact, _complex, _creation, _dlpack, _einsum, _elementwise, _histogram, _index,
    _indexmaps, _join, _kernelapi, _rawkernel, _linalg, _mathfns, _profile, _pykernel,
    _reductions, _scans, _select, _setops, _shapes, _sort, _stats, _tiling, _ufuncs, _userkernels,
    _vectorize, _views, _write,
)
from ._arrayapi import *  # noqa: F401,F403
from ._compact import *  # noqa: F401,F403
from ._complex import *  # noqa: F401,F403
from ._creation import *  # noqa: F401,F403
from ._dlpack import *  # noqa: F401,F403
from ._einsum import *  # noqa: F401,F403
from ._elementwise import *  # noqa: F401,F403
from ._histogram import *  # noqa: F401,F403
from ._index import *  # noqa: F401,F403
from ._indexmaps import *  # noqa: F401,F403
from ._join import *  # noqa: F401,F403
from ._kernelapi import *  # noqa: F401,F403
from ._rawkernel import *  # noqa: F401,F403
from ._linalg import *  # noqa: F401,F403
from ._mathfns import *  # noqa: F401,F403
from ._profile import *  # noqa: F401,F403
from ._pykernel import *  # noqa: F401,F403
from ._reductions import *  # noqa: F401,F403
from ._scans import *  # noqa: F401,F403
from ._select import *  # noqa: F401,F403
from ._setops import *  # noqa: F401,F403
from ._shapes import *  # noqa: F401,F403
from ._sort import *  # noqa: F401,F403
from ._stats import *  # noqa: F401,F403
from ._tiling import *  # noqa: F401,F403
from ._ufuncs import *  # noqa: F401,F403
from ._userkernels import *  # noqa: F401,F403
from ._vectorize import *  # noqa: F401,F403
from ._views import *  # noqa: F401,F403
from ._write import *  # noqa: F401,F403

# Each module's public names, in layer order; a name is exported by one module only (the test
# tests/test_layers.py checks it).
MODULES = (_ufuncs, _creation, _views, _complex, _reductions, _write, _compact, _index, _tiling,
           _join, _histogram, _dlpack, _sort, _scans, _elementwise, _setops, _select, _indexmaps,
           _linalg, _einsum, _mathfns, _stats, _shapes, _arrayapi, _profile, _userkernels,
           _rawkernel, _vectorize, _kernelapi, _pykernel)

__all__ = [name for m in MODULES for name in m.__all__]
