/* sort.c: stable sorts along the last dim: sort (values) and argsort (int64 indices).
 *
 * LSD radix sort, digits of the target's sort_digit_bits, over an
 * order-preserving unsigned key: the dtype's bits with the sign flipped (ints) or, for floats, flipped whole
 * when negative, -0.0 made +0.0 (NumPy sorts them as equal) and every NaN
 * the largest key, so NaNs come last; `descending` complements the key but
 * keeps NaNs last. Rows [0, M) are independent; each row is cut into P
 * chunks, one item each. Per digit, three launches, so no group ever waits
 * for another: (1) each chunk counts its digits; (2) per row, an exclusive
 * scan of the counts in (digit, chunk) order gives every chunk's first place
 * for each digit; (3) each chunk moves its elements, in order, to those
 * places (stable). The first count computes the key expression itself (the
 * fused producer) and writes the keys and the payload (the index for argsort,
 * the value's bits for a float sort, so -0.0 and NaN payloads survive); the
 * last move writes the outputs. Short rows, and many rows (one item each), take
 * sort_row.c instead: the same passes in one launch.
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lc_key lc_key_of(int dt)
{
    switch (lc_dtype_size(dt)) {
    case 8: return (struct lc_key){"ulong", "0x8000000000000000ul", "0xfffffffffffffffful", 64};
    case 4: return (struct lc_key){"uint", "0x80000000u", "0xffffffffu", 32};
    case 2: return (struct lc_key){"uint", "0x8000u", "0xffffu", 16};
    default: return (struct lc_key){"uint", "0x80u", "0xffu", 8};
    }
}

void lc_emit_key(struct lc_sb *sb, int dt, const char *v, int desc, const char *ind)
{
    struct lc_key K = lc_key_of(dt);
    char k = lc_dtype_kind(dt);
    if (k == 'f') {
        const char *as = K.bits == 64 ? "as_ulong" : "as_uint";
        lc_sb_printf(sb, "%s%s key_ = %s(%s == 0 ? (%s)0 : %s);\n", ind, K.type, as, v, lc_T(dt), v);
        lc_sb_printf(sb, "%skey_ = (key_ & %s) ? ~key_ : (key_ | %s);\n", ind, K.sign, K.sign);
        if (desc)
            lc_sb_printf(sb, "%skey_ = ~key_;\n", ind);
        lc_sb_printf(sb, "%sif (isnan(%s)) key_ = %s;\n", ind, v, K.all);
        return;
    }
    if (k == 'b')
        lc_sb_printf(sb, "%s%s key_ = (%s)(%s != 0);\n", ind, K.type, K.type, v);
    else if (k == 'i')   /* the bits as unsigned of the dtype's own width, the sign flipped */
        lc_sb_printf(sb, "%s%s key_ = (%s)((u%s)(%s) ^ %s);\n", ind, K.type, K.type, lc_T(dt), v,
                     K.sign);
    else
        lc_sb_printf(sb, "%s%s key_ = (%s)(%s);\n", ind, K.type, K.type, v);
    if (desc)
        lc_sb_printf(sb, "%skey_ = ~key_ & %s;\n", ind, K.all);
}

void lc_emit_unkey(struct lc_sb *sb, int dt, const char *key, int desc, int declare,
                   const char *ind)
{
    struct lc_key K = lc_key_of(dt);
    char to[64];
    if (declare)
        snprintf(to, sizeof to, "const %s val_", lc_T(dt));
    else
        snprintf(to, sizeof to, "val_");
    if (desc)
        lc_sb_printf(sb, "%sconst %s w_ = ~%s & %s;\n", ind, K.type, key, K.all);
    else
        lc_sb_printf(sb, "%sconst %s w_ = %s;\n", ind, K.type, key);
    if (lc_dtype_kind(dt) == 'f')   /* a key with the sign bit came from a value without it */
        lc_sb_printf(sb, "%s%s = %s((w_ & %s) ? (w_ ^ %s) : ~w_);\n", ind, to,
                     K.bits == 64 ? "as_double" : "as_float", K.sign, K.sign);
    else if (lc_dtype_kind(dt) == 'i')
        lc_sb_printf(sb, "%s%s = (%s)(w_ ^ %s);\n", ind, to, lc_T(dt), K.sign);
    else
        lc_sb_printf(sb, "%s%s = (%s)w_;\n", ind, to, lc_T(dt));
}

void lc_emit_sort_store(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd;
    for (int o = 0; o < k->n_outputs; o++) {
        lc_sb_printf(sb, "%sout%d[0", ind, o);
        for (int d = 0; d < nd; d++) {
            int64_t st = g->ostr[o][d];
            char iv[16];
            snprintf(iv, sizeof iv, d == nd - 1 ? "pos_" : "i%d", d);
            if (st == 1)
                lc_sb_printf(sb, " + %s", iv);
            else if (st != 0)
                lc_sb_printf(sb, " + %s * os%d_%d", iv, o, d);
        }
        lc_sb_printf(sb, "] = val_;\n");
    }
}

