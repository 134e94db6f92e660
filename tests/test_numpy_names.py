"""NumPy's names in lazycl: the sweep of docs/api.md ("NumPy's names") against the running
NumPy, lc.ndarray, mgrid / ogrid, and the one-liners added with them."""
import io
import pathlib
import re
import types
import warnings

import numpy as np
import pytest

import lazycl as lc
import lazycl.linalg
from lazycl import _dispatch, _fallback

from conftest import assert_same

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "api.md"


def _listed():
    """{"Host fallback": {names}, "Not planned": {names}} from docs/api.md's section; numpy.linalg
    names carry the prefix "linalg."."""
    text = DOC.read_text()
    section = text.split("\n## NumPy's names\n", 1)[1].split("\n## ", 1)[0]
    out = {}
    for part in section.split("\n### ")[1:]:
        title, body = part.split("\n", 1)
        names = set()
        # An item is "- `a`, `b`, ...: reason", its names and reason wrapping onto lines
        # indented by two spaces.
        for item in re.split(r"^- ", body, flags=re.M)[1:]:
            item = " ".join(line.strip() for line in item.split("\n"))
            m = re.match(r"((?:`[\w.]+`(?:, )?)+):", item)
            if m:
                names.update(re.findall(r"`([\w.]+)`", m.group(1)))
        out[title.strip()] = names
    return out


LISTED = _listed()
HOST = LISTED["Host fallback"]
NOT_PLANNED = LISTED["Not planned"]


def _public(mod):
    return [n for n in dir(mod) if not n.startswith("_")
            and not isinstance(getattr(mod, n), types.ModuleType)]


def _in_lazycl(name):
    if name.startswith("linalg."):
        return hasattr(lazycl.linalg, name[len("linalg."):])
    return hasattr(lc, name)


def _in_numpy(name):
    if name.startswith("linalg."):
        return hasattr(np.linalg, name[len("linalg."):])
    return hasattr(np, name)


def test_sections_parse():
    # The parser found both lists (an empty one would make the checks below vacuous).
    assert len(HOST) > 20 and len(NOT_PLANNED) > 20
    assert not HOST & NOT_PLANNED


def test_every_numpy_name_is_in_lazycl_or_listed():
    names = _public(np) + ["linalg." + n for n in _public(np.linalg)]
    missing = [n for n in names if not _in_lazycl(n) and n not in HOST | NOT_PLANNED]
    assert not missing, (f"public NumPy names neither in lazycl nor in docs/api.md's "
                         f"\"NumPy's names\": {missing}")


def test_no_listed_name_is_in_lazycl():
    stale = sorted(n for n in HOST | NOT_PLANNED if _in_numpy(n) and _in_lazycl(n))
    assert not stale, f"docs/api.md lists names lazycl now has: {stale}"


def _host_calls():
    """For each host-fallback name: a call of NumPy's function with lazycl arguments."""
    v = lc.asarray(np.array([1.0, 2.0, 0.0, 4.0, 3.0]))
    m = lc.asarray(np.arange(9.0).reshape(3, 3))
    v3 = lc.asarray(np.array([1.0, 2.0, 3.0]))
    iv = lc.asarray(np.array([0, 1, 2]))
    u8 = lc.asarray(np.array([1, 2, 255], dtype=np.uint8))
    one, ten = lc.asarray(np.float64(1.0)), lc.asarray(np.float64(10.0))
    special = {
        "apply_along_axis": (np.sum, 0, m), "apply_over_axes": (np.sum, m, [0]),
        "piecewise": (v, [v > 2], [0.0, 1.0]), "block": ([v, v],), "delete": (v, 1),
        "insert": (v, 1, 5.0), "resize": (v, 7), "kron": (m, m), "einsum_path": ("ij,jk", m, m),
        "fmod": (v, 2.0), "bitwise_count": (iv,), "matvec": (m, v3), "vecmat": (v3, m),
        "packbits": (u8,), "unpackbits": (u8,), "polyadd": (v, v), "polydiv": (v, v3),
        "polyfit": (v, v, 1), "polymul": (v, v), "polysub": (v, v), "setxor1d": (v, v3),
        "nanpercentile": (v, 50), "nanquantile": (v, 0.5), "geomspace": (one, ten),
        "ix_": (iv,), "save": (io.BytesIO(), v), "savetxt": (io.BytesIO(), v),
        "savez": (io.BytesIO(), v), "savez_compressed": (io.BytesIO(), v),
    }
    return {n: special.get(n, (v,)) for n in HOST}


@pytest.fixture
def fresh_warnings(monkeypatch):
    """The fallback warning on, and shown again for every function."""
    monkeypatch.setattr(_fallback, "WARN", True)
    monkeypatch.setattr(_fallback, "WARNED", set())


