"""lazycl arrays as the chunks of Dask arrays, and one Dask worker per OpenCL device.

Importing this module needs dask (``pip install dask distributed``; lazycl itself does not):
it registers lazycl.Array as a Dask chunk type, with its size for Dask's memory accounting and
its per-chunk percentiles. lazycl registers itself the same way when it is imported after
dask.array, so a lazycl array that reaches a Dask worker by pickle is a chunk type there too.

A Dask task runs its block's functions on lazycl chunks, which only build graph nodes: a chain
of elementwise operations and a reduction's chunk step, fused by Dask into one task, is one
lazycl kernel. Importing this module also installs a step after Dask's array optimization that
computes the lazycl arrays each task returns at the end of that task, so a task hands on
realized blocks: a pending block read by several tasks would otherwise be computed again by
each of them, and its work would run wherever its values were first needed (a transfer, the
client). The dask config key ``lazycl.realize-tasks`` (default True) turns that step off.
See docs/dask.md.
"""
import os
import re

import numpy as np

import dask
import dask.array as da
from dask.array.dispatch import percentile_lookup
from dask.sizeof import sizeof

from . import _creation, _lazycl, _select
from ._array import Array

__all__ = ["from_lazycl", "to_lazycl", "realize", "DevicePerWorker", "register"]

_REGISTERED = False


def register():
    """Make lazycl.Array a Dask chunk type (idempotent; done when this module is imported)."""
    global _REGISTERED
    if _REGISTERED:
        return
    from dask.array.chunk_types import _HANDLED_CHUNK_TYPES
    if Array not in _HANDLED_CHUNK_TYPES:
        da.register_chunk_type(Array)
    sizeof.register(Array)(_sizeof)
    percentile_lookup.register(Array)(_percentile)
    _install_optimization()
    _REGISTERED = True


# ---- each task computes the lazycl arrays it returns ----------------------------------------

def _lazycl_arrays(value, out, depth=0):
    """Append to `out` the lazycl arrays in a task's result: the result itself, or the values
    of the dicts, lists and tuples it is made of (Dask's reductions pass dicts of partials)."""
    if isinstance(value, Array):
        out.append(value)
    elif depth < 3 and isinstance(value, dict):
        for v in value.values():
            _lazycl_arrays(v, out, depth + 1)
    elif depth < 3 and isinstance(value, (list, tuple)):
        for v in value:
            _lazycl_arrays(v, out, depth + 1)
    return out


def _computed(result):
    """The last step of every task of an optimized Dask array graph: compute the lazycl arrays
    in `result` (all in one force, so siblings over one index space share a kernel) and return
    it. Anything else passes through untouched, so NumPy chunks pay one function call."""
    arrays = _lazycl_arrays(result, [])
    if arrays:
        _creation.compute(*arrays)
    return result


def _realize_tasks(dsk):
    """`dsk` (an optimized Dask graph) with each task wrapped in `_computed`. Data and aliases
    stay: data is already a value, and an alias hands on another task's (computed) result."""
    from dask._task_spec import Alias, DataNode, Task, convert_legacy_graph
    from dask.utils import ensure_dict
    dsk = convert_legacy_graph(ensure_dict(dsk))
    out = {}
    for k, t in dsk.items():
        if isinstance(t, (Alias, DataNode)) or not isinstance(t, Task) or t.func is _computed:
            out[k] = t
        else:
            out[k] = Task(k, _computed, t, _data_producer=t.data_producer)
    return out


class _Optimize:
    """Dask's ``array_optimize``: the optimization that was in force before (Dask's own, or a
    user's), then `_realize_tasks` unless the config's ``lazycl.realize-tasks`` is False. A
    class at module level so that it pickles: a LocalCluster's nanny sends the config to its
    worker processes."""

    def __init__(self, previous):
        self.previous = previous

    def __call__(self, dsk, keys, **kwargs):
        dsk = self.previous(dsk, keys, **kwargs)
        if not dask.config.get("lazycl.realize-tasks", True):
            return dsk
        return _realize_tasks(dsk)


def _install_optimization():
    """Chain `_realize_tasks` after the array optimization in force now, as the config's new
    ``array_optimize`` (left alone where it is False: Dask then runs graphs as they are)."""
    previous = dask.config.get("array_optimize", None)
    if isinstance(previous, _Optimize) or (previous is not None and not callable(previous)):
        return
    if previous is None:
        from dask.array.optimization import optimize as previous
    dask.config.set(array_optimize=_Optimize(previous))


def _sizeof(x):
    """The bytes a chunk holds on its device once computed (Dask's memory accounting would
    otherwise see only the Python object)."""
    return int(x.nbytes)


def _percentile(a, q, method="linear"):
    """Dask's per-chunk step of da.percentile: the chunk's percentiles, computed on its device
    and handed back as NumPy (Dask merges the chunks' percentiles on the host), and its
    length."""
    n = len(a)
    if n == 0:
        return None, n
    return _select.percentile(a, np.asarray(list(q), dtype=np.float64), method=method).numpy(), n


