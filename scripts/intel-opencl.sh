#!/usr/bin/env bash
# intel-opencl.sh: install Intel's CPU OpenCL runtime from PyPI and register it with the ICD loader.
#
# The second CPU platform (besides PoCL) is the one that takes SPIR-V, so the
# SPIR-V build path gets tested. docs/devices.md says what this does and why.
# This script never fails `make deps`: when a step cannot be done it says why
# and exits 0, and the tests that need the Intel device skip with a reason.
#
#   root:     /etc/OpenCL/vendors/intel-cpu.icd holds the absolute path of libintelocl.so
#   non-root: .deps/icd/ holds copies of /etc/OpenCL/vendors/*.icd plus intel-cpu.icd;
#             the Makefile points OCL_ICD_VENDORS at it for its own targets
set -uo pipefail

PYTHON=${PYTHON:-python3}
# The runtime and the compiler libraries it links (libimf, libsvml, libirng,
# libintlc) but does not declare as a dependency: both of one release.
INTEL_OCL_VERSION=${INTEL_OCL_VERSION:-2026.2.0}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
USER_ICD_DIR=$ROOT/.deps/icd
SYS_ICD_DIR=/etc/OpenCL/vendors
PLATFORM="Intel(R) OpenCL"

say() { printf 'intel-opencl: %s\n' "$*"; }
give_up() {
    printf 'intel-opencl: %s\n' "$*" >&2
    printf 'intel-opencl: continuing without the Intel CPU device (tests that need it will skip)\n' >&2
    exit 0
}

PYTHON=$("$PYTHON" -c 'import sys; print(sys.executable)') || give_up "no working '$PYTHON'"   # skip wrappers such as pyenv's shims

# The absolute path of the pip-installed libintelocl.so, or nothing.
find_lib() {
    "$PYTHON" - <<'EOF' 2>/dev/null
import importlib.metadata as md, os
try:
    files = md.files("intel-opencl-rt") or []
    md.version("intel-cmplr-lib-rt")
except md.PackageNotFoundError:
    raise SystemExit(1)
for f in files:
    if f.name == "libintelocl.so":
        p = os.path.normpath(os.path.abspath(f.locate()))
        if os.path.isfile(p):
            print(p)
            break
EOF
}

# ---- 1. install -------------------------------------------------------------------

lib=$(find_lib)
if [ -z "$lib" ]; then
    say "installing intel-opencl-rt==$INTEL_OCL_VERSION and intel-cmplr-lib-rt==$INTEL_OCL_VERSION (about 270 MB)"
    "$PYTHON" -m pip install --disable-pip-version-check -q \
        "intel-opencl-rt==$INTEL_OCL_VERSION" "intel-cmplr-lib-rt==$INTEL_OCL_VERSION" \
        || give_up "pip could not install intel-opencl-rt"
    lib=$(find_lib)
    [ -n "$lib" ] || give_up "intel-opencl-rt is installed but its libintelocl.so was not found in its file list"
fi

# ---- 2. can it load? ----------------------------------------------------------------

# libintelocl.so finds its siblings through its own RUNPATH ($ORIGIN), so no
# LD_LIBRARY_PATH is needed; the ICD loader skips it silently when one is missing.
if command -v ldd >/dev/null 2>&1; then
    unresolved=$(ldd "$lib" 2>&1 | awk '/not found/ {print $1}' | sort -u | tr '\n' ' ')
    [ -z "$unresolved" ] || give_up "$lib cannot load: missing $unresolved(intel-cmplr-lib-rt provides libimf, libsvml, libirng, libintlc)"
fi

# ---- 3. register --------------------------------------------------------------------

# Write $2 into file $1 unless it already holds exactly that (temp file + rename).
write_if_changed() {
    [ "$(cat "$1" 2>/dev/null)" = "$2" ] && return 0
    { printf '%s\n' "$2" > "$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"; } || { rm -f "$1.tmp.$$"; return 1; }
    say "wrote $1 -> $2"
}

if [ "$(id -u)" -eq 0 ]; then
    mkdir -p "$SYS_ICD_DIR" || give_up "cannot create $SYS_ICD_DIR"
    old=$(cat "$SYS_ICD_DIR/intel-cpu.icd" 2>/dev/null || true)
    if [ -n "$old" ] && [ "$old" != "$lib" ]; then
        say "$SYS_ICD_DIR/intel-cpu.icd named $old; pointing it at this Python's runtime instead"
    fi
    write_if_changed "$SYS_ICD_DIR/intel-cpu.icd" "$lib" || give_up "cannot write $SYS_ICD_DIR/intel-cpu.icd"
    rm -rf "$USER_ICD_DIR"
    vendors=""
elif [ "$(cat "$SYS_ICD_DIR/intel-cpu.icd" 2>/dev/null)" = "$lib" ]; then
    vendors=""   # an administrator registered it already
else
    # OCL_ICD_VENDORS names a directory that replaces /etc/OpenCL/vendors,
    # so the system's own ICDs (PoCL) are copied in beside Intel's.
    mkdir -p "$USER_ICD_DIR" || give_up "cannot create $USER_ICD_DIR"
    for f in "$SYS_ICD_DIR"/*.icd; do
        [ -e "$f" ] || continue
        [ "$(basename "$f")" = intel-cpu.icd ] && continue
        write_if_changed "$USER_ICD_DIR/$(basename "$f")" "$(cat "$f")" || give_up "cannot write in $USER_ICD_DIR"
    done
    write_if_changed "$USER_ICD_DIR/intel-cpu.icd" "$lib" || give_up "cannot write in $USER_ICD_DIR"
    vendors=$USER_ICD_DIR
fi

# ---- 4. verify ----------------------------------------------------------------------

if ! command -v clinfo >/dev/null 2>&1; then
    say "registered $lib (clinfo is not installed, so not verified)"
    exit 0
fi
run_clinfo() {
    if [ -n "$vendors" ]; then OCL_ICD_VENDORS=$vendors clinfo "$@"; else clinfo "$@"; fi
}
if ! run_clinfo -l 2>/dev/null | grep -qF "$PLATFORM"; then
    give_up "registered $lib, but the ICD loader does not list \"$PLATFORM\" (clinfo -l); the runtime needs an x86-64 CPU with SSE4.2"
fi
il=$(run_clinfo --raw --prop CL_DEVICE_IL_VERSION 2>/dev/null | awk '/^\[INTEL\// {$1=""; $2=""; sub(/^ +/, ""); print; exit}')
case "$il" in
    *SPIR-V*) ;;
    *) give_up "\"$PLATFORM\" is listed but its device reports no SPIR-V in CL_DEVICE_IL_VERSION ('$il')" ;;
esac
if [ -n "$vendors" ]; then
    say "ok: \"$PLATFORM\" ($il) via OCL_ICD_VENDORS=$vendors (the Makefile sets it; export it to use lazycl outside make)"
else
    say "ok: \"$PLATFORM\" ($il) via $SYS_ICD_DIR/intel-cpu.icd"
fi
