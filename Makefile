# Makefile: set up, build, test and benchmark lazycl. A user needs two targets: `make test`, `make bench`.
#
#   deps      install what is missing (apt-get as root, pip into $(PYTHON)) and register
#             Intel's CPU OpenCL runtime; installs nothing when everything is there
#   build     pip-install lazycl into $(PYTHON) (incremental; skipped when no source changed)
#   ctest     the C tests (no device needed)           in build/ctest
#   asan      the C tests under ASan + UBSan            in build/asan
#   valgrind  the C tests under valgrind memcheck       in build/valgrind
#   pytest    the Python tests against the installed package: a representative part of the
#             dtype x shape x axis matrices (every schedule on every device), on one pytest-xdist
#             worker per core where xdist is installed; ends with its 20 slowest tests
#   pytest-full  all of the Python tests (LAZYCL_TEST_FULL=1; tests/conftest.py says how the
#             matrices are split)
#   test      deps build ctest asan valgrind pytest
#   test-full deps build ctest asan valgrind pytest-full, for a run by hand
#   bench     deps build, the benchmark peers (bench-deps), then the benchmark suite
#   bench-deps install the benchmark suite's peers that are missing (numba, jax, pyopencl,
#             pyclblast, matplotlib, tqdm: pyproject's `bench` extra); one that fails is left out
#   array-api the array API conformance suite (data-apis/array-api-tests, in $(ARRAY_API_TESTS))
#             in full against the installed lazycl on $(ARRAY_API_DEVICE), then its pass rate and
#             failures (docs/array-api.md); `pytest` runs a CI-sized part of it
#   oclgrind  deps build, Debian's oclgrind (oclgrind-deps), then every schedule family's kernels
#             (cpu, pocl and gpu schedules) at small sizes on Oclgrind's simulator, against NumPy:
#             any data race, uninitialized read, out-of-bounds access, barrier divergence or API
#             error it reports fails (tests/oclgrind/run.py; OCLGRIND_ARGS, e.g.
#             "--schedules gpu --families sort,scan --keep build/oclgrind"; docs/devices.md)
#   clean     remove build outputs (build/, caches); `distclean` also .deps/
#
# Variables: PYTHON (default python3; its own pip is used), PIPFLAGS, PYTEST_ARGS, PYTEST_JOBS
# (xdist's -n: default auto, one worker per core; 0 runs in one process), BENCH_ARGS,
# ARRAY_API_TESTS, ARRAY_API_DEVICE, ARRAY_API_EXAMPLES, ARRAY_API_ARGS, OCLGRIND_ARGS.

PYTHON ?= python3
# The interpreter behind $(PYTHON), resolved once (skips wrappers such as
# pyenv's shims, and makes a relative PYTHON work from any directory).
ifndef PY_EXE
PY_EXE := $(shell $(PYTHON) -c 'import sys; print(sys.executable)' 2>/dev/null)
endif
PY := $(or $(PY_EXE),$(PYTHON))
CMAKE ?= cmake
CTEST ?= ctest
PIPFLAGS ?=
PYTEST_ARGS ?=
PYTEST_JOBS ?= auto
BENCH_ARGS ?=
OCLGRIND_ARGS ?=
# The array API suite: a checkout of data-apis/array-api-tests (with its array-api submodule).
ARRAY_API_TESTS ?= ../shared/array-api-tests
ARRAY_API_DEVICE ?= pocl:cpu
ARRAY_API_EXAMPLES ?= 100
ARRAY_API_ARGS ?=
NPROC := $(shell nproc 2>/dev/null || echo 2)

# For a non-root user, scripts/intel-opencl.sh registers the Intel runtime in
# .deps/icd instead of /etc/OpenCL/vendors; every target here then uses it.
ifeq ($(origin OCL_ICD_VENDORS),undefined)
ifneq ($(wildcard .deps/icd/intel-cpu.icd),)
export OCL_ICD_VENDORS := $(CURDIR)/.deps/icd
endif
endif

# Everything that goes into the installed package: when one is newer than the
# stamp, `build` reinstalls. The list itself is kept in build/.install-inputs so
# that a removed or renamed file also counts as a change.
SRC := CMakeLists.txt pyproject.toml README.md \
       $(sort $(shell find include graph fusion codegen runtime engine python \
                  \( -name __pycache__ -prune \) -o -type f \
                  \( -name '*.c' -o -name '*.h' -o -name '*.def' -o -path 'python/lazycl/*' \) \
                  -print 2>/dev/null))
STAMP := build/.installed
INPUTS := build/.install-inputs

# The tests are run from tests/ so that the installed package is imported,
# never the in-tree python/lazycl.
PYTEST := cd tests && "$(PY)" -m pytest -q -p no:cacheprovider
# pytest-xdist's workers where it is installed (scripts/deps.sh installs it): each is a process
# of its own (stats() counts per process), the kernel disk cache is shared safely (temp file +
# rename), and worksteal keeps both cores busy to the end past the long tests.
XDIST := $$("$(PY)" -c 'import xdist' 2>/dev/null && [ "$(PYTEST_JOBS)" != 0 ] && \
             echo "-n $(PYTEST_JOBS) --dist worksteal")

ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:check_initialization_order=1 \
            UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
VALGRIND := valgrind;-q;--error-exitcode=1;--leak-check=full

.PHONY: all deps bench-deps build ctest asan valgrind pytest pytest-full test test-full bench \
        array-api oclgrind oclgrind-deps clean distclean

all: build

deps:
	@PYTHON="$(PY)" bash scripts/deps.sh
	@PYTHON="$(PY)" bash scripts/intel-opencl.sh

