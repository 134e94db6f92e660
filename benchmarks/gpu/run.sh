#!/usr/bin/env bash
# run.sh: on the lent GPU machine (device tool), from the repository root, with `carry: [".gpu"]`:
# build lazycl from the working tree, run the C tests and the whole pytest suite on the NVIDIA
# device, then the benchmark suite at N = 2^28 against the peers the machine has; results go to
# $OUT (and benchmarks/results/ in the copy). See benchmarks/gpu/README.md.
#
#   bash benchmarks/gpu/run.sh [tests [K/N]|bench|all] [extra run.py args...]
#
# `tests K/N` runs the K-th of N shards of the pytest suite (the C tests with shard 1 only):
# tests/conftest.py puts a test in shard crc32(its node id) % N + 1 (LAZYCL_TEST_SHARD), so the
# split is deterministic, spreads every file over the shards, and the N calls together run each
# test once. Each shard is meant to finish in 8 minutes, inside one 10-minute device call with
# the build: `tests 1/3`, `tests 2/3`, `tests 3/3` on the H100 (raise N if a shard's pytest.txt
# ends in a timeout). A shard's pytest is cut at PYTEST_TIMEOUT seconds (default 480; 500
# for the whole suite). The suite is `make test`'s selection; LAZYCL_TEST_FULL=1 in the
# environment runs the full matrices (tests/conftest.py) and needs more shards.
set -uo pipefail
what=${1:-all}
shift || true
shard=
if [ "$what" = tests ] && [[ "${1:-}" =~ ^[0-9]+/[0-9]+$ ]]; then
    shard=$1
    shift
    k=${shard%/*} n=${shard#*/}
    if [ "$k" -lt 1 ] || [ "$k" -gt "$n" ]; then
        echo "run.sh: shard $shard: expected K/N with 1 <= K <= N" >&2
        exit 2
    fi
fi
ROOT=$PWD
OUT=${OUT:-/tmp/lazycl-gpu-out}
mkdir -p "$OUT"

# The NVIDIA OpenCL driver is installed but not registered with the ICD loader.
mkdir -p /tmp/icd
echo /usr/lib/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null || true
export OCL_ICD_VENDORS=/tmp/icd

# xxhash.h and CLBlast from the carried Debian packages (prepare.sh): the header for the build,
# libclblast.so.1 for lazycl's dlopen (test_clblast, and products where CLBlast wins).
mkdir -p /tmp/xx
for f in "$ROOT"/.gpu/debs/*.deb; do dpkg -x "$f" /tmp/xx; done
[ -f /usr/include/xxhash.h ] || export XXHASH_PREFIX=/tmp/xx/usr
export LD_LIBRARY_PATH=/tmp/xx/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# Build in a scratch copy (the working tree here is a copy too, but keep it clean).
# LC_SCRATCH: the copy's folder (default /tmp/lc), so that shards run side by side on a machine
# of several GPUs, each with its own copy and CUDA_VISIBLE_DEVICES (benchmarks/gpu/README.md).
LC=${LC_SCRATCH:-/tmp/lc}
rm -rf "$LC" && mkdir "$LC"
tar --exclude=./build --exclude=./.git --exclude=./.gpu -cf - . | (cd "$LC" && tar xf -)
cd "$LC"
PY=$(command -v python3)
cmake -S . -B build/gpu -DCMAKE_BUILD_TYPE=Release -DLAZYCL_PYTHON=ON -DLAZYCL_TESTS=ON \
      -DPython_EXECUTABLE="$PY" > "$OUT/cmake.log" 2>&1 || { tail -40 "$OUT/cmake.log"; exit 1; }
cmake --build build/gpu -j"$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error" -A3 "$OUT/build.log" | head -60; exit 1; }
mkdir -p pkg && cp -r python/lazycl pkg/ && cp build/gpu/_lazycl*.so pkg/lazycl/
export PYTHONPATH=$LC/pkg LAZYCL_CACHE_DIR=/tmp/lc-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
"$PY" -c "import lazycl; print(lazycl.devices()); print('default:', lazycl.default_device())" | tee -a "$OUT/gpu.txt"

rc=0
if [ "$what" = tests ] || [ "$what" = all ]; then
    if [ -z "$shard" ] || [ "${shard%/*}" = 1 ]; then
        ctest --test-dir build/gpu 2>&1 | tail -3 | tee "$OUT/ctest.txt"
    fi
    # The suite (or one shard of it) on the GPU (tests that need a second device or SPIR-V skip
    # with a reason); GPU memory in use sampled every 15 s beside it.
    (while sleep 15; do nvidia-smi --query-gpu=memory.used --format=csv,noheader; done) \
        > "$OUT/gpu-mem.txt" 2>&1 &
    sampler=$!
    (cd tests && LAZYCL_DEVICE=nvidia:gpu LAZYCL_TEST_SHARD="$shard" \
        timeout "${PYTEST_TIMEOUT:-$([ -n "$shard" ] && echo 480 || echo 500)}" "$PY" -m pytest -q \
        -p no:cacheprovider -rs --durations=20 ${PYTEST_ARGS:-.} > "$OUT/pytest.txt" 2>&1); rc=$?
    [ -n "$shard" ] && echo "shard $shard (LAZYCL_TEST_SHARD)" >> "$OUT/pytest.txt"
    kill $sampler 2>/dev/null
    tail -25 "$OUT/pytest.txt"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
    LAZYCL_DEVICE=nvidia:gpu timeout 400 "$PY" benchmarks/run.py --device nvidia:gpu --out "$OUT" "$@" \
        2>&1 | tee "$OUT/bench.txt" | tail -60
fi
exit $rc
