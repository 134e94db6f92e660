/* sort_net.c: rows of keys sorted in vector registers (CPU row sorts, sort_row.c).
 *
 * A merge sort whose every step is a vector instruction on whole registers
 * (min, max, a lane shuffle, a select), with no data-dependent branch but the
 * merge's choice of the next run to read:
 *
 * - blocks of V x W keys (V vectors of W lanes: uint16 for keys of 32 bits,
 *   ulong8 for 64) are sorted by a sorting network held in registers. The
 *   network is the bitonic sort in its all-ascending form: in a stage of size
 *   k, first element e against e ^ (k-1) (the mirror of its k-block), then e
 *   against e ^ j for j = k/4 ... 1, the lower of each pair keeping the
 *   minimum. Element e of a block sits in lane e / V of vector e % V, so the
 *   steps whose partner is within V (most of them) pair whole vectors: a min
 *   and a max, no shuffle. The block is then transposed in squares of W x W
 *   (shuffle2s swapping one lane bit with one vector bit per round) and stored
 *   in order;
 * - runs are merged pairwise, W keys at a time: the next W keys of the run
 *   whose next key is smaller go into a bitonic merge with the W largest so
 *   far; its lower half is stored (Inoue et al.'s SIMD merge). Each pair of runs is
 *   merged from both ends at once (the lowest keys from the front, the highest from the
 *   back): two independent chains in one loop, whose choices of run need no branch. The
 *   merge itself regathers the 2W keys with shuffle2s so that every step is one min and
 *   one max of whole vectors.
 *
 * Keys are unsigned and sorted ascending; a row is padded to whole blocks with
 * the all-ones key, which sorts last. The sort is not stable, which is right
 * only where equal keys are equal values: callers keep rows with folded floats
 * (-0.0, NaN payloads) and argsorts on the radix path.
 *
 * Intel's CPU runtime widened such a kernel across work-items and took 15-20 s to build it
 * (PoCL 1-1.5 s; 0.8 s of it the transpose's shuffles), though it ran it faster (4096^2: 29 ms,
 * NumPy 64); told not to vectorize it (intel_vec_len_hint(1): the target's vec_len_hint) it
 * builds it in ~1 s and runs it in 25-27 ms (target.c).
 *
 * PoCL 3.1, 2 cores with AVX-512, 4096 x 4096 float32 along rows (benchmarks/run.py): the
 * radix row sort 99 ms (NumPy 65 in its run), this one 52-54 (NumPy 70-80). Of a 43-49 ms
 * launch, the keys and the outputs took ~14, the blocks ~10-14, the four merge levels the
 * rest (the merges from one end only, with branches: 26). Leaving out the transpose did
 * not make the blocks faster.
 */
#include "codegen/cg.h"

#include <stdio.h>

#define LC_NET_VECTORS 16

int lc_sort_net_lanes(int key_bits)
{
    return key_bits == 64 ? 8 : 16;
}

int64_t lc_sort_net_block(int key_bits)
{
    return (int64_t)LC_NET_VECTORS * lc_sort_net_lanes(key_bits);
}

static int lc_log2i(int x)
{
    int l = 0;
    while ((1 << l) < x)
        l++;
    return l;
}

static int lc_high_bit(int x)
{
    int b = 1;
    while (b * 2 <= x)
        b *= 2;
    return b;
}

/* A constant vector of W unsigned lanes: lane l holds f(l) (a lane index or a mask). */
static void lc_net_lanes(struct lc_sb *sb, const char *vt, int W, int kind, int arg)
{
    lc_sb_printf(sb, "(%s)(", vt);
    for (int l = 0; l < W; l++) {
        int x = kind == 0 ? l ^ arg : (l & arg) ? -1 : 0;
        lc_sb_printf(sb, "%s%d", l ? "," : "", x);
    }
    lc_sb_printf(sb, ")");
}

/* Compare-exchange of every element e with e ^ m (the lower of the two, by its bit
 * hb(m), keeps the minimum), for the layout e = lane * V + vector. */
