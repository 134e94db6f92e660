/* gemm_post.c: reductions of a product's epilogue values over its rows or columns (the
 * post-reductions of fusion.h's LC_FUSE_PRODUCT_POST), for both GEMM schedules of gemm.c.
 *
 * A work-group of a GEMM schedule owns one batch index and a block of rows x columns of
 * the product. With post-reductions it stores no output: each output's epilogue (phase 1)
 * is folded into states, per row of the block (N post-reduced), per column (M), or one
 * for the block (both); items sharing a row or column combine their states in local
 * memory in item order, and one item writes the block's partial state of each point of
 * the remaining dims to scratch as [t][o]: o the final output (the kept dims that are not
 * post-reduced, row-major), t the block's place along the post-reduced dims (batch indices,
 * row block, column block). A second launch, one item per output, combines the T partials
 * of its output in t order, finalizes, runs phase 2 (sqrt of a norm, mean's divide, ...)
 * and writes the outputs. Every fold and combine runs in a fixed order, so the bits are
 * the same on every run; the product itself is never written (the partials are
 * (M / rows per block) x N or M x (N / columns per block) states).
 *
 * Post-reduced dims are the kept dims along which the outputs' strides are 0 (fusion
 * writes them so, and collapsing never merges them with the others).
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <string.h>

/* Local memory the states of one block may take (bytes); more: the schedule refuses. */
#define LC_GPOST_LOCAL_MAX 24576

static int lc_gpost_is_post(const struct lc_cg *g, int s) { return g->k->reds[s].post; }

static unsigned lc_gpost_mask(const struct lc_cg *g)
{
    unsigned m = 0;
    if (!g->k->post_axes || !g->k->n_outputs)
        return 0;
    for (int d = 0; d < g->nk; d++)
        if (g->ostr[0][d] == 0)
            m |= 1u << d;
    return m;
}

int lc_gpost_has(const struct lc_cg *g)
{
    return g->k->post_axes != 0;
}

int lc_gpost_init(struct lc_cg *g, int dm, int dn, int64_t MB, int64_t NB, struct lc_gpost *gp)
{
    memset(gp, 0, sizeof *gp);
    if (!lc_gpost_has(g))
        return 1;
    gp->mask = lc_gpost_mask(g);
    gp->dm = dm;
    gp->dn = dn;
    gp->pm = (gp->mask >> dm) & 1;
    gp->pn = (gp->mask >> dn) & 1;
    if (!gp->pm && !gp->pn)
        return 0;        /* only batch dims: every output its own partial, nothing saved */
    for (int s = 0; s < g->k->n_reds; s++) {
        const struct lc_reduction *r = &g->k->reds[s];
        if (!r->post)
            continue;
        if (r->op == LC_OP_ARGMIN || r->op == LC_OP_ARGMAX || r->op == LC_OP_SUMEXP ||
            lc_dtype_is_complex(r->in_dtype))
            return 0;
    }
    gp->MB = MB;
    gp->NB = NB;
    gp->T = (gp->pm ? MB : 1) * (gp->pn ? NB : 1);
    gp->NO = 1;
    for (int d = 0; d < g->nk; d++) {
        if (!((gp->mask >> d) & 1))
            gp->NO *= g->shape[d];
        else if (d < dm)
            gp->T *= g->shape[d];
    }
    return 1;
}

size_t lc_gpost_local_bytes(struct lc_cg *g, int64_t points)
{
    size_t n = 0;
    for (int s = 0; s < g->k->n_reds; s++)
        if (lc_gpost_is_post(g, s))
            for (int f = 0; f < lc_red_nfields(&g->k->reds[s]); f++)
                n += (size_t)points * lc_red_fsize(g, &g->k->reds[s], f);
    return n;
}

int lc_gpost_local_ok(struct lc_cg *g, int64_t points)
{
    return lc_gpost_local_bytes(g, points) <= LC_GPOST_LOCAL_MAX;
}

