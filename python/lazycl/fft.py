"""lazycl.fft: the array API's fft extension. The transforms have no device ops: NumPy computes
them on the host (_host.py, with the HostFallbackWarning) and the result is uploaded to the
input's queue, in NumPy 2's dtypes (complex64 stays complex64). fftfreq, rfftfreq, fftshift
and ifftshift are lazy: an arange and elementwise ops, or a roll (views, no copy)."""
import numpy as np

from . import _creation, _elementwise, _host, _lazycl as _c, _tiling, _util as _u
from ._info import Info as _Info

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _norm(norm):
    if norm not in ("backward", "ortho", "forward"):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or '
                         '"forward".')
    return norm


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    """The 1-d discrete Fourier transform along `axis`, as numpy.fft.fft; on the host."""
    return _host.call("lazycl.fft.fft", np.fft.fft, x, n=n, axis=axis, norm=_norm(norm))


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of fft, as numpy.fft.ifft; on the host."""
    return _host.call("lazycl.fft.ifft", np.fft.ifft, x, n=n, axis=axis, norm=_norm(norm))


def fftn(x, /, *, s=None, axes=None, norm="backward"):
    """The n-d discrete Fourier transform over `axes`, as numpy.fft.fftn; on the host."""
    return _host.call("lazycl.fft.fftn", np.fft.fftn, x, s=s, axes=axes, norm=_norm(norm))


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    """The inverse of fftn, as numpy.fft.ifftn; on the host."""
    return _host.call("lazycl.fft.ifftn", np.fft.ifftn, x, s=s, axes=axes, norm=_norm(norm))


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The transform of real input (the n//2 + 1 non-negative frequencies); on the host."""
    return _host.call("lazycl.fft.rfft", np.fft.rfft, x, n=n, axis=axis, norm=_norm(norm))


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of rfft (a real result of length n, 2 * (m - 1) by default); on the host."""
    return _host.call("lazycl.fft.irfft", np.fft.irfft, x, n=n, axis=axis, norm=_norm(norm))


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    """The n-d transform of real input, as numpy.fft.rfftn; on the host."""
    return _host.call("lazycl.fft.rfftn", np.fft.rfftn, x, s=s, axes=axes, norm=_norm(norm))


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    """The inverse of rfftn, as numpy.fft.irfftn; on the host."""
    return _host.call("lazycl.fft.irfftn", np.fft.irfftn, x, s=s, axes=axes, norm=_norm(norm))


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The transform of a Hermitian-symmetric signal (a real result), as numpy.fft.hfft; on
    the host."""
    return _host.call("lazycl.fft.hfft", np.fft.hfft, x, n=n, axis=axis, norm=_norm(norm))


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The inverse of hfft, as numpy.fft.ihfft; on the host."""
    return _host.call("lazycl.fft.ihfft", np.fft.ihfft, x, n=n, axis=axis, norm=_norm(norm))


def _freq_dtype(dtype, device):
    if dtype is None:
        return _Info().default_dtypes(device=device)["real floating"]
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        raise ValueError(f"fftfreq needs a real floating dtype, not {dtype}")
    return dtype


def _scaled(k, n, d, dtype, device):
    """k / (n * d) as NumPy computes it (k times 1 / (n * d), in float64 where the device has
    it), in `dtype`."""
    dev = device if device is not None else _c.default_device()
    if isinstance(dev, str):
        dev = _Info()._device(dev)
    work = np.float64 if getattr(dev, "fp64", True) else np.float32
    r = _c.astype(k, work) * (1.0 / (n * d))
    return r if r.dtype == dtype else _c.astype(r, dtype)


def _length(n):
    n = int(n) if isinstance(n, (int, np.integer)) else n
    if not isinstance(n, int):
        raise ValueError("n should be an integer")
    if n <= 0:
        raise ValueError(f"n must be a positive integer, not {n}")
    return n


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The sample frequencies of an n-point fft, [0, 1, ..., -1] / (d * n), as
    numpy.fft.fftfreq (lazy)."""
    n = _length(n)
    dt = _freq_dtype(dtype, device)
    k = _creation.arange(n, dtype=np.int64, device=device)
    k = _elementwise.where(k < (n + 1) // 2, k, k - n)
    return _scaled(k, n, d, dt, device)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The n//2 + 1 non-negative sample frequencies of an rfft, as numpy.fft.rfftfreq (lazy)."""
    n = _length(n)
    dt = _freq_dtype(dtype, device)
    return _scaled(_creation.arange(n // 2 + 1, dtype=np.int64, device=device), n, d, dt, device)


def _shift(x, axes, sign):
    x = _u.as_array(x)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif not isinstance(axes, (tuple, list)):
        axes = (axes,)
    axes = tuple(axes)
    shifts = tuple((sign * (x.shape[_u.norm_axis(a, x.ndim)] // 2)) for a in axes)
    return _tiling.roll(x, shifts, axis=axes) if axes else x


def fftshift(x, /, *, axes=None):
    """The zero frequency moved to the middle (a roll by n // 2 over `axes`), as
    numpy.fft.fftshift (lazy)."""
    return _shift(x, axes, 1)


def ifftshift(x, /, *, axes=None):
    """The inverse of fftshift (a roll by -(n // 2)), as numpy.fft.ifftshift (lazy)."""
    return _shift(x, axes, -1)
