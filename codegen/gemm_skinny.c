/* gemm_skinny.c: products of a few rows on GPUs (batch-8 inference, x @ W with x of M <= 16
 * rows), split along K.
 *
 * The tile schedule (gemm.c) gives such a product one row of blocks: N / 128 work-groups, each
 * walking all of K. This one gives item (n, s) column n and the s-th of S slices of K: per k
 * it computes the right operand's value at (k, n) (neighbouring items read neighbouring
 * columns: coalesced; LC_SKINNY_STEP of them read before they are used), the group computes
 * the left operand's at (m, k) for every row m and those k once into local memory, and each
 * item folds them into M running sums in registers (fma, in the operands' dtype, as BLAS
 * does). The right operand is read once; S is chosen so that the
 * device holds a few groups per compute unit. The slices' partial sums go to scratch as
 * [S][M][N]; a second launch adds them in slice order per output (the same order every run)
 * and runs the epilogue (bias, activation, casts) and the stores.
 */
#include "codegen/gemm.h"

#include <stdio.h>
#include <stdlib.h>

#define LC_SKINNY_ROWS 16   /* M at most this: the running sums of an item, in registers */
#define LC_SKINNY_GROUP 128 /* items per group (columns) */
#define LC_SKINNY_MIN_K 128 /* K per slice at least */
#define LC_SKINNY_STEP 16   /* values of K an item reads before it folds them */

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

/* The slices of K: enough groups for 8 per compute unit, each slice LC_SKINNY_MIN_K long at
 * least. */