/* The scratch area and sizes, the same for both launches: every post slot's fields as
 * [T][NO] arrays. */
int lc_gpost_params(struct lc_cg *g, struct lc_kcode *c, struct lc_launch *l, struct lc_sb *sb,
                    const struct lc_gpost *gp)
{
    union lc_scalar none = {0};
    lc_sb_printf(sb, ",\n    __global char *scratch_, const long sbase, const long pMB, "
                     "const long pNB, const long pNO, const long pT");
    if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 ||
        lc_add_i64(l, gp->MB) < 0 || lc_add_i64(l, gp->NB) < 0 || lc_add_i64(l, gp->NO) < 0 ||
        lc_add_i64(l, gp->T) < 0)
        return -1;
    size_t off = 0, count = (size_t)gp->T * (size_t)gp->NO;
    for (int s = 0; s < g->k->n_reds; s++) {
        if (!lc_gpost_is_post(g, s))
            continue;
        for (int f = 0; f < lc_red_nfields(&g->k->reds[s]); f++) {
            lc_sb_printf(sb, ", const long so%d_%d", s, f);
            if (lc_add_i64(l, (int64_t)off) < 0)
                return -1;
            off = lc_round_up(off + count * lc_red_fsize(g, &g->k->reds[s], f), 16);
        }
    }
    c->scratch_bytes = off ? off : 16;
    return 0;
}

void lc_gpost_local(struct lc_cg *g, struct lc_sb *sb, int64_t points)
{
    for (int s = 0; s < g->k->n_reds; s++)
        if (lc_gpost_is_post(g, s))
            for (int f = 0; f < lc_red_nfields(&g->k->reds[s]); f++)
                lc_sb_printf(sb, "    __local %s pl%d_%d[%lld];\n",
                             lc_red_ftype(g, &g->k->reds[s], f), s, f, (long long)points);
}

void lc_gpost_head(struct lc_cg *g, struct lc_sb *sb, const struct lc_gpost *gp, const char *ind)
{
    (void)g;
    lc_sb_printf(sb, "%s__global char *scratch = scratch_ + sbase;\n"
                     "%slong pob_ = 0, ptb_ = 0;\n", ind, ind);
    for (int d = 0; d < gp->dm; d++)
        lc_sb_printf(sb, "%s%s = %s * n%d + i%d;\n", ind, (gp->mask >> d) & 1 ? "ptb_" : "pob_",
                     (gp->mask >> d) & 1 ? "ptb_" : "pob_", d, d);
}

void lc_gpost_init_states(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    for (int s = 0; s < g->k->n_reds; s++)
        if (lc_gpost_is_post(g, s)) {
            char pre[16];
            snprintf(pre, sizeof pre, "p%d", s);
            lc_red_init_state(g, sb, s, pre, ind);
        }
}

void lc_gpost_fold(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    for (int s = 0; s < g->k->n_reds; s++)
        if (lc_gpost_is_post(g, s)) {
            char pre[16], v[16];
            snprintf(pre, sizeof pre, "p%d", s);
            snprintf(v, sizeof v, "v%d", g->k->reds[s].expr);
            lc_red_update(g, sb, s, pre, v, "0", ind);
        }
}

void lc_gpost_to_local(struct lc_cg *g, struct lc_sb *sb, const char *at, const char *ind)
{
    for (int s = 0; s < g->k->n_reds; s++)
        if (lc_gpost_is_post(g, s))
            for (int f = 0; f < lc_red_nfields(&g->k->reds[s]); f++)
                lc_sb_printf(sb, "%spl%d_%d[%s] = p%d_%c;\n", ind, s, f, at, s, 'a' + f);
}

