/* topk.c: argtopk, the positions of the k best elements of each row (the axis last).
 *
 * A selection, not a sort: each row is cut into P chunks, one item each. An item walks its
 * chunk, computing the key expression itself (the fused producer: a pending product is
 * never written), and keeps its k best (key, position) pairs sorted in private memory; an
 * element enters only when it beats the k-th, one comparison for most elements. The items'
 * lists go to scratch and are merged the same way by items of G candidates each, until one
 * list per row is left, which is written best first. With P = 1 (short rows, or as many
 * rows as items) the first launch writes the result. A long row on a GPU (chunks for two
 * groups at least, in whole groups) skips the merge launches: each group selects its
 * items' k best and the row's last group merges the groups' (codegen/topk_group.c).
 *
 * The order is the stable sort's, so the result is the sort's: keys are the sort's
 * order-preserving keys (codegen/sort.c: NaN above everything, -0.0 equal to +0.0); for the
 * smallest they are complemented, so the best key is always the largest; between equal keys
 * the later position wins when selecting the largest (the sort's last k, reversed) and the
 * earlier one otherwise. That is a strict total order, so chunks and merges may go in any
 * order and every run gives the same bits.
 *
 * Where the target coalesces (GPUs) and the row is contiguous along the axis, neighbouring
 * items take neighbouring chunks of a row and a chunk is every P-th element, so a warp reads
 * consecutive addresses; otherwise (a column, as in the top k of each column of a product)
 * neighbouring items take neighbouring rows at the same place. On SIMD targets (PoCL) the
 * first pass either takes W rows per item in vector lanes, or walks its chunk a vector at a
 * time testing values against its list's last place, so that most elements cost a fraction
 * of one comparison (codegen/topk_simd.c).
 */
#include "codegen/cg.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define LC_TK_MIN_CHUNK 256   /* elements per chunk at least */
#define LC_TK_MERGE 32        /* candidates a merge item takes: LC_TK_MERGE * k (>= 512) */
#define LC_TK_MERGE_GPU 8     /* ... on fixed-group targets, where the first pass leaves more
                                 than one such merge (>= 128): more items, more stages (H100,
                                 top 16 of 2^28 before topk_group.c, 1.08 M candidates: merges
                                 of 512 each 0.256 ms in 3 stages, of 256 0.21, of 128 0.19 in
                                 6, of 64 0.19 in 9); a CPU's launch costs more than a stage's
                                 wait */
#define LC_TK_BATCH 8         /* coalescing targets: elements an item reads before offering */
/* ... in the first pass of rows cut into at least LC_TK_WIDE_P chunks (a long 1-d row): more
 * loads in flight. H100, top 16 of 2^28 float32, the first pass: 8 1.24 ms, 16 1.04, 32 2.11
 * (with 4x the items: 1.37 at 8); but the top 16 of each row of 16384^2 (4 chunks a row)
 * took 3.8 ms against 1.64 at 8. Starting the pass from a sample's bound changed nothing
 * (1.215 ms at 8): what bounds it is the loads in flight, not the insertions. */
#define LC_TK_BATCH_WIDE 16
#define LC_TK_WIDE_P 1024

/* Is the row read along the axis with unit stride (by its buffer reads)? */
static int lc_topk_row_contiguous(const struct lc_cg *g)
{
    int last = g->nd - 1, unit = 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *acc = &g->acc[a];
        if (acc->kind != LC_ACCESS_INPUT && acc->kind != LC_ACCESS_TEMP)
            continue;
        int64_t s = acc->strides[last];
        if (s == 1 || s == -1)
            unit = 1;
        else if (s != 0)
            return 0;
    }
    return unit;
}

/* The helpers: the order and the insertion into a sorted list of KK. */
static int lc_topk_room(int k)
{
    int r = 8;
    while (r < k)
        r *= 2;
    return r;
}

