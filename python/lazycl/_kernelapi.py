"""The names a ``@lazycl.kernel`` kernel calls: work-item functions, barriers, local and
private arrays, atomics (numba-dpex's, on OpenCL).

    lc.get_global_id(d)  lc.get_local_id(d)  lc.get_group_id(d)
    lc.get_global_size(d)  lc.get_local_size(d)  lc.get_num_groups(d)
    lc.barrier()  lc.barrier(lc.LOCAL_MEM_FENCE)  (lc.GLOBAL_MEM_FENCE, or both with |)
    lc.local.array(shape, dtype)  lc.private.array(shape, dtype)
    lc.atomic.add(a, index, value)  (sub, min, max): the old value

They exist to be translated (_pykernel.py recognises them by identity); called from Python,
outside a kernel, they raise TypeError.

Layer: over nothing (package docstring)."""

#: barrier()'s flags, as OpenCL's CLK_LOCAL_MEM_FENCE and CLK_GLOBAL_MEM_FENCE.
LOCAL_MEM_FENCE = 1
GLOBAL_MEM_FENCE = 2


def _outside(name):
    raise TypeError(f"lazycl.{name}() is a work-item function: call it inside an @lazycl.kernel "
                    f"kernel (launched as k[global, local](args)), not from Python")


def get_global_id(dim):
    """The work-item's index in the launch along `dim` (0, 1 or 2); int64."""
    _outside("get_global_id")


def get_local_id(dim):
    """The work-item's index in its work-group along `dim`; int64."""
    _outside("get_local_id")


def get_group_id(dim):
    """The work-group's index along `dim`; int64."""
    _outside("get_group_id")


def get_global_size(dim):
    """The launch's number of work-items along `dim`; int64."""
    _outside("get_global_size")


def get_local_size(dim):
    """The work-group's number of work-items along `dim`; int64."""
    _outside("get_local_size")


def get_num_groups(dim):
    """The number of work-groups along `dim`; int64."""
    _outside("get_num_groups")


def barrier(flags=LOCAL_MEM_FENCE | GLOBAL_MEM_FENCE):
    """Wait for every work-item of the work-group; `flags` (LOCAL_MEM_FENCE, GLOBAL_MEM_FENCE
    or both) say which memory's writes it makes visible. Every item of the group must reach
    it."""
    _outside("barrier")


class _Space:
    """lc.local and lc.private: `.array(shape, dtype)` makes an array in that memory."""

    def __init__(self, name, doc):
        self._name = name
        self.__doc__ = doc

        def array(shape, dtype):
            _outside(f"{name}.array")
        array.__qualname__ = array.__name__ = "array"
        array.__doc__ = doc
        self.array = array

    def __repr__(self):
        return f"<lazycl.{self._name}: {self._name}.array(shape, dtype) in a kernel>"


local = _Space("local", "local.array(shape, dtype): an array in the work-group's local memory, "
                        "shared by its items (shape: constant ints; one per work-group)")
private = _Space("private", "private.array(shape, dtype): an array of the work-item's own "
                            "(shape: constant ints)")


class _Atomic:
    """lc.atomic.add/sub/min/max(a, index, value): the element a[index] updated atomically with
    value (cast to a's dtype); each returns the element's old value. Arrays of int32, uint32,
    int64, uint64, float32 and float64, global or local."""

    def __init__(self):
        for op in ("add", "sub", "min", "max"):
            def f(a, index, value, _op=op):
                _outside(f"atomic.{_op}")
            f.__qualname__ = f.__name__ = op
            f.__doc__ = f"atomic.{op}(a, index, value): a[index] = {op}(a[index], value) " \
                        f"atomically; returns the old a[index]"
            setattr(self, op, f)

    def __repr__(self):
        return "<lazycl.atomic: add, sub, min, max (in a kernel)>"


atomic = _Atomic()

#: The work-item functions and their OpenCL C names.
WORK_ITEM = {get_global_id: "get_global_id", get_local_id: "get_local_id",
             get_group_id: "get_group_id", get_global_size: "get_global_size",
             get_local_size: "get_local_size", get_num_groups: "get_num_groups"}

__all__ = ["get_global_id", "get_local_id", "get_group_id", "get_global_size", "get_local_size",
           "get_num_groups", "barrier", "local", "private", "atomic", "LOCAL_MEM_FENCE",
           "GLOBAL_MEM_FENCE"]
