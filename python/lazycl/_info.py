"""The array API's inspection namespace: lazycl.__array_namespace_info__() and the standard
revision lazycl follows (lazycl.__array_api_version__). complex128, like float64, is listed
only for devices with fp64."""
import numpy as np

from . import _lazycl as _c

__array_api_version__ = "2024.12"

_REAL = {"float32": np.float32, "float64": np.float64}
_COMPLEX = {"complex64": np.complex64, "complex128": np.complex128}
_SIGNED = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64}
_UNSIGNED = {"uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64}


class Info:
    """What lazycl supports: capabilities, devices and dtypes (per device: float64 only where
    the device has fp64)."""

    __module__ = "lazycl"

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 16}

    def default_device(self):
        return _c.default_device()

    def devices(self):
        return list(_c.devices())

    def _device(self, device):
        if device is None:
            return _c.default_device()
        if isinstance(device, str):
            return next(d for d in _c.devices() if d.filter_string.startswith(device))
        return device

    def default_dtypes(self, *, device=None):
        d = self._device(device)
        real = np.dtype(np.float64 if d.fp64 else np.float32)
        cplx = np.dtype(np.complex128 if d.fp64 else np.complex64)
        return {"real floating": real, "complex floating": cplx, "integral": np.dtype(np.int64),
                "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device=None, kind=None):
        d = self._device(device)
        real = {k: np.dtype(v) for k, v in _REAL.items() if k != "float64" or d.fp64}
        signed = {k: np.dtype(v) for k, v in _SIGNED.items()}
        unsigned = {k: np.dtype(v) for k, v in _UNSIGNED.items()}
        cplx = {k: np.dtype(v) for k, v in _COMPLEX.items() if k != "complex128" or d.fp64}
        kinds = {"bool": {"bool": np.dtype(np.bool_)}, "signed integer": signed,
                 "unsigned integer": unsigned, "integral": {**signed, **unsigned},
                 "real floating": real, "complex floating": cplx,
                 "numeric": {**signed, **unsigned, **real, **cplx}}
        if kind is None:
            return {"bool": np.dtype(np.bool_), **signed, **unsigned, **real, **cplx}
        if isinstance(kind, tuple):
            out = {}
            for k in kind:
                out.update(self.dtypes(device=device, kind=k))
            return out
        if kind not in kinds:
            raise ValueError(f"unknown dtype kind {kind!r}; expected one of {sorted(kinds)}")
        return dict(kinds[kind])


def __array_namespace_info__():
    return Info()
