#!/usr/bin/env bash
# deps.sh: install the system and Python packages lazycl builds and tests with (`make deps`).
#
#   bash scripts/deps.sh          what the build and the tests need (`make deps`, `make test`)
#   bash scripts/deps.sh bench    that, and the benchmark suite's peers (`make bench`; or BENCH=1):
#                                 numba, jax (CPU), pyopencl, pyclblast (built against Debian's
#                                 libclblast-dev), matplotlib for the chart, tqdm for the progress
#                                 bar: pyproject.toml's `bench` extra. A peer that fails to install
#                                 is warned about and left out (its column says "not installed").
#   bash scripts/deps.sh oclgrind that, and Debian's oclgrind, the OpenCL simulator `make oclgrind`
#                                 runs the kernels on (tests/oclgrind/run.py)
#
# Idempotent: each package is checked first and only what is missing is
# installed, so on a machine that has everything it installs nothing and asks
# no registry. System packages come from apt-get when run as root (with one
# `apt-get update` first, and only when something is missing); a non-root
# user is told the exact sudo line to run. Python packages go into the
# interpreter named by $PYTHON (default python3) with its own pip.
set -euo pipefail

PYTHON=${PYTHON:-python3}
OCLGRIND=0
case "${1:-}" in
    bench) BENCH=1 ;;
    oclgrind) BENCH=${BENCH:-0}; OCLGRIND=1 ;;
    "") BENCH=${BENCH:-0} ;;
    *) printf 'usage: %s [bench|oclgrind]\n' "$0" >&2; exit 2 ;;
esac

# What the build, the tests and the SPIR-V path need from Debian.
APT_PKGS=(cmake gcc
          pocl-opencl-icd ocl-icd-opencl-dev opencl-headers
          clang-15 llvm-spirv-15 spirv-tools libxxhash-dev
          clinfo valgrind librandom123-dev libclblast1)

# Python packages: "import-name dist-name min-version" (min-version may be empty). hypothesis,
# ndindex and pytest-json-report are the array API conformance suite's (its requirements.txt;
# `make array-api`, tests/test_array_api_suite.py). pytest-xdist runs `make test`'s pytest on
# every core (3.2: --dist worksteal).
PY_PKGS=("numpy numpy 1.26"
         "scikit_build_core scikit-build-core 0.8"
         "pytest pytest 7"
         "xdist pytest-xdist 3.2"
         "hypothesis hypothesis 6.151"
         "ndindex ndindex 1.8"
         "pytest_jsonreport pytest-json-report"
         "numexpr numexpr"
         "dask dask 2024.1"
         "distributed distributed 2024.1")

# Oclgrind (its command, and the runtime it preloads), only with `oclgrind`: `make test` does not
# need it.
APT_OCLGRIND=(oclgrind)

# The benchmark suite's peers (pyproject.toml's `bench` extra), only with `bench`: none of them
# is needed to build or test lazycl. pyclblast has no wheel: pip builds it against CLBlast's
# headers (libclblast-dev). Mako: PyOpenCL's reductions and kernel builders need it.
APT_BENCH=(libclblast-dev)
PY_BENCH=("numba numba"
          "jax jax[cpu]"
          "pyopencl pyopencl"
          "mako mako"
          "pyclblast pyclblast"
          "matplotlib matplotlib"
          "tqdm tqdm")

say() { printf 'deps: %s\n' "$*"; }
warn() { printf 'deps: warning: %s\n' "$*" >&2; }
die() { printf 'deps: %s\n' "$*" >&2; exit 1; }

# ---- the interpreter --------------------------------------------------------------

command -v "$PYTHON" >/dev/null 2>&1 || die "no '$PYTHON' on PATH (set PYTHON=/path/to/python3)"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 9))' \
    || die "$PYTHON is $("$PYTHON" -V 2>&1); lazycl needs Python >= 3.9"
PY_EXE=$("$PYTHON" -c 'import sys; print(sys.executable)')
PYTHON=$PY_EXE   # skip wrappers such as pyenv's shims from here on

# Debian's own python3 gets its headers and pip from apt; any other
# interpreter (pyenv, a venv, conda) brings its own.
extra_apt=()
if ! "$PYTHON" -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    case "$PY_EXE" in
        /usr/bin/python3*) extra_apt+=(python3-dev) ;;
        *) die "$PY_EXE has no Python.h (its development headers are missing); install them or use another interpreter with PYTHON=" ;;
    esac
