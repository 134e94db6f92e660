/* store_ranges.c: a scatter-add of many elements into a float target too big for local memory,
 * by ranges of its places (GPUs).
 *
 * bincount(idx, weights=w, minlength=65536) of 2^28 elements folds 2^28 float64 atomics into
 * 512 KB, which the H100's L2 serves at ~74 G a second (2.9 of its 3.6 ms). Fewer atomics
 * need each work-group to sum many elements of few places, and a group's local memory holds
 * 2^11 float64 places, not the target's 2^16. So, in two launches:
 *
 * - _part: a group takes a tile of LC_RANGE_E * work_group elements, computes each one's
 *   value and place (the fused producers, the predicate, the checked indices), and orders
 *   the tile by range (place >> LC_RANGE_BITS) through local memory: its ranges' offsets in
 *   the tile go to a table, and each element's place in its range (a ushort) and its value
 *   to the tile's own part of the scratch, coalesced. A float32 value the store widens to
 *   float64 is kept as float32 (4 bytes less to write and read again; the widening is exact);
 * - _acc: a group per (range, TPG tiles) folds those tiles' elements of its range into a
 *   local copy of the range (local atomics), then its touched places into the target with
 *   one global atomic each: ceil(tiles / TPG) * span of them in all, not one per element.
 *
 * Each warp-sized set of 32 items of _acc takes its own tiles, so that their reads are
 * independent. Local copies start at -0.0 and untouched places are skipped by their bits
 * (store_local.c). The sums' order depends on the atomics, as in the other GPU scatter-adds.
 *
 * H100, 2^28 int64 indices, float32 weights, 65536 float64 bins (hand-written kernels of the
 * same shape, benchmarks/gpu/bincount_ranges.py; kernel ms): one atomic per element 3.64;
 * ranges of 2^11 places, tiles of 2048, 512 tiles per _acc group: 1.59 + 1.10 = 2.69 (ranges
 * of 2^12: 3.10-3.13; 2^10: 2.87; tiles of 1024 or 4096: 2.89-2.93). _part moves 18 bytes an
 * element at the copy's bandwidth. On an H200, these kernels: 1.15 + 1.10 = 2.25 (one atomic
 * per element: 3.05; the hand-written ones 2.20). Two things cost the first version of them
 * 0.4 ms each: _part's loads each waited in its element's index test and after the previous
 * element's error report (an atomic), and _acc read two arrays 2^29 bytes apart.
 */
#include "codegen/cg.h"

#include <stdio.h>

#define LC_RANGE_E 8          /* elements per item of a _part tile */
#define LC_RANGE_MAX 256      /* ranges at most (a _part group's counters) */

static int64_t lc_ranges_count(const struct lc_cg *g)
{
    int64_t n = 1;
    for (int d = 0; d < g->nd; d++)
        n *= g->shape[d];
    return n;
}

/* The value carried from _part to _acc: the store's value, or the float32 it widens. */
static int lc_ranges_carrier(const struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    const struct lc_expr *x = &k->exprs[k->store_value];
    if (x->op == LC_OP_CAST && x->dtype == LC_FLOAT64 && k->exprs[x->in[0]].dtype == LC_FLOAT32)
        return x->in[0];
    return k->store_value;
}

static int lc_ranges_fits(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    const struct lc_access *t = &g->acc[k->store_access];
    int dt = t->dtype, B = g->t->store_range_bits;
    int64_t lo, hi, wg = (int64_t)g->t->work_group;
    if (k->store_combine != LC_OP_ADD || B <= 0 || B > 16 || t->n_dyn < 1 || !t->leaf ||
        t->leaf->size == 0 || (dt != LC_FLOAT32 && dt != LC_FLOAT64) || wg < LC_RANGE_MAX ||
        wg % 32)
        return 0;
    lc_leaf_span(t->leaf, &lo, &hi);
    int64_t span = hi - lo + 1, n = lc_ranges_count(g);
    /* Too big for a local copy, at most LC_RANGE_MAX ranges, and enough elements per place
     * for the partition's pass to pay (1 << 22: its two launches beside one). */
    return span * (int64_t)lc_dtype_size(dt) > g->t->store_local_bytes &&
           (span + ((int64_t)1 << B) - 1) >> B <= LC_RANGE_MAX && n >= ((int64_t)1 << 22) &&
           n >= 64 * span && n <= INT64_C(1) << 40;
}