static void lc_topk_helpers(struct lc_sb *sb, const char *K, int KK, int largest)
{
    lc_sb_printf(sb, "#define KB %d   /* the lists' room: k rounded up (one kernel serves several k) */\n"
                     "#define KK ((int)kk)\n", lc_topk_room(KK));
    lc_sb_printf(sb, "#define TK_NONE %s\n", largest ? "(-1L)" : "LONG_MAX");
    lc_sb_printf(sb, "#define TK_BETTER(ka, ia, kb, ib) ((ka) > (kb) || ((ka) == (kb) && (ia) %s (ib)))\n\n",
                 largest ? ">" : "<");
    lc_sb_printf(sb,
        "/* (key, i) into the sorted list (tk, ti), which it beats at its last place. */\n"
        "static inline void lc_tk_push(%s *tk, long *ti, const %s key, const long i, const int kk)\n{\n"
        "    int j = KK - 1;\n"
        "#pragma unroll 1\n"
        "    while (j > 0 && TK_BETTER(key, i, tk[j - 1], ti[j - 1])) {\n"
        "        tk[j] = tk[j - 1];\n        ti[j] = ti[j - 1];\n        j--;\n    }\n"
        "    tk[j] = key;\n    ti[j] = i;\n}\n\n", K, K);
    lc_sb_printf(sb,
        "/* (key, i) offered to the list, whose last place (*thk, *thi) it must beat: 1 if it\n"
        " * entered. */\n"
        "static inline int lc_tk_offer(%s *tk, long *ti, %s *thk, long *thi, const %s key,\n"
        "                              const long i, const int kk)\n{\n"
        "    if (!TK_BETTER(key, i, *thk, *thi))\n        return 0;\n"
        "    lc_tk_push(tk, ti, key, i, kk);\n"
        "    *thk = tk[KK - 1];\n    *thi = ti[KK - 1];\n    return 1;\n}\n\n", K, K, K);
}

void lc_topk_elem_key(struct lc_cg *g, struct lc_sb *sb, const struct lc_key *key, int dt,
                      int vexpr, int largest, const char *ind)
{
    char v[16];
    snprintf(v, sizeof v, "v%d", vexpr);
    lc_emit_exprs(g, sb, 0, ind);
    lc_emit_key(sb, dt, v, 0, ind);
    if (!largest)
        lc_sb_printf(sb, "%skey_ = ~key_ & %s;\n", ind, key->all);
}

/* The modes of an item's list (lc_topk_gen chooses). */
enum {
    LC_TK_SHARED = 1,   /* a bound shared by a group's items (lc_topk_shared_setup) */
    LC_TK_REG = 2,      /* the list in registers: KB places, every index a constant */
    LC_TK_I32 = 4,      /* ... its indices as int (a first pass over rows shorter than INT_MAX:
                           16 registers fewer, so more items fit on a compute unit) */
    LC_TK_ROLLED = 8,   /* ... but its loops kept rolled (lc_target's roll_loops) */
};

/* The pragma before a loop of the list in registers over its places or a batch. */
static const char *lc_tk_unroll(int mode)
{
    return LC_UNROLL(mode & LC_TK_ROLLED);
}

/* The type of a list's positions, and the position of an empty place (LC_TK_I32: ints, whose
 * TI_LONG(i) widens one to the long positions of scratch and outputs). */
static const char *lc_tk_itype(int mode)
{
    return mode & LC_TK_I32 ? "int" : "long";
}

static const char *lc_tk_inone(int mode)
{
    return mode & LC_TK_I32 ? "TI_NONE" : "TK_NONE";
}

/* An item's empty list and its last place, declared. LC_TK_REG: the best KB (>= KK) elements,
 * its last place tk[KB - 1], ti[KB - 1]. */
static void lc_topk_list(struct lc_sb *sb, const char *K, int mode)
{
    if (mode & LC_TK_REG) {
        lc_sb_printf(sb, "    %s tk[KB];\n    %s ti[KB];\n%s"
                         "    for (int j = 0; j < KB; j++) {\n        tk[j] = 0;\n        ti[j] = %s;\n    }\n",
                     K, lc_tk_itype(mode), lc_tk_unroll(mode), lc_tk_inone(mode));
        return;
    }
    lc_sb_printf(sb, "    %s tk[KB];\n    long ti[KB];\n#pragma unroll 1\n"
                     "    for (int j = 0; j < KK; j++) {\n        tk[j] = 0;\n        ti[j] = TK_NONE;\n    }\n"
                     "    %s thk = 0;\n    long thi = TK_NONE;\n", K, K);
}

