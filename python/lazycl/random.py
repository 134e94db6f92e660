"""lazycl.random: random numbers made on the device, after NumPy's Generator API.

The generator is Philox4x32-10 (Salmon et al., SC11), counter-based: value k of a draw is a
pure function of the generator's 64-bit key and the value number n = offset + k, where `offset`
is the number of values the generator had drawn before, each draw rounded up to a multiple of 4.
Philox's block n >> 2 gives four 32-bit values (value n is its word n & 3), block n >> 1 two
64-bit ones (words 0-1, 2-3): a kernel reading four neighbours computes one block, not four.
A random array is therefore a source node, like an arange: it is computed inside whatever
consumes it (``lc.mean(rng.normal(size=n) ** 2)`` is one kernel, with no buffer but the
result) and takes memory only if it is materialized.
One seed reproduces the whole sequence on every device.

What is exact where (codegen/philox.h): the bits and the uniform floats (the top 24 or 53 bits
of the words, scaled by a power of two) are identical on every device and schedule. Normals
are Box-Muller over pairs of the same words (the even value of a pair r cos t, the odd one
r cos(t - pi/2), i.e. r sin t); they go through the device's log, sqrt and cos, whose last
bits OpenCL allows to differ between implementations (within its ULP bounds): the same on one
device, possibly not bit for bit across devices. float32 normals come from
24-bit uniforms, so |z| <= 5.77; float64 normals from 53-bit ones, |z| <= 8.57. The values are
not NumPy's (NumPy's default bit generator is PCG64 and its normals use a ziggurat); the
distributions are.

Keys come from NumPy's SeedSequence (lc.random.SeedSequence is NumPy's), so seeds, entropy and
spawned streams follow NumPy's rules; `Generator.spawn` gives independent streams (different
keys). Each method takes ``device=`` (the generator's own device by default) and ``dtype=``
where NumPy's does.

``permutation``, ``shuffle``, ``permuted`` and ``choice(..., replace=False)`` sort random 64-bit
keys on the device (lazycl.sort's radix sort); ``shuffle`` writes in place through the writes.
"""
import operator
import threading

import numpy as np

from . import _index, _lazycl as _c, _sort, _write
from ._histogram import _count_le
from ._index import take_along_axis
from ._util import is_array as _is_array, norm_axis as _axis

__all__ = ["default_rng", "Generator", "SeedSequence", "seed", "rand", "randn", "randint",
           "random_sample", "random", "uniform", "normal", "standard_normal"]

SeedSequence = np.random.SeedSequence

_BITS, _UNIFORM, _NORMAL = 0, 1, 2


def _size_tuple(size):
    if size is None:
        return None
    if isinstance(size, (int, np.integer)):
        size = (operator.index(size),)
    size = tuple(operator.index(s) for s in size)
    if any(s < 0 for s in size):
        raise ValueError("negative dimensions are not allowed")
    return size


def _param(x):
    """A distribution parameter: a lazycl array as is; anything else as a NumPy value."""
    if _is_array(x):
        return x
    return np.asarray(x)


def _shape_of(*params):
    return np.broadcast_shapes(*[tuple(p.shape) for p in params])


class _PhiloxState:
    """The generator's bit source: a 64-bit key from a SeedSequence, and a counter."""

    def __init__(self, seed_seq):
        self.seed_seq = seed_seq
        w = seed_seq.generate_state(2, np.uint32)
        self.key = int(w[0]) | int(w[1]) << 32
        self.counter = 0
        self.lock = threading.Lock()

    @property
    def state(self):
        return {"bit_generator": "Philox4x32-10", "key": self.key, "counter": self.counter}

    def take(self, n):
        """The counter of a draw of n values; the next starts at the next multiple of 4 (a
        Philox block holds four 32-bit values: draws start on whole blocks)."""
        with self.lock:
            c = self.counter
            self.counter = (c + n + 3) // 4 * 4 & (2 ** 64 - 1)
        return c