static void lc_net_step(struct lc_sb *sb, const char *vt, const char *ut, int V, int W, int m)
{
    int lv = lc_log2i(V), mv = m & (V - 1), ml = m >> lv;
    if (ml == 0) {   /* partners in another vector, the same lane */
        int hb = lc_high_bit(mv);
        for (int a = 0; a < V; a++) {
            if (a & hb)
                continue;
            lc_sb_printf(sb, "    { const %s t_ = min(v%d, v%d); v%d = max(v%d, v%d); v%d = t_; }\n",
                         vt, a, a ^ mv, a ^ mv, a, a ^ mv, a);
        }
        return;
    }
    int hb = lc_high_bit(ml);
    for (int a = 0; a < V; a++) {
        int b = a ^ mv;
        if (b < a)
            continue;
        lc_sb_printf(sb, "    { const %s p_ = shuffle(v%d, ", vt, b);
        lc_net_lanes(sb, ut, W, 0, ml);
        lc_sb_printf(sb, ");\n      const %s n_ = min(v%d, p_), x_ = max(v%d, p_);\n"
                         "      const %s u_ = ", vt, a, a, ut);
        lc_net_lanes(sb, ut, W, 1, hb);
        if (b == a) {   /* partners in the same vector */
            lc_sb_printf(sb, ";\n      v%d = select(n_, x_, u_); }\n", a);
            continue;
        }
        lc_sb_printf(sb, ";\n      v%d = select(n_, x_, u_);\n"
                         "      v%d = shuffle(select(x_, n_, u_), ", a, b);
        lc_net_lanes(sb, ut, W, 0, ml);
        lc_sb_printf(sb, "); }\n");
    }
}

/* The block's vectors transposed in squares of W x W (vectors s .. s + W - 1): each round
 * swaps one lane bit with the same bit of the vector's index in its square. Vector s + i
 * then holds the W keys e = i * V + s + (0 .. W-1), in order. */
static void lc_net_transpose(struct lc_sb *sb, const char *vt, const char *ut, int V, int W)
{
    for (int bt = 1; bt < W; bt *= 2)
        for (int s = 0; s < V; s += W)
            for (int i0 = s; i0 < s + W; i0++) {
                if ((i0 - s) & bt)
                    continue;
                int i1 = i0 + bt;
                lc_sb_printf(sb, "    { const %s a_ = v%d, b_ = v%d;\n", vt, i0, i1);
                for (int side = 0; side < 2; side++) {
                    int ip = (side ? i1 : i0) - s;   /* the new vector's index in its square */
                    lc_sb_printf(sb, "      v%d = shuffle2(a_, b_, (%s)(", side ? i1 : i0, ut);
                    for (int jp = 0; jp < W; jp++) {
                        int i = (ip & ~bt) | (jp & bt), j = (jp & ~bt) | (ip & bt);
                        lc_sb_printf(sb, "%s%d", jp ? "," : "", ((i & bt) ? W : 0) + j);
                    }
                    lc_sb_printf(sb, "));\n");
                }
                lc_sb_printf(sb, "    }\n");
            }
}

/* A constant shuffle2 mask: lane i takes the lane of vectors (lo, hi) that holds logical
 * element want[i], where lane j of lo holds x[j] and lane j of hi holds y[j]. */
static void lc_net_pick(struct lc_sb *sb, const char *ut, int W, const int *want, const int *x,
                        const int *y)
{
    lc_sb_printf(sb, "(%s)(", ut);
    for (int i = 0; i < W; i++)
        for (int j = 0; j < W; j++)
            if (x[j] == want[i] || y[j] == want[i])
                lc_sb_printf(sb, "%s%d", i ? "," : "", x[j] == want[i] ? j : W + j);
    lc_sb_printf(sb, ")");
}

/* The bitonic merge of sorted vectors lo and hi: lo then holds the lower W keys, hi the
 * upper, each sorted. After the first step (lo against hi reversed), each step pairs
 * logical elements p and p + s (p without bit s) for s = W/2 ... 1 by regathering the 2W
 * keys so that lane i of lo and lane i of hi are such a pair: two shuffle2s, a min and a
 * max per step, no select. */
