"""@lazycl.vectorize and @lazycl.func: scalar Python functions translated to OpenCL C (issue 31),
against NumPy's np.vectorize of the same Python function, with dtypes, fusion counts and every
error."""
import math

import numpy as np
import pytest

import lazycl as lc

from conftest import assert_same, lz, make

LIMIT = 7.5
COUNT = 3
ARR = np.zeros(3)


@lc.func
def sq(x):
    return x * x


@lc.vectorize
def mandel(cr, ci, maxiter):
    zr = 0.0
    zi = 0.0
    for n in range(maxiter):
        if zr * zr + zi * zi > 4.0:
            return n
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
    return maxiter


@lc.vectorize
def branches(x, y):
    """if/elif/else, a conditional expression, abs/min/max, globals that are numbers."""
    if x > y:
        r = x - y
    elif x == y:
        r = 0.0
    else:
        r = abs(y - x) * 0.5
    r = r if r < LIMIT else LIMIT
    return max(r, min(x, y)) + COUNT


@lc.vectorize
def loops(n, x):
    acc = 0.0
    i = 0
    while i < n:
        acc += x
        i += 1
        if acc > 100.0:
            break
    for k in range(10, 0, -3):
        if k == 4:
            continue
        acc -= k
    for k in range(2, n):
        acc += 0.5
    s = 1 - 2 * (n % 2)               # a step whose sign is known only at run time
    for k in range(0, 6 * s, 2 * s):
        acc += 0.25 * k
    return acc