class Generator:
    """Random numbers on a lazycl device, after numpy.random.Generator (see the module doc)."""

    def __init__(self, seed=None, device=None):
        if isinstance(seed, _PhiloxState):
            self.bit_generator = seed
        else:
            ss = seed if isinstance(seed, SeedSequence) else SeedSequence(seed)
            self.bit_generator = _PhiloxState(ss)
        self._device = device

    def __repr__(self):
        return f"Generator(Philox4x32-10) on {self._device or 'the default device'}"

    def spawn(self, n_children):
        """n_children independent generators (child seed sequences, as NumPy's spawn)."""
        return [Generator(ss, self._device)
                for ss in self.bit_generator.seed_seq.spawn(n_children)]

    # ---- the sources -------------------------------------------------------------------

    def _draw(self, dtype, dist, shape, device):
        n = 1
        for s in shape:
            n *= s
        c = self.bit_generator.take(n)
        dev = device if device is not None else self._device
        r = _c._random(np.dtype(dtype).name, dist, self.bit_generator.key, c, n, dev)
        return _c.reshape(r, shape) if tuple(shape) != (n,) else r

    def _float_dtype(self, dtype, what):
        dt = np.dtype(dtype)
        if dt not in (np.float32, np.float64):
            raise TypeError(f"Unsupported dtype {dt!r} for {what}")
        return dt

    @staticmethod
    def _out_or(out, r):
        if out is None:
            return r
        _write.setitem(out, Ellipsis, r)
        return out

    def _shape(self, size, out, *params):
        size = _size_tuple(size)
        if out is not None:
            if not _is_array(out):
                raise TypeError("out must be a lazycl array")
            if size is not None and tuple(size) != tuple(out.shape):
                raise ValueError("size must match out.shape when used together")
            return tuple(out.shape)
        if size is not None:
            if params:
                b = _shape_of(*params)
                if np.broadcast_shapes(b, size) != size:
                    raise ValueError(f"shape mismatch: objects cannot be broadcast to a single "
                                     f"shape.  Mismatch is between arg 0 with shape {size} and "
                                     f"arg 1 with shape {b}.")
            return size
        return _shape_of(*params) if params else ()

    def _float_source(self, what, dist, size, dtype, out, device):
        """A float draw of `size` (or out's shape) written into out when given, whose dtype
        must then be the draw's, as NumPy's."""
        dt = self._float_out(dtype, what, out)
        return self._out_or(out, self._draw(dt, dist, self._shape(size, out), device))

    def _float_out(self, dtype, what, out):
        """The float dtype of a draw, which out (when given) must have, as NumPy's."""
        dt = self._float_dtype(dtype, what)
        if out is not None and np.dtype(out.dtype) != dt:
            raise TypeError(f"Supplied output array has the wrong type. Expected {dt}, got "
                            f"{np.dtype(out.dtype)}")
        return dt

    def random(self, size=None, dtype=np.float64, out=None, *, device=None):
        """Uniform floats in [0, 1): the top 24 (float32) or 53 (float64) bits of the words."""
        return self._float_source("random", _UNIFORM, size, dtype, out, device)

    def standard_normal(self, size=None, dtype=np.float64, out=None, *, device=None):
        """Standard normals (Box-Muller, both branches; see the module doc)."""
        return self._float_source("standard_normal", _NORMAL, size, dtype, out, device)

    def _affine(self, dist, a, b, size, device, check=None):
        """a + b * X, X uniform or normal of the broadcast shape, in float64 as NumPy's."""
        pa, pb = _param(a), _param(b)
        if check is not None:
            check(pb)
        shape = self._shape(size, None, pa, pb)
        x = self._draw(np.float64, dist, shape, device)
        return _c._binary("add", _as_param(pa, x), _c._binary("multiply", _as_param(pb, x), x))

    def uniform(self, low=0.0, high=1.0, size=None, *, device=None):
        """low + (high - low) * random(): floats in [low, high)."""
        pl, ph = _param(low), _param(high)
        if not _is_array(pl) and not _is_array(ph) and not np.all(np.isfinite(ph - pl)):
            raise OverflowError("Range exceeds valid bounds")
        shape = self._shape(size, None, pl, ph)
        x = self._draw(np.float64, _UNIFORM, shape, device)
        lo = _as_param(pl, x)
        if _is_array(pl) or _is_array(ph):
            span = _c._binary("subtract", _as_param(ph, x), lo)
        else:
            span = _as_param(np.asarray(ph - pl, dtype=np.float64), x)
        return _c._binary("add", lo, _c._binary("multiply", span, x))

    def normal(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """loc + scale * standard_normal()."""
        return self._affine(_NORMAL, loc, scale, size, device, _nonneg("scale"))

    def exponential(self, scale=1.0, size=None, *, device=None):
        """scale * -log1p(-U), U uniform in [0, 1) (inverse transform: finite everywhere)."""
        ps = _param(scale)
        _nonneg("scale")(ps)
        shape = self._shape(size, None, ps)
        e = _exponential_of(self._draw(np.float64, _UNIFORM, shape, device))
        return _c._binary("multiply", _as_param(ps, e), e)

    def standard_exponential(self, size=None, dtype=np.float64, out=None, *, device=None):
        dt = self._float_out(dtype, "standard_exponential", out)
        u = self._draw(dt, _UNIFORM, self._shape(size, out), device)
        return self._out_or(out, _exponential_of(u))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, *, device=None):
        """exp(normal(mean, sigma))."""
        return _c._unary("exp", self._affine(_NORMAL, mean, sigma, size, device,
                                            _nonneg("sigma")))

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False, *,
                 device=None):
        """Integers in [low, high) (or [low, high] with endpoint): low + the high bits of
        bits x range (ranges up to 2^32: one 32-bit word; wider: a 64-bit word modulo the
        range, biased by at most range / 2^64)."""
        dt = np.dtype(dtype)
        if dt.kind not in "iub":
            raise TypeError(f"Unsupported dtype {dt!r} for integers")
        if high is None:
            low, high = 0, low
        lo_a, hi_a = np.asarray(low), np.asarray(high)
        if _is_array(low) or _is_array(high):
            raise TypeError("integers: low and high must be host values (Python or NumPy)")
        if lo_a.dtype.kind == "f" or hi_a.dtype.kind == "f":
            if not (np.all(lo_a == np.floor(lo_a)) and np.all(hi_a == np.floor(hi_a))):
                raise TypeError("Unsupported dtype dtype('float64') for integers")
        lo_o, hi_o = lo_a.astype(object), hi_a.astype(object)
        top = hi_o if endpoint else hi_o - 1
        info = (0, 1) if dt.kind == "b" else (np.iinfo(dt).min, np.iinfo(dt).max)
        if np.any(lo_o < info[0]):
            raise ValueError(f"low is out of bounds for {dt}")
        if np.any(top > info[1]):
            raise ValueError(f"high is out of bounds for {dt}")
        if np.any(lo_o > top):
            raise ValueError("low > high" if endpoint else "low >= high")
        span = np.asarray(top - lo_o + 1, dtype=object)    # exact (object ints)
        shape = self._shape(size, None, lo_a, hi_a)
        wide = bool(np.any(span > 2 ** 32))
        rt = "int64" if dt.kind == "i" or dt.kind == "b" else "uint64"
        if not wide:
            b = _c.astype(self._draw(np.uint32, _BITS, shape, device), "uint64")
            sp = _c.asarray(np.asarray(span, dtype=np.uint64), None, b.queue)
            off = _c._binary("right_shift", _c._binary("multiply", b, sp), 32)
        else:
            b = self._draw(np.uint64, _BITS, shape, device)
            sp = np.asarray(span % 2 ** 64, dtype=np.uint64)
            # A span of 2^64 (the whole uint64/int64 range) takes the bits as they are.
            off = b if np.all(sp == 0) else _c._binary("remainder", b, _c.asarray(sp, None, b.queue))
        base = np.asarray(np.asarray(lo_o, dtype=object) % 2 ** 64, dtype=np.uint64)
        r = _c._binary("add", _c.astype(off, "uint64"), _c.asarray(base, None, off.queue))
        return _c.astype(_c.astype(r, rt), dt.name) if rt != dt.name else _c.astype(r, rt)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, *,
               device=None):
        """Samples of a (or of arange(a)): uniform indices, or by the cumulative
        probabilities of p (a branchless binary search inside the gather's kernel)."""
        pop = None
        if isinstance(a, (int, np.integer)) or (not _is_array(a) and np.ndim(a) == 0):
            n = operator.index(a)
        else:
            pop = a if _is_array(a) else np.asarray(a)
            if pop.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not 0-d")
            axis = _axis(axis, pop.ndim)
            n = pop.shape[axis]
        size_t = _size_tuple(size)
        count = 1
        for s in size_t or ():
            count *= s
        if n <= 0 and count:
            raise ValueError("a must be a positive integer unless no samples are taken"
                             if pop is None else "a cannot be empty unless no samples are taken")
        if n < 0:
            raise ValueError("a must be a positive integer unless no samples are taken")
        shape = size_t if size_t is not None else ()
        if not replace:
            return self._choice_unique(n, count, shape, p, pop, axis, device)
        if p is None:
            idx = self.integers(0, n, shape, device=device) if count else \
                _c._full(0, shape, "int64", None)
        else:
            pp = _check_p(p, n)
            cdf = np.cumsum(pp)
            cdf /= cdf[-1]
            u = self.random(shape, device=device)
            # the number of cumulative probabilities <= u: the sampled index
            idx = _c._binary("minimum", _count_le(u, cdf[:-1]), n - 1) if n > 1 else \
                _c._full(0, shape, "int64", u.queue)
        if pop is None:
            return idx
        src = pop if _is_array(pop) else _c.asarray(pop, None, device if device is not None
                                                      else self._device)
        key = (slice(None),) * axis + (idx,)
        return _index.getitem(src, key)

    def _choice_unique(self, n, count, shape, p, pop, axis, device):
        """count distinct indices of range(n): the first of a random order; with p, the
        count smallest of E_i / p_i, E_i exponential (Efraimidis-Spirakis: the same law as
        drawing one at a time with renormalized p, which NumPy does)."""
        if count > n:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        dev = device if device is not None else self._device
        if p is None:
            order = self._order((n,), 0, dev)
        else:
            pp = _check_p(p, n)
            if np.count_nonzero(pp) < count:
                raise ValueError("Fewer non-zero entries in p than size")
            e = self.standard_exponential(n, device=dev)
            w = _c.asarray(np.where(pp > 0, pp, 0.0), None, e.queue)
            key = _c.where(_c._binary("greater", w, 0.0), _c._binary("true_divide", e, w), np.inf)
            order = _sort.argsort(key)
        idx = _c.reshape(order[:count], shape)
        if pop is None:
            return idx
        src = pop if _is_array(pop) else _c.asarray(pop, None, dev)
        return _take1(src, idx, axis)

    # ---- permutations: argsort of random 64-bit keys (the device sort) -------------------

    def _order(self, shape, axis, device):
        """A uniformly random permutation of range(shape[axis]) along axis, for every other
        index independently: the argsort of random 64-bit keys (ties, at n^2 / 2^65, keep
        index order)."""
        bits = self._draw(np.uint64, _BITS, tuple(shape), device)
        return _sort.argsort(bits, axis=axis)

    def permutation(self, x, axis=0, *, device=None):
        """arange(x) permuted, or a copy of array x permuted along axis."""
        if isinstance(x, (int, np.integer)):
            n = operator.index(x)
            if n < 0:
                raise ValueError("negative dimensions are not allowed")
            return self._order((n,), 0, device)
        a = x if _is_array(x) else _c.asarray(np.asarray(x), None,
                                               device if device is not None else self._device)
        if a.ndim == 0:
            raise IndexError("x must be an integer or at least 1-dimensional")
        ax = _axis(axis, a.ndim)
        idx = self._order((a.shape[ax],), 0, device if device is not None else a.device)
        return _index.getitem(a, (slice(None),) * ax + (idx,))

    def shuffle(self, x, axis=0):
        """x permuted in place along axis (a lazycl array; its views see the write)."""
        if not _is_array(x):
            raise TypeError("lazycl.random: shuffle permutes a lazycl array in place; use "
                            "permutation for other inputs")
        if x.ndim == 0:
            raise TypeError("shuffle needs an array of at least 1 dimension")
        _write.setitem(x, Ellipsis, self.permutation(x, axis, device=x.device))

    def permuted(self, x, axis=None, out=None):
        """Every slice of x along axis (None: the flattened array) permuted independently."""
        a = x if _is_array(x) else _c.asarray(np.asarray(x), None, self._device)
        if axis is None:
            flat = _c.reshape(a, (a.size,))
            r = _c.reshape(_take1(flat, self._order((a.size,), 0, a.device), 0), tuple(a.shape))
        else:
            ax = _axis(axis, a.ndim)
            r = take_along_axis(a, self._order(tuple(a.shape), ax, a.device), ax)
        if out is None:
            return r
        if not _is_array(out):
            raise TypeError("out must be a lazycl array")
        if tuple(out.shape) != tuple(a.shape):
            raise ValueError("out must have the same shape as x")
        _write.setitem(out, Ellipsis, r)
        return out