/* The scratch: per tile, a block of TB_ bytes (its elements' places in their ranges, ushort,
 * then their values), the blocks one after another; then the tiles' range offsets (uint, R + 1
 * a tile). A tile's places and values sit side by side: as two arrays 2^29 bytes apart (2^28
 * elements), _acc's reads of each segment's two parts took 1.30 ms against 1.09 apart in two
 * buffers (H200; the offset's alignment made no difference). */
static void lc_ranges_table(struct lc_sb *sb, const char *q)
{
    lc_sb_printf(sb, "    __global %suint *%stoff_ = (__global %suint *)(scratch_ + sbase + "
                     "ntiles_ * TB_);\n", q, *q ? "restrict " : "", q);
}

/* One element of _part's tile, j_ of its item: its value and place, kept where the store's
 * guard holds; `tested`: the tile ends past the elements, so each one tests its index. */
static void lc_ranges_element(struct lc_cg *g, struct lc_sb *sb, int tested, int B, int cv)
{
    int nd = g->nd;
    lc_sb_printf(sb, "%s    for (int j_ = 0; j_ < %d; j_++) {\n"
                     "        const long gid = base_ + j_ * WG_ + lid;\n        rr_[j_] = -1;\n"
                     "        %s {\n",
                 LC_UNROLL(g->t->roll_loops), LC_RANGE_E, tested ? "if (gid < N_)" : "");
    if (nd)
        lc_unravel(sb, 0, nd, "gid", "        ");
    lc_store_item_head(g, sb);
    lc_sb_printf(sb, "            const long e_ = q_ - lo;\n"
                     "            rr_[j_] = (int)(e_ >> %d);\n"
                     "            bb_[j_] = (ushort)(e_ & (RB_ - 1));\n"
                     "            vv_[j_] = v%d;\n        }\n        }\n    }\n", B, cv);
}

/* Both launches' arguments after their own: the scratch, lo (the target's first place), the
 * ranges, the tiles and the tiles per _acc group (which _part takes too, unread). */
static int lc_ranges_args(struct lc_launch *l, const struct lc_cg *g, int64_t lo, int64_t R,
                          int64_t ntiles, int64_t tpg)
{
    union lc_scalar none = {0};
    int a = g->k->store_access;
    if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 ||
        lc_add_offset(l, &g->acc[a], a, lo) < 0 || lc_add_i64(l, R) < 0 ||
        lc_add_i64(l, ntiles) < 0 || lc_add_i64(l, tpg) < 0)
        return -1;
    return 0;
}