@lc.vectorize
def pyints(a, b):
    return (a // b) * 1000 + (a % b) * 10 + (abs(b) % 3) ** 2


@lc.vectorize
def mathy(x):
    return math.sqrt(abs(x)) + math.exp(-x * x) + math.atan2(x, 2.0) + math.floor(x) + math.pi


@lc.vectorize
def casts(x):
    return int(x) + float(bool(x)) * 0.25


@lc.vectorize
def calls(x, y):
    return sq(x) + sq(y) + branches(x, y)


def npv(f, *args, otypes=None):
    return np.vectorize(f.py, otypes=otypes)(*args)


def test_mandelbrot_fuses_into_one_launch(dev):
    R = np.linspace(-2, 1, 80)[None, :] * np.ones((60, 1))
    I = np.linspace(-1, 1, 60)[:, None] * np.ones((1, 80))
    dt = np.float64 if dev.fp64 else np.float32
    r, i = lz(R.astype(dt), dev).compute(), lz(I.astype(dt), dev).compute()
    lc.reset_stats()
    cnt = int((mandel(r, i, 60) > 10).sum())
    assert lc.stats()["launches"] == 1
    assert cnt == int((npv(mandel, R.astype(dt), I.astype(dt), 60) > 10).sum())
    assert "user:mandel" in lc.explain((mandel(r, i, 60) > 10).sum())


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_branches(dev, dtype):
    if dtype == "float64" and not dev.fp64:
        pytest.skip("no fp64")
    a, b = make(dtype, (40,), seed=1), make(dtype, (40,), seed=2)
    b[:5] = a[:5]
    got = branches(lz(a, dev), lz(b, dev))
    ref = npv(branches, a, b)
    want = np.result_type(np.dtype(dtype), 0.5) if dtype.startswith("int") else np.dtype(dtype)
    assert got.dtype == want
    assert_same(got.numpy(), ref.astype(want), rtol=1e-6)


def test_loops_and_unpacking(dev):
    n = np.arange(-2, 30, dtype=np.int32)
    x = np.linspace(-3, 9, 32).astype(np.float32)
    got = loops(lz(n, dev), lz(x, dev))
    # 0.0 and 0.5 are weak, but `acc -= k` with k an int64 from range() is float64, as NumPy
    # promotes float32 with int64.
    assert got.dtype == (np.float64 if dev.fp64 else got.dtype)
    assert_same(got.numpy(), npv(loops, n, x).astype(got.dtype), rtol=1e-5)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint16"])
def test_python_integer_semantics(dev, dtype):
    a = make(dtype, (64,), seed=3)
    b = make(dtype, (64,), seed=4)
    b[b == 0] = 3
    if np.dtype(dtype).kind == "i":
        a[:8] = -np.abs(a[:8])
    got = pyints(lz(a, dev), lz(b, dev))
    with np.errstate(over="ignore"):
        ref = np.array([pyints.py(np.int64(x), np.int64(y)) for x, y in zip(a, b)])
    assert got.dtype == np.dtype(dtype)
    assert_same(got.numpy(), ref.astype(dtype))


def test_math_and_casts(dev):
    x = np.linspace(-3.7, 3.7, 33).astype(np.float32)
    got = mathy(lz(x, dev))              # math.floor gives an int64: float32 + int64 is float64
    assert got.dtype == np.float64 or not dev.fp64
    assert_same(got.numpy().astype(np.float64), npv(mathy, x), rtol=2e-6, atol=1e-6)
    got = casts(lz(x, dev))
    ref = np.array([casts.py(float(v)) for v in x])
    assert got.dtype == np.float64 if dev.fp64 else True
    assert_same(got.numpy().astype(np.float64), ref)


def test_calls_funcs_and_vectorized_functions(dev):
    a, b = make("float32", (25,), seed=5), make("float32", (25,), seed=6)
    assert_same(calls(lz(a, dev), lz(b, dev)).numpy(), npv(calls, a, b).astype(np.float32),
                rtol=1e-6)
    assert sq(3) == 9                       # Python's own function from Python


def test_promotion_rules():
    @lc.vectorize
    def f(x, y):
        return x * 2.0 + y

    @lc.vectorize
    def g(x, y):
        return x / y

    i32 = lc.asarray(np.arange(1, 5, dtype=np.int32))
    f32 = lc.asarray(np.ones(4, np.float32))
    assert f(f32, f32).dtype == np.float32          # a weak float keeps float32
    assert f(i32, i32).dtype == np.float64          # int * 2.0: float64, as NumPy
    assert f(i32, f32).dtype == np.float64          # int32 with float32: float64
    assert g(i32, i32).dtype == np.float64          # true division of ints
    assert_same(g(i32, i32).numpy(), np.ones(4))
    assert f(f32, 3).dtype == np.float64            # a Python int argument is int64


def test_signatures_and_out(dev):
    @lc.vectorize(["float32(float32, float32)", "int64(int64, int64)"])
    def add3(a, b):
        return a + b + 3

    q = np.dtype(np.int64).char
    assert add3.types == ["ff->f", f"{q}{q}->{q}"]
    assert add3.ntypes == 2
    a = make("float32", (10,), seed=7)
    got = add3(lz(a, dev), 1.5)                     # a Python float casts to float32
    assert got.dtype == np.float32
    assert_same(got.numpy(), a + np.float32(4.5))
    # The first signature the arguments cast to safely, as NumPy picks a ufunc's loop: int16
    # casts to float32; int64 does not, and takes the int64 loop.
    assert add3(lz(np.arange(10, dtype=np.int16), dev), 2).dtype == np.float32
    got = add3(lz(np.arange(10, dtype=np.int64), dev), 2)
    assert got.dtype == np.int64
    assert_same(got.numpy(), np.arange(10) + 5)
    with pytest.raises(TypeError, match="no signature matches"):
        add3(lz(a.astype(np.float64), dev), 1.0)
    out = lz(np.zeros(10, np.float32), dev)
    assert add3(lz(a, dev), lz(a, dev), out=out) is out
    assert_same(out.numpy(), a + a + 3)


def test_repeated_calls(dev):
    """A call with the argument types of an earlier one reuses its choice of kernel: each
    still gives its own answer, and a scalar's value is an argument of the kernel (no
    buffer), checked by NumPy's rules."""
    R = np.linspace(-2, 1, 30)[None, :] * np.ones((20, 1))
    I = np.linspace(-1, 1, 20)[:, None] * np.ones((1, 30))
    dt = np.float64 if dev.fp64 else np.float32
    r, i = lz(R.astype(dt), dev).compute(), lz(I.astype(dt), dev).compute()
    for it in (5, 20, 5, np.int64(40)):
        got = mandel(r, i, it)
        assert_same(got.numpy(), npv(mandel, R.astype(dt), I.astype(dt), it))
    assert "buffer" not in [ln.split("/*")[-1].strip() for ln in
                            lc.explain(mandel(r, i, 7)).splitlines() if "v2 =" in ln][0]
    with pytest.raises(TypeError):
        mandel(r, i, "5")
    got = mandel(r, i, 2**40)                  # a Python int of int64 as any other
    assert got.dtype == np.int64


def test_broadcast_and_numpy_inputs(dev):
    a = make("float32", (4, 1), seed=8)
    b = make("float32", (5,), seed=9)
    got = branches(lz(a, dev), b)
    assert got.shape == (4, 5)
    assert_same(got.numpy(), npv(branches, a, b).astype(np.float32), rtol=1e-6)


def _bad_dict(x):
    d = {"a": x}
    return d["a"]


def _bad_string(x):
    return len("abc") + x


def _bad_raise(x):
    if x < 0:
        raise ValueError("neg")
    return x


def _bad_closure_array(x):
    return x + ARR[0]


def _bad_list(x):
    return [x, x][0]


def _bad_no_return(x):
    y = x + 1  # noqa: F841


@lc.vectorize
def _recursive(x):
    if x <= 1:
        return 1
    return x * _recursive(x - 1)


@pytest.mark.parametrize("fn,what", [
    (_bad_dict, "lists, tuples, dicts"), (_bad_string, "strings"),
    (_bad_raise, "exceptions"), (_bad_closure_array, "indexing"),
    (_bad_list, "indexing"), (_bad_no_return, "without a return value")])
def test_unsupported_constructs_name_the_line(fn, what):
    v = lc.vectorize(fn)
    with pytest.raises(lc.CompileError) as ei:
        v(lc.asarray(np.ones(3, np.float32)))
    msg = str(ei.value)
    assert fn.__name__ in msg and what in msg and "test_vectorize.py" in msg
    line = int(msg.split(", line ")[1].split()[0])
    assert fn.__code__.co_firstlineno <= line <= fn.__code__.co_firstlineno + 4


def test_recursion_and_bad_calls():
    with pytest.raises(lc.CompileError, match="recursion"):
        _recursive(lc.asarray(np.arange(4)))
    with pytest.raises(TypeError, match="takes 3 arguments"):
        mandel(lc.asarray(np.ones(3)), 1.0)
    with pytest.raises(TypeError, match="not str"):
        sq_v = lc.vectorize(lambda x: x)           # no source of a lambda is a def
        sq_v("a")
    with pytest.raises(ValueError, match="cannot parse the signature"):
        lc.vectorize(["float32"])(lambda x: x)
    with pytest.raises(ValueError, match="target"):
        lc.vectorize(target="tpu")


def test_numpy_vectorize_keywords():
    v = lc.vectorize(lambda_free, otypes=[np.float32], doc="half")
    assert v.__doc__ == "half"
    got = v(lc.asarray(np.arange(4)))
    assert got.dtype == np.float32
    assert_same(got.numpy(), np.arange(4, dtype=np.float32) / 2)
    with pytest.raises(NotImplementedError, match="excluded"):
        lc.vectorize(lambda_free, excluded={0})


def lambda_free(x):
    return x / 2


def test_lambda_is_refused():
    v = lc.vectorize(lambda x: x + 1)
    with pytest.raises(lc.CompileError, match="lambda"):
        v(lc.asarray(np.ones(2)))


def test_generated_source_names_python_lines():
    x = lc.asarray(np.ones(4, np.float32))
    src = lc.explain(branches(x, x))
    assert "#line" in src and "test_vectorize.py" in src
    assert "lc_py_branches_" in src