void lc_gpost_from_local(struct lc_cg *g, struct lc_sb *sb, int64_t count, const char *at,
                         const char *ind)
{
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    lc_gpost_init_states(g, sb, ind);
    lc_sb_printf(sb, "%sfor (int u_ = 0; u_ < %lld; u_++) {\n", ind, (long long)count);
    for (int s = 0; s < g->k->n_reds; s++) {
        if (!lc_gpost_is_post(g, s))
            continue;
        char me[16], o[16];
        snprintf(me, sizeof me, "p%d", s);
        snprintf(o, sizeof o, "o%d", s);
        for (int f = 0; f < lc_red_nfields(&g->k->reds[s]); f++)
            lc_sb_printf(sb, "%sconst %s o%d_%c = pl%d_%d[%s];\n", in2,
                         lc_red_ftype(g, &g->k->reds[s], f), s, 'a' + f, s, f, at);
        lc_red_combine(g, sb, s, me, o, in2);
    }
    lc_sb_printf(sb, "%s}\n", ind);
}

void lc_gpost_store(struct lc_cg *g, struct lc_sb *sb, const struct lc_gpost *gp,
                    const char *mb, const char *nb, const char *ind)
{
    lc_sb_printf(sb, "%s{\n%s    const long pat_ = ((ptb_", ind, ind);
    if (gp->pm)
        lc_sb_printf(sb, " * pMB + %s", mb);
    lc_sb_printf(sb, ")");
    if (gp->pn)
        lc_sb_printf(sb, " * pNB + %s", nb);
    lc_sb_printf(sb, ") * pNO + (pob_");
    if (!gp->pm)
        lc_sb_printf(sb, " * n%d + i%d", gp->dm, gp->dm);
    if (!gp->pn)
        lc_sb_printf(sb, " * n%d + i%d", gp->dn, gp->dn);
    lc_sb_printf(sb, ");\n");
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    for (int s = 0; s < g->k->n_reds; s++)
        if (lc_gpost_is_post(g, s)) {
            char pre[16];
            snprintf(pre, sizeof pre, "p%d", s);
            lc_red_store(g, sb, s, pre, "pat_", in2);
        }
    lc_sb_printf(sb, "%s}\n", ind);
}