def test_host_fallback_names_run_through_the_fallback(fresh_warnings):
    calls = _host_calls()
    bad = []
    for name in sorted(HOST):
        if not _in_numpy(name):
            continue                     # an older NumPy: nothing to check
        f = getattr(np, name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                f(*calls[name])
            except Exception as e:       # noqa: BLE001  (reported below, with the name)
                bad.append(f"{name}: raised {type(e).__name__}: {e}")
                continue
        if not any(issubclass(w.category, lc.HostFallbackWarning) and
                   f"numpy.{name}" in str(w.message) for w in caught):
            bad.append(f"{name}: no HostFallbackWarning")
    assert not bad, bad


# ---- lc.ndarray -----------------------------------------------------------------------------

def test_ndarray_is_the_array_type():
    x = lc.arange(3)
    assert lc.ndarray is lc.Array
    assert isinstance(x, lc.ndarray) and isinstance(x + 1, lc.ndarray)
    assert not isinstance(np.arange(3), lc.ndarray)

    def f(a: lc.ndarray) -> lc.ndarray:
        return a * 2
    assert f.__annotations__["a"] is lc.ndarray
    assert_same(f(x), np.arange(3) * 2)


def test_ndarray_constructor_is_numpys():
    # np.ndarray(shape, dtype) allocates (npbench's vadv and nbody): zeros here, never
    # uninitialized memory; with a buffer, NumPy's view of it copied to the device.
    a = lc.ndarray((2, 3), dtype=np.float32)
    assert isinstance(a, lc.ndarray) and a.device == lc.default_device()
    assert_same(a, np.zeros((2, 3), np.float32))
    assert_same(lc.ndarray(4), np.zeros(4))
    buf = np.arange(6, dtype=np.int32)
    assert_same(lc.ndarray((2, 2), dtype=np.int32, buffer=buf, offset=8),
                np.ndarray((2, 2), dtype=np.int32, buffer=buf, offset=8))
    a[0, 1] = 5                                       # writable, as NumPy's
    assert float(a[0, 1]) == 5
    with pytest.raises(NotImplementedError):
        lc.ndarray((2, 2), order="F")


# ---- mgrid / ogrid ---------------------------------------------------------------------------

GRIDS = ["[0:4]", "[:3]", "[5:0]", "[3:0:-1]", "[0:1:0.25]", "[-1:1:5j]", "[0:1:1j]",
         "[0:1:0j]", "[0:5:-1j]", "[0:4,]", "[0:3, 0:2]", "[3:0:-1, 0:2]", "[0:2:3j, 0:2]",
         "[0:1:1j, 0:2]", "[0:3, 1:4:2, -1:1:3j]", "[0:1:0.5, 0:3]",
         "[0:1:np.float32(0.25), 0:2]", "[()]"]


@pytest.mark.parametrize("key", GRIDS)
@pytest.mark.parametrize("kind", ["mgrid", "ogrid"])
def test_grids_match_numpy(kind, key):
    try:
        ref = eval(f"np.{kind}{key}")
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            eval(f"lc.{kind}{key}")
        return
    got = eval(f"lc.{kind}{key}")
    if isinstance(ref, tuple):
        assert isinstance(got, tuple) and len(got) == len(ref)
        for g, r in zip(got, ref):
            assert g.device == lc.default_device()
            assert_same(g, r, rtol=1e-15, atol=1e-15)
    else:
        assert got.device == lc.default_device()
        assert_same(got, ref, rtol=1e-15, atol=1e-15)


def test_mgrid_errors_and_fusion():
    with pytest.raises(ValueError, match="negative dimensions"):
        lc.mgrid[5:0, 0:2]
    with pytest.raises(AttributeError):
        lc.mgrid[1]
    g = lc.mgrid[0:64, 0:1:32j]
    lc.reset_stats()
    g.compute()
    assert lc.stats()["launches"] == 1
    assert lc.stats()["bytes_to_device"] == 0            # no host arrays
    assert_same(g, np.mgrid[0:64, 0:1:32j], rtol=1e-15)


# ---- the one-liners ------------------------------------------------------------------------

x3 = np.arange(24, dtype=np.float64).reshape(2, 3, 4)

ONE_LINERS = [
    ("array", ([[1, 2], [3, 4]],), {"ndmin": 3}), ("array", (2.5,), {}),
    ("asanyarray", (x3,), {}), ("ascontiguousarray", (np.float32(2),), {}),
    ("asarray_chkfinite", (x3,), {}),
    ("atleast_1d", (np.float64(3),), {}), ("atleast_2d", (np.arange(3.0),), {}),
    ("atleast_3d", (np.arange(3.0),), {}), ("atleast_3d", (np.ones((2, 3)),), {}),
    ("fliplr", (x3,), {}), ("flipud", (x3,), {}),
    ("rot90", (x3,), {}), ("rot90", (x3, 2), {}), ("rot90", (x3, 3), {}), ("rot90", (x3, -1), {}),
    ("rot90", (x3, 1, (2, 0)), {}), ("rollaxis", (x3, 2), {}), ("rollaxis", (x3, 0, 3), {}),
    ("append", (x3, [1.0, 2.0]), {}), ("append", (x3, np.ones((2, 3, 1))), {"axis": 2}),
    ("logspace", (0, 3, 7), {}), ("logspace", (0, 3, 7), {"base": 2.0, "dtype": np.float32}),
    ("cross", (np.arange(6.0).reshape(2, 3), np.ones(3)), {}),
    ("fix", (np.array([-1.5, -0.5, 0.5, 2.7]),), {}), ("fix", (np.arange(-2, 3),), {}),
    ("isposinf", (np.array([1.0, np.inf, -np.inf, np.nan]),), {}),
    ("isneginf", (np.array([1.0, np.inf, -np.inf, np.nan]),), {}),
    ("iscomplex", (np.array([1, 1j, 2 + 0j]),), {}), ("isreal", (np.array([1, 1j]),), {}),
    ("iscomplex", (x3,), {}),
    ("tri", (4, 3, 1), {}), ("tri", (3,), {"dtype": np.int32}),
    ("tril_indices", (4,), {}), ("triu_indices", (4, 1, 5), {}),
    ("tril_indices_from", (np.ones((3, 4)),), {}), ("triu_indices_from", (np.ones((3, 4)), -1), {}),
    ("diag_indices", (3, 3), {}), ("diag_indices_from", (np.ones((3, 3)),), {}),
    ("diagflat", (np.arange(4.0).reshape(2, 2), -1), {}),
]


@pytest.mark.parametrize("name,args,kw", ONE_LINERS,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(ONE_LINERS)])
def test_one_liners_match_numpy(name, args, kw):
    ref = getattr(np, name)(*args, **kw)
    got = getattr(lc, name)(*[lc.asarray(a) if isinstance(a, np.ndarray) else a for a in args],
                            **kw)
    if isinstance(ref, tuple):
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            assert_same(g, r)
    else:
        assert_same(got, ref, rtol=1e-12)
    # NumPy's own function on a lazycl array stays lazy (no fallback) where it dispatches.
    if getattr(np, name) in _dispatch._LAZY and any(
            isinstance(a, np.ndarray) for a in args):
        with warnings.catch_warnings():
            warnings.simplefilter("error", lc.HostFallbackWarning)
            r2 = getattr(np, name)(*[lc.asarray(a) if isinstance(a, np.ndarray) else a
                                     for a in args], **kw)
        for g in (r2 if isinstance(r2, tuple) else (r2,)):
            assert isinstance(g, (lc.ndarray, bool))


