"""Hand-written OpenCL kernels for the benchmark workloads, run through lazycl's own runtime
(lazycl._lazycl._alloc / _launch), so that lazycl / hand-written measures only the fusion
overhead.

Kernel shapes differ between device kinds, as measured on each (docs: shared/GPU.md):

  CPU (PoCL, Intel CPU): maps are 8 elements per work-item as float8; reductions and scans are
      explicit-vector chunk-per-item kernels (vload8 + double8 accumulators, one work-item
      per chunk, local size 1, ~16 chunks).
  GPU: maps are one work-item per element in groups of 256; reductions are coalesced
      grid-stride loops with a 256-item work-group tree; the scan is reduce-then-scan over
      contiguous segments, scanning tiles in local memory.

Each `setup_*` takes a HandContext and the computed input arrays and returns a callable that
enqueues the kernels (asynchronously) and returns the output array; outputs and scratch are
allocated once, outside the timed region.

The modules, one concept each: context (HandContext, launch helpers, setup_none), maps, gather,
writes (scatter-add, stencil, slice write, compaction), reductions (with l2 and softmax),
standardize, cumsum, introspect (sources: the OpenCL C of a set-up row). This file only
re-exports them.
"""
from .context import HandContext, setup_none
from .cumsum import setup_cumsum
from .gather import setup_gather
from .maps import map_source, map_vec, setup_map
from .reductions import Reduction, setup_l2, setup_softmax
from .introspect import sources
from .standardize import setup_standardize
from .writes import setup_bincount, setup_compaction, setup_jacobi, setup_slicewrite

__all__ = ["HandContext", "Reduction", "map_source", "map_vec", "setup_bincount",
           "setup_compaction", "setup_cumsum", "setup_gather", "setup_jacobi", "setup_l2",
           "setup_map", "setup_none", "setup_slicewrite", "setup_softmax", "setup_standardize",
           "sources"]