fi
if ! "$PYTHON" -m pip --version >/dev/null 2>&1; then
    case "$PY_EXE" in
        /usr/bin/python3*) extra_apt+=(python3-pip python3-venv) ;;
        *) die "$PY_EXE has no pip: run '$PYTHON -m ensurepip' first" ;;
    esac
fi

# ---- system packages ----------------------------------------------------------------

want=("${APT_PKGS[@]}" ${extra_apt[@]+"${extra_apt[@]}"})
if [ "$OCLGRIND" = 1 ]; then want+=("${APT_OCLGRIND[@]}"); fi
installed=" $(dpkg-query -W -f='${Package}=${db:Status-Status} ' "${want[@]}" 2>/dev/null || true)"
missing=()
for p in "${want[@]}"; do
    case "$installed" in *" $p=installed "*) ;; *) missing+=("$p") ;; esac
done

if [ ${#missing[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        die "missing system packages: ${missing[*]}; this is not a Debian-like system (no apt-get): install their equivalents by hand"
    fi
    if [ "$(id -u)" -ne 0 ]; then
        printf 'deps: missing system packages: %s\n' "${missing[*]}" >&2
        printf 'deps: installing them needs root; run this, then make again:\n\n' >&2
        printf '    sudo apt-get update && sudo apt-get install -y --no-install-recommends %s\n\n' "${missing[*]}" >&2
        exit 1
    fi
    say "installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# ---- Python packages ----------------------------------------------------------------

# Prints one pip requirement per missing (or too old) package; imports nothing.
py_missing() {
    "$PYTHON" - "$@" <<'EOF'
import importlib.metadata as md
import importlib.util
import re
import sys

def vtuple(v):
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])

for spec in sys.argv[1:]:
    mod, dist, *minv = spec.split()
    req = dist + (">=" + minv[0] if minv else "")
    dist = dist.split("[")[0]
    if importlib.util.find_spec(mod) is None:
        print(req)
        continue
    if minv:
        try:
            have = md.version(dist)
        except md.PackageNotFoundError:
            print(req)
            continue
        if vtuple(have) < vtuple(minv[0]):
            print(req)
EOF
}

py_missing=$(py_missing "${PY_PKGS[@]}")

if [ -n "$py_missing" ]; then
    say "installing Python packages into $PY_EXE: ${py_missing//$'\n'/ }"
    # shellcheck disable=SC2086 # one requirement per word
    if ! "$PYTHON" -m pip install --disable-pip-version-check -q $py_missing; then
        printf 'deps: pip could not install into %s.\n' "$PY_EXE" >&2
        printf 'deps: if it says "externally-managed-environment" (Debian'"'"'s own python3), use a virtual environment:\n\n' >&2
        printf '    python3 -m venv .venv && make PYTHON=.venv/bin/python test\n\n' >&2
        exit 1
    fi
fi

# ---- the benchmark peers (bench) ---------------------------------------------------------------

if [ "$BENCH" = 1 ]; then
    # CLBlast's headers for pyclblast's build: asked for, never required (without them only the
    # clblast column is lost).
    installed=" $(dpkg-query -W -f='${Package}=${db:Status-Status} ' "${APT_BENCH[@]}" 2>/dev/null || true)"
    missing=()
    for p in "${APT_BENCH[@]}"; do
        case "$installed" in *" $p=installed "*) ;; *) missing+=("$p") ;; esac
    done
    if [ ${#missing[@]} -gt 0 ]; then
        if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
            say "installing system packages for the benchmark peers: ${missing[*]}"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" \
                || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
                         --no-install-recommends "${missing[@]}"; } \
                || warn "could not install ${missing[*]}: pyclblast may not build (the clblast column is left out)"
        else
            warn "missing ${missing[*]} (pyclblast builds against it); as root: apt-get install ${missing[*]}"
        fi
    fi
    bench_missing=$(py_missing "${PY_BENCH[@]}")
    failed=()
    # one at a time: a peer that fails (no wheel, no compiler) leaves the others installed
    while IFS= read -r req; do
        [ -n "$req" ] || continue
        say "installing benchmark peer $req into $PY_EXE"
        "$PYTHON" -m pip install --disable-pip-version-check -q "$req" || failed+=("$req")
    done <<< "$bench_missing"
    if [ ${#failed[@]} -gt 0 ]; then
        warn "could not install ${failed[*]}: the benchmark runs without them (their columns say \"not installed\")"
    fi
    say "benchmark peers: $([ -z "$bench_missing" ] && echo "all present" || echo "installed what was missing")"
fi

say "ok (system and Python packages present for $PY_EXE)"
