/* scan_lookback.c: scans of few long rows in one pass on GPUs (scan_lookback targets), and
 * stores that compute a scan (a compaction's running count) in the same pass: a decoupled
 * look-back.
 *
 * Each work-group takes a ticket (an atomic counter in zeroed scratch), which names its tile
 * of L*E elements (E = 16 for 4-byte states, 8 for 8-byte ones): tiles start in ticket order,
 * so a group waits only for groups that have started before it and are resident, and nothing
 * assumes more of the driver. A group reads
 * its tile once and scans it in local memory; its first item publishes the tile's total as
 * an aggregate, then looks back over the tiles before it, 32 at a time (one item each), until
 * it meets one that has published its inclusive prefix, folds what it passed, and publishes
 * its own inclusive prefix. Every published word is final when it is seen, so a group waits
 * only for groups before it to reach their aggregate.
 *
 * How far a group looks back depends on timing. Integer sums, products, maxima and minima are
 * exact in wrapping arithmetic, and a float maximum (minimum) is the last NaN if there is one,
 * else the first of the largest (smallest) values, whatever the grouping (ties such as -0.0
 * and 0.0 keep the earlier one): these fold what they pass window by window. Float sums and
 * products round differently in each association, so their fold starts only from an inclusive
 * prefix P_j, met within LC_LB_WINDOWS windows (past those, the farthest window is read again
 * until it holds one: every tile before it publishes one in time), and adds the aggregates
 * passed, kept in local memory, in tile order. Then tile q's prefix is
 * (((P_j + a_j+1) + ...) + a_q-1), and P_j is by induction the tiles' aggregates folded from
 * the first in order: the same value whichever j the group met. Complex128 (16-byte states)
 * takes the three-phase tiles.
 *
 * Each tile's state is one 8-byte word per 4 bytes of the accumulator: its status in the high
 * half (0 nothing yet, 1 aggregate, 2 inclusive prefix), 4 bytes of the value in the low half.
 * A reader takes a value of two words only when both show the same status: a word is never
 * half written, and a status never goes back. Scratch: the ticket (8 bytes), then the words of
 * M rows of P tiles, all zeroed.
 *
 * The words are written by atomics and read by atomics (OpenCL 1.2 orders plain accesses of
 * different groups by nothing), or on NVIDIA by volatile loads (lc_emit_shared_read64; H100,
 * 2^28 float32 cumsum: 0.91 ms against 1.07 with atom_add; int32 into int64: 1.37 against
 * 1.52).
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Windows of 32 tiles a float sum's or product's look-back keeps before it waits (16: 512
 * tiles, 4 KiB of doubles). */
#define LC_LB_WINDOWS 16

/* The scan's op and result dtype: a scan kernel's, or the scan a store computes. */
static void lc_lb_op(const struct lc_cg *g, int *op, int *dt)
{
    const struct lc_kernel *k = g->k;
    *op = k->scan_op;
    *dt = k->kind == LC_KERNEL_STORE ? k->exprs[k->store_scan].dtype : k->outputs[0].dtype;
}

static int lc_lb_fits(struct lc_cg *g)
{
    int op, dt;
    lc_lb_op(g, &op, &dt);
    char kind = lc_dtype_kind(dt);
    int known = kind == 'i' || kind == 'u' || kind == 'b' || kind == 'f' || kind == 'c';
    int bytes = lc_acc_bytes(lc_scan_acc(g, op, dt));
    return g->t->scan_lookback && lc_scan_split(g) && g->t->work_group >= 32 && known &&
           bytes > 0 && bytes <= 8;
}

/* Whether the scan's result depends on the association of its folds: float (and complex) sums
 * and products. Such scans look back in a fixed association (lc_lb_prefix). */
static int lc_lb_assoc(int op, int dt)
{
    char kind = lc_dtype_kind(dt);
    return (kind == 'f' || kind == 'c') && (op == LC_OP_CUMSUM || op == LC_OP_CUMPROD);
}

