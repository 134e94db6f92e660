#!/bin/bash
# gpu.sh: build lazycl on the lent GPU machine and run the benchmark suite on its NVIDIA device.
#
#   bash benchmarks/gpu.sh [run.py args...]      (results go to $OUT, else benchmarks/results)
#
# Needs xxhash.h: set XXHASH_PREFIX to a prefix holding include/xxhash.h (default: .gpu/rt, carried
# as an ignored folder). Registers the NVIDIA OpenCL driver per run (shared/GPU.md).
set -euo pipefail
ROOT=$PWD
OUTDIR=${OUT:-$ROOT/benchmarks/results}
mkdir -p /tmp/icd && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null || true
export OCL_ICD_VENDORS=/tmp/icd
export XXHASH_PREFIX=${XXHASH_PREFIX:-$ROOT/.gpu/rt}
B=/tmp/lazycl-bench
rm -rf $B && mkdir -p $B
cmake -S "$ROOT" -B $B/build -DLAZYCL_PYTHON=ON -DLAZYCL_TESTS=OFF -DLAZYCL_WERROR=OFF \
      -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$(command -v python3)" > $B/cmake.log 2>&1 \
    || { tail -30 $B/cmake.log; exit 1; }
cmake --build $B/build -j16 > $B/build.log 2>&1 || { grep -E "error" -A3 $B/build.log | head -60; exit 1; }
mkdir -p $B/pkg && cp -r "$ROOT/python/lazycl" $B/pkg/ && cp $B/build/_lazycl*.so $B/pkg/lazycl/
export PYTHONPATH=$B/pkg LAZYCL_CACHE_DIR=/tmp/lccache PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
python3 "$ROOT/benchmarks/run.py" --device gpu --out "$OUTDIR" "$@"