int lc_gpost_combine(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                     const struct lc_gpost *gp)
{
    const struct lc_kernel *k = g->k;
    struct lc_launch *l = lc_new_launch(c, "_post");
    if (!l)
        return -1;
    lc_sb_printf(sb, "\n/* The partials of each output combined in order, then phase 2. */\n"
                     "__kernel void @K@_post(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0 ||
        lc_gpost_params(g, c, l, sb, gp) < 0)
        return -1;
    lc_sb_printf(sb, ")\n{\n"
                     "    __global char *scratch = scratch_ + sbase;\n"
                     "    const long o_ = get_global_id(0);\n"
                     "    if (o_ >= pNO)\n"
                     "        return;\n"
                     "    long r_ = o_;\n");
    for (int d = g->nk - 1; d >= 0; d--)
        if (!((gp->mask >> d) & 1))
            lc_sb_printf(sb, "    const long i%d = r_ %% n%d; r_ /= n%d;\n", d, d, d);
    for (int s = 0; s < k->n_reds; s++)
        if (lc_gpost_is_post(g, s)) {
            char pre[16];
            snprintf(pre, sizeof pre, "s%d", s);
            lc_red_init_state(g, sb, s, pre, "    ");
        }
    lc_sb_printf(sb, "    for (long u_ = 0; u_ < pT; u_++) {\n"
                     "        const long at_ = u_ * pNO + o_;\n");
    for (int s = 0; s < k->n_reds; s++) {
        if (!lc_gpost_is_post(g, s))
            continue;
        char me[16], o[16];
        snprintf(me, sizeof me, "s%d", s);
        snprintf(o, sizeof o, "o%d", s);
        lc_red_load(g, sb, s, o, "at_", "        ");
        lc_red_combine(g, sb, s, me, o, "        ");
    }
    lc_sb_printf(sb, "    }\n");
    lc_emit_exprs(g, sb, 2, "    ");
    lc_store_outputs(g, sb, "    ", g->nk);
    lc_sb_printf(sb, "}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)gp->NO;
    lc_fixed_groups(g->t, l, 64);
    return 0;
}

/* One output's phase 1 (its sum in s0_a, from `v`) folded into the states p<s>. */
static void lc_gpost_point(struct lc_cg *g, struct lc_sb *sb, const char *v, const char *ind)
{
    lc_sb_printf(sb, "%sconst %s s0_a = %s;\n", ind, lc_red_acc(g, &g->k->reds[0]), v);
    lc_emit_exprs(g, sb, 1, ind);
    lc_gpost_fold(g, sb, ind);
}

/* gemm_tiles: item (tx, ty) of a G x G group holds rows (i * G + ty) * V + q and columns
 * (j * G + tx) * V + p of the TM x TN block, sums in acc[i * V + q][j] (lane p). */
void lc_gpost_tiles_epilogue(struct lc_cg *g, struct lc_sb *sb, const struct lc_gpost *gp,
                             int G, int TM, int TN, int V)
{
    int RM = TM / G, RN = TN / G, dm = gp->dm, dn = gp->dn;
    char v[64], at[64];
    if (gp->pn && !gp->pm) {
        /* Per row: the item's columns, then the G items sharing the row, in tx order. */
        lc_sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n"
                         "        for (int q = 0; q < %d; q++) {\n"
                         "            const int rl_ = (i * %d + ty) * %d + q;\n"
                         "            const long i%d = bm_ + rl_;\n", RM / V, V, G, V, dm);
        lc_gpost_init_states(g, sb, "            ");
        lc_sb_printf(sb, "            if (i%d < n%d) {\n"
                         "                for (int j = 0; j < %d; j++) {\n", dm, dm, RN / V);
        for (int p = 0; p < V; p++) {
            snprintf(v, sizeof v, V > 1 ? "acc[i * %d + q][j].s%d" : "acc[i * %d + q][j]", V, p);
            lc_sb_printf(sb, "                    {\n"
                             "                        const long i%d = bn_ + (j * %d + tx) * %d + %d;\n"
                             "                        if (i%d < n%d) {\n", dn, G, V, p, dn, dn);
            lc_gpost_point(g, sb, v, "                            ");
            lc_sb_printf(sb, "                        }\n                    }\n");
        }
        snprintf(at, sizeof at, "rl_ * %d + tx", G);
        lc_sb_printf(sb, "                }\n            }\n");
        lc_gpost_to_local(g, sb, at, "            ");
        lc_sb_printf(sb, "        }\n    }\n"
                         "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    for (int rl_ = tid; rl_ < %d; rl_ += %d) {\n"
                         "        const long i%d = bm_ + rl_;\n"
                         "        if (i%d < n%d) {\n", TM, G * G, dm, dm, dm);
        snprintf(at, sizeof at, "rl_ * %d + u_", G);
        lc_gpost_from_local(g, sb, G, at, "            ");
        lc_gpost_store(g, sb, gp, "0", "(long)get_group_id(0)", "            ");
        lc_sb_printf(sb, "        }\n    }\n");
    } else if (gp->pm && !gp->pn) {
        /* Per column: the item's rows, then the G items sharing the column, in ty order. */
        lc_sb_printf(sb, "    for (int j = 0; j < %d; j++) {\n", RN / V);
        for (int p = 0; p < V; p++) {
            lc_sb_printf(sb, "        {\n"
                             "            const int cl_ = (j * %d + tx) * %d + %d;\n"
                             "            const long i%d = bn_ + cl_;\n", G, V, p, dn);
            lc_gpost_init_states(g, sb, "            ");
            lc_sb_printf(sb, "            if (i%d < n%d) {\n"
                             "                for (int i = 0; i < %d; i++) {\n"
                             "                    for (int q = 0; q < %d; q++) {\n"
                             "                        const long i%d = bm_ + (i * %d + ty) * %d + q;\n"
                             "                        if (i%d < n%d) {\n",
                         dn, dn, RM / V, V, dm, G, V, dm, dm);
            snprintf(v, sizeof v, V > 1 ? "acc[i * %d + q][j].s%d" : "acc[i * %d + q][j]", V, p);
            lc_gpost_point(g, sb, v, "                            ");
            lc_sb_printf(sb, "                        }\n                    }\n                }\n"
                             "            }\n");
            snprintf(at, sizeof at, "cl_ * %d + ty", G);
            lc_gpost_to_local(g, sb, at, "            ");
            lc_sb_printf(sb, "        }\n");
        }
        lc_sb_printf(sb, "    }\n"
                         "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    for (int cl_ = tid; cl_ < %d; cl_ += %d) {\n"
                         "        const long i%d = bn_ + cl_;\n"
                         "        if (i%d < n%d) {\n", TN, G * G, dn, dn, dn);
        snprintf(at, sizeof at, "cl_ * %d + u_", G);
        lc_gpost_from_local(g, sb, G, at, "            ");
        lc_gpost_store(g, sb, gp, "(long)get_group_id(1)", "0", "            ");
        lc_sb_printf(sb, "        }\n    }\n");
    } else {
        /* The whole block: the item's outputs, then the group's items in tid order. */
        lc_gpost_init_states(g, sb, "    ");
        lc_sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n"
                         "        for (int q = 0; q < %d; q++) {\n"
                         "            const long i%d = bm_ + (i * %d + ty) * %d + q;\n"
                         "            if (i%d < n%d) {\n"
                         "                for (int j = 0; j < %d; j++) {\n",
                     RM / V, V, dm, G, V, dm, dm, RN / V);
        for (int p = 0; p < V; p++) {
            snprintf(v, sizeof v, V > 1 ? "acc[i * %d + q][j].s%d" : "acc[i * %d + q][j]", V, p);
            lc_sb_printf(sb, "                    {\n"
                             "                        const long i%d = bn_ + (j * %d + tx) * %d + %d;\n"
                             "                        if (i%d < n%d) {\n", dn, G, V, p, dn, dn);
            lc_gpost_point(g, sb, v, "                            ");
            lc_sb_printf(sb, "                        }\n                    }\n");
        }
        lc_sb_printf(sb, "                }\n            }\n        }\n    }\n");
        lc_gpost_to_local(g, sb, "tid", "    ");
        lc_sb_printf(sb, "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    if (tid == 0) {\n");
        lc_gpost_from_local(g, sb, G * G, "u_", "        ");
        lc_gpost_store(g, sb, gp, "(long)get_group_id(1)", "(long)get_group_id(0)", "        ");
        lc_sb_printf(sb, "    }\n");
    }
}