/* The helpers that put and get a tile's state (before the kernel): NW words of 8 bytes. */
static void lc_lb_helpers(struct lc_sb *sb, const char *A, int nw)
{
    lc_sb_printf(sb, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
    lc_emit_shared_read64(sb, "LC_LB_READ");
    lc_sb_printf(sb, "static inline void lc_lb_put(volatile __global ulong *w, const %s v, "
                     "const uint st) {\n"
                     "    union { %s t; uint u[%d]; } u_;\n", A, A, nw);
    for (int k = 0; k < nw; k++)
        lc_sb_printf(sb, "    u_.u[%d] = 0;\n", k);
    lc_sb_printf(sb, "    u_.t = v;\n");
    for (int k = 0; k < nw; k++)
        lc_sb_printf(sb, "    atom_xchg(w + %d, ((ulong)st << 32) | u_.u[%d]);\n", k, k);
    lc_sb_printf(sb, "}\n"
                     "/* The state's status (0 until every word shows the same one), its value in *v. */\n"
                     "static inline uint lc_lb_get(volatile __global ulong *w, %s *v) {\n"
                     "    union { %s t; uint u[%d]; } u_;\n"
                     "    const ulong a = LC_LB_READ(w);\n"
                     "    u_.u[0] = (uint)a;\n", A, A, nw);
    if (nw == 2)
        lc_sb_printf(sb, "    const ulong b = LC_LB_READ(w + 1);\n"
                         "    if ((a >> 32) != (b >> 32))\n"
                         "        return 0;\n"
                         "    u_.u[1] = (uint)b;\n");
    lc_sb_printf(sb, "    *v = u_.t;\n"
                     "    return (uint)(a >> 32);\n"
                     "}\n");
}

/* The kernel's head: parameters, the states' pointer, local memory and the ticket, then m
 * (unravelled into i0.. i<nr-1>), q and the tile's first index `base`. */
static struct lc_launch *lc_lb_head(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                                    int strides, const char *A, const char *B, int nw,
                                    int64_t M, int64_t P, int64_t TS)
{
    union lc_scalar none = {0};
    int nr = g->nd - 1;
    size_t L = g->t->work_group;
    lc_lb_helpers(sb, A, nw);
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return NULL;
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0 || (strides && lc_output_stride_params(g, l, sb, g->nd) < 0))
        return NULL;
    lc_sb_printf(sb, ", const long M, __global char *part_, const long sbase, const long P)\n{\n");
    if (lc_add_i64(l, M) < 0 || lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 || lc_add_i64(l, P) < 0)
        return NULL;
    int op, dt;
    lc_lb_op(g, &op, &dt);
    int fixed = lc_lb_assoc(op, dt);
    lc_sb_printf(sb, "    __global char *sc_ = part_ + sbase;\n");
    if (B)
        lc_sb_printf(sb, "    __local %s buf[%lld];\n", B,
                     (long long)lc_tile_words(TS, (int)(TS / (int64_t)L)));
    lc_sb_printf(sb, "    __local %s tot[%zu];\n"
                     "    __local %s lbv_[%d];\n"
                     "%s"
                     "    __local uint lbs_[32];\n"
                     "    __local %s lbpre_;\n"
                     "    __local long lbt_;\n"
                     "    __local int lbgo_;\n"
                     "    const int lid = get_local_id(0);\n"
                     "    if (lid == 0)\n"
                     "        lbt_ = atomic_inc((volatile __global uint *)sc_);\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    const long m = lbt_ / P, q = lbt_ %% P;\n"
                     "    volatile __global ulong *lb_w = (volatile __global ulong *)(sc_ + 8) + m * P * %d;\n",
                 A, L, A, fixed ? 32 * LC_LB_WINDOWS : 32,
                 fixed ? "    __local int lbw_;\n" : "", A, nw);
    if (nr > 0)
        lc_unravel(sb, 0, nr, "m", "    ");
    lc_sb_printf(sb, "    const long base = q * %lld;\n", (long long)TS);
    c->scratch_bytes = c->zero_bytes = 8 + (size_t)M * (size_t)P * 8 * (size_t)nw;
    l->work_dim = 1;
    l->use_local = 1;
    l->local[0] = L;
    l->local[1] = l->local[2] = 1;
    l->global[0] = (size_t)(M * P) * L;
    return l;
}

/* A look-back step's read: lanes 0..31 each wait for the state of tile `tile` (its status into
 * lbs_[lid], its value into lbv_[slot]; before the first tile: an inclusive identity), then item
 * 0 finds the nearest lane k_ holding an inclusive prefix (31 if none does). The wait spins: a
 * PTX nanosleep of 100 or 400 ns in it changed nothing measurable (H100, 2^28 float32
 * cumsum(x * x) 0.861 / 0.865 / 0.865 ms, int32 cumsum 0.757 / 0.746 / 0.746, the compaction's
 * store 0.808 / 0.812 / 0.815). */
