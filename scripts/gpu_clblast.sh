#!/usr/bin/env bash
# gpu_clblast.sh: on the GPU machine (carry .gpu, after benchmarks/gpu/prepare.sh here): CLBlast's
# SGEMM at n (default 8192) on the NVIDIA GPU, from the carried Debian packages.
set -euo pipefail
n=${1:-8192}
mkdir -p /tmp/cb
for f in .gpu/debs/libclblast*.deb; do dpkg -x "$f" /tmp/cb; done
lib=/tmp/cb/usr/lib/x86_64-linux-gnu
[ -e "$lib/libclblast.so" ] || ln -sf "$(ls $lib/libclblast.so.1* | head -1)" "$lib/libclblast.so"
cc -O2 scripts/clblast_sgemm.c -I/tmp/cb/usr/include -L"$lib" -lclblast -l:libOpenCL.so.1 \
   -o /tmp/clblast_sgemm
mkdir -p /tmp/icd && echo /usr/lib/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH="$lib" /tmp/clblast_sgemm "$n" NVIDIA
