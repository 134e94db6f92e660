"""The host fallback: NumPy's answer for what lazycl does not compute lazily, from the
computed arguments, announced once per function by a HostFallbackWarning.

Layer: above _util (package docstring); every module that falls back imports it."""
import os
import sys
import warnings

from ._util import is_array as _is_array


class HostFallbackWarning(UserWarning):
    """A NumPy function that lazycl does not implement ran on the host: its lazycl arguments
    were computed and copied there. Shown once per function; LAZYCL_HOST_FALLBACK_WARNING=0
    turns it off."""


WARN = os.environ.get("LAZYCL_HOST_FALLBACK_WARNING", "1").strip().lower() not in (
    "0", "off", "no", "false")
WARNED = set()


def numpy_args(obj):
    """obj with every lazycl array in it (in lists, tuples and dict values) computed and
    copied to the host."""
    if _is_array(obj):
        return obj.numpy()
    if isinstance(obj, (list, tuple)):
        return type(obj)(numpy_args(o) for o in obj)
    if isinstance(obj, dict):
        return {k: numpy_args(v) for k, v in obj.items()}
    return obj


def host_ufunc(ufunc, method, inputs, kwargs):
    """A ufunc (or method) lazycl does not implement lazily: NumPy's answer from the computed
    inputs, with the HostFallbackWarning."""
    fname = f"numpy.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}")
    if WARN and (ufunc, method) not in WARNED:
        WARNED.add((ufunc, method))
        warnings.warn(f"{fname} is not implemented by lazycl: its lazycl arguments were "
                      "computed and copied to the host, and NumPy answered there "
                      "(shown once per function; LAZYCL_HOST_FALLBACK_WARNING=0 turns it off)",
                      HostFallbackWarning, stacklevel=user_stacklevel())
    return getattr(ufunc, method)(*numpy_args(inputs), **numpy_args(kwargs))


def user_stacklevel():
    """The stacklevel of warnings.warn, called by our caller, that names the first frame outside
    the lazycl package (the user's line, however deep lazycl's own frames go)."""
    pkg = os.path.dirname(os.path.abspath(__file__)) + os.sep
    f, level = sys._getframe(1), 1
    while f is not None and f.f_code.co_filename.startswith(pkg):
        f, level = f.f_back, level + 1
    return level