static void lc_lb_window(struct lc_sb *sb, const char *A, const char *id, int nw,
                         const char *tile, const char *slot)
{
    lc_sb_printf(sb, "        if (lid < 32) {\n"
                     "            const long t_ = %s;\n"
                     "            %s v_ = (%s)(%s);\n"
                     "            uint s_ = 2;\n"
                     "            if (t_ >= 0)\n"
                     "                while ((s_ = lc_lb_get(lb_w + t_ * %d, &v_)) == 0)\n"
                     "                    ;\n"
                     "            lbv_[%s] = v_;\n"
                     "            lbs_[lid] = s_;\n"
                     "        }\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "        if (lid == 0) {\n"
                     "            int k_ = 0;\n"
                     "            while (k_ < 31 && lbs_[k_] != 2)\n"
                     "                k_++;\n",
                 tile, A, A, id, nw, slot);
}

/* The look-back of scans whose result does not depend on the association: lane k of each
 * window of 32 holds tile j_ - k; the fold goes from the nearest inclusive prefix (or the
 * window's farthest tile) toward q in tile order, and a window without a prefix is folded onto
 * the nearer windows' fold (lbpre_) and passed. */
static void lc_lb_loop_exact(struct lc_cg *g, struct lc_sb *sb, int op, int dt, const char *A,
                             const char *id, int nw)
{
    lc_sb_printf(sb, "    long j_ = q - 1;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    while (lbgo_) {\n");
    lc_lb_window(sb, A, id, nw, "j_ - lid", "lid");
    /* Lane k holds tile j_ - k: fold from the nearest inclusive prefix (or the window's
     * farthest tile) toward q, in tile order. */
    lc_sb_printf(sb, "            %s f_ = lbv_[k_];\n"
                     "            for (int i_ = k_ - 1; i_ >= 0; i_--) {\n", A);
    lc_scan_step(&g->h, sb, op, dt, "f_", "lbv_[i_]", A, "                ");
    lc_sb_printf(sb, "            }\n");
    lc_scan_step(&g->h, sb, op, dt, "f_", "lbpre_", A, "            ");
    lc_sb_printf(sb, "            lbpre_ = f_;\n"
                     "            lbgo_ = lbs_[k_] != 2;\n"
                     "        }\n"
                     "        j_ -= 32;\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n");
}

/* The look-back of float sums and products: every window passed keeps its tiles' aggregates
 * in local memory (window w in lbv_[32w..32w+31], slot i holding tile q-1-i), up to
 * LC_LB_WINDOWS; then the farthest is read again until it holds an inclusive prefix. The fold
 * starts from the nearest prefix and adds every aggregate after it in tile order. */
static void lc_lb_loop_fixed(struct lc_cg *g, struct lc_sb *sb, int op, int dt, const char *A,
                             const char *id, int nw)
{
    lc_sb_printf(sb, "    if (lid == 0)\n"
                     "        lbw_ = 0;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    while (lbgo_) {\n"
                     "        const int w_ = lbw_;\n");
    lc_lb_window(sb, A, id, nw, "q - 1 - 32 * w_ - lid", "32 * w_ + lid");
    lc_sb_printf(sb, "            if (lbs_[k_] == 2) {\n"
                     "                %s f_ = lbv_[32 * w_ + k_];\n"
                     "                for (int i_ = 32 * w_ + k_ - 1; i_ >= 0; i_--) {\n", A);
    lc_scan_step(&g->h, sb, op, dt, "f_", "lbv_[i_]", A, "                    ");
    lc_sb_printf(sb, "                }\n"
                     "                lbpre_ = f_;\n"
                     "                lbgo_ = 0;\n"
                     "            } else if (w_ < %d) {\n"
                     "                lbw_ = w_ + 1;\n"
                     "            }\n"
                     "        }\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n", LC_LB_WINDOWS - 1);
}

/* After the group's inclusive scan of its items' totals (tot[]): the tile's aggregate
 * published, the look-back, the inclusive prefix published, then `pre` = the fold of every
 * tile before this one and, with `items`, of the items before this one (each item's copy). */
static void lc_lb_prefix(struct lc_cg *g, struct lc_sb *sb, int op, int dt, const char *A,
                         const char *id, int nw, int items)
{
    size_t L = g->t->work_group;
    lc_sb_printf(sb, "    if (lid == 0) {\n"
                     "        lc_lb_put(lb_w + q * %d, tot[%zu], q == 0 ? 2u : 1u);\n"
                     "        lbpre_ = (%s)(%s);\n"
                     "        lbgo_ = q > 0;\n"
                     "    }\n", nw, L - 1, A, id);
    if (lc_lb_assoc(op, dt))
        lc_lb_loop_fixed(g, sb, op, dt, A, id, nw);
    else
        lc_lb_loop_exact(g, sb, op, dt, A, id, nw);
    char last[32];
    snprintf(last, sizeof last, "tot[%zu]", L - 1);
    lc_sb_printf(sb, "    %s pre = lbpre_;\n"
                     "    if (lid == 0 && q > 0) {\n"
                     "        %s t_ = pre;\n", A, A);
    lc_scan_step(&g->h, sb, op, dt, "t_", last, A, "        ");
    lc_sb_printf(sb, "        lc_lb_put(lb_w + q * %d, t_, 2u);\n"
                     "    }\n", nw);
    if (!items)
        return;
    lc_sb_printf(sb, "    if (lid > 0) {\n");
    lc_scan_step(&g->h, sb, op, dt, "pre", "tot[lid - 1]", A, "        ");
    lc_sb_printf(sb, "    }\n");
}

/* Whether a scan kernel's tile holds its float32 values, not the double states it sums them in
 * (a float32 sum or product): the items fold their values twice (their totals, then their
 * outputs from their exclusive prefix), in double, and local memory holds half the bytes. */
static int lc_lb_narrow(struct lc_cg *g)
{
    int op, dt;
    lc_lb_op(g, &op, &dt);
    return g->k->kind == LC_KERNEL_SCAN && lc_lb_assoc(op, dt) && dt == LC_FLOAT32 &&
           !strcmp(lc_scan_acc(g, op, dt), "double");
}

/* How a store computes the running count of flags (a cumsum of a bool cast to an integer: a
 * compaction's slots), if not in the tile's scan: LC_FLAGS_BALLOTS or LC_FLAGS_QUADS, else 0.
 * Both take no local memory for the values.
 *
 * Ballots: each warp's ballot of its 32 items' j-th flags counts them (popcount), the tile's
 * 16 x (L / 32) counts are scanned in (j, warp) order (its elements' order: element j * L +
 * lid), and an element's running count is the tile's prefix, its (j, warp)'s exclusive count
 * and the flags of its warp's lanes before it. NVIDIA takes the ballots from PTX `vote`; other
 * devices build them in local memory from the items' bits. Where the items keep 8 bytes an
 * element. H100, kernel ms, the tile's scan / ballots, x[x > 0.5] of 2^27 float64 0.770 /
 * 0.608, of 2^27 int64 0.628 / 0.616, but of 2^28 float32 0.809 / 0.963, x[m] by a bool mask
 * 0.889 / 1.311.
 *
 * Quads: each item takes LC_LB_QUADS_PER_ITEM quads of 4 adjacent elements (quad j of item
 * lid at element 4 * (j * L + lid)), their flags in one byte each, four to a word. A warp scans
 * its items' words byte-wise (a quad's count is at most 4, a warp's 128: a byte), the tile's
 * LC_LB_QUADS_PER_ITEM x (L / 32) warp counts are scanned in (quad, warp) order, and an
 * element's count is the tile's prefix, its (quad, warp)'s exclusive count, its item's
 * exclusive count in the warp and the flags before it in its quad. Where the items keep at
 * most 4 bytes an element and store at most 4. H200, kernel ms, the tile's scan / quads (both
 * with untested loads and stores where the tile lies inside its row): x[x > 0.5] of 2^28
 * float32 0.78 (0.79 before the untested loads) / 0.72, x[x > 0.9] 0.82 / 0.61, int8 1.18 /
 * 0.57; but x[m] by a bool mask (5 bytes kept) 0.83 / 0.94 and flatnonzero(m) (8-byte stores)
 * 0.80 / 1.00 (with tested stores), which keep the tile. Hand-written
 * (benchmarks/gpu/compact_variants.py): quads with float4 loads 0.60 with 8 a item (0.65 with
 * 4, 0.79 with 16), ballots 0.65-0.83 (16-32 a item), a stand-alone copy of the same bytes
 * 0.38; a compaction staging its kept values in local memory for float4 stores 0.60-0.79, and
 * one writing the same bytes unordered, aligned 0.41: the scattered 4-byte stores cost most of
 * what the quads lose to a copy. */
#define LC_LB_QUADS_PER_ITEM 8
static int lc_lb_flags(const struct lc_cg *g, int kept_bytes)
{
    const struct lc_kernel *k = g->k;
    if (k->kind != LC_KERNEL_STORE || k->scan_op != LC_OP_CUMSUM || g->t->work_group % 32 != 0)
        return 0;
    const struct lc_expr *x = &k->exprs[k->store_scan];
    const struct lc_expr *r = &k->exprs[x->in[0]];
    char kind = lc_dtype_kind(x->dtype);
    if (!((kind == 'i' || kind == 'u') && r->op == LC_OP_CAST && r->n_in == 1 &&
          k->exprs[r->in[0]].dtype == LC_BOOL))
        return 0;
    if (kept_bytes == 8)
        return g->t->scan_lookback_per_item <= 32 ? LC_FLAGS_BALLOTS : 0;
    int narrow = kept_bytes <= 4 && lc_dtype_size(k->exprs[k->store_value].dtype) <= 4;
    return narrow ? LC_FLAGS_QUADS : 0;
}

/* The flags' counts (lc_lb_flags): the items' bits (fl_me), their warps' ballots (bal_[j *
 * NW + w]), and the group's inclusive scan of the ballots' counts into tot[] (tot[L - 1]: the
 * tile's count). */
static void lc_lb_flag_counts(struct lc_cg *g, struct lc_sb *sb, const char *v, const char *A,
                              const char *id, int E, const char *keep)
{
    size_t L = g->t->work_group;
    int op, dt;
    lc_lb_op(g, &op, &dt);
    lc_sb_printf(sb, "    __local uint bal_[%zu];\n"
                     "    __local uint fl_[%zu];\n"
                     "    uint fl_me = 0;\n", (size_t)E * (L / 32), L);
    lc_tile_load_keeping(g, sb, v, A, id, E, keep, LC_FLAGS_BALLOTS);
    lc_sb_printf(sb, "    const int lane_ = lid & 31, w_ = lid >> 5;\n"
                     "#if defined(cl_nv_pragma_unroll)\n"
                     "    %s"
                     "    for (int j = 0; j < %d; j++) {\n"
                     "        uint b_;\n"
                     "        asm volatile(\"{ .reg .pred p; setp.ne.u32 p, %%1, 0; "
                     "vote.sync.ballot.b32 %%0, p, 0xffffffff; }\" : \"=r\"(b_) : "
                     "\"r\"((fl_me >> j) & 1u));\n"
                     "        if (lane_ == 0)\n"
                     "            bal_[j * %zu + w_] = b_;\n"
                     "    }\n"
                     "#else\n"
                     "    fl_[lid] = fl_me;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    if (lane_ < %d) {\n"
                     "        uint b_ = 0;\n"
                     "        for (int t_ = 0; t_ < 32; t_++)\n"
                     "            b_ |= ((fl_[(w_ << 5) + t_] >> lane_) & 1u) << t_;\n"
                     "        bal_[lane_ * %zu + w_] = b_;\n"
                     "    }\n"
                     "#endif\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    %s acc = lid < %zu ? (%s)popcount(bal_[lid]) : (%s)(%s);\n",
                 LC_UNROLL(g->t->roll_loops), E, L / 32, E, L / 32, A, (size_t)E * (L / 32), A, A,
                 id);
    lc_group_inclusive_scan(&g->h, sb, op, dt, A, id, L);
}

/* The flags' counts by quads (lc_lb_flags): the items' flags (fq_), their byte-wise counts
 * (cq_) and inclusive scans in their warp (sq_), the warps' counts (wq_[word * NW + w]), and
 * the group's inclusive scan of them in (quad, warp) order into tot[] (tot[L - 1]: the tile's
 * count). Other devices than NVIDIA scan the warps' words in local memory. */
static void lc_lb_quad_counts(struct lc_cg *g, struct lc_sb *sb, const char *v, const char *A,
                              const char *id, int E, const char *keep)
{
    size_t L = g->t->work_group, NW = L / 32;
    int op, dt, PW = E / 16;
    lc_lb_op(g, &op, &dt);
    const char *U = LC_UNROLL(g->t->roll_loops);
    lc_sb_printf(sb, "    __local uint wq_[%zu];\n"
                     "#if !defined(cl_nv_pragma_unroll)\n"
                     "    __local uint fl_[%zu];\n"
                     "#endif\n"
                     "    uint fq_[%d], cq_[%d], sq_[%d];\n"
                     "    %s"
                     "    for (int p_ = 0; p_ < %d; p_++)\n"
                     "        fq_[p_] = 0;\n", (size_t)PW * NW, (size_t)PW * L, PW, PW, PW, U, PW);
    lc_tile_load_keeping(g, sb, v, A, id, E, keep, LC_FLAGS_QUADS);
    lc_sb_printf(sb, "    const int lane_ = lid & 31, w_ = lid >> 5;\n"
                     "    %s"
                     "    for (int p_ = 0; p_ < %d; p_++) {\n"
                     "        uint t_ = fq_[p_] - ((fq_[p_] >> 1) & 0x55555555u);\n"
                     "        t_ = (t_ & 0x33333333u) + ((t_ >> 2) & 0x33333333u);\n"
                     "        cq_[p_] = sq_[p_] = t_ & 0x0f0f0f0fu;\n"
                     "    }\n"
                     "#if defined(cl_nv_pragma_unroll)\n"
                     "    #pragma unroll\n"
                     "    for (int o_ = 1; o_ < 32; o_ <<= 1) {\n"
                     "        #pragma unroll\n"
                     "        for (int p_ = 0; p_ < %d; p_++) {\n"
                     "            uint y_;\n"
                     "            asm volatile(\"shfl.sync.up.b32 %%0, %%1, %%2, 0, "
                     "0xffffffff;\"\n"
                     "                         : \"=r\"(y_) : \"r\"(sq_[p_]), \"r\"(o_));\n"
                     "            if (lane_ >= o_)\n"
                     "                sq_[p_] += y_;\n"
                     "        }\n"
                     "    }\n"
                     "#else\n"
                     "    for (int o_ = 1; o_ < 32; o_ <<= 1) {\n"
                     "        for (int p_ = 0; p_ < %d; p_++)\n"
                     "            fl_[p_ * %zu + lid] = sq_[p_];\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "        for (int p_ = 0; p_ < %d; p_++)\n"
                     "            sq_[p_] += lane_ >= o_ ? fl_[p_ * %zu + lid - o_] : 0u;\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n"
                     "#endif\n"
                     "    if (lane_ == 31)\n"
                     "        for (int p_ = 0; p_ < %d; p_++)\n"
                     "            wq_[p_ * %zu + w_] = sq_[p_];\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    %s acc = (%s)(%s);\n"
                     "    if (lid < %zu) {\n"
                     "        const int j_ = lid / %zu, t_ = lid %% %zu;\n"
                     "        acc = (%s)((wq_[(j_ >> 2) * %zu + t_] >> ((j_ & 3) * 8)) & 255u);\n"
                     "    }\n",
                 U, PW, PW, PW, L, PW, L, PW, NW, A, A, id, (size_t)(E / 4) * NW, NW, NW, A, NW);
    lc_group_inclusive_scan(&g->h, sb, op, dt, A, id, L);
}

/* What a scan and a store computing one share: the head, the tile's values loaded, each item's
 * fold of its E values (a scan's running values in place, `inplace`, unless the tile is
 * narrow), the group's scan of the items' folds, the look-back: `pre` is each item's exclusive
 * prefix. *E the items' values. */
static int lc_lb_tile(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int inplace,
                      const char *v, int *E, const char *keep, int flags)
{
    int nr = g->nd - 1, op, dt;
    lc_lb_op(g, &op, &dt);
    const char *A = lc_scan_acc(g, op, dt), *id = lc_scan_identity(op, dt);
    int nw = (lc_acc_bytes(A) + 3) / 4;   /* 4-byte words: 1 or 2 */
    int narrow = lc_lb_narrow(g);
    /* 8-byte states take 36 KiB of local memory (18 KiB in half the elements per item was
     * slower: H100, 2^27 float64 cumsum 1.03 ms against 0.80, int32 into int64 of 2^28 1.36
     * against 1.30). A narrow tile takes 18 KiB (twice the elements: 1.19 ms against 1.07). */
    *E = flags == LC_FLAGS_QUADS ? 4 * LC_LB_QUADS_PER_ITEM : g->t->scan_lookback_per_item;
    size_t L = g->t->work_group;
    int64_t M = lc_scan_rows(g), N = g->shape[nr], TS = (int64_t)L * *E, P = (N + TS - 1) / TS;
    /* output strides: a scan's outputs, a store's scan totals (lc_store_outputs) */
    if (!lc_lb_head(g, c, sb, inplace || g->k->n_outputs, A, flags ? NULL : narrow ? "float" : A,
                    nw, M, P, TS))
        return -1;
    if (flags) {
        if (flags == LC_FLAGS_QUADS)
            lc_lb_quad_counts(g, sb, v, A, id, *E, keep);
        else
            lc_lb_flag_counts(g, sb, v, A, id, *E, keep);
        lc_lb_prefix(g, sb, op, dt, A, id, nw, 0);
        snprintf(c->schedule, sizeof c->schedule, "store with its count of flags: tiles of %lld "
                 "per work-group in one pass, %s, a decoupled look-back", (long long)TS,
                 flags == LC_FLAGS_QUADS ? "quads of adjacent elements" : "warp ballots");
        return 0;
    }
    /* The tile pads a word every E elements (lc_tile_shift), so that an item's E adjacent
     * values lie at a stride of E + 1 words, free of bank conflicts (a word every 8: a stride
     * of 18, two-way conflicts). H100, 2^28 unless stated, ms: float32 cumsum 0.873 -> 0.856,
     * cumprod 0.925 -> 0.899, cummax 0.844 -> 0.830, int32 into int64 1.30 -> 1.17, float64
     * (2^27) 0.773 -> 0.749, the compaction's store 0.837 -> 0.798.
     * A narrow tile's values are loaded as floats: through a double they took two conversions
     * more an element (H100, 2^28 float32 cumsum: 0.908 -> 0.873 ms). Folding them in float
     * pairs (two-sum, about 48 bits) instead of double was slower: 1.00 ms sequentially, 0.97
     * with the items' totals in a tree (and a double tree 1.01).
     * Items holding their E values in registers from the fold to the outputs (one read of
     * local memory fewer an element) were slower with 4-byte values (16 registers more, fewer
     * groups resident): H100, 2^28 float32 cumsum(x * x) 0.858 -> 1.098 ms, int32 0.753 ->
     * 0.770, the compaction's store 0.810 -> 1.006; with 8-byte ones (whose 36 KiB of local
     * memory bound the groups already) float64 (2^27) 0.751 -> 0.733, int64 0.742 -> 0.732. */
    if (keep)
        lc_tile_load_keeping(g, sb, v, A, id, *E, keep, 0);
    else
        lc_tile_load(g, sb, !inplace, v, narrow ? "float" : A, id, *E);
    lc_sb_printf(sb, "    const int E_ = %d, E_SH = %d;\n"
                     "    %s acc = (%s)(%s);\n"
                     "    for (int e = 0; e < %d; e++) {\n"
                     "        const int ke_ = lid * E_ + e;\n", *E, lc_tile_shift(*E), A, A, id, *E);
    lc_scan_step(&g->h, sb, op, dt, "acc", "buf[ke_ + (ke_ >> E_SH)]", A, "        ");
    if (inplace && !narrow)
        lc_sb_printf(sb, "        buf[ke_ + (ke_ >> E_SH)] = acc;\n");
    lc_sb_printf(sb, "    }\n");
    lc_group_inclusive_scan(&g->h, sb, op, dt, A, id, L);
    lc_lb_prefix(g, sb, op, dt, A, id, nw, 1);
    snprintf(c->schedule, sizeof c->schedule, "%s: tiles of %lld per work-group in one pass, a "
             "decoupled look-back", inplace ? "scan" : "store with its scan", (long long)TS);
    return 0;
}

/* A scan: each item scans its E values in place, the group its items' totals, then with the
 * tiles before it the outputs are stored, coalesced. */
static int lc_gen_scan_lookback(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    const char *A = lc_scan_acc(g, k->scan_op, k->outputs[0].dtype);
    char v[16];
    snprintf(v, sizeof v, "v%d", k->outputs[0].expr);
    int E;
    if (lc_lb_tile(g, c, sb, 1, v, &E, NULL, 0) < 0)
        return -1;
    lc_sb_printf(sb, "    for (int e = 0; e < %d; e++) {\n"
                     "        const int ke_ = lid * E_ + e;\n", E);
    if (lc_lb_narrow(g)) {
        /* The item's values again, from its exclusive prefix: each output rounded once. */
        lc_scan_step(&g->h, sb, k->scan_op, k->outputs[0].dtype, "pre", "buf[ke_ + (ke_ >> E_SH)]",
                     A, "        ");
        lc_sb_printf(sb, "        buf[ke_ + (ke_ >> E_SH)] = (float)pre;\n"
                         "    }\n");
    } else {
        lc_sb_printf(sb, "        %s t_ = pre;\n", A);
        lc_scan_step(&g->h, sb, k->scan_op, k->outputs[0].dtype, "t_", "buf[ke_ + (ke_ >> E_SH)]",
                     A, "        ");
        lc_sb_printf(sb, "        buf[ke_ + (ke_ >> E_SH)] = t_;\n"
                         "    }\n");
    }
    lc_tile_write_outputs(g, sb, E, v);
    return 0;
}

/* Bytes per element of the loads a store computing its scan keeps in registers from the tile's
 * load to its store (E of each per item: 16 registers of 4 bytes, 32 of 8), instead of reading
 * them again. H100, kernel ms, keeping 0 / 4 / 8 bytes: x[m] of 2^28 float32 by a bool mask
 * 1.054 / 0.887 / 0.885; xl[xl > 49] of 2^27 int64 0.774 / 0.775 / 0.627; x[x > 0.5] of 2^28
 * float32 0.815 / 0.808 / 0.806 (the second read of x came from the L2). */
#define LC_LB_KEEP_BYTES 8

/* The loads of the scan's prologue (buffer reads) the items keep for the store's loop, in
 * order while their bytes fit LC_LB_KEEP_BYTES: keep[i] per expr (malloc'd), or NULL when out
 * of memory; *bytes their bytes an element. */
static char *lc_lb_keep(const struct lc_cg *g, int *bytes_out)
{
    const struct lc_kernel *k = g->k;
    char *keep = lc_scan_prologue_need(g);
    int bytes = 0;
    for (int i = 0; keep && i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        const struct lc_access *a = x->access >= 0 ? &g->acc[x->access] : NULL;
        int b = (int)lc_dtype_size(x->dtype);
        keep[i] = keep[i] && a && x->epilogue == 0 && x->access != k->store_access &&
                  (a->kind == LC_ACCESS_INPUT || a->kind == LC_ACCESS_TEMP) &&
                  bytes + b <= LC_LB_KEEP_BYTES;
        bytes += keep[i] ? b : 0;
    }
    *bytes_out = bytes;
    return keep;
}

/* The store's loop over the item's E elements (lc_gen_store_scan_lookback), with or without
 * the test of each element's index. */
static void lc_lb_store_loop(struct lc_cg *g, struct lc_sb *sb, const char *A, int E,
                             const char *keep, int flags, int guard)
{
    const struct lc_kernel *k = g->k;
    int nr = g->nd - 1;
    size_t L = g->t->work_group;
    char test[48] = "";
    if (guard)
        snprintf(test, sizeof test, "if (i%d < n%d) ", nr, nr);
    lc_sb_printf(sb, "        %s"
                     "        for (int j = 0; j < %d; j++) {\n", LC_UNROLL(g->t->roll_loops), E);
    lc_tile_index(g, sb, flags, "            ");
    lc_sb_printf(sb, "            %s{\n", test);
    if (flags == LC_FLAGS_QUADS)   /* its quad's count (qb_, before the loop), then the flags
                                    * before it in its quad */
        lc_sb_printf(sb, "                %s sacc_ = qb_[j >> 2] + (%s)popcount((fq_[j >> 4] >> "
                         "(((j >> 2) & 3) * 8)) & ((1u << (j & 3)) - 1u));\n", A, A);
    else if (flags)   /* the flags before this element: its (j, warp)'s, then its warp's lanes' */
        lc_sb_printf(sb, "                const int e_ = j * %zu + w_;\n"
                         "                %s sacc_ = pre + (e_ > 0 ? tot[e_ - 1] : (%s)0) + "
                         "(%s)popcount(bal_[e_] & ((1u << lane_) - 1u));\n", L / 32, A, A, A);
    else
        lc_sb_printf(sb, "                %s sacc_ = buf[j * %zu + lid + (lid >> E_SH)];\n", A,
                     (size_t)lc_tile_words((int64_t)L, E));
    for (int i = 0; i < k->n_exprs; i++)
        if (keep[i])
            lc_sb_printf(sb, "                const %s v%d = kv%d[j];\n", lc_T(k->exprs[i].dtype),
                         i, i);
    lc_emit_exprs_hoisted(g, sb, keep, 1, "                ");
    lc_store_emit(g, sb, "                ");
    lc_sb_printf(sb, "            }\n        }\n");
}

/* A store computing its scan: the tile's scanned values (the scan's prologue only) into local
 * memory, each item's exclusive running states in their place, then each element's store
 * (its exprs again, the scan's state from local memory, the loads the items kept from the
 * tile's load read from registers, not again from memory). */
static int lc_gen_store_scan_lookback(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    int nr = g->nd - 1, op, dt;
    lc_lb_op(g, &op, &dt);
    const char *A = lc_scan_acc(g, op, dt);
    size_t L = g->t->work_group;
    char v[16];
    snprintf(v, sizeof v, "v%d", k->exprs[k->store_scan].in[0]);
    int kept;
    char *keep = lc_lb_keep(g, &kept);
    if (!keep)
        return lc_error_set(g->e, LC_ERR_NOMEM, "out of host memory generating a kernel"), -1;
    int E, flags = lc_lb_flags(g, kept);
    if (lc_lb_tile(g, c, sb, 0, v, &E, keep, flags) < 0) {
        free(keep);
        return -1;
    }
    if (k->n_outputs) {
        /* The scan's totals (fusion.h's LC_FUSE_SCAN_TOTAL): the last tile of each row has its
         * inclusive prefix in item 0 (`pre`, folded with the tile's total). */
        lc_sb_printf(sb, "    if (lid == 0 && q == P - 1) {\n"
                         "        %s t_ = pre;\n", A);
        char last[32];
        snprintf(last, sizeof last, "tot[%zu]", L - 1);
        lc_scan_step(&g->h, sb, op, dt, "t_", last, A, "        ");
        const char *T = lc_T(k->outputs[0].dtype);
        lc_sb_printf(sb, "        const %s v%d = (%s)t_;\n", T, k->outputs[0].expr, T);
        lc_store_outputs(g, sb, "        ", nr);
        lc_sb_printf(sb, "    }\n");
    }
    if (!flags) {
        lc_sb_printf(sb, "    for (int e = 0; e < %d; e++) {\n"
                         "        const int ke_ = lid * E_ + e;\n"
                         "        const %s x_ = buf[ke_ + (ke_ >> E_SH)];\n"
                         "        buf[ke_ + (ke_ >> E_SH)] = pre;\n", E, A);
        lc_scan_step(&g->h, sb, op, dt, "pre", "x_", A, "        ");
        lc_sb_printf(sb, "    }\n"
                         "    barrier(CLK_LOCAL_MEM_FENCE);\n");
    }
    if (flags == LC_FLAGS_QUADS) {
        /* Each quad's count before it: the tile's prefix, its (quad, warp)'s, its warp's items'. */
        int Q = E / 4;
        lc_sb_printf(sb, "    %s qb_[%d];\n"
                         "    %s"
                         "    for (int j = 0; j < %d; j++) {\n"
                         "        const int e_ = j * %zu + w_;\n"
                         "        const %s t_ = tot[max(e_ - 1, 0)];\n"
                         "        qb_[j] = pre + (e_ > 0 ? t_ : (%s)0) +\n"
                         "                 (%s)(((sq_[j >> 2] - cq_[j >> 2]) >> ((j & 3) * 8)) & "
                         "255u);\n"
                         "    }\n", A, Q, LC_UNROLL(g->t->roll_loops), Q, L / 32, A, A, A);
    }
    /* A tile inside its row stores without testing each index (as lc_tile_load_keeping loads) */
    lc_sb_printf(sb, "    if (base + %lld <= n%d) {\n", (long long)L * E, nr);
    lc_lb_store_loop(g, sb, A, E, keep, flags, 0);
    lc_sb_printf(sb, "    } else {\n");
    lc_lb_store_loop(g, sb, A, E, keep, flags, 1);
    lc_sb_printf(sb, "    }\n}\n");
    free(keep);
    return 0;
}

/* Stores in row order take none (chunks of a row run side by side). */
static int lc_store_scan_lookback_fits(struct lc_cg *g)
{
    return g->k->store_scan >= 0 && !g->k->store_ordered && lc_lb_fits(g);
}

const struct lc_schedule lc_sched_scan_lookback = {LC_KERNEL_SCAN, "scan", lc_lb_fits,
                                                   lc_gen_scan_lookback};
const struct lc_schedule lc_sched_store_scan_lookback = {LC_KERNEL_STORE, "store",
                                                         lc_store_scan_lookback_fits,
                                                         lc_gen_store_scan_lookback};
