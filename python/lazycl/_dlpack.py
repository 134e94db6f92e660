"""DLPack: lazycl arrays to other libraries (``__dlpack__``) and theirs to lazycl
(``from_dlpack``), zero-copy where the device computes in host memory.

The keywords are checked here; python/py_dlpack.c makes and reads the capsules
(docs/api.md, "DLPack", says what is shared and what is copied).
"""
import operator

from . import _lazycl as _c

#: DLPack device types (the array API's enum values).
kDLCPU, kDLCUDAHost, kDLCUDAManaged = 1, 3, 13
#: Device types whose memory the host reads directly.
_HOST_TYPES = (kDLCPU, kDLCUDAHost, kDLCUDAManaged)

DLPackCopyError = _c.DLPackCopyError


def _copy_flag(copy):
    """-1 for None, else 0 or 1 (NumPy's rule: any other value by its truth)."""
    return -1 if copy is None else int(bool(copy))


def dlpack_device(x):
    """Where an exported capsule's memory is: host memory (kDLCPU, 0), whatever the
    device; a GPU's arrays are exported as host copies (OpenCL gives no pointer a
    DLPack consumer could use)."""
    return (kDLCPU, 0)


def dlpack(x, stream=None, max_version=None, dl_device=None, copy=None):
    """x.__dlpack__(...): a DLPack 1.0 capsule ("dltensor_versioned") for consumers that
    give max_version >= (1, 0), else a legacy one ("dltensor")."""
    if stream is not None:
        raise RuntimeError("lazycl only supports stream=None: it exports host memory "
                           "(kDLCPU), which has no streams")
    if max_version is None:
        versioned = False
    else:
        if not isinstance(max_version, tuple) or len(max_version) != 2:
            raise TypeError("max_version must be None or a tuple with two elements.")
        versioned = operator.index(max_version[0]) >= 1
        operator.index(max_version[1])
    if dl_device is not None:
        if not isinstance(dl_device, tuple) or len(dl_device) != 2:
            raise TypeError("dl_device must be a tuple")
        if (operator.index(dl_device[0]), operator.index(dl_device[1])) != (kDLCPU, 0):
            raise BufferError(f"unsupported device requested: {dl_device}; lazycl exports host "
                              f"memory, (kDLCPU, 0)")
    return _c._dlpack_export(x, int(versioned), _copy_flag(copy))


def _same_place(x, device):
    """The queue a lazycl array x would land on for `device=`, and whether that is x's."""
    if device is None:
        return x.queue, True
    if isinstance(device, _c.Queue):
        return device, device is x.queue
    dev = device if isinstance(device, _c.Device) else _c.Device(device)
    return (x.queue, True) if dev == x.device else (dev, False)


def from_dlpack(x, /, *, device=None, copy=None):
    """A lazycl array with the data of x, any object with ``__dlpack__`` (NumPy arrays,
    PyTorch CPU tensors, lazycl arrays).

    Zero-copy where x's memory is host memory and the device computes in host memory
    (a CPU device): the result shares x's memory, as ``np.from_dlpack`` does. Otherwise
    a copy; ``copy=True`` always copies, ``copy=False`` raises ``DLPackCopyError`` (a
    BufferError and a ValueError) where a copy would be needed. ``device=None`` is x's
    device for a lazycl array, else the default device."""
    flag = _copy_flag(copy)
    if isinstance(x, _c.ArrayBase):
        where, same = _same_place(x, device)
        if same:
            return _c._copy(x) if flag == 1 else x[...]
        if flag == 0:
            raise DLPackCopyError(f"from_dlpack: x is on {x.device!r}, not on {where!r}; "
                                  f"copy=False forbids the copy")
        return x.to_device(where)
    dl_device = None
    if hasattr(x, "__dlpack_device__"):
        kind = operator.index(x.__dlpack_device__()[0])
        if kind not in _HOST_TYPES:
            dl_device = (kDLCPU, 0)    # ask the producer for host memory
    kwargs = {"stream": None, "max_version": (1, 0), "copy": False if flag == 0 else None}
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    try:
        cap = x.__dlpack__(**kwargs)
    except TypeError:
        # A producer older than DLPack 1.0 takes none of these keywords.
        if dl_device is not None:
            raise BufferError(f"from_dlpack: {type(x).__name__} holds memory of DLPack device "
                              f"type {kind}, and exports no host copy; lazycl takes host "
                              f"memory only") from None
        cap = x.__dlpack__()
    return _c._dlpack_import(cap, device, flag)


__all__ = [
    "from_dlpack", "DLPackCopyError",
]