static void lc_net_merge(struct lc_sb *sb, const char *vt, const char *ut, int W,
                         const char *lo, const char *hi, const char *ind)
{
    int x[16], y[16], nx[16], ny[16];
    lc_sb_printf(sb, "%s%s = shuffle(%s, ", ind, hi, hi);
    lc_net_lanes(sb, ut, W, 0, W - 1);
    lc_sb_printf(sb, ");\n%s{ const %s t_ = min(%s, %s); %s = max(%s, %s); %s = t_; }\n", ind,
                 vt, lo, hi, hi, lo, hi, lo);
    for (int j = 0; j < W; j++) {
        x[j] = j;
        y[j] = W + j;
    }
    for (int st = W / 2; st >= 1; st /= 2) {
        int n = 0;
        for (int p = 0; p < 2 * W; p++)
            if (!(p & st)) {
                nx[n] = p;
                ny[n++] = p + st;
            }
        lc_sb_printf(sb, "%s{ const %s x_ = shuffle2(%s, %s, ", ind, vt, lo, hi);
        lc_net_pick(sb, ut, W, nx, x, y);
        lc_sb_printf(sb, "), y_ = shuffle2(%s, %s, ", lo, hi);
        lc_net_pick(sb, ut, W, ny, x, y);
        lc_sb_printf(sb, ");\n%s  %s = min(x_, y_); %s = max(x_, y_); }\n", ind, lo, hi);
        for (int j = 0; j < W; j++) {
            x[j] = nx[j];
            y[j] = ny[j];
        }
    }
    for (int j = 0; j < W; j++) {
        nx[j] = j;
        ny[j] = W + j;
    }
    lc_sb_printf(sb, "%s{ const %s x_ = shuffle2(%s, %s, ", ind, vt, lo, hi);
    lc_net_pick(sb, ut, W, nx, x, y);
    lc_sb_printf(sb, ");\n%s  %s = shuffle2(%s, %s, ", ind, hi, lo, hi);
    lc_net_pick(sb, ut, W, ny, x, y);
    lc_sb_printf(sb, ");\n%s  %s = x_; }\n", ind, lo);
}

void lc_emit_sort_net(struct lc_sb *sb, const char *K, int key_bits)
{
    int W = lc_sort_net_lanes(key_bits), V = LC_NET_VECTORS, B = V * W;
    char vt[16], ut[16];
    snprintf(vt, sizeof vt, "%s%d", K, W);
    snprintf(ut, sizeof ut, "%s%d", key_bits == 64 ? "ulong" : "uint", W);
    /* One block, in place. */
    lc_sb_printf(sb, "static void @K@_net_block(__global %s *a)\n{\n    %s ", K, vt);
    for (int v = 0; v < V; v++)
        lc_sb_printf(sb, "%sv%d = vload%d(%d, a)", v ? ", " : "", v, W, v);
    lc_sb_printf(sb, ";\n");
    for (int k = 2; k <= B; k *= 2) {
        lc_net_step(sb, vt, ut, V, W, k - 1);
        for (int j = k / 4; j >= 1; j /= 2)
            lc_net_step(sb, vt, ut, V, W, j);
    }
    lc_net_transpose(sb, vt, ut, V, W);
    for (int s = 0; s < V; s += W)
        for (int i = 0; i < W; i++)
            lc_sb_printf(sb, "    vstore%d(v%d, 0, a + %d);\n", W, s + i, i * V + s);
    lc_sb_printf(sb, "}\n\n");
    /* The row: np keys at a (a multiple of the block), b as much room; returns where the
     * sorted keys are. */
    lc_sb_printf(sb, "static __global %s *@K@_net_sort(__global %s *a, __global %s *b, const long np)\n{\n"
                     "#pragma unroll 1\n    for (long i = 0; i < np; i += %d)\n"
                     "        @K@_net_block(a + i);\n"
                     "    __global %s *src = a, *dst = b;\n"
                     "#pragma unroll 1\n    for (long w = %d; w < np; w *= 2) {\n"
                     "#pragma unroll 1\n        for (long s0 = 0; s0 < np; s0 += 2 * w) {\n"
                     "            __global %s *A = src + s0, *B = src + s0 + w, *D = dst + s0;\n"
                     "            const long na = min(w, np - s0), nb = min(w, np - s0 - na);\n"
                     "            if (nb == 0) {\n#pragma unroll 1\n"
                     "                for (long i = 0; i < na; i += %d)\n"
                     "                    vstore%d(vload%d(0, A + i), 0, D + i);\n"
                     "                continue;\n            }\n"
                     "            /* from the front, the lowest keys, and from the back, the highest:\n"
                     "               two merges of half the output each in one loop, each holding one\n"
                     "               run's first (last) keys to begin with */\n"
                     "            %s lo, hi = vload%d(0, B), bl = vload%d(0, A + na - %d), bh;\n"
                     "            long ia = 0, ib = %d, ja = na - %d, jb = nb;\n"
                     "            __global %s *E = D + na + nb;\n"
                     "#pragma unroll 1\n            for (long t = (na + nb) / %d; t > 0; t -= 2) {\n"
                     "                E -= %d;\n"
                     "                /* (no branch: the heads read in range whatever) */\n"
                     "                const int ta = (ib >= nb) | ((ia < na) & (A[min(ia, na - 1)] <= B[min(ib, nb - 1)]));\n"
                     "                const int tb = (jb <= 0) | ((ja > 0) & (A[max(ja - 1, 0L)] > B[max(jb - 1, 0L)]));\n"
                     "                lo = vload%d(0, ta ? A + ia : B + ib);\n"
                     "                bh = vload%d(0, tb ? A + ja - %d : B + jb - %d);\n"
                     "                ia += ta ? %d : 0;\n                ib += ta ? 0 : %d;\n"
                     "                ja -= tb ? %d : 0;\n                jb -= tb ? 0 : %d;\n",
                 K, K, K, B, K, B, K, W, W, W, vt, W, W, W, W, W, K, W, W, W, W, W, W, W, W, W, W);
    lc_net_merge(sb, vt, ut, W, "lo", "hi", "                ");
    lc_net_merge(sb, vt, ut, W, "bl", "bh", "                ");
    lc_sb_printf(sb, "                vstore%d(lo, 0, D);\n                vstore%d(bh, 0, E);\n"
                     "                D += %d;\n            }\n        }\n"
                     "        __global %s *t = src;\n        src = dst;\n        dst = t;\n    }\n"
                     "    return src;\n}\n\n",
                 W, W, W, K);
}