int lc_sort_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb, const char *rest)
{
    struct lc_launch tmp;
    memset(&tmp, 0, sizeof tmp);
    struct lc_sb junk = {0};
    struct lc_launch *to = l ? l : &tmp;
    struct lc_sb *text = sb ? sb : &junk;
    int rc = lc_common_params(g, to, text) < 0 || lc_output_stride_params(g, to, text, g->nd) < 0;
    free(tmp.args);
    lc_sb_printf(text, ",\n    __global char *s_, const long sbase, %s)\n{\n", rest);
    lc_sb_free(&junk);
    union lc_scalar none = {0};
    if (!rc && l)
        rc = lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
             lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0;
    return rc ? -1 : 0;
}

/* This schedule's own parameters, after the scratch. */
#define LC_SORT_PARAMS                                                                      \
    "const long M, const long P, const int shift, const long ks, const long vs, "          \
    "const long kd, const long vd"

enum { LC_SORT_FIRST, LC_SORT_HIST, LC_SORT_SCAN, LC_SORT_MOVE, LC_SORT_LAST };

static int lc_sort_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nr = nd - 1, arg = k->scan_op == LC_OP_ARGSORT;
    int vexpr = k->outputs[0].expr, dt = k->exprs[vexpr].dtype;
    int desc = k->outputs[0].node ? k->outputs[0].node->p.red.kind != 0 : 0;
    int64_t M = 1, N = g->shape[nd - 1];
    for (int d = 0; d < nr; d++)
        M *= g->shape[d];
    struct lc_key key = lc_key_of(dt);
    int bits = key.bits;
    const char *K = key.type;
    int DB = g->t->sort_digit_bits, radix = 1 << DB;
    int passes = bits / DB;
    /* The payload: the index (argsort), the value's bits (a float sort), or none. */
    int pay = arg || lc_dtype_is_float(dt);
    const char *V = arg ? "long" : K;
    int64_t P = g->t->sort_items / (M ? M : 1);
    if (P > N / 1024)
        P = N / 1024;
    if (P < 1)
        P = 1;
    size_t ks = bits == 64 ? 8 : 4, vs = arg ? 8 : ks;
    int64_t MN = M * N;
    size_t counts = (size_t)(M * radix * P) * 8;
    size_t kb = lc_round_up((size_t)MN * ks, 8), vb = pay ? lc_round_up((size_t)MN * vs, 8) : 0;
    size_t off_k0 = counts, off_v0 = off_k0 + kb, off_k1 = off_v0 + vb, off_v1 = off_k1 + kb;
    c->scratch_bytes = off_v1 + vb;
    c->zero_bytes = 0;
    const char *names[5] = {"_first", "_hist", "_scan", "_move", "_last"};

    for (int kk = 0; kk < 5; kk++) {
        lc_sb_printf(sb, "__kernel void @K@%s(", names[kk]);
        if (lc_sort_params(g, NULL, sb, LC_SORT_PARAMS) < 0)
            return -1;
        lc_sb_printf(sb, "    __global char *s = s_ + sbase;\n"
                         "    __global long *cnt = (__global long *)s;\n");
        if (kk == LC_SORT_SCAN) {
            lc_sb_printf(sb, "    const long m = get_global_id(0);\n    if (m >= M) return;\n"
                             "    __global long *c = cnt + m * %d * P;\n    long acc = 0;\n"
                             "#pragma unroll 1\n    for (long t = 0; t < %d * P; t++) {\n"
                             "        const long x = c[t];\n        c[t] = acc;\n        acc += x;\n"
                             "    }\n}\n\n", radix, radix);
            continue;
        }
        lc_sb_printf(sb, "    const long g_ = get_global_id(0);\n"
                         "    const long m = g_ / P, q = g_ %% P;\n    if (m >= M) return;\n");
        if (nr > 0)
            lc_unravel(sb, 0, nr, "m", "    ");
        lc_sb_printf(sb, "    const long chunk = (n%d + P - 1) / P;\n"
                         "    const long beg = min(n%d, q * chunk), end = min(n%d, (q + 1) * chunk);\n"
                         "    __global %s *ksrc = (__global %s *)(s + ks) + m * n%d;\n",
                     nr, nr, nr, K, K, nr);
        if (pay)
            lc_sb_printf(sb, "    __global %s *vsrc = (__global %s *)(s + vs) + m * n%d;\n", V, V, nr);
        lc_sb_printf(sb, "    __global long *c = cnt + m * %d * P + q;\n", radix);
        if (kk == LC_SORT_FIRST || kk == LC_SORT_HIST) {
            lc_sb_printf(sb, "    long h[%d];\n#pragma unroll 1\n    for (int d = 0; d < %d; d++)\n        h[d] = 0;\n",
                         radix, radix);
            lc_sb_printf(sb, LC_LOOP_SCALAR "#pragma unroll 1\n"
                             "    for (long i%d = beg; i%d < end; i%d++) {\n", nr, nr, nr);
            if (kk == LC_SORT_FIRST) {
                /* The key expression, computed here (the fused producer). */
                lc_emit_exprs(g, sb, 0, "        ");
                char v[16];
                snprintf(v, sizeof v, "v%d", vexpr);
                lc_emit_key(sb, dt, v, desc, "        ");
                lc_sb_printf(sb, "        ksrc[i%d] = key_;\n", nr);
                if (arg)
                    lc_sb_printf(sb, "        vsrc[i%d] = i%d;\n", nr, nr);
                else if (pay)
                    lc_sb_printf(sb, "        vsrc[i%d] = %s(v%d);\n", nr,
                                 bits == 64 ? "as_ulong" : "as_uint", vexpr);
            } else {
                lc_sb_printf(sb, "        const %s key_ = ksrc[i%d];\n", K, nr);
            }
            lc_sb_printf(sb, "        h[(key_ >> shift) & %d]++;\n    }\n#pragma unroll 1\n"
                             "    for (int d = 0; d < %d; d++)\n        c[d * P] = h[d];\n}\n\n",
                         radix - 1, radix);
            continue;
        }
        /* MOVE and LAST: each element to its digit's next place, in order. */
        lc_sb_printf(sb, "    long o[%d];\n#pragma unroll 1\n    for (int d = 0; d < %d; d++)\n        o[d] = c[d * P];\n",
                     radix, radix);
        if (kk == LC_SORT_MOVE) {
            lc_sb_printf(sb, "    __global %s *kdst = (__global %s *)(s + kd) + m * n%d;\n", K, K, nr);
            if (pay)
                lc_sb_printf(sb, "    __global %s *vdst = (__global %s *)(s + vd) + m * n%d;\n",
                             V, V, nr);
        }
        lc_sb_printf(sb, LC_LOOP_SCALAR "#pragma unroll 1\n    for (long j_ = beg; j_ < end; j_++) {\n"
                         "        const %s key_ = ksrc[j_];\n"
                         "        const long pos_ = o[(key_ >> shift) & %d]++;\n", K, radix - 1);
        if (kk == LC_SORT_MOVE) {
            lc_sb_printf(sb, "        kdst[pos_] = key_;\n");
            if (pay)
                lc_sb_printf(sb, "        vdst[pos_] = vsrc[j_];\n");
        } else {
            if (arg)
                lc_sb_printf(sb, "        const long val_ = vsrc[j_];\n");
            else if (pay)
                lc_sb_printf(sb, "        const %s val_ = %s(vsrc[j_]);\n", lc_T(dt),
                             bits == 64 ? "as_double" : "as_float");
            else
                lc_emit_unkey(sb, dt, "key_", desc, 1, "        ");
            lc_emit_sort_store(g, sb, "        ");
        }
        lc_sb_printf(sb, "    }\n}\n\n");
    }

    /* The launches: count (computing the keys), scan, move; per further digit count, scan,
     * move; the last move writes the outputs. Keys ping-pong between two areas. */
    size_t kcur = off_k0, vcur = off_v0, knext = off_k1, vnext = off_v1;
    for (int p = 0; p < passes; p++) {
        for (int step = 0; step < 3; step++) {
            int kind = step == 0 ? (p == 0 ? LC_SORT_FIRST : LC_SORT_HIST)
                     : step == 1 ? LC_SORT_SCAN : (p == passes - 1 ? LC_SORT_LAST : LC_SORT_MOVE);
            struct lc_launch *l = lc_new_launch(c, names[kind]);
            if (!l)
                return -1;
            if (lc_sort_params(g, l, NULL, LC_SORT_PARAMS) < 0 || lc_add_i64(l, M) < 0 ||
                lc_add_i64(l, P) < 0)
                return -1;
            union lc_scalar sh = {.i = DB * p};
            if (lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT32, sh) < 0 ||
                lc_add_i64(l, (int64_t)kcur) < 0 || lc_add_i64(l, (int64_t)vcur) < 0 ||
                lc_add_i64(l, (int64_t)knext) < 0 || lc_add_i64(l, (int64_t)vnext) < 0)
                return -1;
            l->work_dim = 1;
            l->global[0] = (size_t)(kind == LC_SORT_SCAN ? M : M * P);
            if (!lc_fixed_groups(g->t, l, g->t->scan_work_group)) {
                /* One item per group on CPUs: every chunk may go to another core (a driver
                 * packing them into one group would run them all on one). */
                l->use_local = 1;
                l->local[0] = l->local[1] = l->local[2] = 1;
            }
        }
        size_t t = kcur;
        kcur = knext;
        knext = t;
        t = vcur;
        vcur = vnext;
        vnext = t;
    }
    snprintf(c->schedule, sizeof c->schedule,
             "sort: LSD radix, %d passes of %d-bit digits, %lld chunk%s per row", passes, DB,
             (long long)P, P == 1 ? "" : "s");
    return 0;
}

const struct lc_schedule lc_sched_sort_radix = {LC_KERNEL_SORT, "sort", NULL, lc_sort_gen};
