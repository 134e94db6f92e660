"""Hand-written maps: out[i] = expr of the inputs' elements at i (float8 per item on CPUs)."""
from .context import long_arg


def map_source(name, inputs, expr, scalars=(), guard=False, vec=1):
    """out[i] = expr, with each input named in `inputs` loaded as a float of the same name.
    The bounds check is for GPUs only (global size rounded up to the group): on PoCL an early
    return in a map kernel costs its work-group vectorization (measured 4-5x). With vec = 8
    (CPU devices), each item computes 8 elements as float8 (PoCL only calls its vector math
    library for vector types: log1p 14x faster); the last item starts at n - 8 and overlaps
    its neighbour instead of branching on a tail."""
    params = ["__global float *restrict out"]
    params += [f"__global const float *restrict {v.upper()}_" for v in inputs]
    params += [f"const float {s}" for s in scalars]
    params.append("const long n")
    if vec > 1:
        loads = "".join(f"    const float{vec} {v} = vload{vec}(0, {v.upper()}_ + i);\n"
                        for v in inputs)
        return (f"__kernel void {name}({', '.join(params)})\n{{\n"
                f"    const long i = min((long)get_global_id(0) * {vec}, n - {vec});\n{loads}"
                f"    vstore{vec}({expr}, 0, out + i);\n}}\n")
    loads = "".join(f"    const float {v} = {v.upper()}_[i];\n" for v in inputs)
    return (f"__kernel void {name}({', '.join(params)})\n{{\n"
            f"    const long i = get_global_id(0);\n{'    if (i >= n) return;' if guard else ''}\n{loads}"
            f"    out[i] = {expr};\n}}\n")


def map_vec(ctx, n):
    """Elements per work-item of a hand-written map: 8 on CPU devices (n >= 8), else 1."""
    return 1 if ctx.gpu or n < 8 else 8


def setup_map(ctx, name, inputs, expr, arrays, scalars=()):
    """A map kernel (one element per item on GPUs, 8 per item on CPUs); `scalars` are
    (name, value) float32 pairs."""
    n = arrays[0].size
    vec = map_vec(ctx, n)
    src = map_source(name, inputs, expr, [s for s, _ in scalars], ctx.gpu, vec)
    out = ctx.alloc(arrays[0].shape)
    g, l = ctx.map_sizes(n) if vec == 1 else (((n + vec - 1) // vec,), None)
    args = [out] + list(arrays) + [("float32", v) for _, v in scalars] + [long_arg(n)]

    def run():
        ctx.launch(src, name, g, l, args)
        return out
    return run