/* GPU targets, rows read along the axis (the items of a group take neighbouring chunks of at
 * most wg + 1 rows) and keys of 32 bits or fewer: a row's threshold shared by the items of a
 * group in local memory. An item whose list is full knows KK keys of its row at least as good
 * as its last place, so every element of the row's top KK is at least that key: the largest
 * such key among the group's items (atomic_max) is a bound below which an element is not
 * offered at all. Most elements then cost one comparison in every item, where each item's own
 * last place would let in a run of insertions (divergent, and the list in private memory) per
 * item early in its chunk. The bound only prunes elements that could not enter the result, so
 * the result (and its order of ties) is unchanged. `ret`: the condition on which an item has
 * no work, returned on after the barrier. */
static void lc_topk_shared_setup(struct lc_sb *sb, size_t wg, const char *ret)
{
    lc_sb_printf(sb, "    __local uint thr_[%zu];\n"
                     "    const long mb_ = (long)(get_group_id(0) * get_local_size(0)) / P;\n"
                     "    for (int r_ = (int)get_local_id(0); r_ < %zu; r_ += (int)get_local_size(0))\n"
                     "        thr_[r_] = 0u;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n", wg + 1, wg + 1);
    if (ret)
        lc_sb_printf(sb, "    if (%s) return;\n", ret);
    lc_sb_printf(sb, "    volatile __local uint *rthr_ = thr_ + (m - mb_);\n"
                     "    uint bnd_ = 0u, seen_ = 0u;\n");
}

/* The first pass's pools (shared bound, LC_TK_SHARED): after an item's steps 1, 2, 4, 8, ...
 * every item of the group puts its best key in local memory, and the item whose key is the
 * KK-th best among those of its row's items raises the row's bound to it: KK items each hold
 * an element at least that good, so no element below it is among the KK best. A random row's
 * bound is then about the KK-th best of everything the group has read (each item's own KK-th
 * best is that of its own elements only), and few elements are offered after the first steps.
 * Every item of the group runs the same steps (live_: it has a chunk), so the barriers are
 * uniform; rows of fewer than KK chunks pool nothing. lc_topk_pool_setup declares what the
 * pools use (after lc_topk_shared_setup without a return); `idle`: an item has no chunk. */
static void lc_topk_pool_setup(struct lc_sb *sb, size_t wg, const char *idle)
{
    /* Every item stays to the end of the steps (the pools' barriers); live_: it has a chunk. */
    lc_sb_printf(sb, "    const int live_ = !(%s);\n"
                     "    const int lid_ = (int)get_local_id(0);\n"
                     "    __local uint pool_[%zu];\n"
                     "    const long gb_ = (long)(get_group_id(0) * get_local_size(0));\n"
                     "    /* The group's items of row m: [jlo_, jhi_). */\n"
                     "    const int jlo_ = (int)max(0L, m * P - gb_);\n"
                     "    const int jhi_ = (int)min((long)get_local_size(0), (m + 1) * P - gb_);\n",
                 idle, wg);
}

static void lc_topk_pool(struct lc_sb *sb, const char *ind)
{
    lc_sb_printf(sb,
                 "%sif ((s_ & (s_ + 1)) == 0 && P >= KK) {\n"
                 "%s    pool_[lid_] = live_ ? (uint)tk[0] : 0u;\n"
                 "%s    barrier(CLK_LOCAL_MEM_FENCE);\n"
                 "%s    if (live_) {\n"
                 "%s        const uint mine_ = pool_[lid_];\n"
                 "%s        int above_ = 0;\n"
                 "%s        for (int j_ = jlo_; j_ < jhi_; j_++) {\n"
                 "%s            const uint o_ = pool_[j_];\n"
                 "%s            above_ += o_ > mine_ || (o_ == mine_ && j_ < lid_);\n"
                 "%s        }\n"
                 "%s        if (above_ == KK - 1 && mine_ > bnd_)\n"
                 "%s            atomic_max(rthr_, mine_);\n"
                 "%s    }\n"
                 "%s    barrier(CLK_LOCAL_MEM_FENCE);\n"
                 "%s    if (live_)\n"
                 "%s        bnd_ = max(bnd_, atomic_or(rthr_, 0u));\n"
                 "%s}\n",
                 ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind, ind);
}