def _take1(a, idx, axis):
    return _index.getitem(a, (slice(None),) * axis + (idx,))


def _check_p(p, n):
    """p as NumPy checks it for choice (read on the host)."""
    pp = np.asarray(p, dtype=np.float64)
    if pp.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if pp.shape[0] != n:
        raise ValueError("a and p must have same size")
    if np.any(np.isnan(pp)):
        raise ValueError("Probabilities contain NaN")
    if np.any(pp < 0):
        raise ValueError("Probabilities are not non-negative")
    if abs(pp.sum() - 1.0) > np.sqrt(np.finfo(np.float64).eps):
        raise ValueError("Probabilities do not sum to 1. See Notes section of "
                         "docstring for more information.")
    return pp


def _exponential_of(u):
    """-log1p(-u): standard exponentials from uniforms in [0, 1) (finite everywhere)."""
    return _c._unary("negative", _c._unary("log1p", _c._unary("negative", u)))


def _nonneg(name):
    def check(v):
        if not _is_array(v) and np.any(np.asarray(v) < 0):
            raise ValueError(f"{name} < 0")
    return check


def _as_param(p, like):
    """A parameter as a graph operand beside `like` (a Python float stays a weak scalar)."""
    if _is_array(p):
        return p
    if p.ndim == 0:
        return float(p)
    return _c.asarray(np.asarray(p, dtype=np.float64), None, like.queue)


