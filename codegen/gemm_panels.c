/* gemm_panels.c: CPU products of a few rows (x @ W of an MLP's layer, M <= 16) in panels of
 * W's columns: each item owns every row x a panel, W read once as contiguous runs. Taken by
 * gemm.c's SIMD schedule where lc_gemm_panels_fit says so.
 */
#include "codegen/gemm.h"

#include <stdio.h>

/* Products of at most LC_PANEL_ROWS rows (x @ W with a few rows of x: an MLP's layer) with
 * no batch and no post-reductions, on SIMD targets: each item owns all M rows x a panel of
 * W's columns, up to LC_PANEL_VECS W-lane vectors and LC_PANEL_BYTES of sums per panel sum (the
 * width an argument: about a panel and a half per core, so that the items fill the cores), its
 * sums in private arrays (L1) walked once per LC_PANEL_STEP values of K, whose products are
 * summed first. Each row of W's panel is one contiguous run the prefetchers follow and W is
 * read once, where blocks of RV vectors read 64 bytes per row of W, a row stride apart
 * (measured on PoCL, 2 cores, float32 8 x 30000 @ 30000 x 2000 under load: blocks 106-128 ms,
 * NumPy 133-189 ms, panels of 64 vectors 38-42 ms, of 32 vectors 68 ms; on one core, 9 to 16
 * rows: blocks 0.5-0.6x NumPy, panels 0.8-1.3x; 31 rows: both 0.5x). The source holds M (the
 * rows' sums unrolled): one kernel per row count up to 16, an exception to codegen.h's rule
 * that sizes are arguments, as gemm.c's group size by M is. */
#define LC_PANEL_ROWS 16
#define LC_PANEL_VECS 64
#define LC_PANEL_BYTES 16384
#define LC_PANEL_STEP 4

int lc_gemm_panels_fit(struct lc_cg *g, const struct lc_gemm *m)
{
    return m->dm == 0 && g->shape[m->dm] <= LC_PANEL_ROWS && !lc_gpost_has(g) &&
           g->t->read_panels;
}

/* The left operand's value at row i<dm> = r and K index i<dk> = `kv`, as x_: a block that the
 * caller closes. */
static void lc_gemm_panels_x(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m, int r,
                             const char *kv, const char *ind)
{
    const struct lc_kernel *k = g->k;
    lc_sb_printf(sb, "%s{\n%s    const long i%d = %d, i%d = %s;\n", ind, ind, m->dm, r, m->dk, kv);
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    for (int i = 0; i < k->n_exprs; i++)
        if ((m->side[i] & 1) && !k->exprs[i].epilogue)
            lc_emit_expr(g, sb, i, in2);
}

/* One step of U values of K for vectors j .. j + RV - 1 of the panel, every row: the RV
 * vectors of each of W's U rows, then per row the products of the step summed (each value of
 * x broadcast once for RV vectors) and added to the row's sums. */
static void lc_gemm_panels_step(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m,
                                int M, int U, int RV)
{
    const struct lc_kernel *k = g->k;
    int W = g->t->gemm_panel_width;
    const char *T = lc_T(m->dt);
    lc_sb_printf(sb, "            %s%d y_[%d][%d];\n", T, W, U, RV);
    for (int u = 0; u < U; u++)
        for (int v = 0; v < RV; v++) {
            lc_sb_printf(sb, "            {\n                const long i%d = c0 + (j + %d) * %d, i%d = e_ + %d;\n",
                         m->dn, v, W, m->dk, u);
            for (int i = 0; i < k->n_exprs; i++)
                if ((m->side[i] & 2) && !k->exprs[i].epilogue)
                    lc_emit_expr_vec(g, sb, i, W, m->dn, "                ");
            lc_sb_printf(sb, "                y_[%d][%d] = w%d;\n            }\n", u, v, m->y);
        }
    for (int r = 0; r < M; r++) {
        lc_sb_printf(sb, "            {\n                %s%d t_[%d];\n", T, W, RV);
        for (int u = 0; u < U; u++) {
            char kv[16];
            snprintf(kv, sizeof kv, "e_ + %d", u);
            lc_gemm_panels_x(g, sb, m, r, kv, "                ");
            lc_sb_printf(sb, "                    const %s%d x_ = (%s%d)(v%d);\n", T, W, T, W, m->x);
            for (int v = 0; v < RV; v++)
                if (u == 0)
                    lc_sb_printf(sb, "                    t_[%d] = x_ * y_[0][%d];\n", v, v);
                else
                    lc_sb_printf(sb, "                    t_[%d] = fma(x_, y_[%d][%d], t_[%d]);\n", v,
                                 u, v, v);
            lc_sb_printf(sb, "                }\n");
        }
        for (int v = 0; v < RV; v++)
            lc_sb_printf(sb, "                acc[%d][j + %d] += t_[%d];\n", r, v, v);
        lc_sb_printf(sb, "            }\n");
    }
}

