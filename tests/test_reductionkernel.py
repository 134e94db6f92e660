"""lazycl.ReductionKernel: user reductions in OpenCL C that fuse (issue 30), against NumPy: every
axis form and dtype, layouts, empty and 0-d inputs, the identity, _in_ind.size(), each
reduction schedule, launch counts for the fused prologue and epilogue, and every error."""
import os

import numpy as np
import pytest

import lazycl as lc

from conftest import assert_same, lz, make

L2 = lc.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
SUMSQ = lc.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq")
FMAX = lc.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", "-INFINITY", "fmaxred")
IMIN = lc.ReductionKernel("T x", "T y", "x", "min(a, b)", "y = a", "INT_MAX", "imin",
                          reduce_type="int32")
MEAN = lc.ReductionKernel("T x", "T y", "x", "a + b", "y = a / _in_ind.size()", "0", "umean")
NOID = lc.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", None, "noidmax")
RTOL = {np.dtype("float32"): 2e-5, np.dtype("float64"): 1e-12}
GPU = os.environ.get("LAZYCL_SCHEDULE") == "gpu"


def launches(f):
    lc.reset_stats()
    r = f()
    return r, lc.stats()["launches"]


def schedules(*arrays):
    """The schedule comment of each reduce kernel lazycl.explain shows."""
    return [l.split("reduce kernel:", 1)[1].split(";", 1)[1].strip()
            for l in str(lc.explain(*arrays)).splitlines() if "reduce kernel:" in l]


def ref_l2(a, axis, keepdims=False):
    return np.sqrt((a.astype(np.float64) ** 2).sum(axis=axis, keepdims=keepdims))


AXES = [None, 0, 1, (0, 2), -1, (-1, 0), ()]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_l2norm_axes(dev, dtype, axis, keepdims):
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")
    a = make(dtype, (5, 6, 7), seed=1)
    got = L2(lz(a, dev), axis=axis, keepdims=keepdims)
    ref = ref_l2(a, axis, keepdims).astype(dtype)
    assert got.dtype == np.dtype(dtype) and got.shape == ref.shape
    assert_same(got, ref, rtol=RTOL[np.dtype(dtype)])


@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "int64", "uint8"])
def test_sum_of_squares(dev, dtype, axis):
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")
    a = make(dtype, (4, 9, 5), seed=2, lo=0 if dtype == "uint8" else None, hi=15)
    got = SUMSQ(lz(a, dev), axis=axis)
    with np.errstate(over="ignore"):
        ref = np.sum(a * a, axis=axis, dtype=dtype)
    if a.dtype.kind == "f":
        assert_same(got, ref, rtol=RTOL[a.dtype])
    else:
        assert_same(got, ref)


@pytest.mark.parametrize("axis", [None, 0, 1, -2])
def test_float_max_with_infinity_identity(dev, axis):
    a = make("float32", (33, 20), seed=3)
    a[3, 4] = np.inf
    got = FMAX(lz(a, dev), axis=axis)
    assert_same(got, a.max(axis=axis))
    # an empty axis gives the identity
    assert_same(FMAX(lz(a[:0], dev), axis=0), np.full(20, -np.inf, np.float32))