def default_rng(seed=None, *, device=None):
    """A Generator seeded as numpy.random.default_rng (None: fresh entropy; an int, a sequence
    of ints or a SeedSequence; a Generator is returned as is)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, np.random.Generator):
        raise TypeError("default_rng: a NumPy Generator cannot seed a lazycl one; pass a seed "
                        "or a SeedSequence")
    return Generator(seed, device)


# ---- the legacy functions, over one global generator --------------------------------------

_global = [Generator()]
_global_lock = threading.Lock()


def _rng():
    with _global_lock:
        return _global[0]


def seed(seed=None):
    """Reseed the global generator (lazycl's own stream: not NumPy's MT19937 values)."""
    if seed is not None and not isinstance(seed, (int, np.integer)) and np.ndim(seed) == 0:
        raise TypeError("Cannot cast scalar from dtype('float64') to dtype('int64') according "
                        "to the rule 'safe'")
    if seed is not None and np.any(np.asarray(seed) < 0):
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    with _global_lock:
        _global[0] = Generator(seed)


def rand(*shape):
    """Uniform floats in [0, 1) of the given shape (float64)."""
    return _rng().random(shape)


def randn(*shape):
    """Standard normals of the given shape (float64)."""
    return _rng().standard_normal(shape)


def randint(low, high=None, size=None, dtype=int):
    """Integers in [low, high) (or [0, low)), int64 by default."""
    return _rng().integers(low, high, size, dtype=np.dtype(dtype))


def random_sample(size=None):
    return _rng().random(size)


random = random_sample


def uniform(low=0.0, high=1.0, size=None):
    return _rng().uniform(low, high, size)


def normal(loc=0.0, scale=1.0, size=None):
    return _rng().normal(loc, scale, size)


def standard_normal(size=None):
    return _rng().standard_normal(size)