/* Offer (key, i) to the list, past the shared bound (shared) or not. Every access to the bound
 * is atomic (a plain read beside another item's atomic_max is a data race); the item keeps a
 * copy, refreshed every 16 elements and at each of its own insertions, which may lag behind
 * (it is still a bound: the shared one only grows). */
static void lc_topk_offer(struct lc_sb *sb, int mode, const char *K, const char *key,
                          const char *i, const char *ind)
{
    if (!mode) {
        lc_sb_printf(sb, "%slc_tk_offer(tk, ti, &thk, &thi, %s, %s, kk);\n", ind, key, i);
        return;
    }
    const char *thk = mode & LC_TK_REG ? "tk[KB - 1]" : "thk";
    const char *thi = mode & LC_TK_REG ? "ti[KB - 1]" : "thi";
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    lc_sb_printf(sb, "%s{\n%s    const %s ok_ = %s;\n", ind, ind, K, key);
    if (mode & LC_TK_I32)
        lc_sb_printf(sb, "%s    const int oi_ = (int)(%s);\n", ind, i);
    else
        lc_sb_printf(sb, "%s    const long oi_ = %s;\n", ind, i);
    if (mode & LC_TK_SHARED) {
        lc_sb_printf(sb, "%sif ((++seen_ & 15u) == 0u)\n"
                         "%s    bnd_ = max(bnd_, atomic_or(rthr_, 0u));\n"
                         "%sif (ok_ >= bnd_) {\n", in2, in2, in2);
        snprintf(in2, sizeof in2, "%s        ", ind);
    }
    if (mode & LC_TK_REG) {
        /* The insertion as a network over the KB places, from the last: place j takes the
         * one above it, the new element or itself. */
        lc_sb_printf(sb, "%sif (TK_BETTER(ok_, oi_, tk[KB - 1], ti[KB - 1])) {\n"
                         "%s"
                         "%s    for (int j_ = KB - 1; j_ > 0; j_--) {\n"
                         "%s        const int up_ = TK_BETTER(ok_, oi_, tk[j_ - 1], ti[j_ - 1]);\n"
                         "%s        const int here_ = TK_BETTER(ok_, oi_, tk[j_], ti[j_]);\n"
                         "%s        tk[j_] = up_ ? tk[j_ - 1] : here_ ? ok_ : tk[j_];\n"
                         "%s        ti[j_] = up_ ? ti[j_ - 1] : here_ ? oi_ : ti[j_];\n"
                         "%s    }\n"
                         "%s    if (TK_BETTER(ok_, oi_, tk[0], ti[0])) {\n"
                         "%s        tk[0] = ok_;\n%s        ti[0] = oi_;\n%s    }\n",
                     in2, lc_tk_unroll(mode), in2, in2, in2, in2, in2, in2, in2, in2, in2, in2);
    } else {
        lc_sb_printf(sb, "%s{\n%s    lc_tk_offer(tk, ti, &thk, &thi, ok_, oi_, kk);\n", in2,
                     in2);
    }
    if (mode & LC_TK_SHARED)
        lc_sb_printf(sb, "%s    if (%s != %s && %s > bnd_)\n"
                         "%s        bnd_ = max((uint)%s, atomic_max(rthr_, (uint)%s));\n",
                     in2, thi, lc_tk_inone(mode), thk, in2, thk, thk);
    lc_sb_printf(sb, "%s}\n", in2);
    if (mode & LC_TK_SHARED)
        lc_sb_printf(sb, "%s    }\n", ind);
    lc_sb_printf(sb, "%s}\n", ind);
}

/* The end of an item: its list (its best KK) to scratch, or (fin) to the outputs, best
 * first. The loops run over the KB places up to KK: LC_TK_REG unrolls them (every index a
 * constant). */