@pytest.mark.parametrize("dtype", ["int32", "int16", "int64"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_int_min(dev, dtype, axis):
    a = make(dtype, (17, 12), seed=4)
    # reduce_type int32: int16 values fold in int32, the result is the input's type
    got = IMIN(lz(a, dev), axis=axis)
    assert_same(got, a.min(axis=axis))
    assert_same(IMIN(lz(a[:, :0], dev), axis=1), np.full(17, np.iinfo(np.int32).max).astype(dtype))


@pytest.mark.parametrize("axis", [None, 0, (1, 2), -1])
def test_mean_by_in_ind_size(dev, axis):
    a = make("float64" if dev.fp64 else "float32", (6, 5, 4), seed=5)
    got = MEAN(lz(a, dev), axis=axis, keepdims=True)
    assert_same(got, a.mean(axis=axis, keepdims=True), rtol=RTOL[a.dtype])


def test_out_ind_size_and_scalar_params(dev):
    k = lc.ReductionKernel("T x, T s", "T y", "x * s", "a + b",
                           "y = a * s + _out_ind.size()", "0", "scaled")
    a = make("float32", (7, 3), seed=6)
    got = k(lz(a, dev), 2.0, axis=0)
    assert_same(got, ((a * 2).sum(0) * 2 + 3).astype(np.float32), rtol=1e-6)


def test_reduce_type_and_typed_output(dev):
    """An integer input folded in double, a float64 output, as reduce_type and types say."""
    if not dev.fp64:
        pytest.skip("no fp64")
    k = lc.ReductionKernel("T x", "float64 y", "x", "a + b", "y = a / _in_ind.size()", "0",
                           "imean", reduce_type="double")
    a = make("int32", (9, 11), seed=7)
    assert_same(k(lz(a, dev), axis=1), a.mean(axis=1), rtol=1e-12)
    # placeholder reduce type: the input's
    k2 = lc.ReductionKernel("T x", "float32 y", "x", "a + b", "y = (float)a", "0", "psum",
                            reduce_type="T")
    assert_same(k2(lz(a, dev)), np.float32(a.sum()))


def test_two_inputs_broadcast_and_noncontiguous(dev):
    dot = lc.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "wdot")
    a = make("float32", (8, 10), seed=8)
    w = make("float32", (10,), seed=9)
    x, lw = lz(a, dev), lz(w, dev)
    assert_same(dot(x, lw, axis=1), (a * w).sum(1), rtol=1e-5)
    assert_same(dot(x.T, lw[:8], axis=0), (a.T * w[:8]).sum(0), rtol=1e-5)
    assert_same(dot(x[::-2, 1::3], lw[1::3], axis=None), np.float32((a[::-2, 1::3] * w[1::3]).sum()),
                rtol=1e-5)
    # a NumPy array and a scalar as inputs
    assert_same(dot(a, 3.0, axis=0), (a * 3).sum(0), rtol=1e-5)


def test_zero_d_and_empty(dev):
    a = make("float32", (4, 3), seed=10)
    x = lz(a, dev)
    assert_same(L2(x[1, 2]), np.float32(abs(a[1, 2])))
    assert_same(L2(x[1, 2], axis=0), np.float32(abs(a[1, 2])))
    # empty reductions: the identity through post_map (sqrt(0)); empty outputs
    assert_same(L2(x[:0]), np.float32(0))
    assert_same(L2(x[:0], axis=0), np.zeros(3, np.float32))
    assert_same(L2(x[:0], axis=1), np.zeros(0, np.float32))
    assert_same(L2(x[:0], axis=0, keepdims=True), np.zeros((1, 3), np.float32))
    assert_same(MEAN(x[:, :0], axis=1), np.full(4, np.nan, np.float32))


def test_no_identity(dev):
    a = make("float32", (50, 70), seed=11)
    x = lz(a, dev)
    for axis in (None, 0, 1):
        assert_same(NOID(x, axis=axis), a.max(axis=axis))
    with pytest.raises(ValueError, match="zero-size array to reduction operation noidmax"):
        NOID(x[:0], axis=0)


def test_out(dev):
    a = make("float32", (6, 8), seed=12)
    o = lc.zeros(8, dtype=np.float32, device=dev)
    r = L2(lz(a, dev), axis=0, out=o)
    assert r is o
    assert_same(o, ref_l2(a, 0).astype(np.float32), rtol=1e-6)
    o2 = lc.zeros((6, 1), dtype=np.float32, device=dev)
    L2(lz(a, dev), o2, axis=1, keepdims=True)
    assert_same(o2, ref_l2(a, 1, True).astype(np.float32), rtol=1e-6)
    with pytest.raises(ValueError, match="shape"):
        L2(lz(a, dev), axis=0, out=lc.zeros(6, dtype=np.float32, device=dev))
    # the output's placeholder bound by out=
    k = lc.ReductionKernel("float32 x", "U y", "x", "a + b", "y = a", "0", "tosum")
    o3 = lc.zeros((), dtype=np.float64, device=dev) if dev.fp64 else None
    if o3 is not None:
        k(lz(a, dev), out=o3)
        assert_same(o3, np.float64(a.sum(dtype=np.float32)), rtol=1e-6)


# ---- fusion ----------------------------------------------------------------------------

def test_l2_of_difference_is_one_launch(dev):
    a, b = make("float32", (300, 40), seed=13), make("float32", (300, 40), seed=14)
    x, y = lz(a, dev).compute(), lz(b, dev).compute()
    r, n = launches(lambda: L2(x - y).numpy())
    assert n == 1
    assert_same(r, ref_l2(a - b, None).astype(np.float32), rtol=1e-5)
    plan = str(lc.explain(L2(x - y)))
    assert "1 kernel" in plan and "user_reduce:l2norm" in plan and "user:l2norm_map" in plan
    # and with an epilogue of its own after the post-map
    r, n = launches(lambda: (L2(x - y, axis=1) * 2).numpy())
    assert n == 1
    assert_same(r, (ref_l2(a - b, 1) * 2).astype(np.float32), rtol=1e-5)
    assert "user:l2norm_post" in str(lc.explain(L2(x - y, axis=1) * 2))


def test_siblings_share_a_kernel(dev):
    a = make("float32", (64, 48), seed=15)
    x = lz(a, dev).compute()
    n2, s, m = L2(x, axis=1), x.sum(axis=1), FMAX(x, axis=1)
    _, n = launches(lambda: lc.compute(n2, s, m))
    assert n == 1
    assert_same(n2, ref_l2(a, 1).astype(np.float32), rtol=1e-5)
    assert_same(s, a.sum(1), rtol=1e-5)
    assert_same(m, a.max(1))


def test_map_of_elementwise_kernel(dev):
    sq = lc.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "sqd")
    a, b = make("float32", (100,), seed=16), make("float32", (100,), seed=17)
    x, y = lz(a, dev).compute(), lz(b, dev).compute()
    r, n = launches(lambda: SUMSQ(sq(x, y) + 1).numpy())
    assert n == 1
    assert_same(r, np.float32((((a - b) ** 2 + 1) ** 2).sum()), rtol=1e-5)


