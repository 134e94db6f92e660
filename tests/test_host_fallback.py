"""NumPy functions lazycl does not implement: they answer on the host with a one-time
HostFallbackWarning, and those that would write into a lazycl array raise instead of writing
into a temporary copy (the write would be lost). The NumPy writers lazycl implements write."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import lazycl


WRITES = {
    "put": lambda x: np.put(x, [0, 2], [9, 9]),
    "put by keyword": lambda x: np.put(a=x, ind=[0], v=[9]),
    "put_along_axis": lambda x: np.put_along_axis(x, np.array([[0], [1]]), 9, axis=1),
    "place": lambda x: np.place(x, np.ones(x.shape, bool), [9]),
    "putmask": lambda x: np.putmask(x, np.ones(x.shape, bool), 9),
    "copyto": lambda x: np.copyto(x, np.full(x.shape, 9, np.float32)),
    "copyto by keyword": lambda x: np.copyto(dst=x, src=np.full(x.shape, 9, np.float32)),
    "copyto where": lambda x: np.copyto(x, 9, where=np.array([True, False, True])),
    "add.at": lambda x: np.add.at(x, ([0, 0, 1], [1, 1, 2]), 2),
    "ufunc out=": lambda x: np.multiply(x, 2, out=x),
    "fill_diagonal": lambda x: np.fill_diagonal(x, 9),
    "fill_diagonal wrap": lambda x: np.fill_diagonal(x.T, [7, 8], wrap=True),
}

WRITERS = {
    "out= of a host function": lambda x: np.outer(np.ones(2, np.float32), np.ones(3, np.float32),
                                                  out=x),
}


@pytest.mark.parametrize("what", sorted(WRITES))
def test_numpy_writers_write(dev, what):
    h = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = lazycl.asarray(h, device=dev)
    WRITES[what](x)
    WRITES[what](h)
    np.testing.assert_array_equal(np.asarray(x), h)


@pytest.mark.parametrize("what", sorted(WRITERS))
def test_writers_raise_instead_of_losing_the_write(dev, what):
    h = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = lazycl.asarray(h, device=dev)
    with pytest.raises(TypeError, match="immutable|out="):
        WRITERS[what](x)
    np.testing.assert_array_equal(np.asarray(x), h)   # untouched
    # The engine is still usable.
    np.testing.assert_array_equal(np.asarray(x + 1), h + 1)


def test_writing_into_numpy_from_lazycl_works(dev):
    dst = np.zeros((2, 3), np.float32)
    src = lazycl.asarray(np.arange(6, dtype=np.float32).reshape(2, 3), device=dev)
    np.copyto(dst, src)
    np.testing.assert_array_equal(dst, np.arange(6, dtype=np.float32).reshape(2, 3))
    np.put(dst, [0], lazycl.asarray(np.array([7], np.float32), device=dev))
    assert dst.flat[0] == 7


def run_py(code, **env):
    e = dict(os.environ)
    e.update(env)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


FALLBACK = """
import warnings, numpy as np, lazycl
x = lazycl.asarray(np.array([3, 1, 2], np.float32))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    a = np.ediff1d(x)                 # not implemented by lazycl: runs on the host
    b = np.ediff1d(x)                 # the same function again: no second warning
    c = np.trapezoid(x)               # another function: its own warning
    d = np.sum(x)                     # lazy: no warning
assert list(a) == [-2, 1] and list(b) == list(a) and float(c) == 3.5
assert float(d) == 6
cats = [type(m.message).__name__ for m in w]
print(cats.count("HostFallbackWarning"), w[0].filename.endswith("<string>") if w else None)
print(w[0].message if w else "")
"""


def test_host_fallback_warns_once_per_function():
    out = run_py(FALLBACK).splitlines()
    assert out[0] == "2 True", out   # points at the user's line
    assert "numpy.ediff1d" in out[1] and "host" in out[1]


def test_host_fallback_warning_can_be_turned_off():
    out = run_py(FALLBACK, LAZYCL_HOST_FALLBACK_WARNING="0").splitlines()
    assert out[0].split()[0] == "0"


def test_warning_class_is_public():
    assert issubclass(lazycl.HostFallbackWarning, UserWarning)