/* The local points gemm_tiles needs: a state per row (or column) and item of the row, or
 * one per item. */
int64_t lc_gpost_tiles_points(const struct lc_gpost *gp, int G, int TM, int TN)
{
    return gp->pn && !gp->pm ? (int64_t)TM * G : gp->pm && !gp->pn ? (int64_t)TN * G
                                                                  : (int64_t)G * G;
}

/* gemm_simd: item lid of a WG-item group holds rows bm_ + i (i < RM) and columns
 * bn_ + j * W + p (CW = W * RV of them, the group's), sums in tot[i][j] (lane p). */
void lc_gpost_simd_epilogue(struct lc_cg *g, struct lc_sb *sb, const struct lc_gpost *gp,
                            int W, int RM, int RV, int WG)
{
    int CW = W * RV, dm = gp->dm, dn = gp->dn;
    char v[64], at[64];
    if (gp->pn && !gp->pm) {
        /* A row is one item's: its partial is written at once. */
        lc_sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n"
                         "        const long i%d = bm_ + i;\n"
                         "        if (i%d >= n%d)\n"
                         "            break;\n", RM, dm, dm, dm);
        lc_gpost_init_states(g, sb, "        ");
        lc_sb_printf(sb, "        for (int j = 0; j < %d; j++) {\n", RV);
        for (int p = 0; p < W; p++) {
            snprintf(v, sizeof v, "tot[i][j].s%x", p);
            lc_sb_printf(sb, "            {\n"
                             "                const long i%d = bn_ + j * %d + %d;\n"
                             "                if (i%d < n%d) {\n", dn, W, p, dn, dn);
            lc_gpost_point(g, sb, v, "                    ");
            lc_sb_printf(sb, "                }\n            }\n");
        }
        lc_sb_printf(sb, "        }\n");
        lc_gpost_store(g, sb, gp, "0", "qn_", "        ");
        lc_sb_printf(sb, "    }\n");
    } else if (gp->pm && !gp->pn) {
        /* Per column: the item's rows, then the group's items in order (rows in order). */
        lc_sb_printf(sb, "    for (int j = 0; j < %d; j++) {\n", RV);
        for (int p = 0; p < W; p++) {
            snprintf(v, sizeof v, "tot[i][j].s%x", p);
            lc_sb_printf(sb, "        {\n"
                             "            const int cl_ = j * %d + %d;\n"
                             "            const long i%d = bn_ + cl_;\n", W, p, dn);
            lc_gpost_init_states(g, sb, "            ");
            lc_sb_printf(sb, "            for (int i = 0; i < %d; i++) {\n"
                             "                const long i%d = bm_ + i;\n"
                             "                if (i%d < n%d && i%d < n%d) {\n",
                         RM, dm, dm, dm, dn, dn);
            lc_gpost_point(g, sb, v, "                    ");
            lc_sb_printf(sb, "                }\n            }\n");
            snprintf(at, sizeof at, "lid * %d + cl_", CW);
            lc_gpost_to_local(g, sb, at, "            ");
            lc_sb_printf(sb, "        }\n");
        }
        lc_sb_printf(sb, "    }\n"
                         "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    for (int cl_ = lid; cl_ < %d; cl_ += %d) {\n"
                         "        const long i%d = bn_ + cl_;\n"
                         "        if (i%d < n%d) {\n", CW, WG, dn, dn, dn);
        snprintf(at, sizeof at, "u_ * %d + cl_", CW);
        lc_gpost_from_local(g, sb, WG, at, "            ");
        lc_gpost_store(g, sb, gp, "qm_", "0", "            ");
        lc_sb_printf(sb, "        }\n    }\n");
    } else {
        lc_gpost_init_states(g, sb, "    ");
        lc_sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n"
                         "        const long i%d = bm_ + i;\n"
                         "        if (i%d >= n%d)\n"
                         "            break;\n"
                         "        for (int j = 0; j < %d; j++) {\n", RM, dm, dm, dm, RV);
        for (int p = 0; p < W; p++) {
            snprintf(v, sizeof v, "tot[i][j].s%x", p);
            lc_sb_printf(sb, "            {\n"
                             "                const long i%d = bn_ + j * %d + %d;\n"
                             "                if (i%d < n%d) {\n", dn, W, p, dn, dn);
            lc_gpost_point(g, sb, v, "                    ");
            lc_sb_printf(sb, "                }\n            }\n");
        }
        lc_sb_printf(sb, "        }\n    }\n");
        lc_gpost_to_local(g, sb, "lid", "    ");
        lc_sb_printf(sb, "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    if (lid == 0) {\n");
        lc_gpost_from_local(g, sb, WG, "u_", "        ");
        lc_gpost_store(g, sb, gp, "qm_", "qn_", "        ");
        lc_sb_printf(sb, "    }\n");
    }
}

int64_t lc_gpost_simd_points(const struct lc_gpost *gp, int W, int RV, int WG)
{
    return gp->pm && !gp->pn ? (int64_t)WG * W * RV : gp->pm && gp->pn ? WG : 1;
}