# ---- the schedules ----------------------------------------------------------------------

BIG = [((1 << 20,), None), ((20000, 33), 0), ((600, 75), 0), ((40, 5000), 1), ((3, 70000), 1)]


@pytest.mark.parametrize("shape,axis", BIG, ids=[f"{s}-{a}" for s, a in BIG])
@pytest.mark.parametrize("kernel", ["l2", "noid", "int"])
def test_big_schedules(dev, shape, axis, kernel):
    rng = np.random.default_rng(18)
    if kernel == "int":
        a = rng.integers(-1000, 1000, shape).astype(np.int32)
        x = lz(a, dev)
        runs = [SUMSQ(x, axis=axis) for _ in range(2)]
        ref = np.sum(a.astype(np.int64) ** 2, axis=axis).astype(np.int32)
        assert_same(runs[0], ref)
    else:
        a = rng.standard_normal(shape).astype(np.float32)
        x = lz(a, dev)
        k, ref = (L2, ref_l2(a, axis).astype(np.float32)) if kernel == "l2" else \
            (NOID, a.max(axis=axis))
        runs = [k(x, axis=axis) for _ in range(2)]
        assert_same(runs[0], ref, rtol=1e-5 if kernel == "l2" else 0)
    # the same bits every run
    assert runs[0].numpy().tobytes() == runs[1].numpy().tobytes()


def test_each_schedule_runs():
    """The user reduction takes the engine's schedules: split, column blocks, SIMD rows on
    CPUs; work-group splits and column blocks under the GPU schedules."""
    dev = lc.default_device()
    x = lc.asarray(np.ones((20000, 33), np.float32), device=dev)
    v = lc.asarray(np.ones(1 << 20, np.float32), device=dev)
    got = [schedules(L2(x, axis=0)), schedules(L2(v)), schedules(NOID(v))]
    if GPU:
        assert "blocks of" in got[0][0] and "adjacent outputs" in got[0][0]
        assert "split over groups of" in got[1][0] and "split over groups of" in got[2][0]
    elif dev.schedule == "simd":
        assert "blocks of 32 outputs" in got[0][0] and "SIMD" in got[0][0]
        assert "split" in got[1][0] and "SIMD" in got[1][0]
        assert "split" in got[2][0] and "SIMD" not in got[2][0]   # no identity: scalar
    else:
        assert all("reduce:" in g[0] for g in got)


