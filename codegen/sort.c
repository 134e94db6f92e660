/* sort.c: stable sorts along the last dim: sort (values) and argsort (int64 indices).
 *
 * LSD radix sort, digits of the target's sort_radix_bits, over an order-preserving unsigned
 * key: the dtype's bits with the sign flipped (ints) or, for floats, flipped whole when
 * negative, -0.0 made +0.0 (NumPy sorts them as equal) and every NaN the largest key, so NaNs
 * come last; `descending` complements the key but keeps NaNs last. Rows [0, M) are
 * independent; each row is cut into P chunks, one item each. Per digit, launches that never
 * wait for each other: (1) each chunk counts its digits; (2) per row, an exclusive scan of
 * the counts in (digit, chunk) order gives every chunk's first place for each digit; (3)
 * each chunk moves its elements, in order, to those places (stable), through write-combined
 * lines (lc_sort_move). The first count computes the key expression itself (the fused
 * producer) and writes the keys; the last move writes the outputs. (A move that also counted
 * the next digit, per chunk of the next pass, cost more than the count launch it saved: PoCL
 * 3.1, 2^24 float32, +19 ms a move against 10 ms a count.)
 *
 * The payload: an element's index (uint: rows of fewer than 2^32), made by the first move;
 * argsort always carries it, a float sort only in rows where a chunk holds -0.0 or a NaN of
 * other bits than np.nan's (flags per chunk from the first count): a folded key's value is
 * then computed again at its index. Other rows, and integer sorts, carry none: the value is
 * its key's inverse. Short rows, and many rows (one item each), take sort_row.c instead: the
 * same passes in one launch.
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

const char *lc_nan_bits(int dt)
{
    return lc_dtype_size(dt) == 8 ? "0x7ff8000000000000ul" : "0x7fc00000u";
}

const char *lc_inf2_bits(int dt)
{
    return lc_dtype_size(dt) == 8 ? "0xffe0000000000000ul" : "0xff000000u";
}

void lc_emit_special(struct lc_sb *sb, int dt, const char *v, const char *flag, const char *ind)
{   /* a select, not && (PoCL 3.1: the first count of 2^24 float32 took 25 ms with &&, 16.5
     * with the select, 11.4 without the flag) */
    int wide = lc_dtype_size(dt) == 8;
    lc_sb_printf(sb, "%s{\n%s    const %s w_ = %s(%s);\n"
                     "%s    %s |= select(0u, 1u, (w_ == %s) | (((%s)(w_ << 1) > %s) & (w_ != %s)));\n"
                     "%s}\n",
                 ind, ind, wide ? "ulong" : "uint", wide ? "as_ulong" : "as_uint", v, ind, flag,
                 wide ? "0x8000000000000000ul" : "0x80000000u", wide ? "ulong" : "uint",
                 lc_inf2_bits(dt), lc_nan_bits(dt), ind);
}

