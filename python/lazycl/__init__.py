"""lazycl: a lazy dataflow-graph array engine with kernel fusion on OpenCL devices."""
from ._lazycl import *  # noqa: F401,F403
from ._lazycl import PlacementError, CompileError, DeviceError  # noqa: F401

__version__ = "0.1.0"