# ---- errors -----------------------------------------------------------------------------

def test_type_errors_name_the_parameter(dev):
    dot = lc.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "wdot2")
    a = lz(make("float32", (4,), seed=19), dev)
    b = lz(make("float64", (4,), seed=20), dev) if dev.fp64 else lz(make("int32", (4,)), dev)
    with pytest.raises(TypeError, match="'w'"):
        dot(a, b)
    with pytest.raises(TypeError, match="takes 2 inputs"):
        dot(a)
    with pytest.raises(TypeError, match="'x'"):
        dot("abc", a)
    k = lc.ReductionKernel("int32 x", "T y", "x", "a + b", "y = a", "0", "needout")
    with pytest.raises(TypeError, match="'y'"):
        k(lz(make("int32", (3,)), dev))
    k2 = lc.ReductionKernel("int32 x", "int32 y", "x", "a + b", "y = a", "0", "intsum")
    with pytest.raises(TypeError, match="'x' is float32"):
        k2(a)
    with pytest.raises(TypeError, match="complex"):
        lc.ReductionKernel("complex64 x", "T y", "x", "a + b", "y = a", "0", "cplx")
    with pytest.raises(TypeError, match="output 'y' must be a lazycl array"):
        L2(a, out=np.zeros(()))


def test_value_errors():
    with pytest.raises(ValueError, match="exactly one output"):
        lc.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0", "two")
    with pytest.raises(ValueError, match="identifier"):
        lc.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "not a name")
    with pytest.raises(ValueError, match="declared twice"):
        lc.ReductionKernel("T x, T x", "T y", "x", "a + b", "y = a", "0", "dup")
    with pytest.raises(ValueError, match="'a'"):
        lc.ReductionKernel("T x", "T a", "x", "a + b", "a = a", "0", "outa")
    with pytest.raises(NotImplementedError):
        lc.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "opts", options=("-O2",))
    x = lc.asarray(np.ones((2, 3), np.float32))
    with pytest.raises(np.exceptions.AxisError):
        L2(x, axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        L2(x, axis=(0, -2))
    with pytest.raises(ValueError, match="broadcast"):
        lc.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "bc")(
            x, lc.asarray(np.ones(4, np.float32)))


@pytest.mark.parametrize("part,args,line", [
    ("map_expr", ("x * undefined_thing", "a + b", "y = a", "0"), "x * undefined_thing"),
    ("reduce_expr", ("x", "a + bogus(b)", "y = a", "0"), "a + bogus(b)"),
    ("post_map_expr", ("x", "a + b", "y = a;\nz = a;", "0"), "z = a;"),
    ("identity", ("x", "a + b", "y = a", "NOT_DEFINED_ID"), "NOT_DEFINED_ID"),
    ("preamble", ("x", "a + b", "y = a", "0"), "return v + undefined_var;"),
])
def test_compile_errors_name_the_user_line(dev, part, args, line):
    pre = ("float ok(float v) { return v; }\nfloat bad(float v) {\n    return v + undefined_var;\n}"
           if part == "preamble" else "")
    k = lc.ReductionKernel("T x", "T y", *args, "cerr_" + part, preamble=pre)
    with pytest.raises(lc.CompileError) as info:
        k(lz(np.ones(5, np.float32), dev))
    msg = str(info.value)
    assert f"ReductionKernel 'cerr_{part}', {part} line" in msg, msg
    assert line in msg, msg


def test_preamble_shared_by_every_part(dev):
    k = lc.ReductionKernel("T x", "T y", "sq(x)", "plus(a, b)", "y = sq(a)", "zero()",
                           "withpre", preamble="float sq(float v) { return v * v; }\n"
                           "float plus(float p, float q) { return p + q; }\n"
                           "float zero(void) { return 0.0f; }")
    a = make("float32", (30, 4), seed=21)
    assert_same(k(lz(a, dev), axis=0), ((a * a).sum(0)) ** 2, rtol=1e-5)