static void lc_topk_finish(struct lc_cg *g, struct lc_sb *sb, const char *K, int unravel,
                           int mode)
{
    const char *unroll = mode & LC_TK_REG && !(mode & LC_TK_ROLLED) ? "" : " 1";
    const char *idx = mode & LC_TK_I32 ? "TI_LONG(ti[j])" : "ti[j]";
    lc_sb_printf(sb, "    if (!fin) {\n"
                     "        __global %s *kd = (__global %s *)(s + kdst) + (m * P + q) * KK;\n"
                     "        __global long *id = (__global long *)(s + idst) + (m * P + q) * KK;\n"
                     "#pragma unroll%s\n"
                     "        for (int j = 0; j < KB; j++) {\n"
                     "            if (j >= KK)\n                break;\n"
                     "            kd[j] = tk[j];\n            id[j] = %s;\n"
                     "        }\n"
                     "        return;\n    }\n", K, K, unroll, idx);
    if (unravel && g->nd > 1)
        lc_unravel(sb, 0, g->nd - 1, "m", "    ");
    lc_sb_printf(sb, "#pragma unroll%s\n    for (long pos_ = 0; pos_ < KB; pos_++) {\n"
                     "        if (pos_ >= KK)\n            break;\n"
                     "        const long val_ = %s;\n", unroll,
                 mode & LC_TK_I32 ? "TI_LONG(ti[pos_])" : "ti[pos_]");
    lc_emit_sort_store(g, sb, "        ");
    lc_sb_printf(sb, "    }\n}\n\n");
}

