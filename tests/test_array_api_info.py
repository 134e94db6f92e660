"""The array API's inspection namespace (lazycl.__array_namespace_info__) and version."""
import numpy as np
import pytest

import lazycl


def test_version_and_namespace():
    assert lazycl.__array_api_version__ == "2024.12"
    assert lazycl.asarray(np.zeros(2)).__array_namespace__() is lazycl


def test_inspection(dev):
    info = lazycl.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"]
    assert caps["max dimensions"] == 16
    with pytest.raises(ValueError):                 # LC_MAXDIM: 16 dims, not 17
        lazycl.zeros((1,) * 17)
    assert info.default_device() == lazycl.default_device()
    assert dev in info.devices()
    d = info.default_dtypes(device=dev)
    assert d["integral"] == np.int64 and d["indexing"] == np.int64
    assert d["real floating"] == (np.float64 if dev.fp64 else np.float32)
    assert d["complex floating"] == (np.complex128 if dev.fp64 else np.complex64)
    every = info.dtypes(device=dev)
    assert set(every) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                          "uint64", "float32", "complex64"} | (
                              {"float64", "complex128"} if dev.fp64 else set())
    assert set(info.dtypes(device=dev, kind="unsigned integer")) == {"uint8", "uint16", "uint32",
                                                                     "uint64"}
    assert set(info.dtypes(kind=("bool", "signed integer"))) == {"bool", "int8", "int16", "int32",
                                                                 "int64"}
    assert set(info.dtypes(device=dev, kind="complex floating")) == (
        {"complex64", "complex128"} if dev.fp64 else {"complex64"})
    for name, dt in every.items():
        assert lazycl.zeros(2, dtype=dt, device=dev).dtype == dt
    with pytest.raises(ValueError):
        info.dtypes(kind="quaternion")
