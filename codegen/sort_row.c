/* sort_row.c: CPU sorts of rows in one launch, each row by one work-item (sort, argsort).
 *
 * The same order-preserving keys as sort.c (lc_key_of, lc_emit_key), sorted by
 * LSD radix over digits of the target's sort_digit_bits, but every pass of a
 * row runs in the one work-item that owns the row: no launch per pass and no
 * scan across items, so a short row costs one launch instead of three per
 * digit. The item computes the key expression itself (the fused producer),
 * writes the keys (and the payload) to its row of the scratch and counts every
 * digit's values in one read (a private table of digits x radix counts); then
 * per digit an exclusive scan of its counts gives each value's first place and
 * a stable move in order ping-pongs keys and payloads between two areas. A
 * digit every key of the row shares moves nothing and is skipped (the high
 * digits of small integers, the exponent digits of floats of one binade).
 * The last area is read in order to write the outputs.
 *
 * The payload: the index (argsort, uint: rows of fewer than 2^32 elements; a
 * float sort only where the row holds -0.0 or a NaN of other bits than
 * np.nan's, which the folded key cannot give back: the value is computed again
 * at its index), made by the first move that runs, or nothing (an integer or
 * bool sort, a float row without such values: the value is its key's inverse).
 *
 * Value sorts of rows of at most sort_net_max elements take sort_net.c's merge sort in
 * vector registers instead of the radix passes, but for float rows that hold -0.0 or an
 * unusual NaN (equal keys of unequal values: the radix passes keep them in order). Rows are
 * shared by at most 64 x sort_items items, each sorting rows m, m + P, ... in a room of the
 * scratch of its own, reused row after row (PoCL 3.1, 2 cores, 65536 x 256 float32: 24
 * items 40 ms, 1536 26 ms; 4096 x 4096: one item per row 51, 1536 items 45).
 *
 * Taken where a row is short (at most the target's sort_row_max elements), where
 * there are enough rows for one item each to fill the device (at least
 * sort_items rows), the cases where sort.c gives each row a single chunk, and for
 * value sorts of rows of at most sort_net_max (the merge sort in registers on one
 * core beats sort.c's chunks on both).
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <string.h>

/* Does the row sort take sort_net.c's merge sort in vector registers (a value sort, not
 * argsort, of rows of at most the target's sort_net_max elements)? */
static int lc_sort_row_net(const struct lc_cg *g)
{
    return g->k->scan_op != LC_OP_ARGSORT && g->t->sort_net_max &&
           g->shape[g->nd - 1] <= g->t->sort_net_max;
}

static int lc_sort_row_fits(struct lc_cg *g)
{
    if (!g->t->sort_row_max)
        return 0;
    int64_t M = 1, N = g->shape[g->nd - 1];
    for (int d = 0; d < g->nd - 1; d++)
        M *= g->shape[d];
    /* (a value sort of a row that takes the vector merge sort: one item even alone, PoCL 3.1,
     * one float32 row of 16384 / 65536: 0.51 / 1.71 ms in sort.c's chunks) */
    return N < ((int64_t)1 << 32) &&
           (N <= g->t->sort_row_max || lc_sort_row_net(g) || M >= g->t->sort_items);
}

/* This schedule's own parameters, after the scratch: rows, items, the payload area's
 * offset. */
#define LC_ROW_PARAMS "const long M, const long P, const long vs"

/* Per digit: the counts' exclusive scan, then a stable move (a digit all keys share moves
 * nothing), keys (and payloads, where the row carries them) ping-ponging between areas. */
