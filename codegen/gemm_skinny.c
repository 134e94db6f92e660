/* gemm_skinny.c: products of a few rows on GPUs (batch-8 inference, x @ W with x of M <= 16
 * rows), split along K.
 *
 * The tile schedule (gemm.c) gives such a product one row of blocks: N / 128 work-groups, each
 * walking all of K. This one gives item (c, s) the 4 columns 4c .. 4c + 3 and the s-th of S
 * slices of K, so that reading W is the whole cost: per k the item reads its 4 values of the
 * right operand (one 16-byte load where every buffer read moving along N is aligned and has
 * unit stride; a warp reads 512 contiguous bytes of a row), LC_SKINNY_STEP rows of them before
 * it uses them. The group computes the left operand's values at (m, k) for every row m and
 * LC_SKINNY_CHUNK values of k at once into local memory, rows innermost, and each item folds
 * them (four rows per local read) into its running sums: LC_SKINNY_ROWS vectors of 4
 * columns in registers (fma, in the operands' dtype, as BLAS does). The
 * right operand is read once; S is chosen for LC_SKINNY_PER_CU groups per compute unit
 * (more only adds partial sums to write and read back). The slices' partial sums go to
 * scratch as [S][M][N]; a second launch adds them per output in a fixed order (4 items per
 * output each add a quarter of the slices in order, then one adds the 4 in order: the same
 * order every run) and runs the epilogue (bias, activation, casts) and the stores.
 */
#include "codegen/gemm.h"

#include <stdio.h>
#include <stdlib.h>

#define LC_SKINNY_ROWS 16   /* M at most this: the running sums of an item, in registers */
#define LC_SKINNY_GROUP 128 /* items per group (4 columns each) */
#define LC_SKINNY_MIN_K 128 /* K per slice at least */
#define LC_SKINNY_STEP 16   /* rows of W an item reads before it folds them (floats) */
#define LC_SKINNY_PER_CU 2  /* groups per compute unit */
#define LC_SKINNY_CHUNK 64  /* values of K whose x a group stages at once */

static int lc_skinny_match(struct lc_cg *g, struct lc_gemm *m)
{
    const struct lc_target *t = g->t;
    m->side = NULL;
    if (!t->fixed_groups || g->nk != 2 || lc_gpost_has(g))
        return 0;
    if (!lc_gemm_match_m(g, m, 1))
        return 0;
    int ok = lc_dtype_is_float(m->dt) && g->shape[m->dm] <= LC_SKINNY_ROWS &&
             g->shape[m->dk] >= 2 * LC_SKINNY_MIN_K && lc_gemm_unit_along(g, m, 2, m->dn);
    if (!ok) {
        free(m->side);
        m->side = NULL;
    }
    return ok;
}

static int lc_skinny_fits(struct lc_cg *g)
{
    struct lc_gemm m;
    int ok = lc_skinny_match(g, &m);
    free(m.side);
    return ok;
}

/* The slices of K: enough groups for LC_SKINNY_PER_CU per compute unit, each slice
 * LC_SKINNY_MIN_K long at least. */
static int64_t lc_skinny_slices(const struct lc_cg *g, const struct lc_gemm *m)
{
    int64_t cols = 4 * LC_SKINNY_GROUP;
    int64_t groups = (g->shape[m->dn] + cols - 1) / cols;
    int64_t per = LC_SKINNY_PER_CU;
    int64_t want = ((int64_t)g->t->compute_units * per + groups - 1) / groups;
    int64_t most = g->shape[m->dk] / LC_SKINNY_MIN_K;
    return want < 1 ? 1 : want > most ? most : want;
}