def test_obj_predicates_and_errors():
    assert lc.iscomplexobj(lc.asarray(np.array([1j]))) and not lc.iscomplexobj(lc.arange(2))
    assert lc.isrealobj(lc.arange(2)) and lc.iscomplexobj([1j])
    with pytest.raises(ValueError, match="infs or NaNs"):
        lc.asarray_chkfinite(np.array([1.0, np.nan]))
    with pytest.raises(TypeError):
        lc.isposinf(lc.asarray(np.array([1j])))
    with pytest.raises(ValueError, match="2-d"):
        lc.fliplr(lc.arange(3))
    with pytest.raises(ValueError, match="equal length"):
        lc.diag_indices_from(lc.zeros((2, 3)))
    a = lc.array(lc.arange(3), copy=True)
    assert a is not None and isinstance(a, lc.ndarray)
    h = np.arange(3)
    if lc._lazycl._host_shares(None)[0]:
        s = lc.array(h, copy=False)              # shares h's memory, as np.array(copy=False)
        h[0] = 7
        assert int(s[0]) == 7
    else:
        with pytest.raises(ValueError):
            lc.array(h, copy=False)
    with pytest.raises(ValueError):
        lc.array(h, dtype=np.int8, copy=False)   # a cast needs a copy


def test_fromfunction_is_lazy():
    f = lc.fromfunction(lambda i, j: i * 10 + j, (3, 4))
    assert isinstance(f, lc.ndarray)
    assert_same(f, np.fromfunction(lambda i, j: i * 10 + j, (3, 4)))


def test_reexported_numpy_names():
    assert lc.dtype is np.dtype and lc.intp is np.intp and lc.double is np.float64
    assert lc.issubdtype(lc.arange(3).dtype, lc.integer)
    assert lc.broadcast_shapes((3, 1), (4,)) == (3, 4)
    assert lazycl.linalg.LinAlgError is np.linalg.LinAlgError


def test_linalg_additions():
    rng = np.random.default_rng(1)
    a, b, c = rng.random((3, 4)), rng.random((4, 5)), rng.random(5)
    got = lazycl.linalg.multi_dot([lc.asarray(a), lc.asarray(b), lc.asarray(c)])
    assert_same(got, np.linalg.multi_dot([a, b, c]), rtol=1e-12)
    sq = rng.random((4, 4)) + 4 * np.eye(4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lc.HostFallbackWarning)
        x, res, rank, s = lazycl.linalg.lstsq(lc.asarray(sq), lc.asarray(c[:4]))
        assert isinstance(rank, int) and rank == 4
        assert_same(x, np.linalg.lstsq(sq, c[:4])[0], rtol=1e-10)
        assert_same(lazycl.linalg.eigvals(lc.asarray(sq)), np.linalg.eigvals(sq), rtol=1e-10)
        assert float(lazycl.linalg.cond(lc.asarray(sq))) == pytest.approx(np.linalg.cond(sq))