static void lc_sort_row_radix(struct lc_sb *sb, const char *K, const char *V, int pay, int D,
                              int DB)
{
    int R = 1 << DB;
    lc_sb_printf(sb, "#pragma unroll 1\n    for (int d = 0; d < %d; d++) {\n"
                     "        const int sh = d * %d;\n"
                     "        __private uint *o = h[d];\n"
                     "        if (o[(k0 >> sh) & %d] == (uint)N)\n            continue;\n"
                     "        uint acc = 0;\n#pragma unroll 1\n"
                     "        for (int r = 0; r < %d; r++) {\n"
                     "            const uint x = o[r];\n            o[r] = acc;\n"
                     "            acc += x;\n        }\n",
                 D, DB, R - 1, R);
    /* The move, without the payload where the row carries none (a loop of its own). */
    const char *body = LC_LOOP_SCALAR "#pragma unroll 1\n            for (long j = 0; j < N; j++) {\n"
                       "                const %s key_ = ksrc[j];\n"
                       "                const uint p = o[(key_ >> sh) & %d]++;\n"
                       "                kdst[p] = key_;\n";
    if (pay) {
        lc_sb_printf(sb, "        if (pay_) {\n");
        lc_sb_printf(sb, body, K, R - 1);
        lc_sb_printf(sb, "                vdst[p] = vid ? (uint)j : vsrc[j];\n            }\n"
                         "            __global %s *u = vsrc;\n            vsrc = vdst;\n"
                         "            vdst = u;\n            vid = 0;\n        } else {\n", V);
        lc_sb_printf(sb, body, K, R - 1);
        lc_sb_printf(sb, "            }\n        }\n");
    } else {
        lc_sb_printf(sb, "        {\n");
        lc_sb_printf(sb, body, K, R - 1);
        lc_sb_printf(sb, "            }\n        }\n");
    }
    lc_sb_printf(sb, "        __global %s *t = ksrc;\n        ksrc = kdst;\n"
                     "        kdst = t;\n    }\n", K);
}

/* Key key_'s value of every digit counted (h[digit][value]). */
static void lc_sort_row_count(struct lc_sb *sb, int D, int DB, const char *ind)
{
    for (int d = 0; d < D; d++)
        lc_sb_printf(sb, "%sh[%d][(key_ >> %d) & %d]++;\n", ind, d, d * DB, (1 << DB) - 1);
}

/* Every digit's counts zeroed. */
static void lc_sort_row_zero(struct lc_sb *sb, int D, int R)
{
    lc_sb_printf(sb, "#pragma unroll 1\n    for (int d = 0; d < %d; d++)\n"
                     "#pragma unroll 1\n        for (int r = 0; r < %d; r++)\n"
                     "            h[d][r] = 0;\n", D, R);
}

/* The one launch, one item per row, and the schedule's description. */
static int lc_sort_row_launch(struct lc_cg *g, struct lc_kcode *c, int64_t M, int64_t P,
                              size_t kb, int net, int radix, int D, int DB)
{
    struct lc_launch *l = lc_new_launch(c, "_row");
    if (!l)
        return -1;
    if (lc_sort_params(g, l, NULL, LC_ROW_PARAMS) < 0 || lc_add_i64(l, M) < 0 ||
        lc_add_i64(l, P) < 0 || lc_add_i64(l, (int64_t)kb) < 0)
        return -1;
    l->work_dim = 1;
    l->global[0] = (size_t)P;
    if (!lc_fixed_groups(g->t, l, g->t->scan_work_group))
        lc_single_item_groups(l);
    if (net && !radix)
        snprintf(c->schedule, sizeof c->schedule,
                 "sort: one item per row, a merge sort in vector registers");
    else if (net)
        snprintf(c->schedule, sizeof c->schedule,
                 "sort: one item per row, a merge sort in vector registers (rows with -0.0 "
                 "or an unusual NaN: LSD radix, %d-bit digits)", DB);
    else
        snprintf(c->schedule, sizeof c->schedule,
                 "sort: one item per row, LSD radix, %d passes of %d-bit digits", D, DB);
    return 0;
}

