"""Hand-written reductions (a partial kernel, then a final one) and the rows built on them: l2,
softmax (two reductions, then a map)."""
from .context import F32, F64, long_arg, round_up
from .maps import map_vec


_OPS = {
    # op: (identity, scalar combine, vector accumulate type, vector combine, horizontal fold)
    "sum": ("0.0", "({a} + {b})"),
    "max": ("-INFINITY", "fmax({a}, {b})"),
}


def cpu_partial_source(name, inputs, expr, op, prelude_params="", prelude=""):
    """One work-item per chunk: 8-wide vector loop, double8 (sum) / float8 (max) accumulator."""
    if op == "sum":
        vdecl, vacc, sdecl, sacc = ("double8 acc = 0;", "acc += convert_double8({e});",
                                    "double s = 0;", "s += (double)({e});")
        fold = "s = " + " + ".join(f"acc.s{c}" for c in "01234567") + ";"
    else:
        vdecl, vacc, sdecl, sacc = ("float8 acc = (float8)(-INFINITY);", "acc = fmax(acc, {e});",
                                    "float s = -INFINITY;", "s = fmax(s, {e});")
        fold = "s = fmax(fmax(fmax(acc.s0, acc.s1), fmax(acc.s2, acc.s3)), " \
               "fmax(fmax(acc.s4, acc.s5), fmax(acc.s6, acc.s7)));"
    params = ["__global double *restrict part"]
    params += [f"__global const float *restrict {v.upper()}_" for v in inputs]
    if prelude_params:
        params.append(prelude_params)
    params += ["const long n", "const long chunk"]
    vload = "".join(f"            const float8 {v} = vload8(0, {v.upper()}_ + i);\n" for v in inputs)
    sload = "".join(f"            const float {v} = {v.upper()}_[i];\n" for v in inputs)
    return f"""__kernel void {name}({', '.join(params)})
{{
    {prelude}
    const long p = get_global_id(0);
    long i = p * chunk;
    const long end = min(n, i + chunk);
    {sdecl}
    {{
        {vdecl}
        for (; i + 8 <= end; i += 8) {{
{vload}            {vacc.format(e=expr)}
        }}
        {fold}
    }}
    for (; i < end; i++) {{
{sload}            {sacc.format(e=expr)}
    }}
    part[p] = s;
}}
"""


def _gpu_partial_source(name, inputs, expr, op, prelude_params="", prelude=""):
    """Coalesced grid-stride loop, then a 256-item work-group tree; one partial per group."""
    ident, comb = _OPS[op]
    params = ["__global double *restrict part"]
    params += [f"__global const float *restrict {v.upper()}_" for v in inputs]
    if prelude_params:
        params.append(prelude_params)
    params += ["const long n"]
    sload = "".join(f"        const float {v} = {v.upper()}_[i];\n" for v in inputs)
    return f"""__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void {name}({', '.join(params)})
{{
    __local double sh[256];
    {prelude}
    const int lid = get_local_id(0);
    double s = {ident};
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) {{
{sload}        s = {comb.format(a="s", b="(double)(" + expr + ")")};
    }}
    sh[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 128; k > 0; k >>= 1) {{
        if (lid < k) sh[lid] = {comb.format(a="sh[lid]", b="sh[lid + k]")};
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    if (lid == 0) part[get_group_id(0)] = sh[0];
}}
"""


def _final_source(name, op, local):
    """One work-group of `local` items folds the partials into out[0] (as float)."""
    ident, comb = _OPS[op]
    return f"""__kernel void {name}(__global float *restrict out, __global const double *restrict part,
                   const long P)
{{
    __local double sh[{local}];
    const int lid = get_local_id(0);
    double s = {ident};
    for (long q = lid; q < P; q += {local}) s = {comb.format(a="s", b="part[q]")};
    sh[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = {local} / 2; k > 0; k >>= 1) {{
        if (lid < k) sh[lid] = {comb.format(a="sh[lid]", b="sh[lid + k]")};
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    if (lid == 0) out[0] = (float)sh[0];
}}
"""


class Reduction:
    """partial kernel + final kernel: out[0] = op over i of expr(inputs[i])."""

    def __init__(self, ctx, name, inputs, expr, op, arrays, extra=None):
        # extra: optional (param decl, prelude code, array) for a scalar read from a buffer
        self.ctx = ctx
        pp, pre, earr = extra if extra else ("", "", None)
        self.n = n = arrays[0].size
        if ctx.gpu:
            self.P = ctx.groups
            self.psrc = _gpu_partial_source(name + "_part", inputs, expr, op, pp, pre)
            self.pg, self.pl = (self.P * ctx.local,), (ctx.local,)
            tail = [long_arg(n)]
            fl = ctx.local
        else:
            self.P = ctx.chunks
            chunk = round_up((n + self.P - 1) // self.P, 8)
            self.psrc = cpu_partial_source(name + "_part", inputs, expr, op, pp, pre)
            self.pg, self.pl = (self.P,), (1,)
            tail = [long_arg(n), long_arg(chunk)]
            fl = 1
        self.fsrc = _final_source(name + "_fin", op, fl)
        self.fg = (fl,)
        self.part = ctx.alloc((self.P,), F64)
        self.out = ctx.alloc((1,), F32)
        self.pargs = [self.part] + list(arrays) + ([earr] if earr is not None else []) + tail
        self.fargs = [self.out, self.part, long_arg(self.P)]
        self.name = name

    def enqueue(self):
        self.ctx.launch(self.psrc, self.name + "_part", self.pg, self.pl, self.pargs)
        self.ctx.launch(self.fsrc, self.name + "_fin", self.fg, self.fg, self.fargs)
        return self.out


def setup_l2(ctx, x, y):
    red = Reduction(ctx, "hand_l2", ["x", "y"], "(x - y) * (x - y)", "sum", [x, y])
    out1 = red.out

    def run():
        red.enqueue()
        return out1
    return run


def setup_softmax(ctx, x):
    rmax = Reduction(ctx, "hand_smax", ["x"], "x", "max", [x])
    rsum = Reduction(ctx, "hand_ssum", ["x"], "exp(x - m)", "sum", [x],
                     extra=("__global const float *restrict M_", "const float m = M_[0];", rmax.out))
    name = "hand_softmax_map"
    n = x.size
    vec = map_vec(ctx, n)
    params = ("__global float *restrict out, __global const float *restrict X_, "
              "__global const float *restrict M_, __global const float *restrict S_, const long n")
    if vec > 1:
        src = (f"__kernel void {name}({params})\n{{\n"
               f"    const long i = min((long)get_global_id(0) * {vec}, n - {vec});\n"
               f"    vstore{vec}(exp(vload{vec}(0, X_ + i) - M_[0]) / S_[0], 0, out + i);\n}}\n")
        g, l = ((n + vec - 1) // vec,), None
    else:
        src = (f"__kernel void {name}({params})\n{{\n"
               "    const long i = get_global_id(0);\n"
               + ("    if (i >= n) return;\n" if ctx.gpu else "") +
               "    out[i] = exp(X_[i] - M_[0]) / S_[0];\n}\n")
        g, l = ctx.map_sizes(n)
    out = ctx.alloc(x.shape)
    args = [out, x, rmax.out, rsum.out, long_arg(n)]

    def run():
        rmax.enqueue()
        rsum.enqueue()
        ctx.launch(src, name, g, l, args)
        return out
    return run