int lc_gen_gemm_panels(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, struct lc_gemm *m)
{
    const struct lc_kernel *k = g->k;
    const struct lc_target *t = g->t;
    int W = t->gemm_panel_width, U = LC_PANEL_STEP, KC = t->gemm_simd_kc;
    int dm = m->dm, dn = m->dn, dk = m->dk, M = (int)g->shape[dm];
    /* Vectors per pass of a step: past 8 rows each value of x feeds 4 of them (one
     * broadcast per 4 fmas; measured on one core, 16 x 30000 @ 30000 x 2000: 1 vector 77-79
     * ms, 2 81-91, 4 61-63; at 8 rows 1 vector 31 ms, 2 40, 4 33-35). */
    int RV = M > 8 ? 4 : 1;
    int PV = (int)(LC_PANEL_BYTES / ((size_t)M * (size_t)W * lc_dtype_size(m->dt)));
    PV = PV < 8 ? 8 : PV > LC_PANEL_VECS ? LC_PANEL_VECS : PV;
    const char *T = lc_T(m->dt);
    int64_t N = g->shape[dn], nvec = (N + W - 1) / W;
    int64_t cu = t->compute_units ? t->compute_units : 1;
    /* About 1.5 panels per core (4 panels of 63 vectors on 2 cores for N = 2000), at least 8
     * vectors each. */
    int64_t pw = (nvec * 2 + 3 * cu - 1) / (3 * cu);
    pw = pw < 8 ? 8 : pw > PV ? PV : pw;
    int64_t blocks = (N + pw * W - 1) / (pw * W);
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    lc_sb_printf(sb, "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\nvoid @K@(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0 ||
        lc_add_i64(l, pw) < 0)
        return -1;
    /* Each panel of KC along K is summed from zero, then added to the totals (in L2 between
     * panels): the rounding error grows with KC + K / KC, not with K, as the blocks'. */
    lc_sb_printf(sb, ", const long PW)\n{\n"
                     "    const long c0 = get_global_id(0) * PW * %d;\n"
                     "    const int nv = (int)min(PW, (n%d - c0) / %d);\n"
                     "    %s%d acc[%d][%d], tot[%d][%d];\n"
                     "    for (int j = 0; j < nv; j++) {\n",
                 W, dn, W, T, W, M, PV, M, PV);
    for (int r = 0; r < M; r++)
        lc_sb_printf(sb, "        tot[%d][j] = 0;\n", r);
    lc_sb_printf(sb, "    }\n"
                     "    for (long k0 = 0; k0 < n%d; k0 += %d) {\n"
                     "    const long k1 = min(n%d, k0 + %d);\n"
                     "    for (int j = 0; j < nv; j++) {\n", dk, KC, dk, KC);
    for (int r = 0; r < M; r++)
        lc_sb_printf(sb, "        acc[%d][j] = 0;\n", r);
    lc_sb_printf(sb, "    }\n"
                     "    long e_ = k0;\n"
                     "    for (; e_ + %d <= k1; e_ += %d) {\n"
                     "        int j = 0;\n"
                     "        for (; j + %d <= nv; j += %d) {\n", U, U, RV, RV);
    lc_gemm_panels_step(g, sb, m, M, U, RV);
    lc_sb_printf(sb, "        }\n"
                     "        for (; j < nv; j++) {\n");
    lc_gemm_panels_step(g, sb, m, M, U, 1);
    lc_sb_printf(sb, "        }\n"
                     "    }\n"
                     "    for (; e_ < k1; e_++) {\n"
                     "        for (int j = 0; j < nv; j++) {\n"
                     "            const long i%d = c0 + j * %d, i%d = e_;\n",
                 dn, W, dk);
    for (int i = 0; i < k->n_exprs; i++)
        if ((m->side[i] & 2) && !k->exprs[i].epilogue)
            lc_emit_expr_vec(g, sb, i, W, dn, "            ");
    for (int r = 0; r < M; r++) {
        lc_gemm_panels_x(g, sb, m, r, "e_", "            ");
        lc_sb_printf(sb, "                acc[%d][j] = fma((%s%d)(v%d), w%d, acc[%d][j]);\n"
                         "            }\n", r, T, W, m->x, m->y, r);
    }
    lc_sb_printf(sb, "        }\n"
                     "    }\n"
                     "    for (int j = 0; j < nv; j++) {\n");
    for (int r = 0; r < M; r++)
        lc_sb_printf(sb, "        tot[%d][j] += acc[%d][j];\n", r, r);
    lc_sb_printf(sb, "    }\n"
                     "    }\n"
                     "    for (int j = 0; j < nv; j++) {\n");
    for (int r = 0; r < M; r++)
        for (int p = 0; p < W; p++) {
            char v[32];
            snprintf(v, sizeof v, "tot[%d][j].s%x", r, p);
            lc_sb_printf(sb, "        {\n"
                             "            const long i%d = %d, i%d = c0 + j * %d + %d;\n",
                         dm, r, dn, W, p);
            lc_gemm_epilogue(g, sb, v, "            ");
            lc_sb_printf(sb, "        }\n");
        }
    /* The last panel's columns past its whole vectors (fewer than W): one at a time. */
    lc_sb_printf(sb, "    }\n"
                     "    for (long i%d = c0 + nv * %d; i%d < min(n%d, c0 + PW * %d); i%d++) {\n",
                 dn, W, dn, dn, W, dn);
    for (int r = 0; r < M; r++) {
        lc_sb_printf(sb, "        {\n"
                         "            const long i%d = %d;\n"
                         "            %s s_ = 0;\n"
                         "            for (long k0 = 0; k0 < n%d; k0 += %d) {\n"
                         "                %s p_ = 0;\n"
                         "                for (long i%d = k0; i%d < min(n%d, k0 + %d); i%d++) {\n",
                     dm, r, T, dk, KC, T, dk, dk, dk, KC, dk);
        for (int i = 0; i < k->n_exprs; i++)
            if (!k->exprs[i].epilogue && i != m->red)
                lc_emit_expr(g, sb, i, "                    ");
        lc_sb_printf(sb, "                    p_ = fma(v%d, v%d, p_);\n"
                         "                }\n"
                         "                s_ += p_;\n"
                         "            }\n", m->x, m->y);
        lc_gemm_epilogue(g, sb, "s_", "            ");
        lc_sb_printf(sb, "        }\n");
    }
    lc_sb_printf(sb, "    }\n}\n");
    l->work_dim = 1;
    lc_single_item_groups(l);
    l->global[0] = (size_t)blocks;
    snprintf(c->schedule, sizeof c->schedule,
             "gemm: all %d rows x panels of up to %d columns per item (%d-wide vectors), %d "
             "values of K a step", M, PV * W, W, U);
    return 0;
}