static int lc_ranges_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    const struct lc_access *t = &g->acc[k->store_access];
    int a = k->store_access, dt = t->dtype, nd = g->nd, B = g->t->store_range_bits;
    int cv = lc_ranges_carrier(g), ct = k->exprs[cv].dtype;
    int64_t lo, hi, wg = (int64_t)g->t->work_group, T = wg * LC_RANGE_E;
    lc_leaf_span(t->leaf, &lo, &hi);
    int64_t span = hi - lo + 1, n = lc_ranges_count(g), R = (span + ((int64_t)1 << B) - 1) >> B;
    int64_t ntiles = (n + T - 1) / T;
    /* Tiles per _acc group: at most 512, and at least 4 groups per compute unit. */
    int64_t tpg = ntiles * R / (4 * (int64_t)g->t->compute_units);
    tpg = tpg > 512 ? 512 : tpg < 16 ? 16 : tpg;
    int64_t groups = R * ((ntiles + tpg - 1) / tpg);
    const char *TT = lc_T(dt), *CT = lc_T(ct), *U = LC_UNROLL(g->t->roll_loops);
    size_t TB = lc_round_up((size_t)T * (2 + (size_t)lc_dtype_size(ct)), 8);
    c->scratch_bytes = (size_t)ntiles * TB + (size_t)(ntiles * (R + 1) * 4);
    c->zero_bytes = 0;
    if (lc_dtype_size(dt) == 8)
        lc_sb_printf(sb, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");

    /* Launch 1: each tile ordered by range. */
    struct lc_launch *l = lc_new_launch(c, "_part");
    if (!l)
        return -1;
    lc_sb_printf(sb, "#define WG_ %lld\n#define T_ %lld\n#define RB_ %lld\n#define TB_ %zu\n",
                 (long long)wg, (long long)T, (long long)1 << B, TB);
    int checked = lc_has_checked_gather(g);
    if (checked)
        /* An index out of range is recorded in the item's registers, and reported (lc_gidx:
         * its atomic) after the tile's loads. */
        lc_sb_printf(sb, "static inline long lc_gidx_d(const long i, const long n, long *bad, "
                         "const int axis) {\n"
                         "    const long j = i < 0 ? i + n : i;\n"
                         "    if (j >= 0 && j < n)\n        return j;\n"
                         "    if (!bad[0]) {\n        bad[0] = 1;\n        bad[1] = i;\n"
                         "        bad[2] = n;\n        bad[3] = axis;\n    }\n"
                         "    return 0;\n}\n"
                         "#define lc_gidx(i, n, err, axis) lc_gidx_d(i, n, bad_, axis)\n");
    lc_sb_printf(sb, "__kernel __attribute__((reqd_work_group_size(WG_, 1, 1)))\nvoid @K@_part(");
    if (lc_common_params(g, l, sb) < 0)
        return -1;
    lc_sb_printf(sb, ",\n    __global char *scratch_, const long sbase, const long lo, "
                     "const long R_, "
                     "const long ntiles_, const long tpg_)\n{\n");
    if (lc_ranges_args(l, g, lo, R, ntiles, tpg) < 0)
        return -1;
    lc_ranges_table(sb, "");
    lc_sb_printf(sb, "    __local uint c_[%d], s_[WG_];\n    __local ushort sb_[T_];\n"
                     "    __local %s sv_[T_];\n"
                     "    const int lid = get_local_id(0);\n"
                     "    const long t_ = get_group_id(0), base_ = t_ * T_, N_ = 1",
                 LC_RANGE_MAX, CT);
    for (int d = 0; d < nd; d++)
        lc_sb_printf(sb, " * n%d", d);
    lc_sb_printf(sb, ";\n    for (int i_ = lid; i_ < R_; i_ += WG_)\n        c_[i_] = 0;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    int rr_[%d];\n    uint sl_[%d];\n    ushort bb_[%d];\n    %s vv_[%d];\n",
                 LC_RANGE_E, LC_RANGE_E, LC_RANGE_E, CT, LC_RANGE_E);
    /* A whole tile loads its elements with no test of their index, a partial one tests each:
     * NVIDIA issued each element's loads inside its own test (and after the last one's
     * index report), one element's wait after another's. */
    if (checked)
        lc_sb_printf(sb, "    long bad_[4] = {0, 0, 0, 0};\n");
    lc_sb_printf(sb, "    if (base_ + T_ <= N_) {\n");
    lc_ranges_element(g, sb, 0, B, cv);
    lc_sb_printf(sb, "    } else {\n");
    lc_ranges_element(g, sb, 1, B, cv);
    lc_sb_printf(sb, "    }\n");
    if (checked)   /* the item's first index out of range, reported now */
        lc_sb_printf(sb, "#undef lc_gidx\n    if (bad_[0])\n"
                         "        lc_gidx(bad_[1], bad_[2], lc_err, (int)bad_[3]);\n");
    lc_sb_printf(sb, "%s    for (int j_ = 0; j_ < %d; j_++)\n        if (rr_[j_] >= 0)\n"
                     "            sl_[j_] = atomic_inc(&c_[rr_[j_]]);\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     /* the ranges' offsets in the tile: a scan of the counts */
                     "    const uint x_ = lid < R_ ? c_[lid] : 0u;\n    s_[lid] = x_;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (int o_ = 1; o_ < R_; o_ <<= 1) {\n"
                     "        const uint y_ = lid >= o_ ? s_[lid - o_] : 0u;\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n        s_[lid] += y_;\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n"
                     "    const uint kept_ = s_[R_ - 1];\n"
                     "    if (lid < R_) {\n        c_[lid] = s_[lid] - x_;\n"
                     "        toff_[t_ * (R_ + 1) + lid] = s_[lid] - x_;\n    }\n"
                     "    if (lid == 0)\n        toff_[t_ * (R_ + 1) + R_] = kept_;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "%s    for (int j_ = 0; j_ < %d; j_++)\n        if (rr_[j_] >= 0) {\n"
                     "            const uint p_ = c_[rr_[j_]] + sl_[j_];\n"
                     "            sb_[p_] = bb_[j_];\n            sv_[p_] = vv_[j_];\n        }\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    __global ushort *pb_ =\n"
                     "        (__global ushort *)(scratch_ + sbase + t_ * TB_);\n"
                     "    __global %s *pv_ =\n"
                     "        (__global %s *)(scratch_ + sbase + t_ * TB_ + T_ * 2);\n"
                     "    for (uint p_ = lid; p_ < kept_; p_ += WG_) {\n"
                     "        pb_[p_] = sb_[p_];\n        pv_[p_] = sv_[p_];\n"
                     "    }\n}\n\n",
                 U, LC_RANGE_E, U, LC_RANGE_E, CT, CT);
    l->work_dim = 1;
    l->global[0] = (size_t)(ntiles * wg);
    l->local[0] = (size_t)wg;
    l->local[1] = l->local[2] = 1;
    l->use_local = 1;

    /* Launch 2: a group per (range, tpg tiles) sums them in local memory, then into the
     * target. Its scratch is a read-only parameter (NVIDIA reads it by ld.global.nc). */
    l = lc_new_launch(c, "_acc");
    if (!l)
        return -1;
    union lc_scalar none = {0};
    lc_sb_printf(sb, "__kernel __attribute__((reqd_work_group_size(WG_, 1, 1)))\n"
                     "void @K@_acc(__global %s *a%d, __global const char *restrict scratch_, "
                     "const long sbase,\n"
                     "    const long lo, const long R_, const long ntiles_, const long tpg_, "
                     "const long span_)\n{\n", TT, a);
    if (lc_add_arg(l, LC_CGARG_INPUT, t->source, 0, none) < 0 ||
        lc_ranges_args(l, g, lo, R, ntiles, tpg) < 0 || lc_add_i64(l, span) < 0)
        return -1;
    lc_ranges_table(sb, "const ");
    lc_sb_printf(sb, "    __local %s h_[RB_];\n"
                     "    const int lid = get_local_id(0), lane_ = lid & 31, w_ = lid >> 5;\n"
                     "    const long r_ = get_group_id(0) %% R_, g_ = get_group_id(0) / R_;\n"
                     "    for (int i_ = lid; i_ < RB_; i_ += WG_)\n        h_[i_] = %s;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    const long t1_ = min(ntiles_, (g_ + 1) * tpg_);\n"
                     "    for (long t_ = g_ * tpg_ + w_; t_ < t1_; t_ += WG_ / 32) {\n"
                     "        __global const ushort *restrict pb_ =\n"
                     "            (__global const ushort *)(scratch_ + sbase + t_ * TB_);\n"
                     "        __global const %s *restrict pv_ =\n"
                     "            (__global const %s *)(scratch_ + sbase + t_ * TB_ + T_ * 2);\n"
                     "        const uint end_ = toff_[t_ * (R_ + 1) + r_ + 1];\n"
                     "        for (uint i_ = toff_[t_ * (R_ + 1) + r_] + lane_; i_ < end_; "
                     "i_ += 32) {\n            const %s v_ = (%s)pv_[i_];\n",
                 TT, lc_add_identity(dt), CT, CT, TT, TT);
    lc_emit_atomic_fold(g, sb, "            ", dt, LC_OP_ADD, "__local", "h_ + pb_[i_]", "v_");
    lc_sb_printf(sb, "        }\n    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (int b_ = lid; b_ < RB_; b_ += WG_) {\n"
                     "        const %s s_ = h_[b_];\n        if (", TT);
    lc_emit_added(sb, dt, "s_");
    lc_sb_printf(sb, " && r_ * RB_ + b_ < span_) {\n");
    char p[64];
    snprintf(p, sizeof p, "a%d + lo + r_ * RB_ + b_", a);
    lc_emit_atomic_fold(g, sb, "            ", dt, LC_OP_ADD, "__global", p, "s_");
    lc_sb_printf(sb, "        }\n    }\n}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)(groups * wg);
    l->local[0] = (size_t)wg;
    l->local[1] = l->local[2] = 1;
    l->use_local = 1;
    snprintf(c->schedule, sizeof c->schedule,
             "store %d-d, scatter-add by ranges of %d places: tiles ordered by range, then each "
             "range summed in local memory", nd, 1 << B);
    return 0;
}

const struct lc_schedule lc_sched_store_ranges = {LC_KERNEL_STORE, "store", lc_ranges_fits,
                                                  lc_ranges_gen};