static int64_t lc_skinny_slices(const struct lc_cg *g, const struct lc_gemm *m)
{
    int64_t groups = (g->shape[m->dn] + LC_SKINNY_GROUP - 1) / LC_SKINNY_GROUP;
    int64_t want = ((int64_t)g->t->compute_units * 8 + groups - 1) / groups;
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

/* Every row's x at the current k times y (`y`), into its sum. */
static void lc_skinny_rows(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m,
                           const char *y, const char *ind)
{
    lc_sb_printf(sb, "%s#pragma unroll\n"
                     "%sfor (int r_ = 0; r_ < %d; r_++) {\n"
                     "%s    if (r_ < n%d) {\n"
                     "%s        const long i%d = r_;\n",
                 ind, ind, LC_SKINNY_ROWS, ind, m->dm, ind, m->dm);
    char in2[64];
    snprintf(in2, sizeof in2, "%s        ", ind);
    lc_skinny_side(g, sb, m, 1, in2);
    lc_sb_printf(sb, "%s        acc_[r_] = fma(v%d, %s, acc_[r_]);\n"
                     "%s    }\n"
                     "%s}\n", ind, m->x, y, ind, ind);
}

static int lc_gen_gemm_skinny(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_gemm m;
    if (!lc_skinny_match(g, &m))
        return -1;
    const char *T = lc_T(m.dt);
    int dm = m.dm, dn = m.dn, dk = m.dk, R = LC_SKINNY_ROWS;
    int64_t S = lc_skinny_slices(g, &m), K = g->shape[dk];
    int64_t KS = (K + S - 1) / S;
    int rc = -1;

    /* Launch 1: the partial sums of slice s for column n, every row. */
    struct lc_launch *l = lc_new_launch(c, "_part");
    if (!l || lc_skinny_params(g, l, sb, "_part", S, KS) < 0)
        goto out;
    int U = LC_SKINNY_STEP;
    lc_sb_printf(sb, "    __global %s *part_ = (__global %s *)(scratch_ + sbase);\n"
                     "    __local %s xs_[%d][%d];\n"
                     "    const long i%d = get_global_id(0), s_ = get_global_id(1);\n"
                     "    const int lid_ = (int)get_local_id(0), live_ = i%d < n%d;\n"
                     "    %s acc_[%d];\n"
                     "    #pragma unroll\n"
                     "    for (int r_ = 0; r_ < %d; r_++)\n"
                     "        acc_[r_] = 0;\n"
                     "    const long kend_ = min(n%d, (s_ + 1) * KS);\n"
                     "    long k0_ = s_ * KS;\n"
                     "    for (; k0_ + %d <= kend_; k0_ += %d) {\n"
                     "        %s yb_[%d];\n",
                 T, T, T, R, U, dn, dn, dn, T, R, R, dk, U, U, T, U);
    /* U values of y read first (loads in flight at once, while x is staged), where the
     * item's column is in the matrix. */
    lc_sb_printf(sb, "        #pragma unroll\n"
                     "        for (int u_ = 0; u_ < %d; u_++) {\n"
                     "            const long i%d = k0_ + u_;\n"
                     "            yb_[u_] = 0;\n"
                     "            if (live_) {\n", U, dk);
    lc_skinny_side(g, sb, &m, 2, "                ");
    lc_sb_printf(sb, "                yb_[u_] = v%d;\n"
                     "            }\n"
                     "        }\n", m.y);
    /* x over (rows, U values of K), computed once per group into local memory (every item
     * reads them all: a broadcast). The loop's bounds are the group's: the barriers are
     * reached by every item. */
    lc_sb_printf(sb, "        for (int t_ = lid_; t_ < %d; t_ += (int)get_local_size(0)) {\n"
                     "            const int r_ = t_ / %d, u_ = t_ %% %d;\n"
                     "            if (r_ < n%d) {\n"
                     "                const long i%d = r_, i%d = k0_ + u_;\n",
                 R * U, U, U, dm, dm, dk);
    lc_skinny_side(g, sb, &m, 1, "                ");
    lc_sb_printf(sb, "                xs_[r_][u_] = v%d;\n"
                     "            }\n"
                     "        }\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "        #pragma unroll\n"
                     "        for (int u_ = 0; u_ < %d; u_++)\n"
                     "            #pragma unroll\n"
                     "            for (int r_ = 0; r_ < %d; r_++)\n"
                     "                if (r_ < n%d)\n"
                     "                    acc_[r_] = fma(xs_[r_][u_], yb_[u_], acc_[r_]);\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n"
                     "    if (!live_)\n"
                     "        return;\n"
                     "    for (long i%d = k0_; i%d < kend_; i%d++) {\n",
                 m.x, U, R, dm, dk, dk, dk);
    lc_skinny_side(g, sb, &m, 2, "        ");
    lc_sb_printf(sb, "        const %s y_ = v%d;\n", T, m.y);
    lc_skinny_rows(g, sb, &m, "y_", "        ");
    lc_sb_printf(sb, "    }\n"
                     "    #pragma unroll\n"
                     "    for (int r_ = 0; r_ < %d; r_++)\n"
                     "        if (r_ < n%d)\n"
                     "            part_[(s_ * n%d + r_) * n%d + i%d] = acc_[r_];\n"
                     "}\n\n",
                 R, dm, dm, dn, dn);
    l->work_dim = 2;
    l->use_local = 1;
    l->global[0] = lc_round_up((size_t)g->shape[dn], LC_SKINNY_GROUP);
    l->global[1] = (size_t)S;
    l->global[2] = 1;
    l->local[0] = LC_SKINNY_GROUP;
    l->local[1] = l->local[2] = 1;

    /* Launch 2: per output, the slices' sums in order, then the epilogue. */
    l = lc_new_launch(c, "_comb");
    if (!l || lc_skinny_params(g, l, sb, "_comb", S, KS) < 0)
        goto out;
    lc_sb_printf(sb, "    __global const %s *part_ = (__global const %s *)(scratch_ + sbase);\n"
                     "    const long g_ = get_global_id(0);\n"
                     "    if (g_ >= n%d * n%d) return;\n"
                     "    const long i%d = g_ / n%d, i%d = g_ %% n%d;\n"
                     "    %s sum_ = 0;\n"
                     "    for (long s_ = 0; s_ < S; s_++)\n"
                     "        sum_ += part_[(s_ * n%d + i%d) * n%d + i%d];\n",
                 T, T, dm, dn, dm, dn, dn, dn, T, dm, dm, dn, dn);
    lc_gemm_epilogue(g, sb, "sum_", "    ");
    lc_sb_printf(sb, "}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)(g->shape[dm] * g->shape[dn]);
    lc_fixed_groups(g->t, l, g->t->work_group);
    c->scratch_bytes = (size_t)(S * g->shape[dm] * g->shape[dn]) * lc_dtype_size(m.dt);
    snprintf(c->schedule, sizeof c->schedule,
             "gemm: up to %d rows, an item per column and slice of K, in registers; slices "
             "added by a second launch", R);
    rc = 0;
out:
    free(m.side);
    return rc;
}

const struct lc_schedule lc_sched_gemm_skinny = {LC_KERNEL_REDUCE, "gemm", lc_skinny_fits,
                                                 lc_gen_gemm_skinny};