void lc_emit_key(struct lc_sb *sb, int dt, const char *v, int desc, const char *ind)
{
    struct lc_key K = lc_key_of(dt);
    char k = lc_dtype_kind(dt);
    if (k == 'f') {   /* bit tests, not isnan/signbit: PoCL's scalar loops stall on those */
        const char *as = K.bits == 64 ? "as_ulong" : "as_uint";
        const char *inf2 = lc_inf2_bits(dt);
        lc_sb_printf(sb, "%sconst %s b_ = %s(%s);\n", ind, K.type, as, v);
        lc_sb_printf(sb, "%s%s key_ = (b_ & %s) ? ~b_ : (b_ | %s);\n", ind, K.type, K.sign, K.sign);
        lc_sb_printf(sb, "%sif ((%s)(b_ << 1) == 0) key_ = %s;\n", ind, K.type, K.sign);
        if (desc)
            lc_sb_printf(sb, "%skey_ = ~key_;\n", ind);
        lc_sb_printf(sb, "%sif ((%s)(b_ << 1) > %s) key_ = %s;\n", ind, K.type, inf2, K.all);
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
        lc_sb_printf(sb, "%s%s = %s(%s == %s ? %s : (w_ & %s) ? (w_ ^ %s) : ~w_);\n", ind, to,
                     K.bits == 64 ? "as_double" : "as_float", key, K.all, lc_nan_bits(dt), K.sign,
                     K.sign);
    else if (lc_dtype_kind(dt) == 'i')
        lc_sb_printf(sb, "%s%s = (%s)(w_ ^ %s);\n", ind, to, lc_T(dt), K.sign);
    else
        lc_sb_printf(sb, "%s%s = (%s)w_;\n", ind, to, lc_T(dt));
}

void lc_emit_sort_value(struct lc_cg *g, struct lc_sb *sb, int dt, int desc, const char *have,
                        const char *idx, const char *ind)
{
    if (lc_dtype_kind(dt) != 'f') {
        lc_emit_unkey(sb, dt, "key_", desc, 1, ind);
        return;
    }
    struct lc_key K = lc_key_of(dt);
    char in2[48];
    snprintf(in2, sizeof in2, "%s    ", ind);
    lc_sb_printf(sb, "%s%s val_;\n%sif (%s && (key_ == %s || key_ == (%s%s))) {\n"
                     "%sconst long i%d = %s;\n",
                 ind, lc_T(dt), ind, have, K.all, desc ? "~" : "", K.sign, in2, g->nd - 1, idx);
    lc_emit_exprs(g, sb, 0, in2);
    lc_sb_printf(sb, "%sval_ = v%d;\n%s} else {\n", in2, g->k->outputs[0].expr, ind);
    lc_emit_unkey(sb, dt, "key_", desc, 0, in2);
    lc_sb_printf(sb, "%s}\n", ind);
}

int lc_sort_out_row_ok(const struct lc_cg *g)
{
    return g->k->n_outputs == 1 && g->ostr[0][g->nd - 1] == 1;
}

void lc_emit_sort_out_row(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    lc_sb_printf(sb, "%s__global %s *od_ = out0", ind, lc_T(g->k->outputs[0].dtype));
    for (int d = 0; d < g->nd - 1; d++)
        if (g->ostr[0][d] == 1)
            lc_sb_printf(sb, " + i%d", d);
        else if (g->ostr[0][d] != 0)
            lc_sb_printf(sb, " + i%d * os0_%d", d, d);
    lc_sb_printf(sb, ";\n");
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
    "const long kd, const long vd, const long fo, const int vid"

enum { LC_SORT_FIRST, LC_SORT_HIST, LC_SORT_SCAN, LC_SORT_MOVE, LC_SORT_LAST };

#define LC_SORT_LINE 16 /* elements a move gathers per digit before it stores them */
#define LC_SORT_SPREAD 32 /* digits with a line of their own in a chunk, at most, for LAST's
                             direct stores */

/* A move's partial line: the elements of digit d at places [lo, hi), from the private lines
 * w to dst (with `pay`, the payloads wv to vdst too). A scalar loop: Intel's CPU runtime
 * (2026.22, on an AMD EPYC with AVX2 and no AVX-512) vectorized it into a gather from the
 * private lines whose emulation took two 32-bit indices as one 64-bit address, a SIGBUS in
 * every float sort's last move (test_sort.py's long rows). */
static void lc_sort_flush(struct lc_sb *sb, const char *w, const char *dst, int pay,
                          const char *lo, const char *hi, const char *d, const char *ind)
{
    lc_sb_printf(sb, LC_LOOP_SCALAR "%sfor (long p = %s; p < %s; p++) {\n"
                     "%s    const int e = %s * %d + (int)((p + ph_) & %d);\n"
                     "%s    %s[p] = %s[e];\n",
                 ind, lo, hi, ind, d, LC_SORT_LINE, LC_SORT_LINE - 1, ind, dst, w);
    if (pay)
        lc_sb_printf(sb, "%s    if (pay_)\n%s        vdst[p] = wv[e];\n", ind, ind);
    lc_sb_printf(sb, "%s}\n", ind);
}

/* A whole line of digit d_ from the private lines `w` to `dst + lo_`: a streaming store where
 * `nt` (the line is aligned to its size there; the target takes them), else a vector store. */
static void lc_sort_line(struct lc_sb *sb, const struct lc_target *t, const char *T,
                         const char *w, const char *dst, const char *nt, const char *ind)
{
    int always = !strcmp(nt, "1");
    if (t->sort_stream_stores) {
        if (!always)
            lc_sb_printf(sb, "%sif (%s)\n    ", ind, nt);
        lc_sb_printf(sb, "%s__builtin_nontemporal_store(%s16[d_], (__global %s%d *)(%s + lo_));\n",
                     ind, w, T, LC_SORT_LINE, dst);
        if (always)
            return;
        lc_sb_printf(sb, "%selse\n    ", ind);
    }
    lc_sb_printf(sb, "%svstore%d(%s16[d_], 0, %s + lo_);\n", ind, LC_SORT_LINE, w, dst);
}

/* The private lines of a write-combined store (wk16, wk: one line of LC_SORT_LINE elements of
 * type T per digit) and the destination's phase ph_ (where its lines start). */
static void lc_sort_lines(struct lc_sb *sb, const char *T, const char *w, int radix)
{
    lc_sb_printf(sb, "    %s%d %s16[%d];\n    __private %s *%s = (__private %s *)%s16;\n", T,
                 LC_SORT_LINE, w, radix, T, w, T, w);
}

/* After wk[e_] = ... at place pos_ (line slot r_) of digit d_: a full line goes out whole, a
 * digit's first line element by element; then, after the loop, each digit's last line. */
static void lc_sort_put(struct lc_cg *g, struct lc_sb *sb, const char *T, const char *w,
                        const char *dst, const char *V, int pay, int radix)
{
    int L = LC_SORT_LINE;
    lc_sb_printf(sb, "        if (r_ == %d) {\n            const long lo_ = pos_ - %d;\n"
                     "            if (lo_ >= f[d_]) {\n", L - 1, L - 1);
    lc_sort_line(sb, g->t, T, w, dst, "1", "                ");
    if (pay) {
        lc_sb_printf(sb, "                if (pay_) {\n");
        lc_sort_line(sb, g->t, V, "wv", "vdst", "vnt_", "                    ");
        lc_sb_printf(sb, "                }\n");
    }
    lc_sb_printf(sb, "            } else {\n");
    lc_sort_flush(sb, w, dst, pay, "f[d_]", "pos_ + 1", "d_", "                ");
    lc_sb_printf(sb, "            }\n        }\n    }\n"
                     "#pragma unroll 1\n    for (int d = 0; d < %d; d++) {\n"
                     "        const int r = (int)((o[d] + ph_) & %d);\n"
                     "        if (r != 0) {\n",
                 radix, L - 1);
    lc_sort_flush(sb, w, dst, pay, "max(f[d], o[d] - r)", "o[d]", "d", "            ");
    lc_sb_printf(sb, "        }\n    }\n");
}

/* The first places f[] (each digit's first line is partly another's) and the phase ph_ of a
 * write-combined destination `dst` of type T. */
static void lc_sort_phase(struct lc_sb *sb, const char *T, const char *dst, int radix)
{
    lc_sb_printf(sb, "    const int ph_ = (int)(((ulong)%s / sizeof(%s)) & %d);\n"
                     "    LC_POS f[%d];\n#pragma unroll 1\n    for (int d = 0; d < %d; d++)\n"
                     "        f[d] = o[d];\n",
                 dst, T, LC_SORT_LINE - 1, radix, radix);
}

/* FIRST's vector steps (from i<nr> = beg): W keys made at once (lc_emit_key_vec, a float
 * sort's flag f_ too) and stored whole, then counted one by one; the rest of the chunk takes
 * the scalar loop after it. */
static void lc_sort_first_vec(struct lc_cg *g, struct lc_sb *sb, int dt, int desc, int W,
                              int radix, int isf)
{
    int nr = g->nd - 1;
    char w[16];
    snprintf(w, sizeof w, "w%d", g->k->outputs[0].expr);
    lc_sb_printf(sb, "#pragma unroll 1\n    for (; i%d + %d <= end; i%d += %d) {\n", nr, W, nr, W);
    lc_emit_exprs_vec(g, sb, W, nr, "        ");
    lc_emit_key_vec(sb, dt, w, desc, W, isf ? "f_" : NULL, "        ");
    lc_sb_printf(sb, "        vstore%d(key_, 0, ksrc + i%d);\n"
                     "        %s kl_[%d];\n        vstore%d(key_, 0, kl_);\n"
                     "#pragma unroll\n        for (int l = 0; l < %d; l++)\n"
                     "            h[(kl_[l] >> shift) & %d]++;\n    }\n",
                 W, nr, lc_key_of(dt).type, W, W, W, radix - 1);
}

/* MOVE's loop: each element to its digit's next place, in order, through write-combining:
 * each digit's keys (and payloads) gather in a private line of LC_SORT_LINE elements, aligned
 * as the destination's lines are (ph_), stored whole when it fills: one streaming store (on
 * CPUs: no read of the line first, no cache filled with 256 destinations; PoCL 3.1, 2^24
 * float32: 69 -> 29 ms a move) instead of 16 scattered ones. A digit's first line and its
 * last, partly another digit's, go element by element. */
static void lc_sort_move(struct lc_cg *g, struct lc_sb *sb, const char *K, const char *V,
                         int pay, int radix)
{
    int L = LC_SORT_LINE;
    lc_sb_printf(sb, "    __global %s *kdst = (__global %s *)(s + kd) + m * n%d;\n", K, K,
                 g->nd - 1);
    lc_sort_phase(sb, K, "kdst", radix);
    lc_sort_lines(sb, K, "wk", radix);
    if (pay) {
        lc_sb_printf(sb, "    __global %s *vdst = (__global %s *)(s + vd) + m * n%d;\n"
                         "    const int vnt_ = ph_ == (int)(((ulong)vdst / sizeof(%s)) & %d);\n",
                     V, V, g->nd - 1, V, L - 1);
        lc_sort_lines(sb, V, "wv", radix);
    }
    lc_sb_printf(sb, LC_LOOP_SCALAR "#pragma unroll 1\n    for (long j_ = beg; j_ < end; j_++) {\n"
                     "        const %s key_ = ksrc[j_];\n"
                     "        const int d_ = (int)(key_ >> shift) & %d;\n"
                     "        const long pos_ = o[d_]++;\n"
                     "        const int r_ = (int)((pos_ + ph_) & %d), e_ = d_ * %d + r_;\n"
                     "        wk[e_] = key_;\n",
                 K, radix - 1, L - 1, L);
    if (pay)
        lc_sb_printf(sb, "        if (pay_)\n            wv[e_] = vid ? (%s)j_ : vsrc[j_];\n", V);
    lc_sort_put(g, sb, K, "wk", "kdst", V, pay, radix);
    /* Streaming stores are weakly ordered: fence them before the launch ends. */
    lc_sb_printf(sb, "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n}\n\n");
}

/* The payload of a move: pay_ set where the row carries one (always for argsort; for a float
 * sort, where a chunk of the row holds a value its key cannot give back, lc_emit_special). */
static void lc_sort_pay(struct lc_sb *sb, int arg, int isf)
{
    if (arg)
        lc_sb_printf(sb, "    const int pay_ = 1;\n");
    else if (isf)
        lc_sb_printf(sb, "    int pay_ = 0;\n#pragma unroll 1\n    for (long t = 0; t < P; t++)\n"
                         "        pay_ |= fl[m * P + t];\n");
}

/* LAST's loop body up to val_, the value of the element j_ (key key_) goes out at pos_. */
static void lc_sort_value(struct lc_cg *g, struct lc_sb *sb, const char *K, int radix, int arg,
                          int desc, const char *ind)
{
    int dt = g->k->exprs[g->k->outputs[0].expr].dtype;
    lc_sb_printf(sb, LC_LOOP_SCALAR "#pragma unroll 1\n%sfor (long j_ = beg; j_ < end; j_++) {\n"
                     "%s    const %s key_ = ksrc[j_];\n"
                     "%s    const int d_ = (int)(key_ >> shift) & %d;\n"
                     "%s    const long pos_ = o[d_]++;\n", ind, ind, K, ind, radix - 1, ind);
    char in[32];
    snprintf(in, sizeof in, "%s    ", ind);
    if (arg) {
        lc_sb_printf(sb, "%sconst long val_ = vid ? j_ : (long)vsrc[j_];\n", in);
    } else {
        /* A float's folded key, in a row with values it cannot give back: the value at its
         * index (pay_: lc_sort_pay). */
        lc_emit_sort_value(g, sb, dt, desc, "pay_", "vid ? j_ : (long)vsrc[j_]", in);
    }
}

/* LAST: the values to the outputs, in order. One output, contiguous along the rows: where
 * the chunk's elements spread over many digits (more than LC_SORT_SPREAD with a whole line
 * of their own), through write-combined lines as the moves; where they crowd into a few
 * (a float's exponent digit), each to its place (streaming stores cost more than cached ones
 * to a few places: PoCL 3.1, 2^24 float32, top digit: 31 against 22 ms). */
static void lc_sort_last(struct lc_cg *g, struct lc_sb *sb, const char *K, int radix, int arg,
                         int desc)
{
    const struct lc_kernel *k = g->k;
    int nr = g->nd - 1, L = LC_SORT_LINE;
    if (!lc_sort_out_row_ok(g)) {
        lc_sort_value(g, sb, K, radix, arg, desc, "    ");
        lc_emit_sort_store(g, sb, "        ");
        lc_sb_printf(sb, "    }\n}\n\n");
        return;
    }
    const char *T = lc_T(k->outputs[0].dtype);
    lc_sb_printf(sb, "    int spread_ = 0;\n#pragma unroll 1\n    for (int d = 0; d < %d; d++) {\n"
                     "        const long nx = d == %d && q == P - 1 ? n%d : c[d * P + 1];\n"
                     "        spread_ += nx - o[d] >= %d;\n    }\n",
                 radix, radix - 1, nr, L);
    lc_emit_sort_out_row(g, sb, "    ");
    lc_sb_printf(sb, "    if (spread_ <= %d) {\n", LC_SORT_SPREAD);
    lc_sort_value(g, sb, K, radix, arg, desc, "        ");
    lc_sb_printf(sb, "            od_[pos_] = val_;\n        }\n        return;\n    }\n");
    lc_sort_phase(sb, T, "od_", radix);
    lc_sort_lines(sb, T, "wo", radix);
    lc_sort_value(g, sb, K, radix, arg, desc, "    ");
    lc_sb_printf(sb, "        const int r_ = (int)((pos_ + ph_) & %d);\n"
                     "        wo[d_ * %d + r_] = val_;\n", L - 1, L);
    lc_sort_put(g, sb, T, "wo", "od_", NULL, 0, radix);
    lc_sb_printf(sb, "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n}\n\n");
}

static int lc_sort_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nr = nd - 1, arg = k->scan_op == LC_OP_ARGSORT;
    int vexpr = k->outputs[0].expr, dt = k->exprs[vexpr].dtype;
    int desc = k->outputs[0].node ? k->outputs[0].node->p.red.kind != 0 : 0;
    int isf = !arg && lc_dtype_is_float(dt);
    int64_t M = 1, N = g->shape[nd - 1];
    for (int d = 0; d < nr; d++)
        M *= g->shape[d];
    struct lc_key key = lc_key_of(dt);
    int bits = key.bits;
    const char *K = key.type;
    /* digits of sort_radix_bits, at most the key's; the last may be narrower */
    int DB = g->t->sort_radix_bits < bits ? g->t->sort_radix_bits : bits, radix = 1 << DB;
    int passes = (bits + DB - 1) / DB;
    /* The payload: an element's index in its row (argsort; a float sort where its row needs
     * it), made by the first move; or none. */
    int pay = arg || isf, wide = N >= ((int64_t)1 << 32);
    const char *V = wide ? "long" : "uint";
    int64_t P = g->t->sort_items / (M ? M : 1);
    if (P > N / 1024)
        P = N / 1024;
    if (P < 1)
        P = 1;
    size_t ks = bits == 64 ? 8 : 4, vs = wide ? 8 : 4;
    int64_t MN = M * N;
    size_t counts = (size_t)(M * radix * P) * 8, flags = lc_round_up((size_t)(M * P) * 4, 8);
    size_t kb = lc_round_up((size_t)MN * ks, 8), vb = pay ? lc_round_up((size_t)MN * vs, 8) : 0;
    kb = lc_round_up(kb, 128);
    vb = lc_round_up(vb, 128);
    size_t off_f = counts, off_k0 = lc_round_up(off_f + flags, 128),
           off_v0 = off_k0 + kb, off_k1 = off_v0 + vb, off_v1 = off_k1 + kb;
    c->scratch_bytes = off_v1 + vb;
    c->zero_bytes = 0;
    const char *names[5] = {"_first", "_hist", "_scan", "_move", "_last"};
    /* SIMD targets, float values of vector-safe exprs: FIRST makes W keys at a time (PoCL,
     * 2^24 float32, FIRST in three alternating runs: 20-36 -> 19-22 ms). */
    int W = lc_sort_net_lanes(bits), vk = g->t->simd && lc_key_vec_ok(g, dt);
    /* The moves' places in a row (o[], f[]): ints where the row is shorter than 2^31, half the
     * bytes of the tables each item walks at random. */
    lc_sb_printf(sb, "#define LC_POS %s\n\n", N < ((int64_t)1 << 31) ? "int" : "long");

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
        lc_sb_printf(sb, "    __global uint *fl = (__global uint *)(s + fo);\n"
                         "    const long g_ = get_global_id(0);\n"
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
            if (kk == LC_SORT_FIRST && isf)
                lc_sb_printf(sb, "    uint f_ = 0;\n");
            lc_sb_printf(sb, "    long i%d = beg;\n", nr);
            if (kk == LC_SORT_FIRST && vk)
                lc_sort_first_vec(g, sb, dt, desc, W, radix, isf);
            lc_sb_printf(sb, LC_LOOP_SCALAR "#pragma unroll 1\n"
                             "    for (; i%d < end; i%d++) {\n", nr, nr);
            if (kk == LC_SORT_FIRST) {
                /* The key expression, computed here (the fused producer). */
                lc_emit_exprs(g, sb, 0, "        ");
                char v[16];
                snprintf(v, sizeof v, "v%d", vexpr);
                lc_emit_key(sb, dt, v, desc, "        ");
                if (isf)
                    lc_emit_special(sb, dt, v, "f_", "        ");
                lc_sb_printf(sb, "        ksrc[i%d] = key_;\n", nr);
            } else {
                lc_sb_printf(sb, "        const %s key_ = ksrc[i%d];\n", K, nr);
            }
            lc_sb_printf(sb, "        h[(key_ >> shift) & %d]++;\n    }\n#pragma unroll 1\n"
                             "    for (int d = 0; d < %d; d++)\n        c[d * P] = h[d];\n",
                         radix - 1, radix);
            if (kk == LC_SORT_FIRST && isf)
                lc_sb_printf(sb, "    fl[g_] = f_;\n");
            lc_sb_printf(sb, "}\n\n");
            continue;
        }
        /* MOVE and LAST: each element to its digit's next place, in order. */
        lc_sb_printf(sb, "    LC_POS o[%d];\n#pragma unroll 1\n"
                         "    for (int d = 0; d < %d; d++)\n        o[d] = (LC_POS)c[d * P];\n",
                     radix, radix);
        lc_sort_pay(sb, arg, isf);
        if (kk == LC_SORT_MOVE) {
            lc_sort_move(g, sb, K, V, pay, radix);
            continue;
        }
        lc_sort_last(g, sb, K, radix, arg, desc);
    }

    /* The launches: count (computing the keys), scan, move; per further digit count, scan,
     * move; the last move writes the outputs. Keys ping-pong between two areas; the first
     * move makes the payload (vid). */
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
            union lc_scalar sh = {.i = DB * p}, vid = {.i = p == 0};
            if (lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT32, sh) < 0 ||
                lc_add_i64(l, (int64_t)kcur) < 0 || lc_add_i64(l, (int64_t)vcur) < 0 ||
                lc_add_i64(l, (int64_t)knext) < 0 || lc_add_i64(l, (int64_t)vnext) < 0 ||
                lc_add_i64(l, (int64_t)off_f) < 0 ||
                lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT32, vid) < 0)
                return -1;
            l->work_dim = 1;
            l->global[0] = (size_t)(kind == LC_SORT_SCAN ? M : M * P);
            if (!lc_fixed_groups(g->t, l, g->t->scan_work_group))
                lc_single_item_groups(l);
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