static int lc_sort_row_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
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
    const char *K = key.type;
    int DB = g->t->sort_digit_bits, R = 1 << DB, D = key.bits / DB;
    /* The payload: an element's index (argsort; a float sort where the row holds a value its
     * key cannot give back), made by the first move that runs (vid: the payload is still
     * each place's own index). */
    int pay = arg || isf;
    /* Rows without a payload sorted in vector registers (sort_net.c), padded to its blocks;
     * a float row with a payload takes the radix passes; an integer sort never does. */
    int net = lc_sort_row_net(g);
    int radix = !net || isf;
    int64_t B = lc_sort_net_block(key.bits), NP = net ? (N + B - 1) / B * B : N;
    char NPx[64];   /* NP in the kernel (no sizes in the source: one kernel serves every N) */
    if (net)
        snprintf(NPx, sizeof NPx, "(N + %lld) / %lld * %lld", (long long)B - 1, (long long)B,
                 (long long)B);
    else
        snprintf(NPx, sizeof NPx, "N");
    const char *V = "uint";
    size_t ks = key.bits == 64 ? 8 : 4, vs = 4;
    /* P items, each sorting rows m, m + P, ... in its own room of the scratch (reused row
     * after row, it stays in the core's cache): keys twice, then payloads twice. */
    int64_t P = M < g->t->sort_items * 64 ? M : g->t->sort_items * 64;
    if (P < 1)
        P = 1;
    size_t kb = lc_round_up((size_t)(P * NP) * 2 * ks, 8);
    c->scratch_bytes = kb + (pay ? (size_t)(P * N) * 2 * vs : 0);
    c->zero_bytes = 0;

    if (net)
        lc_emit_sort_net(sb, K, key.bits);
    /* The network is written in vectors; Intel's vectorizer, widening them across items,
     * took 15-20 s to build it (target.c). The attribute reaches the driver only in the
     * source: clang ignores it (and llvm-spirv-15 crashed on the network's kernel). */
    c->source_only = net && g->t->vec_len_hint;
    lc_sb_printf(sb, "__kernel %svoid @K@_row(",
                 c->source_only ? "__attribute__((intel_vec_len_hint(1))) " : "");
    if (lc_sort_params(g, NULL, sb, LC_ROW_PARAMS) < 0)
        return -1;
    lc_sb_printf(sb, "    __global char *s = s_ + sbase;\n"
                     "    const long it_ = get_global_id(0);\n    if (it_ >= P) return;\n"
                     "#pragma unroll 1\n    for (long m = it_; m < M; m += P) {\n");
    if (nr > 0)
        lc_unravel(sb, 0, nr, "m", "    ");
    lc_sb_printf(sb, "    const long N = n%d, NP = %s;\n"
                     "    __global %s *ka = (__global %s *)s + it_ * 2 * NP, *kb = ka + NP;\n",
                 nr, NPx, K, K);
    if (pay)
        lc_sb_printf(sb, "    __global %s *va = (__global %s *)(s + vs) + it_ * 2 * N, *vb = va + N;\n"
                         "    int vid = 1, pay_ = %d;\n",
                     V, V, arg);
    /* The keys (with the radix passes alone, every digit's counts in the same read). */
    if (radix)
        lc_sb_printf(sb, "    uint h[%d][%d];\n    %s k0 = 0;\n", D, R, K);
    if (radix && !net)
        lc_sort_row_zero(sb, D, R);
    /* Float values of vector-safe exprs: W keys at a time, then the rest one by one. */
    int W = lc_sort_net_lanes(key.bits), vk = net && isf && lc_key_vec_ok(g, dt);
    lc_sb_printf(sb, "    long i%d = 0;\n", nr);
    if (vk) {
        lc_sb_printf(sb, "#pragma unroll 1\n    for (; i%d + %d <= N; i%d += %d) {\n", nr, W, nr, W);
        lc_emit_exprs_vec(g, sb, W, nr, "        ");
        char w[16];
        snprintf(w, sizeof w, "w%d", vexpr);
        lc_emit_key_vec(sb, dt, w, desc, W, "pay_", "        ");
        lc_sb_printf(sb, "        vstore%d(key_, 0, ka + i%d);\n    }\n", W, nr);
    }
    lc_sb_printf(sb, LC_LOOP_SCALAR "#pragma unroll 1\n    for (; i%d < N; i%d++) {\n", nr, nr);
    char v[16];
    snprintf(v, sizeof v, "v%d", vexpr);
    lc_emit_exprs(g, sb, 0, "        ");
    lc_emit_key(sb, dt, v, desc, "        ");
    if (isf)
        lc_emit_special(sb, dt, v, "pay_", "        ");
    lc_sb_printf(sb, "        ka[i%d] = key_;\n", nr);
    if (radix && !net) {
        lc_sb_printf(sb, "        if (i%d == 0)\n            k0 = key_;\n", nr);
        lc_sort_row_count(sb, D, DB, "        ");
    }
    lc_sb_printf(sb, "    }\n    __global %s *ksrc = ka, *kdst = kb;\n", K);
    if (pay)
        lc_sb_printf(sb, "    __global %s *vsrc = va, *vdst = vb;\n", V);
    if (net) {   /* pad, sort, write the outputs (a loop for the vectorizer) */
        lc_sb_printf(sb, "%s    {\n#pragma unroll 1\n        for (long i = N; i < NP; i++)\n"
                         "            ka[i] = %s;\n        ksrc = @K@_net_sort(ka, kb, NP);\n"
                         "        long pos_ = 0;\n",
                     isf ? "    if (!pay_)\n" : "", key.all);
        if (lc_unkey_vec_ok(dt) && lc_sort_out_row_ok(g)) {
            lc_emit_sort_out_row(g, sb, "        ");
            lc_sb_printf(sb, "#pragma unroll 1\n        for (; pos_ + %d <= N; pos_ += %d) {\n"
                             "            const %s%d k_ = vload%d(0, ksrc + pos_);\n", W, W, K, W, W);
            lc_emit_unkey_vec(sb, dt, "k_", desc, W, "            ");
            lc_sb_printf(sb, "            vstore%d(val_, 0, od_ + pos_);\n        }\n", W);
        }
        lc_sb_printf(sb, LC_LOOP_SCALAR "#pragma unroll 1\n        for (; pos_ < N; pos_++) {\n"
                         "            const %s key_ = ksrc[pos_];\n", K);
        lc_emit_unkey(sb, dt, "key_", desc, 1, "            ");
        lc_emit_sort_store(g, sb, "            ");
        lc_sb_printf(sb, "        }\n        continue;\n    }\n");
        if (!radix) {
            lc_sb_printf(sb, "    }\n}\n\n");
            return lc_sort_row_launch(g, c, M, P, kb, net, radix, D, DB);
        }
        /* A float row with a payload: its digits counted now. */
        lc_sort_row_zero(sb, D, R);
        lc_sb_printf(sb, "    k0 = ka[0];\n" LC_LOOP_SCALAR "#pragma unroll 1\n"
                         "    for (long j = 0; j < N; j++) {\n        const %s key_ = ka[j];\n", K);
        lc_sort_row_count(sb, D, DB, "        ");
        lc_sb_printf(sb, "    }\n");
    }
    lc_sort_row_radix(sb, K, V, pay, D, DB);
    /* The outputs, in order. */
    lc_sb_printf(sb, "#pragma unroll 1\n    for (long pos_ = 0; pos_ < N; pos_++) {\n");
    if (arg) {
        lc_sb_printf(sb, "        const long val_ = vid ? pos_ : (long)vsrc[pos_];\n");
    } else {
        /* A float's folded key, in a row with values it cannot give back: the value at its
         * index. */
        lc_sb_printf(sb, "        const %s key_ = ksrc[pos_];\n", K);
        lc_emit_sort_value(g, sb, dt, desc, isf ? "pay_" : "0", "vid ? pos_ : (long)vsrc[pos_]",
                           "        ");
    }
    lc_emit_sort_store(g, sb, "        ");
    lc_sb_printf(sb, "    }\n    }\n}\n\n");

    return lc_sort_row_launch(g, c, M, P, kb, net, radix, D, DB);
}

const struct lc_schedule lc_sched_sort_rows = {LC_KERNEL_SORT, "sort", lc_sort_row_fits,
                                               lc_sort_row_gen};