def _meta(dtype, ndim, device):
    """Dask's metadata for lazycl chunks: an empty lazycl array of the dtype and rank."""
    return _creation.zeros((0,) * ndim, dtype=dtype, device=device)


def from_lazycl(x, chunks="auto", *, name=None, lock=False):
    """A Dask array over the lazycl array `x`, cut into `chunks` (as dask.array.from_array).

    Each chunk is a view of `x` on x's device (a view of a computed array copies nothing). The
    graph holds `x` itself: a distributed scheduler sends it whole, as host bytes, to the
    workers that need a chunk of it. To make large data on the workers, build the chunks there
    (``da.map_blocks`` or a NumPy-chunked array turned into lazycl chunks with
    ``d.map_blocks(lazycl.asarray)``). A pending `x` is computed first, once: each block's
    task would otherwise compute its own slice of x's graph, and every reduction in it again."""
    if not isinstance(x, Array):
        raise TypeError(f"from_lazycl takes a lazycl.Array, not {type(x).__name__}")
    if x.pending:
        _creation.compute(x)
    return da.from_array(x, chunks=chunks, name=name, lock=lock, asarray=False,
                         meta=_meta(x.dtype, x.ndim, x.queue))


def to_lazycl(d, device=None, **compute_kwargs):
    """Compute the Dask array `d` and return it as one lazycl array: on `device` when given,
    else where its chunks were joined (the default device of the client for a distributed
    scheduler, whose results arrive by pickle). NumPy chunks are copied to the device."""
    if not isinstance(d, da.Array):
        raise TypeError(f"to_lazycl takes a dask.array.Array, not {type(d).__name__}")
    r = d.compute(**compute_kwargs)
    if not isinstance(r, Array):
        r = _creation.asarray(np.asarray(r), device=device)
    elif device is not None:
        r = _creation.to_device(r, device)
    return r


def _realize_block(x):
    if isinstance(x, Array):
        _creation.compute(x)
    return x


def realize(d):
    """`d` with each lazycl block computed at the end of the task that makes it (one force per
    block: Dask fuses this step into the block's task). Every task does that already while the
    config's ``lazycl.realize-tasks`` is on (the default); with it off, use this where a block
    should cost its device time inside its own task (before ``persist``, or on a small result
    that many tasks read)."""
    return d.map_blocks(_realize_block, dtype=d.dtype, meta=d._meta)


try:
    from distributed import WorkerPlugin as _WorkerPlugin
except ImportError:  # dask without distributed: everything above still works
    _WorkerPlugin = object


def _worker_index(name):
    """The index in a worker's name: LocalCluster names its workers 0, 1, ...; ``dask worker
    --name w --nworkers 2`` names them w-0, w-1."""
    if isinstance(name, (int, np.integer)):
        return int(name)
    m = re.fullmatch(r"(?:.*-)?(\d+)", str(name))
    return int(m.group(1)) if m else None


class DevicePerWorker(_WorkerPlugin):
    """A distributed WorkerPlugin that gives each worker one OpenCL device, by setting
    LAZYCL_DEVICE in the worker's process before its first lazycl work.

    `devices`: a list of device filter strings (worker i takes devices[i % len(devices)], i
    from the worker's name), a dict from worker name to filter string, or None for every
    device lazycl finds on the worker. ``client.register_plugin(DevicePerWorker([...]))``.
    Each worker then reports its device as ``lazycl.default_device()``; a worker whose default
    device was already fixed to another device (lazycl used before the plugin ran) fails the
    setup with a RuntimeError rather than run on the wrong device."""

    name = "lazycl-device-per-worker"

    def __init__(self, devices=None):
        if devices is not None and not isinstance(devices, (list, tuple, dict)):
            raise TypeError("devices must be a list of filter strings, a dict from worker "
                            "name to filter string, or None")
        if isinstance(devices, (list, tuple)) and not devices:
            raise ValueError("devices must name at least one device")
        self.devices = devices

    def _filter_for(self, worker_name):
        if isinstance(self.devices, dict):
            if worker_name not in self.devices:
                raise KeyError(f"DevicePerWorker: no device for worker {worker_name!r}")
            return self.devices[worker_name]
        devices = self.devices
        if devices is None:
            devices = [d.filter_string for d in _lazycl.devices()]
        i = _worker_index(worker_name)
        if i is None:
            raise ValueError(f"DevicePerWorker: the worker name {worker_name!r} holds no index; "
                             "name workers with one (dask worker --name w --nworkers N) or "
                             "pass a dict from worker name to device")
        return devices[i % len(devices)]

    def setup(self, worker):
        filt = self._filter_for(worker.name)
        os.environ["LAZYCL_DEVICE"] = filt
        want = _lazycl.Device(filt)
        got = _lazycl.default_device()
        if got != want:
            raise RuntimeError(f"DevicePerWorker: worker {worker.name!r} should run on "
                               f"{want.filter_string} but its default device was already "
                               f"{got.filter_string} (lazycl ran there before the plugin)")
        self.device = got.filter_string


register()