# The benchmark suite's peers: never part of `deps` (CI's `make test` stays lean).
bench-deps: deps
	@PYTHON="$(PY)" bash scripts/deps.sh bench

# Reinstall when a source changed, the list of sources changed, the interpreter
# changed, or the lazycl installed in it is not this checkout's (pip records
# where it installed from in direct_url.json; another clone may have installed
# over ours).
INSTALLED_HERE := import importlib.metadata as m, json, os, sys, urllib.parse as u; \
    url = json.loads(m.distribution("lazycl").read_text("direct_url.json") or "{}").get("url", ""); \
    sys.exit(os.path.realpath(u.unquote(u.urlparse(url).path)) != os.path.realpath(sys.argv[1]))

build: deps
	@mkdir -p build
	@printf '%s\n' "$(PY)" $(SRC) > $(INPUTS).new
	@cmp -s $(INPUTS).new $(INPUTS) && rm -f $(INPUTS).new || mv -f $(INPUTS).new $(INPUTS)
	@(cd / && "$(PY)" -c '$(INSTALLED_HERE)' "$(CURDIR)") 2>/dev/null || rm -f $(STAMP)
	@$(MAKE) --no-print-directory PY_EXE="$(PY)" $(STAMP)

$(INPUTS): ;
$(STAMP): $(SRC) $(INPUTS)
	"$(PY)" -m pip install --disable-pip-version-check --no-build-isolation --no-deps $(PIPFLAGS) .
	@cd / && "$(PY)" -c 'import lazycl' || \
	    { echo "build: lazycl installed, but 'import lazycl' fails (above)" >&2; exit 1; }
	@touch $@

ctest: deps
	$(CMAKE) -S . -B build/ctest -DLAZYCL_TESTS=ON -DLAZYCL_PYTHON=OFF
	$(CMAKE) --build build/ctest -j $(NPROC)
	cd build/ctest && $(CTEST) -j $(NPROC) --output-on-failure

asan: deps
	$(CMAKE) -S . -B build/asan -DLAZYCL_TESTS=ON -DLAZYCL_PYTHON=OFF -DLAZYCL_SANITIZE=ON \
	    -DCMAKE_BUILD_TYPE=Debug
	$(CMAKE) --build build/asan -j $(NPROC)
	cd build/asan && $(ASAN_ENV) $(CTEST) -j $(NPROC) --output-on-failure

# ctest runs each test through CMAKE_CROSSCOMPILING_EMULATOR, here valgrind.
valgrind: deps
	$(CMAKE) -S . -B build/valgrind -DLAZYCL_TESTS=ON -DLAZYCL_PYTHON=OFF \
	    -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CROSSCOMPILING_EMULATOR=$(VALGRIND)"
	$(CMAKE) --build build/valgrind -j $(NPROC)
	cd build/valgrind && $(CTEST) -j $(NPROC) --output-on-failure

# pytest's exit status 5 means it collected no test: not a failure while the
# suite is being written.
pytest: build
	@$(PYTEST) $(XDIST) --durations=20 $(PYTEST_ARGS) .; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no tests collected"; rc=0; fi; exit $$rc

pytest-full: build
	@export LAZYCL_TEST_FULL=1; $(PYTEST) $(XDIST) --durations=20 $(PYTEST_ARGS) .; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest: no tests collected"; rc=0; fi; exit $$rc

test: deps build ctest asan valgrind pytest

test-full: deps build ctest asan valgrind pytest-full

# The ceilings of every device (copy bandwidth, host transfers, launch latency), then the
# fusion suite on the default device (LAZYCL_DEVICE, or BENCH_ARGS="--device pocl:cpu").
bench: deps bench-deps build
	"$(PY)" benchmarks/ceilings.py
	"$(PY)" benchmarks/run.py $(BENCH_ARGS)

# Oclgrind is not part of `deps` (`make test` does not need it).
oclgrind-deps: deps
	@PYTHON="$(PY)" bash scripts/deps.sh oclgrind

oclgrind: deps oclgrind-deps build
	"$(PY)" tests/oclgrind/run.py $(OCLGRIND_ARGS)

# The suite's own directory may be read-only: it runs from build/array-api, where Hypothesis
# keeps its example database. Hypothesis' 800 ms deadline is off: a lazycl call that compiles
# a new kernel takes longer the first time (docs/array-api.md). The report follows pytest's
# status.
array-api: deps build
	@test -d "$(ARRAY_API_TESTS)/array_api_tests" || \
	    { echo "array-api: no array-api-tests checkout at $(ARRAY_API_TESTS) (set ARRAY_API_TESTS=)" >&2; exit 1; }
	@mkdir -p build/array-api
	cd build/array-api && LAZYCL_DEVICE=$(ARRAY_API_DEVICE) ARRAY_API_TESTS_MODULE=lazycl \
	    "$(PY)" -m pytest "$(abspath $(ARRAY_API_TESTS))/array_api_tests" -q -p no:cacheprovider \
	    --disable-warnings --disable-deadline --max-examples=$(ARRAY_API_EXAMPLES) \
	    --json-report --json-report-file=report.json $(ARRAY_API_ARGS) > run.log 2>&1; \
	rc=$$?; tail -n 3 run.log; "$(PY)" $(CURDIR)/scripts/array_api_report.py report.json; exit $$rc

clean:
	rm -rf build .pytest_cache *.egg-info
	find python tests benchmarks scripts -name __pycache__ -type d -prune -exec rm -rf {} + 2>/dev/null || true

distclean: clean
	rm -rf .deps