/* A launch's parameters: the kernel's own, then the scratch, S and KS. */
static int lc_skinny_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb,
                            const char *suffix, int64_t S, int64_t KS)
{
    union lc_scalar none = {0};
    lc_sb_printf(sb, "__kernel void @K@%s(", suffix);
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0)
        return -1;
    lc_sb_printf(sb, ",\n    __global char *scratch_, const long sbase, const long S, "
                     "const long KS)\n{\n");
    if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 || lc_add_i64(l, S) < 0 ||
        lc_add_i64(l, KS) < 0)
        return -1;
    return 0;
}

/* The operand exprs of side `bit` (1: x at (m, k), 2: y at (k, n)). */
static void lc_skinny_side(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m, int bit,
                           const char *ind)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++)
        if (!k->exprs[i].epilogue && (m->side[i] & bit) && i != m->red)
            lc_emit_expr(g, sb, i, ind);
}

/* May the item read the right operand's 4 columns with one vector load per buffer (16 bytes
 * of floats)? Every buffer read on that side moving by 1 along N must start aligned (its offset,
 * whose residue mod 16 is part of the structure, and its other strides multiples of 4) and be
 * a plain read (no gather); no random source moves along N (emit.c would take its value from a
 * vector register too). Reads broadcast along N stay scalar. */
static int lc_skinny_vec(const struct lc_cg *g, const struct lc_gemm *m)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if (!(m->side[i] & 2) || x->epilogue || x->access < 0)
            continue;
        const struct lc_access *a = &g->acc[x->access];
        if (a->kind == LC_ACCESS_CONST || a->kind == LC_ACCESS_IOTA || a->strides[m->dn] != 1)
            continue;
        if (a->kind == LC_ACCESS_RANDOM || a->n_dyn || a->offset % 4 != 0)
            return 0;
        for (int d = 0; d < g->nd; d++)
            if (d != m->dn && a->strides[d] % 4 != 0)
                return 0;
    }
    return 1;
}

/* The right operand at (i<dk>, columns c0_ .. c0_ + 3) into the 4-vector `y`: one vector load per
 * buffer moving along N (then each column's exprs from its lane), where `vec`; else value by
 * value, 0 past the matrix's last column. */
static void lc_skinny_load_y(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m,
                             int vec, const char *y, const char *ind)
{
    const struct lc_kernel *k = g->k;
    char in2[192], in3[192];
    snprintf(in2, sizeof in2, "%s    ", ind);
    snprintf(in3, sizeof in3, "%s        ", ind);
    if (vec) {
        lc_sb_printf(sb, "%s{\n%sconst long i%d = c0_;\n", ind, in2, m->dn);
        for (int a = 0; a < k->n_access; a++) {
            const struct lc_access *x = &g->acc[a];
            int used = 0;
            for (int i = 0; i < k->n_exprs; i++)
                used |= k->exprs[i].access == a && (m->side[i] & 2) && !k->exprs[i].epilogue;
            if (!used || x->kind == LC_ACCESS_CONST || x->kind == LC_ACCESS_IOTA ||
                x->strides[m->dn] != 1)
                continue;
            const char *T = lc_T(x->dtype);
            lc_sb_printf(sb, "%sconst %s4 t%d = *(__global const %s4 *)(a%d + ", in2, T, a, T, a);
            lc_addr(g, sb, a);
            lc_sb_printf(sb, ");\n");
        }
        g->lane_dim = m->dn;
        for (int c = 0; c < 4; c++) {
            g->lane = c;
            lc_sb_printf(sb, "%s{\n%sconst long i%d = c0_ + %d;\n", in2, in3, m->dn, c);
            lc_skinny_side(g, sb, m, 2, in3);
            lc_sb_printf(sb, "%s%s.s%d = v%d;\n%s}\n", in3, y, c, m->y, in2);
        }
        g->lane = -1;
        g->lane_dim = 0;
        lc_sb_printf(sb, "%s}\n", ind);
        return;
    }
    for (int c = 0; c < 4; c++) {
        lc_sb_printf(sb, "%s%s.s%d = 0;\n"
                         "%sif (c0_ + %d < n%d) {\n"
                         "%sconst long i%d = c0_ + %d;\n",
                     ind, y, c, ind, c, m->dn, in2, m->dn, c);
        lc_skinny_side(g, sb, m, 2, in2);
        lc_sb_printf(sb, "%s%s.s%d = v%d;\n%s}\n", in2, y, c, m->y, ind);
    }
}