static int lc_topk_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    const struct lc_node *node = k->outputs[0].node;
    int nd = g->nd, nr = nd - 1;
    int KK = node->p.red.ddof, largest = node->p.red.kind != 0;
    int vexpr = k->outputs[0].expr, dt = k->exprs[vexpr].dtype;
    int64_t M = 1, N = g->shape[nr];
    for (int d = 0; d < nr; d++)
        M *= g->shape[d];
    struct lc_key key = lc_key_of(dt);
    const char *K = key.type;
    size_t ks = key.bits == 64 ? 8 : 4;

    int inter = g->t->topk_coalesce && lc_topk_row_contiguous(g);
    /* The launches' groups on fixed-group targets: 256 items (H100, top 16: of 2^28 the first
     * pass with its groups' merge took 1.02 ms in groups of 32, 0.88 of 64, 0.83 of 128 and
     * 256; of each row of 16384^2 1.56 ms in groups of 32 to 128, 1.51 of 256). */
    size_t wg = g->t->work_group;
    /* GPU targets: the shared bound where the rows are read along the axis and the keys have
     * 32 bits or fewer; lists in registers for k <= 16 (larger ones would spill). */
    int mode = (inter && g->t->fixed_groups && key.bits <= 32 ? LC_TK_SHARED : 0) |
               (g->t->fixed_groups && lc_topk_room(KK) <= 16 ? LC_TK_REG : 0);
    if (mode & LC_TK_REG && g->t->roll_loops)
        mode |= LC_TK_ROLLED;
    /* SIMD targets: W neighbouring rows per item, their keys computed as W-lane vectors and
     * compared with the W thresholds at once (a column's top k of a product: the lanes are
     * neighbouring columns). */
    int W = !inter && g->t->simd && nr >= 1 && (dt == LC_FLOAT32 || dt == LC_FLOAT64) &&
            g->shape[nr - 1] % g->t->simd == 0 && lc_vec_ok(g, nr - 1) ? g->t->simd : 1;
    /* SIMD targets, rows read along the axis and not in lanes (a 1-d row, the rows of a
     * matrix): S elements a vector (64 bytes: one AVX-512 register), LC_TK_VECS vectors a step, one test of their
     * values against the list's last place (lc_topk_thf), the rare lanes that pass offered
     * one by one. */
    int S = W == 1 && !inter && !g->t->fixed_groups && g->t->simd &&
                    (dt == LC_FLOAT32 || dt == LC_FLOAT64) && lc_topk_row_contiguous(g) &&
                    lc_vec_ok(g, nr)
                ? g->t->simd * (dt == LC_FLOAT32 ? 2 : 1)
                : 1;
    if (N < S * LC_TK_VECS)
        S = 1;
    /* Chunks per row: items (of W rows each) over the target's count, each chunk at least
     * LC_TK_MIN_CHUNK long. */
    int64_t P = g->t->topk_items / (M / W ? M / W : 1);
    int64_t most = N / (LC_TK_MIN_CHUNK > 4 * KK ? LC_TK_MIN_CHUNK : 4 * KK);
    if (P > most)
        P = most;
    if (P < 1)
        P = 1;
    /* A long row's chunks in whole groups on GPUs (two groups at least, a third of the chunks
     * lost to the rounding at most): each group selects its k best and the last group of the
     * row merges them, in the first pass's launch (topk_group.c). */
    int one = inter && (mode & LC_TK_SHARED) && (mode & LC_TK_REG) && N < INT_MAX &&
              P >= 2 * (int64_t)wg;
    if (one)
        P -= P % (int64_t)wg;
    int64_t G = (int64_t)LC_TK_MERGE * KK;
    if (G < 512)
        G = 512;
    if (g->t->fixed_groups && P * KK > G) {
        /* Many candidates on a GPU: more merge items, more stages. */
        G = (int64_t)LC_TK_MERGE_GPU * KK;
        if (G < 128)
            G = 128;
    }

    /* The stages: P chunks, then ceil(P * KK / G) merges ... down to 1. */
    int64_t stages[16];
    int ns = 0;
    stages[ns++] = P;
    while (!one && stages[ns - 1] > 1 && ns < 16) {
        int64_t L = stages[ns - 1] * KK;
        stages[ns] = (L + G - 1) / G;
        ns++;
    }
    size_t area = lc_round_up((size_t)(M * P * KK) * ks, 8), iarea = (size_t)(M * P * KK) * 8;
    size_t off[2][2] = {{0, area}, {area + iarea, 2 * area + iarea}};
    c->scratch_bytes = P > 1 ? 2 * (area + iarea) : 8;
    c->zero_bytes = 0;
    /* One launch: a counter a row (zeroed), then each group's k words. */
    size_t counters = lc_round_up((size_t)M * sizeof(int), 8);
    if (one) {
        c->zero_bytes = counters;
        c->scratch_bytes = counters + (size_t)(M * (P / (int64_t)wg) * KK) * 8;
    }

    lc_topk_helpers(sb, K, KK, largest);
    /* The steps along rows keep a list of 8 or 16 32-bit keys in vectors (lc_tkv_offer). */
    int VL = S > 1 && key.bits == 32 && lc_topk_room(KK) <= 16 ? lc_topk_room(KK) : 0;
    const char *VIT = N < INT_MAX ? "int" : "long";
    const char *VNONE = N >= INT_MAX ? "TK_NONE" : largest ? "(-1)" : "INT_MAX";
    if (VL)
        lc_topk_vec_helper(sb, VL, largest, VIT);
    if (one)
        lc_topk_group_helpers(sb, largest);
    if (W > 1) {
        if (lc_topk_first_vec(g, sb, &key, dt, vexpr, W, largest) < 0)
            return -1;
        goto merge;
    }
    /* The first pass: the keys computed here. */
    lc_sb_printf(sb, "__kernel void @K@_first(");
    if (lc_sort_params(g, NULL, sb, LC_TOPK_PARAMS) < 0)
        return -1;
    lc_sb_printf(sb, "    __global char *s = s_ + sbase;\n    const long g_ = get_global_id(0);\n");
    if (inter)
        lc_sb_printf(sb, "    const long m = g_ / P, q = g_ %% P;\n");
    else
        lc_sb_printf(sb, "    const long q = g_ / M, m = g_ %% M;\n");
    if (mode & LC_TK_SHARED) {
        lc_topk_shared_setup(sb, wg, NULL);
        lc_topk_pool_setup(sb, wg, "m >= M || q >= P");
    } else {
        lc_sb_printf(sb, "    if (m >= M || q >= P) return;\n");
    }
    if (nr > 0)
        lc_unravel(sb, 0, nr, "m", "    ");
    /* The first pass's list keeps int indices where the rows are short enough. */
    int fmode = mode | ((mode & LC_TK_REG) && !VL && N < INT_MAX ? LC_TK_I32 : 0);
    if (fmode & LC_TK_I32)
        lc_sb_printf(sb, "#define TI_NONE %s\n"
                         "#define TI_LONG(i) ((i) == TI_NONE ? TK_NONE : (long)(i))\n",
                     largest ? "(-1)" : "INT_MAX");
    lc_topk_list(sb, K, fmode);
    if (VL)
        lc_sb_printf(sb, "    uint%d tkv = (uint%d)(0);\n    %s%d tiv = (%s%d)(%s);\n"
                         "    %s thiv = %s;\n", VL, VL, VIT, VL, VIT, VL, VNONE, VIT, VNONE);
    char iv[16];
    snprintf(iv, sizeof iv, "i%d", nr);
    if (inter) {
        /* TB elements P apart per step, their keys first (independent loads in flight: one at
         * a time left the memory system idle), then offered. */
        int TB = P >= LC_TK_WIDE_P ? LC_TK_BATCH_WIDE : LC_TK_BATCH;
        if (mode & LC_TK_SHARED)
            lc_sb_printf(sb, "    const long st_ = (n%d + %d * P - 1) / (%d * P);\n"
                             "#pragma unroll 1\n    for (long s_ = 0; s_ < st_; s_++) {\n"
                             "      const long b_ = q + s_ * %d * P;\n"
                             "      if (live_ && b_ < n%d) {\n",
                         nr, TB, TB, TB, nr);
        else
            lc_sb_printf(sb, "#pragma unroll 1\n    for (long b_ = q; b_ < n%d; b_ += %d * P) {\n",
                         nr, TB);
        lc_sb_printf(sb, "        %s kb_[%d];\n#pragma unroll\n"
                         "        for (int u_ = 0; u_ < %d; u_++) {\n"
                         "            const long i%d = b_ + u_ * P;\n            kb_[u_] = 0;\n"
                         "            if (i%d < n%d) {\n",
                     K, TB, TB, nr, nr, nr);
        lc_topk_elem_key(g, sb, &key, dt, vexpr, largest, "                ");
        lc_sb_printf(sb, "                kb_[u_] = key_;\n            }\n        }\n"
                         "%s        for (int u_ = 0; u_ < %d; u_++) {\n"
                         "            const long i%d = b_ + u_ * P;\n            if (i%d < n%d) {\n",
                     lc_tk_unroll(mode), TB, nr, nr, nr);
        lc_topk_offer(sb, fmode, K, "kb_[u_]", iv, "                ");
        lc_sb_printf(sb, "            }\n        }\n");
        if (mode & LC_TK_SHARED) {
            lc_sb_printf(sb, "      }\n");
            lc_topk_pool(sb, "      ");
        }
        lc_sb_printf(sb, "    }\n");
        if (one) {
            lc_topk_group_finish(g, sb, wg, (mode & LC_TK_ROLLED) != 0);
            goto launches;
        }
        if (mode & LC_TK_SHARED)
            lc_sb_printf(sb, "    if (!live_) return;\n");
    } else if (S > 1) {
        lc_topk_steps(g, sb, &key, dt, vexpr, S, largest, VL, VIT, VNONE);
    } else {
        lc_sb_printf(sb, "    const long chunk = (n%d + P - 1) / P;\n"
                         "    const long beg = min(n%d, q * chunk), end = min(n%d, (q + 1) * chunk);\n"
                         "#pragma unroll 1\n    for (long i%d = beg; i%d < end; i%d++) {\n",
                     nr, nr, nr, nr, nr, nr);
    }
    if (!inter && S == 1) {
        lc_topk_elem_key(g, sb, &key, dt, vexpr, largest, "        ");
        lc_topk_offer(sb, fmode, K, "key_", iv, "        ");
        lc_sb_printf(sb, "    }\n");
    }
    if (VL) {
        /* The places' indices as long, an empty place's as TK_NONE. */
        lc_sb_printf(sb, "    vstore%d(tkv, 0, tk);\n", VL);
        if (N < INT_MAX)
            lc_sb_printf(sb, "    const long%d tl_ = convert_long%d(tiv);\n"
                             "    vstore%d(select(tl_, (long%d)(TK_NONE), tl_ == (long%d)%s), 0, ti);\n",
                         VL, VL, VL, VL, VL, VNONE);
        else
            lc_sb_printf(sb, "    vstore%d(tiv, 0, ti);\n", VL);
    }
    lc_topk_finish(g, sb, K, 0, fmode);