/* The vector types of W keys of key k and of W signed integers of its width. */
static void lc_net_types(const struct lc_key *k, int W, char *ut, char *it, size_t n)
{
    snprintf(ut, n, "%s%d", k->type, W);
    snprintf(it, n, "%s%d", k->bits == 64 ? "long" : "int", W);
}

int lc_key_vec_ok(struct lc_cg *g, int dt)
{
    int ok = lc_dtype_is_float(dt) && lc_dtype_size(dt) >= 4;
    for (int i = 0; ok && i < g->k->n_exprs; i++)
        ok = g->k->exprs[i].epilogue ||
             lc_vec_expr_ok(g, i, g->nd - 1, lc_sort_net_lanes(lc_key_of(dt).bits));
    return ok;
}

void lc_emit_key_vec(struct lc_sb *sb, int dt, const char *v, int desc, int W, const char *flag,
                     const char *ind)
{
    struct lc_key K = lc_key_of(dt);
    char ut[16], it[16];
    lc_net_types(&K, W, ut, it, sizeof ut);
    const char *inf2 = lc_inf2_bits(dt);
    lc_sb_printf(sb, "%sconst %s b_ = as_%s(%s);\n"
                     "%s%s key_ = select(b_ | %s, ~b_, as_%s(b_) < 0);\n"
                     "%skey_ = select(key_, (%s)(%s), (b_ << 1) == (%s)(0));\n",
                 ind, ut, ut, v, ind, ut, K.sign, it, ind, ut, K.sign, ut);
    if (desc)
        lc_sb_printf(sb, "%skey_ = ~key_;\n", ind);
    lc_sb_printf(sb, "%skey_ = select(key_, (%s)(%s), (b_ << 1) > (%s)(%s));\n", ind, ut, K.all,
                 ut, inf2);
    if (flag)
        lc_sb_printf(sb, "%s%s |= any((b_ == (%s)(%s)) | (((b_ << 1) > (%s)(%s)) & "
                         "(b_ != (%s)(%s))));\n",
                     ind, flag, ut, K.sign, ut, inf2, ut, lc_nan_bits(dt));
}

int lc_unkey_vec_ok(int dt)
{
    return lc_dtype_size(dt) >= 4 && lc_dtype_kind(dt) != 'c';   /* (bool: one byte) */
}

void lc_emit_unkey_vec(struct lc_sb *sb, int dt, const char *key, int desc, int W,
                       const char *ind)
{
    struct lc_key K = lc_key_of(dt);
    char ut[16], it[16];
    lc_net_types(&K, W, ut, it, sizeof ut);
    lc_sb_printf(sb, "%sconst %s w_ = %s%s;\n%sconst %s%d val_ = as_%s%d(", ind, ut,
                 desc ? "~" : "", key, ind, lc_T(dt), W, lc_T(dt), W);
    if (lc_dtype_kind(dt) == 'f')
        lc_sb_printf(sb, "select(select(~w_, w_ ^ %s, as_%s(w_) < 0), (%s)(%s), %s == (%s)(%s))",
                     K.sign, it, ut, lc_nan_bits(dt), key, ut, K.all);
    else if (lc_dtype_kind(dt) == 'i')
        lc_sb_printf(sb, "w_ ^ %s", K.sign);
    else
        lc_sb_printf(sb, "w_");
    lc_sb_printf(sb, ");\n");
}