/* Rows k0_ + j_ + u_ (u_ < U) of y into yb_[] (U == 1: row k0_ + j_ into y_), a vector load
 * where the item's 4 columns are in the matrix and `vec`. */
static void lc_skinny_y_rows(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m,
                             int vec, int U, const char *ind)
{
    char in2[128], in3[128];
    snprintf(in2, sizeof in2, "%s    ", ind);
    snprintf(in3, sizeof in3, "%s        ", ind);
    const char *y = U > 1 ? "yb_[u_]" : "y_";
    const char *in = U > 1 ? in3 : in2;
    if (vec)
        lc_sb_printf(sb, "%sif (c0_ + 4 <= n%d) {\n", ind, m->dn);
    for (int v = vec; v >= 0; v--) {
        if (U > 1)
            lc_sb_printf(sb, "%s#pragma unroll\n"
                             "%sfor (int u_ = 0; u_ < %d; u_++) {\n"
                             "%sconst long i%d = k0_ + j_ + u_;\n",
                         in2, in2, U, in3, m->dk);
        else
            lc_sb_printf(sb, "%sconst long i%d = k0_ + j_;\n", in2, m->dk);
        lc_skinny_load_y(g, sb, m, v, y, in);
        if (U > 1)
            lc_sb_printf(sb, "%s}\n", in2);
        if (v && vec)
            lc_sb_printf(sb, "%s} else {\n", ind);
    }
    if (vec)
        lc_sb_printf(sb, "%s}\n", ind);
}

/* The slices of K for launch 1: S (returned) of *KS values each, KS a multiple of the step. */
static int64_t lc_skinny_split(const struct lc_cg *g, const struct lc_gemm *m, int U,
                               int64_t *KS)
{
    int64_t S = lc_skinny_slices(g, m), K = g->shape[m->dk];
    int64_t ks = (K + S - 1) / S;
    ks = (ks + U - 1) / U * U;
    *KS = ks;
    return (K + ks - 1) / ks;
}

/* Each row's x (4 at a time from local memory, row j_ of the chunk) times y (`y`), into acc_. */
static void lc_skinny_fold(struct lc_sb *sb, const struct lc_gemm *m, const char *T, int R,
                           const char *j, const char *y, const char *ind)
{
    lc_sb_printf(sb, "%s#pragma unroll\n"
                     "%sfor (int q_ = 0; q_ < %d; q_++)\n"
                     "%s    if (4 * q_ < n%d) {\n"
                     "%s        const %s4 x4_ = xs_[%s][q_];\n",
                 ind, ind, R / 4, ind, m->dm, ind, T, j);
    for (int e = 0; e < 4; e++)
        lc_sb_printf(sb, "%s        acc_[4 * q_ + %d] = fma((%s4)(x4_.s%d), %s, "
                         "acc_[4 * q_ + %d]);\n", ind, e, T, e, y, e);
    lc_sb_printf(sb, "%s    }\n", ind);
}