merge:
    /* The merges: G candidates of a row's L per item. */
    lc_sb_printf(sb, "__kernel void @K@_merge(");
    if (lc_sort_params(g, NULL, sb, LC_TOPK_PARAMS) < 0)
        return -1;
    lc_sb_printf(sb, "    __global char *s = s_ + sbase;\n    const long g_ = get_global_id(0);\n"
                     "    const long m = g_ / P, q = g_ %% P;\n");
    if (mode & LC_TK_SHARED)
        lc_topk_shared_setup(sb, wg, "m >= M");
    else
        lc_sb_printf(sb, "    if (m >= M) return;\n");
    lc_sb_printf(sb, "    __global const %s *kc = (__global const %s *)(s + ksrc) + m * L;\n"
                     "    __global const long *ic = (__global const long *)(s + isrc) + m * L;\n",
                 K, K);
    lc_topk_list(sb, K, mode);
    if (g->t->fixed_groups) {
        /* Coalescing targets: item q takes the candidates q, q + P, ... (neighbouring items
         * read neighbouring candidates), LC_TK_BATCH of them read before they are offered. */
        lc_sb_printf(sb, "#pragma unroll 1\n    for (long b_ = q; b_ < L; b_ += %d * P) {\n"
                         "        %s kb_[%d];\n        long ib_[%d];\n#pragma unroll\n"
                         "        for (int u_ = 0; u_ < %d; u_++) {\n"
                         "            const long j = b_ + u_ * P;\n"
                         "            kb_[u_] = j < L ? kc[j] : 0;\n"
                         "            ib_[u_] = j < L ? ic[j] : TK_NONE;\n        }\n"
                         "%s        for (int u_ = 0; u_ < %d; u_++) {\n"
                         "            if (b_ + u_ * P < L) {\n",
                     LC_TK_BATCH, K, LC_TK_BATCH, LC_TK_BATCH, LC_TK_BATCH, lc_tk_unroll(mode),
                     LC_TK_BATCH);
        lc_topk_offer(sb, mode, K, "kb_[u_]", "ib_[u_]", "                ");
        lc_sb_printf(sb, "            }\n        }\n    }\n");
    } else {
        lc_sb_printf(sb, "    const long end = min(L, (q + 1) * G);\n"
                         "#pragma unroll 1\n    for (long j = q * G; j < end; j++) {\n"
                         "        const %s kj_ = kc[j];\n", K);
        lc_topk_offer(sb, mode, K, "kj_", "ic[j]", "        ");
        lc_sb_printf(sb, "    }\n");
    }
    lc_topk_finish(g, sb, K, 1, mode);

