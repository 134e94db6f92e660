/* reduce_colpanel.c: PoCL column sums with a read that adjacent outputs share (v @ A), in
 * panels of columns x chunks of rows; reduce_split.c's column blocks (schedule D) take it where
 * lc_reduce_colpanel_fits says so, and it shares their partials and combining launch.
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <string.h>

/* Schedule D in panels, for column sums with a read that adjacent outputs share (its stride
 * along the kept dim 0, along a reduced dim not: a vector-matrix product's vector): an item
 * owns a panel of adjacent outputs whose states fill LC_PANEL_BYTES (4096 float32 sums, 2048
 * double ones) and a chunk of rows, its states in a private array (L1) walked once per
 * LC_PANEL_ROWS rows, whose products are summed first: each row's panel is one contiguous run
 * the prefetchers follow, where schedule D's blocks of 4 vectors read 128 bytes per row
 * stride. Measured on PoCL, 2 cores, float32 v @ A of 4096^2 (under load): blocks 14.9 ms,
 * panels of 1024 columns 12.5 ms by single rows, 7.4 ms 4 rows at a time, 8 rows no better;
 * on one core (float32 sums, NumPy 3.4 ms; 30000 x 2000: 13.1 ms): panels of 1024 columns 4.1
 * ms (19.0 ms), 2048 4.0 (16.3), 4096 3.5 (15.7); double sums 2048 wide: 17.2 ms. The last
 * panel takes the whole vectors left and its last columns (fewer than W) one at a time. */
#define LC_PANEL_BYTES 16384
#define LC_PANEL_ROWS 4

/* Each slot s's vector of values (w<expr>, cast to its accumulator) added to `dst` (a format
 * of s). */
static void lc_colpanel_add(struct lc_cg *g, struct lc_sb *sb, int W, const char *dst,
                            const char *ind)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        char v[32], d[32];
        snprintf(v, sizeof v, "w%d", r->expr);
        snprintf(d, sizeof d, dst, s);
        struct lc_sb cv = {0};
        lc_vcast(&cv, v, k->exprs[r->expr].dtype,
                 !strcmp(lc_red_acc(g, r), "double") ? LC_FLOAT64 : LC_FLOAT32, W);
        lc_sb_printf(sb, "%s%s += %s;\n", ind, d, cv.s);
        lc_sb_free(&cv);
    }
}

int lc_reduce_colpanel_fits(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    if (!g->t->read_panels || g->nk != 1)
        return 0;
    for (int s = 0; s < k->n_reds; s++)
        if (k->reds[s].op != LC_OP_SUM)
            return 0;
    for (int a = 0; a < k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->epilogue || (x->kind != LC_ACCESS_INPUT && x->kind != LC_ACCESS_TEMP) ||
            x->strides[0] != 0)
            continue;
        for (int d = 1; d < g->nd; d++)
            if (x->strides[d] != 0)
                return 1;
    }
    return 0;
}

int lc_gen_reduce_colpanel(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    struct lc_launch *l = lc_new_launch(c, "_part");
    if (!l)
        return -1;
    int nd = g->nd, nk = g->nk, W = g->t->simd, U = LC_PANEL_ROWS;
    size_t fs = 0;
    for (int s = 0; s < k->n_reds; s++)
        if (lc_red_fsize(g, &k->reds[s], 0) * (size_t)k->n_reds > fs)
            fs = lc_red_fsize(g, &k->reds[s], 0) * (size_t)k->n_reds;
    int V = (int)(LC_PANEL_BYTES / (fs * (size_t)W));
    int64_t M = lc_kept_count(g), N = lc_reduced_count(g);
    int64_t B = (int64_t)V * W;
    int64_t blocks = (M + B - 1) / B;
    int64_t P = lc_block_chunks(g, N, blocks);   /* as schedule D's */
    if (lc_block_part_head(g, c, l, sb, blocks, P, M, N, B) < 0)
        return -1;
    lc_sb_printf(sb, "    const int nv = (int)min((long)%d, (M - c0) / %d);\n", V, W);
    for (int s = 0; s < k->n_reds; s++)
        lc_sb_printf(sb, "    %s%d q%d_a[%d];\n", lc_red_acc(g, &k->reds[s]), W, s, V);
    lc_sb_printf(sb, "    for (int j = 0; j < nv; j++) {\n");
    for (int s = 0; s < k->n_reds; s++)
        lc_sb_printf(sb, "        q%d_a[j] = 0;\n", s);
    lc_sb_printf(sb, "    }\n"
                     "    long e_ = r0;\n"
                     "    for (; e_ + %d <= r_end; e_ += %d) {\n"
                     "        for (int j = 0; j < nv; j++) {\n", U, U);
    for (int s = 0; s < k->n_reds; s++)
        lc_sb_printf(sb, "            %s%d t%d_ = 0;\n", lc_red_acc(g, &k->reds[s]), W, s);
    for (int u = 0; u < U; u++) {
        lc_sb_printf(sb, "            {\n                const long r = e_ + %d;\n", u);
        lc_unravel(sb, nk, nd, "r", "                ");
        lc_sb_printf(sb, "                const long i0 = c0 + j * %d;\n", W);
        lc_emit_exprs_vec(g, sb, W, 0, "                ");
        lc_colpanel_add(g, sb, W, "t%d_", "                ");
        lc_sb_printf(sb, "            }\n");
    }
    for (int s = 0; s < k->n_reds; s++)
        lc_sb_printf(sb, "            q%d_a[j] += t%d_;\n", s, s);
    lc_sb_printf(sb, "        }\n"
                     "    }\n"
                     "    for (; e_ < r_end; e_++) {\n"
                     "        const long r = e_;\n");
    lc_unravel(sb, nk, nd, "r", "        ");
    lc_sb_printf(sb, "        for (int j = 0; j < nv; j++) {\n"
                     "            const long i0 = c0 + j * %d;\n", W);
    lc_emit_exprs_vec(g, sb, W, 0, "            ");
    lc_colpanel_add(g, sb, W, "q%d_a[j]", "            ");
    lc_sb_printf(sb, "        }\n"
                     "    }\n"
                     "    for (int j = 0; j < nv; j++) {\n");
    for (int s = 0; s < k->n_reds; s++)
        lc_sb_printf(sb, "        vstore%d(q%d_a[j], 0, (__global %s *)(scratch + so%d_0) + p * M + c0 + j * %d);\n",
                     W, s, lc_red_acc(g, &k->reds[s]), s, W);
    /* The last panel's columns past its whole vectors: one at a time. */
    lc_sb_printf(sb, "    }\n"
                     "    for (long i0 = c0 + nv * %d; i0 < min(M, c0 + %lld); i0++) {\n",
                 W, (long long)B);
    lc_block_fold_one(g, sb, "        ");
    lc_sb_printf(sb, "    }\n}\n\n");
    /* Launch 2, as schedule D's: item blk combines its panel's partials in chunk order. */
    if (lc_block_combine(g, c, sb, l, blocks, P, M, N, B) < 0)
        return -1;
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: panels of %lld outputs x chunks of rows, %d rows a step, %d-wide SIMD, then a launch combines",
             (long long)B, U, W);
    return 0;
}
