import numpy as np, lazycl as lc, time, sys
dev = "nvidia:gpu"
N = 1 << 28
rng = np.random.default_rng(0)
xh = rng.standard_normal(N, dtype=np.float32); yh = rng.standard_normal(N, dtype=np.float32)
x = lc.asarray(xh, device=dev).compute(); y = lc.asarray(yh, device=dev).compute()
q = x.queue
def t(f, reps=10):
    f(); q.finish(); ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); f(); q.finish(); ts.append(time.perf_counter() - t0)
    return round(np.median(ts) * 1e3, 3)
chain = lambda: ((x * 1.5 + y) * (x - y) / (1 + x * x)).compute()
print("chain", t(chain), "copy", t(lambda: (x + 0).compute()))
print("l2", t(lambda: lc.sum((x - y)**2).compute()))
def sm():
    m = x.max(); e = lc.exp(x - m); return (e / e.sum()).compute()
print("softmax", t(sm))
X = x.reshape(16384, 16384)
print("standardize", t(lambda: ((X - X.mean(0)) / X.std(0)).compute()))
print("meanstd", t(lambda: lc.compute(X.mean(0), X.std(0))))
print("cumsum", t(lambda: lc.cumsum(x*x).compute()))
r = float(lc.sum((x - y)**2)); print("l2 check", r, float(np.sum((xh.astype(np.float64) - yh)**2)))
src = """__kernel void chain(__global const float *x, __global const float *y, __global float *o) {
 size_t i = get_global_id(0); float a = x[i], b = y[i]; o[i] = (a * 1.5f + b) * (a - b) / (1.0f + a * a); }"""
o = lc._lazycl._alloc((N,), np.float32, dev)
print("hand chain", t(lambda: lc._lazycl._launch(q, src, "chain", (N,), (256,), [x, y, o])))
try:
    import jax, jax.numpy as jnp
    jx = jax.device_put(xh); jy = jax.device_put(yh)
    f = jax.jit(lambda a, b: (a * 1.5 + b) * (a - b) / (1 + a * a)); f(jx, jy).block_until_ready()
    g = jax.jit(lambda a, b: jnp.sum((a - b) ** 2)); g(jx, jy).block_until_ready()
    def tj(fn, *a, reps=10):
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter(); fn(*a).block_until_ready(); ts.append(time.perf_counter() - t0)
        return round(np.median(ts) * 1e3, 3)
    print("jax chain", tj(f, jx, jy), "jax l2", tj(g, jx, jy))
    sm_j = jax.jit(lambda a: (lambda e: e / e.sum())(jnp.exp(a - a.max()))); sm_j(jx).block_until_ready()
    st_j = jax.jit(lambda A: (A - A.mean(0)) / A.std(0)); JX = jx.reshape(16384, 16384); st_j(JX).block_until_ready()
    print("jax softmax", tj(sm_j, jx), "jax standardize", tj(st_j, JX))
except Exception as ex:
    print("jax failed", ex)