launches:
    /* The launches: the first pass, then each merge, areas ping-ponging (one: its words after
     * the counters). */
    for (int st = 0; st < ns; st++) {
        struct lc_launch *l = lc_new_launch(c, st == 0 ? "_first" : "_merge");
        if (!l)
            return -1;
        int64_t Pst = stages[st], L = st == 0 ? 0 : stages[st - 1] * KK;
        size_t one_dst[2] = {counters, 0};
        const size_t *src = off[(st + 1) & 1], *dst = one ? one_dst : off[st & 1];
        if (lc_sort_params(g, l, NULL, LC_TOPK_PARAMS) < 0 || lc_add_i64(l, M) < 0 ||
            lc_add_i64(l, Pst) < 0 || lc_add_i64(l, L) < 0 || lc_add_i64(l, G) < 0)
            return -1;
        union lc_scalar fin = {.i = Pst == 1}, kk = {.i = KK};
        if (lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT32, fin) < 0 ||
            lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT32, kk) < 0 ||
            lc_add_i64(l, (int64_t)src[0]) < 0 || lc_add_i64(l, (int64_t)src[1]) < 0 ||
            lc_add_i64(l, (int64_t)dst[0]) < 0 || lc_add_i64(l, (int64_t)dst[1]) < 0)
            return -1;
        l->work_dim = 1;
        l->global[0] = (size_t)((st == 0 ? M / W : M) * Pst);
        if (!lc_fixed_groups(g->t, l, wg))
            lc_single_item_groups(l);
    }
    /* Structure only (the source carries it): not k, the chunks or the launches. */
    snprintf(c->schedule, sizeof c->schedule, "select: the k %s of each row chunk, merged%s",
             largest ? "largest" : "smallest",
             one ? " (chunks interleaved, groups' k merged by the last)"
             : inter ? " (chunks interleaved)" : W > 1 ? " (rows in SIMD lanes)"
                                             : S > 1 ? " (SIMD steps along rows)" : "");
    return 0;
}

/* The family's name stays "select": it is in every top-k kernel's name (lc_select_...) and
 * source, so renaming it renames the kernels (their cache entries and goldens too). */
const struct lc_schedule lc_sched_topk_chunks = {LC_KERNEL_TOPK, "select", NULL, lc_topk_gen};
