"""The context every hand-written kernel is set up in: the device, its queue, the launch sizes
that suit its kind, and allocation and launch through lazycl's own runtime (lazycl._lazycl._alloc /
_launch)."""
import numpy as np

from lazycl import _lazycl

F32, F64 = np.float32, np.float64


class HandContext:
    """A device and its queue, with the chunk and group counts its reductions and scans use."""

    def __init__(self, device, queue):
        self.device = device
        self.queue = queue
        self.gpu = device.type == "gpu"
        self.cu = max(1, int(device.compute_units))
        # chunks for CPU reductions/scans (~16, at least 2 per core); groups for GPU ones
        self.chunks = max(16, 2 * self.cu)
        self.groups = 8 * self.cu
        self.local = 256

    def alloc(self, shape, dtype=F32):
        return _lazycl._alloc(tuple(shape), np.dtype(dtype), self.queue)

    def launch(self, src, name, gsize, lsize, args):
        _lazycl._launch(self.queue, src, name, tuple(gsize), None if lsize is None else tuple(lsize), args)

    def map_sizes(self, n):
        if self.gpu:
            return (round_up(n, self.local),), (self.local,)
        return (n,), None


def round_up(n, m):
    """n rounded up to a multiple of m."""
    return (n + m - 1) // m * m


def long_arg(v):
    """v as a `long` kernel argument of _lazycl._launch."""
    return ("int64", int(v))


def setup_none(ctx, arrays):
    """Rows with no hand-written kernel (the random rows: each system uses its own generator)."""
    raise NotImplementedError("no hand-written kernel for this row")