static int lc_gen_gemm_skinny(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_gemm m;
    if (!lc_skinny_match(g, &m))
        return -1;
    const char *T = lc_T(m.dt);
    int dm = m.dm, dn = m.dn, dk = m.dk, G = LC_SKINNY_GROUP;
    /* The rows' sums: LC_SKINNY_ROWS vectors of 4 columns in registers, whatever M is (the
     * source never depends on sizes; sums for 4 or 8 rows gained 3-4% on the H100). */
    int R = LC_SKINNY_ROWS;
    int vec = lc_skinny_vec(g, &m);
    /* Rows of y read before they are folded: 16 vectors of 4 floats (64 registers), half as
     * many of doubles. */
    int U = lc_dtype_size(m.dt) > 4 ? LC_SKINNY_STEP / 2 : LC_SKINNY_STEP;
    int KC = LC_SKINNY_CHUNK;
    int64_t KS, S = lc_skinny_split(g, &m, U, &KS);
    int rc = -1;

    /* Launch 1: the partial sums of slice s for columns c0_ .. c0_ + 3, every row. */
    struct lc_launch *l = lc_new_launch(c, "_part");
    if (!l || lc_skinny_params(g, l, sb, "_part", S, KS) < 0)
        goto out;
    lc_sb_printf(sb, "    __global %s *part_ = (__global %s *)(scratch_ + sbase);\n"
                     "    __local %s4 xs_[%d][%d];\n"
                     "    const long c0_ = get_global_id(0) * 4, s_ = get_global_id(1);\n"
                     "    const int lid_ = (int)get_local_id(0);\n"
                     "    %s4 acc_[%d];\n"
                     "    #pragma unroll\n"
                     "    for (int r_ = 0; r_ < %d; r_++)\n"
                     "        acc_[r_] = 0;\n"
                     "    const long kend_ = min(n%d, (s_ + 1) * KS);\n"
                     "    for (long k0_ = s_ * KS; k0_ < kend_; k0_ += %d) {\n"
                     "        const int kc_ = (int)min((long)%d, kend_ - k0_);\n",
                 T, T, T, KC, R / 4 + 1, T, R, R, dk, KC, KC);
    /* x over (KC values of K, rows), computed once per group into local memory, 0 past the
     * last row (every item reads them all: a broadcast, four rows at a time; a row of the
     * chunk is R + 4 values long, which spreads the stores over the banks). The loops'
     * bounds are the group's: the barriers are reached by every item. */
    lc_sb_printf(sb, "        for (int t_ = lid_; t_ < %d; t_ += (int)get_local_size(0)) {\n"
                     "            const int r_ = t_ / %d, u_ = t_ %% %d;\n"
                     "            %s xv_ = 0;\n"
                     "            if (r_ < n%d && u_ < kc_) {\n"
                     "                const long i%d = r_, i%d = k0_ + u_;\n",
                 R * KC, KC, KC, T, dm, dm, dk);
    lc_skinny_side(g, sb, &m, 1, "                ");
    lc_sb_printf(sb, "                xv_ = v%d;\n"
                     "            }\n"
                     "            ((__local %s *)xs_[u_])[r_] = xv_;\n"
                     "        }\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "        int j_ = 0;\n"
                     "        for (; j_ + %d <= kc_; j_ += %d) {\n"
                     "            %s4 yb_[%d];\n",
                 m.x, T, U, U, T, U);
    /* U rows of y read first (loads in flight at once), then folded. */
    lc_skinny_y_rows(g, sb, &m, vec, U, "            ");
    lc_sb_printf(sb, "            #pragma unroll\n"
                     "            for (int u_ = 0; u_ < %d; u_++) {\n", U);
    lc_skinny_fold(sb, &m, T, R, "j_ + u_", "yb_[u_]", "                ");
    lc_sb_printf(sb, "            }\n"
                     "        }\n"
                     "        for (; j_ < kc_; j_++) {\n"
                     "            %s4 y_;\n", T);
    lc_skinny_y_rows(g, sb, &m, vec, 1, "            ");
    lc_skinny_fold(sb, &m, T, R, "j_", "y_", "            ");
    lc_sb_printf(sb, "        }\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n"
                     "    if (c0_ >= n%d)\n"
                     "        return;\n"
                     "    __global %s *p_ = part_ + s_ * n%d * n%d + c0_;\n"
                     "    #pragma unroll\n"
                     "    for (int r_ = 0; r_ < %d; r_++)\n"
                     "        if (r_ < n%d) {\n"
                     "            p_[r_ * n%d] = acc_[r_].s0;\n"
                     "            if (c0_ + 1 < n%d) p_[r_ * n%d + 1] = acc_[r_].s1;\n"
                     "            if (c0_ + 2 < n%d) p_[r_ * n%d + 2] = acc_[r_].s2;\n"
                     "            if (c0_ + 3 < n%d) p_[r_ * n%d + 3] = acc_[r_].s3;\n"
                     "        }\n"
                     "}\n\n",
                 dn, T, dm, dn, R, dm, dn, dn, dn, dn, dn, dn, dn);
    l->work_dim = 2;
    l->use_local = 1;
    l->global[0] = lc_round_up((size_t)(g->shape[dn] + 3) / 4, (size_t)G);
    l->global[1] = (size_t)S;
    l->global[2] = 1;
    l->local[0] = (size_t)G;
    l->local[1] = l->local[2] = 1;

    /* Launch 2: per output, the slices' sums in order, then the epilogue. */
    l = lc_new_launch(c, "_comb");
    if (!l || lc_skinny_params(g, l, sb, "_comb", S, KS) < 0)
        goto out;
    /* A group per 32 outputs, 4 items per output: item (o, j) adds slices j, j + 4, ... in
     * order (4 loads in flight), then item (o, 0) adds the 4 sums in order (the same order
     * every run). */
    lc_sb_printf(sb, "    __local %s red_[4][32];\n"
                     "    const int lid_ = (int)get_local_id(0), o_ = lid_ %% 32, j_ = lid_ / 32;\n"
                     "    const long g_ = (long)get_group_id(0) * 32 + o_, st_ = n%d * n%d;\n"
                     "    __global const %s *p_ = (__global const %s *)(scratch_ + sbase) + g_;\n"
                     "    %s sum_ = 0;\n"
                     "    if (g_ < st_) {\n"
                     "        long s_ = j_;\n"
                     "        for (; s_ + 12 < S; s_ += 16) {\n"
                     "            %s pv_[4];\n"
                     "            #pragma unroll\n"
                     "            for (int e_ = 0; e_ < 4; e_++)\n"
                     "                pv_[e_] = p_[(s_ + 4 * e_) * st_];\n"
                     "            #pragma unroll\n"
                     "            for (int e_ = 0; e_ < 4; e_++)\n"
                     "                sum_ += pv_[e_];\n"
                     "        }\n"
                     "        for (; s_ < S; s_ += 4)\n"
                     "            sum_ += p_[s_ * st_];\n"
                     "    }\n"
                     "    red_[j_][o_] = sum_;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    if (j_ != 0 || g_ >= st_)\n"
                     "        return;\n"
                     "    sum_ = red_[0][o_] + red_[1][o_];\n"
                     "    sum_ += red_[2][o_];\n"
                     "    sum_ += red_[3][o_];\n"
                     "    const long i%d = g_ / n%d, i%d = g_ %% n%d;\n",
                 T, dm, dn, T, T, T, T, dm, dn, dn, dn);
    lc_gemm_epilogue(g, sb, "sum_", "    ");
    lc_sb_printf(sb, "}\n");
    l->work_dim = 1;
    l->use_local = 1;
    l->global[0] = (size_t)((g->shape[dm] * g->shape[dn] + 31) / 32 * 128);
    l->global[1] = l->global[2] = 1;
    l->local[0] = 128;
    l->local[1] = l->local[2] = 1;
    c->scratch_bytes = (size_t)(S * g->shape[dm] * g->shape[dn]) * lc_dtype_size(m.dt);
    snprintf(c->schedule, sizeof c->schedule,
             "gemm: up to %d rows, an item per 4 columns and slice of K, in registers; "
             "slices added by a second launch", R);
    rc = 0;
out:
    free(m.side);
    return rc;
}

const struct lc_schedule lc_sched_gemm_skinny = {LC_KERNEL_REDUCE, "gemm", lc_skinny_fits,
                                                 lc_gen_gemm_skinny};
