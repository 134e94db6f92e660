/* gemm.c: matrix products as register-blocked tiles in local memory (GPUs).
 *
 * A product reaches codegen as a sum reduction (python/lazycl/_linalg.py):
 * kept dims [batch..., M, N], one reduced dim K, and a reduced value
 * v = x * y where every read under x is constant along N (the left operand,
 * with its elementwise producers) and every read under y constant along M
 * (the right one). This schedule takes such kernels: a work-group of G x G
 * items owns a TM x TN block of outputs (one batch index per group along the
 * third launch dim); per step of TK along K it computes the two operand
 * tiles into local memory, each value by its own expressions at its (m, k)
 * or (k, n), so an operand's producers run once per value per block, never
 * into a buffer; then every item folds its (TM/G) x (TN/G) outputs, rows
 * ty + G*i and columns tx + G*j, with fma (floats accumulate in their own
 * dtype, as BLAS does; integers wrap as in the generic reduction). The
 * epilogue (bias, activation, casts) runs per output on the final sums and
 * writes the outputs. Tiles are loaded along the operand's unit-stride dim
 * where it has one (coalesced), zero outside the matrix (nothing is read
 * or computed there).
 */
#include "codegen/gemm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bit d set: expr i moves along dim d (through its reads and inputs); computed in order
 * (an expr's inputs come before it). */
static void lc_gemm_dims(const struct lc_cg *g, unsigned *dims)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        unsigned d = 0;
        if (x->epilogue)
            continue;
        for (int j = 0; j < x->n_in; j++)
            d |= dims[x->in[j]];
        if (x->access >= 0) {
            const struct lc_access *a = &g->acc[x->access];
            if (a->kind != LC_ACCESS_CONST)
                for (int q = 0; q < g->nd; q++)
                    if (a->strides[q])
                        d |= 1u << q;
            for (int j = 0; j < a->n_dyn; j++)
                d |= dims[a->dyn[j] - 1];
        }
        dims[i] = d;
    }
}

/* Mark bit `bit` on expr i and every expr it reads (inputs and gather indices). */
static void lc_gemm_mark(const struct lc_cg *g, unsigned char *side, int i, int bit)
{
    const struct lc_kernel *k = g->k;
    side[i] |= (unsigned char)bit;
    for (int e = i; e >= 0; e--) {
        if (!(side[e] & bit))
            continue;
        const struct lc_expr *x = &k->exprs[e];
        for (int j = 0; j < x->n_in; j++)
            side[x->in[j]] |= (unsigned char)bit;
        if (x->access >= 0)
            for (int j = 0; j < g->acc[x->access].n_dyn; j++)
                side[g->acc[x->access].dyn[j] - 1] |= (unsigned char)bit;
    }
}

/* gemm.h */
int lc_gemm_match_m(struct lc_cg *g, struct lc_gemm *m, int64_t min_m)
{
    const struct lc_kernel *k = g->k;
    const struct lc_target *t = g->t;
    memset(m, 0, sizeof *m);
    int n_post = 0;
    for (int s = 0; s < k->n_reds; s++)
        n_post += k->reds[s].post;
    if (k->n_reds - n_post != 1 || k->reds[0].post || k->reds[0].op != LC_OP_SUM || g->nk < 2 ||
        g->nd != g->nk + 1)
        return 0;
    m->dm = g->nk - 2;
    m->dn = g->nk - 1;
    m->dk = g->nk;
    if (g->shape[m->dm] < min_m || g->shape[m->dn] < t->gemm_min ||
        g->shape[m->dk] < t->gemm_min_k)
        return 0;
    int64_t batch = 1;
    for (int d = 0; d < m->dm; d++)
        batch *= g->shape[d];
    if (batch > 65535)
        return 0;
    m->red = k->reds[0].expr;
    const struct lc_expr *r = &k->exprs[m->red];
    if (r->op != LC_OP_MUL || r->epilogue)
        return 0;
    m->dt = r->dtype;
    if (r->cdtype != m->dt || k->exprs[r->in[0]].dtype != m->dt ||
        k->exprs[r->in[1]].dtype != m->dt || k->reds[0].in_dtype != m->dt ||
        m->dt == LC_BOOL)
        return 0;
    unsigned *dims = calloc((size_t)k->n_exprs, sizeof *dims);
    m->side = calloc((size_t)k->n_exprs, 1);
    if (!dims || !m->side) {
        free(dims);
        free(m->side);
        m->side = NULL;
        return 0;
    }
    lc_gemm_dims(g, dims);
    unsigned bm = 1u << m->dm, bn = 1u << m->dn;
    m->x = r->in[0];
    m->y = r->in[1];
    if ((dims[m->x] & bn) || (dims[m->y] & bm)) {
        m->x = r->in[1];
        m->y = r->in[0];
    }
    int ok = !(dims[m->x] & bn) && !(dims[m->y] & bm);
    lc_gemm_mark(g, m->side, m->x, 1);
    lc_gemm_mark(g, m->side, m->y, 2);
    for (int i = 0; ok && i < k->n_exprs; i++) {
        if (k->exprs[i].epilogue || i == m->red)
            continue;
        /* Every prologue value belongs to an operand, and to both only when it moves
         * along neither M nor N (a scalar, a batch-only value). */
        if (!m->side[i] || ((m->side[i] & 1) && (dims[i] & bn)) ||
            ((m->side[i] & 2) && (dims[i] & bm)))
            ok = 0;
    }
    free(dims);
    if (!ok) {
        free(m->side);
        m->side = NULL;
    }
    return ok;
}

/* The products of at least the target's gemm_min rows (the tile schedules). */
static int lc_gemm_match(struct lc_cg *g, struct lc_gemm *m)
{
    return lc_gemm_match_m(g, m, g->t->gemm_min);
}

/* The post-reductions of a product (gemm_post.c) in blocks of TM x TN outputs. */
static int lc_gemm_post(struct lc_cg *g, const struct lc_gemm *m, int TM, int TN,
                        struct lc_gpost *gp)
{
    return lc_gpost_init(g, m->dm, m->dn, (g->shape[m->dm] + TM - 1) / TM,
                         (g->shape[m->dn] + TN - 1) / TN, gp);
}

static int lc_gemm_fits(struct lc_cg *g)
{
    struct lc_gemm m;
    struct lc_gpost gp;
    const struct lc_target *t = g->t;
    if (!t->gemm_tiles)
        return 0;
    int ok = lc_gemm_match(g, &m);
    free(m.side);
    if (ok && lc_gpost_has(g))
        ok = lc_gemm_post(g, &m, t->gemm_tile_m, t->gemm_tile_n, &gp) &&
             lc_gpost_local_ok(g, lc_gpost_tiles_points(&gp, t->gemm_group, t->gemm_tile_m,
                                                        t->gemm_tile_n));
    return ok;
}

/* gemm.h */
int lc_gemm_unit_along(const struct lc_cg *g, const struct lc_gemm *m, int bit, int d)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if ((m->side[i] & bit) && x->access >= 0 && g->acc[x->access].kind != LC_ACCESS_CONST &&
            g->acc[x->access].strides[d] == 1)
            return 1;
    }
    return 0;
}

/* Where value j_ of an item's share of operand `bit`'s tile lies: kk (along K) and rr (along
 * M or N), taken along the operand's unit-stride dim when it has one (coalesced). */
static void lc_gemm_place(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m, int bit,
                          const char *ind)
{
    const struct lc_target *t = g->t;
    int G = t->gemm_group, TK = t->gemm_tile_k;
    int R = bit == 1 ? t->gemm_tile_m : t->gemm_tile_n;
    int d = bit == 1 ? m->dm : m->dn;
    int kfast = lc_gemm_unit_along(g, m, bit, m->dk) || !lc_gemm_unit_along(g, m, bit, d);
    lc_sb_printf(sb, "%sconst int l_ = tid + %d * j_;\n", ind, G * G);
    if (kfast)
        lc_sb_printf(sb, "%sconst int kk = l_ %% %d, rr = l_ / %d;\n", ind, TK, TK);
    else
        lc_sb_printf(sb, "%sconst int rr = l_ %% %d, kk = l_ / %d;\n", ind, R, R);
}

/* Each item's share (R * TK / G^2 values) of operand `bit`'s tile at K offset `kb`
 * (1: x over (m, k), 2: y over (k, n)), computed into registers u<bit>_[]: zero outside the
 * matrix, where nothing is read. */
static void lc_gemm_fetch(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m, int bit,
                          const char *kb)
{
    const struct lc_kernel *k = g->k;
    const struct lc_target *t = g->t;
    int G = t->gemm_group, TK = t->gemm_tile_k;
    int R = bit == 1 ? t->gemm_tile_m : t->gemm_tile_n;
    int d = bit == 1 ? m->dm : m->dn;
    const char *o = bit == 1 ? "bm_" : "bn_";
    lc_sb_printf(sb, "        #pragma unroll\n"
                     "        for (int j_ = 0; j_ < %d; j_++) {\n", R * TK / (G * G));
    lc_gemm_place(g, sb, m, bit, "            ");
    lc_sb_printf(sb, "            const long i%d = %s + rr, i%d = %s + kk;\n"
                     "            u%d_[j_] = 0;\n"
                     "            if (i%d < n%d && i%d < n%d) {\n",
                 d, o, m->dk, kb, bit, d, d, m->dk, m->dk);
    for (int i = 0; i < k->n_exprs; i++)
        if (!k->exprs[i].epilogue && (m->side[i] & bit) && i != m->red)
            lc_emit_expr(g, sb, i, "                ");
    lc_sb_printf(sb, "                u%d_[j_] = v%d;\n"
                     "            }\n"
                     "        }\n", bit, bit == 1 ? m->x : m->y);
}

/* The registers u<bit>_[] into the local tile. */
static void lc_gemm_stash(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m, int bit)
{
    const struct lc_target *t = g->t;
    int G = t->gemm_group, TK = t->gemm_tile_k;
    int R = bit == 1 ? t->gemm_tile_m : t->gemm_tile_n;
    lc_sb_printf(sb, "        #pragma unroll\n"
                     "        for (int j_ = 0; j_ < %d; j_++) {\n", R * TK / (G * G));
    lc_gemm_place(g, sb, m, bit, "            ");
    lc_sb_printf(sb, "            ((__local %s *)%s[kk])[rr] = u%d_[j_];\n"
                     "        }\n", lc_T(m->dt), bit == 1 ? "As" : "Bs", bit);
}

static int lc_gen_gemm(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    const struct lc_target *t = g->t;
    struct lc_gemm m;
    if (!lc_gemm_match(g, &m))
        return -1;
    int G = t->gemm_group, TM = t->gemm_tile_m, TN = t->gemm_tile_n, TK = t->gemm_tile_k;
    int RM = TM / G, RN = TN / G;
    const char *T = lc_T(m.dt);
    int fl = lc_dtype_is_float(m.dt);
    const char *A = fl ? T : lc_red_acc(g, &k->reds[0]);
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l) {
        free(m.side);
        return -1;
    }
    struct lc_gpost gp;
    lc_gemm_post(g, &m, TM, TN, &gp);
    lc_sb_printf(sb, "__kernel __attribute__((reqd_work_group_size(%d, %d, 1)))\nvoid @K@(", G, G);
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0 ||
        (gp.mask && lc_gpost_params(g, c, l, sb, &gp) < 0)) {
        free(m.side);
        return -1;
    }
    /* Floats move V = 4 values per local read (vectors of an item's rows and columns). */
    int V = fl && t->gemm_vec == 4 && RM % 4 == 0 && RN % 4 == 0 ? 4 : 1;
    char TV[24], AV[24];
    snprintf(TV, sizeof TV, V > 1 ? "%s%d" : "%s", T, V);
    snprintf(AV, sizeof AV, V > 1 ? "%s%d" : "%s", A, V);
    lc_sb_printf(sb, ")\n{\n"
                     "    __local %s As[%d][%d];\n"
                     "    __local %s Bs[%d][%d];\n"
                     "    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * %d + tx;\n"
                     "    const long bm_ = (long)get_group_id(1) * %d, bn_ = (long)get_group_id(0) * %d;\n",
                 TV, TK, (TM + V) / V, TV, TK, (TN + V) / V, G, TM, TN);
    if (gp.mask)
        lc_gpost_local(g, sb, lc_gpost_tiles_points(&gp, G, TM, TN));
    if (m.dm > 0)
        lc_unravel(sb, 0, m.dm, "(long)get_group_id(2)", "    ");
    if (gp.mask)
        lc_gpost_head(g, sb, &gp, "    ");
    lc_sb_printf(sb, "    %s acc[%d][%d];\n"
                     "    #pragma unroll\n"
                     "    for (int i = 0; i < %d; i++)\n"
                     "        #pragma unroll\n"
                     "        for (int j = 0; j < %d; j++)\n"
                     "            acc[i][j] = 0;\n"
                     "    %s u1_[%d], u2_[%d];\n"
                     "    {\n",
                 AV, RM, RN / V, RM, RN / V, T, TM * TK / (G * G), TN * TK / (G * G));
    /* The next tile's values are fetched into registers while the current one is folded. */
    lc_gemm_fetch(g, sb, &m, 1, "0");
    lc_gemm_fetch(g, sb, &m, 2, "0");
    lc_sb_printf(sb, "    }\n"
                     "    for (long k0 = 0; k0 < n%d; k0 += %d) {\n", m.dk, TK);
    lc_gemm_stash(g, sb, &m, 1);
    lc_gemm_stash(g, sb, &m, 2);
    lc_sb_printf(sb, "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "        const long k1_ = k0 + %d;\n"
                     "        if (k1_ < n%d) {\n", TK, m.dk);
    lc_gemm_fetch(g, sb, &m, 1, "k1_");
    lc_gemm_fetch(g, sb, &m, 2, "k1_");
    /* Item (tx, ty) holds rows (i * G + ty) * V + q and columns (j * G + tx) * V + p. */
    lc_sb_printf(sb, "        }\n"
                     "        #pragma unroll\n"
                     "        for (int kk = 0; kk < %d; kk++) {\n"
                     "            %s a_[%d], b_[%d];\n"
                     "            #pragma unroll\n"
                     "            for (int i = 0; i < %d; i++)\n"
                     "                a_[i] = As[kk][i * %d + ty];\n"
                     "            #pragma unroll\n"
                     "            for (int j = 0; j < %d; j++)\n"
                     "                b_[j] = Bs[kk][j * %d + tx];\n"
                     "            #pragma unroll\n"
                     "            for (int i = 0; i < %d; i++)\n"
                     "                #pragma unroll\n"
                     "                for (int j = 0; j < %d; j++) {\n",
                 TK, TV, RM / V, RN / V, RM / V, G, RN / V, G, RM / V, RN / V);
    for (int q = 0; q < V; q++) {
        char aq[16];
        snprintf(aq, sizeof aq, V > 1 ? "a_[i].s%d" : "a_[i]", q);
        if (fl)
            lc_sb_printf(sb, "                    acc[i * %d + %d][j] = fma((%s)(%s), b_[j], "
                         "acc[i * %d + %d][j]);\n", V, q, TV, aq, V, q);
        else
            lc_sb_printf(sb, "                    acc[i][j] += (%s)%s * (%s)b_[j];\n", A, aq, A);
    }
    lc_sb_printf(sb, "                }\n"
                     "        }\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n");
    if (gp.mask) {
        /* Reductions of the epilogue's values: partials, combined by a second launch. */
        lc_gpost_tiles_epilogue(g, sb, &gp, G, TM, TN, V);
        lc_sb_printf(sb, "}\n");
    } else {
    lc_sb_printf(sb, "    #pragma unroll\n"
                     "    for (int i = 0; i < %d; i++) {\n"
                     "        #pragma unroll\n"
                     "        for (int q = 0; q < %d; q++) {\n"
                     "            const long i%d = bm_ + (i * %d + ty) * %d + q;\n"
                     "            if (i%d < n%d) {\n"
                     "                #pragma unroll\n"
                     "                for (int j = 0; j < %d; j++) {\n",
                 RM / V, V, m.dm, G, V, m.dm, m.dm, RN / V);
    for (int p = 0; p < V; p++) {
        char sp[8];
        snprintf(sp, sizeof sp, V > 1 ? ".s%d" : "", p);
        lc_sb_printf(sb, "                    {\n"
                         "                        const long i%d = bn_ + (j * %d + tx) * %d + %d;\n"
                         "                        if (i%d < n%d) {\n"
                         "                            const %s s0_a = acc[i * %d + q][j]%s;\n",
                     m.dn, G, V, p, m.dn, m.dn, lc_red_acc(g, &k->reds[0]), V, sp);
        lc_emit_exprs(g, sb, 1, "                            ");
        lc_store_outputs(g, sb, "                            ", g->nk);
        lc_sb_printf(sb, "                        }\n                    }\n");
    }
    lc_sb_printf(sb, "                }\n            }\n        }\n    }\n}\n");
    }
    int64_t batch = 1;
    for (int d = 0; d < m.dm; d++)
        batch *= g->shape[d];
    l->work_dim = 3;
    l->use_local = 1;
    l->global[0] = (size_t)((g->shape[m.dn] + TN - 1) / TN * G);
    l->global[1] = (size_t)((g->shape[m.dm] + TM - 1) / TM * G);
    l->global[2] = (size_t)batch;
    l->local[0] = l->local[1] = (size_t)G;
    l->local[2] = 1;
    snprintf(c->schedule, sizeof c->schedule,
             "gemm: %dx%d tiles of %d along K in local memory, %dx%d per item, %d-wide reads%s", TM,
             TN, TK, RM, RN, V, gp.mask ? ", post-reduction partials" : "");
    free(m.side);
    /* After the launch above is complete: a new launch may move it. */
    return gp.mask ? lc_gpost_combine(g, c, sb, &gp) : 0;
}

const struct lc_schedule lc_sched_gemm_tiles = {LC_KERNEL_REDUCE, "gemm", lc_gemm_fits,
                                                lc_gen_gemm};

/* ---- SIMD targets (PoCL): register blocks of rows x vectors, no local memory ---------------- */

/* Does the right operand compute W lanes at a time along N (so the item's columns are vectors)? */
static int lc_gemm_simd_match(struct lc_cg *g, struct lc_gemm *m)
{
    memset(m, 0, sizeof *m);
    /* Any number of rows: a skinny product (x @ W with a few rows of x) takes work-groups of
     * as few items as its rows need (lc_gemm_simd_group). */
    if (!g->t->gemm_simd_rows || !lc_gemm_match_m(g, m, 1))
        return 0;
    int ok = lc_dtype_is_float(m->dt);
    for (int i = 0; ok && i < g->k->n_exprs; i++)
        if ((m->side[i] & 2) && (!lc_vec_expr_ok(g, i, m->dn, g->t->gemm_simd_width) ||
                                 !lc_vec_expr_ok(g, i, m->dn, g->t->gemm_panel_width)))
            ok = 0;
    if (!ok) {
        free(m->side);
        m->side = NULL;
    }
    return ok;
}

/* The simd schedule's items per work-group: the target's, halved while half of them still
 * cover all m rows (a product of 8 rows takes groups of 2 items of 4 rows, not 16). */
static int lc_gemm_simd_group(const struct lc_target *t, int64_t m)
{
    int wg = t->gemm_simd_group;
    while (wg > 1 && (int64_t)(wg / 2) * t->gemm_simd_rows >= m)
        wg /= 2;
    return wg;
}

/* The simd schedule's column vectors per item (doubles take two registers a vector). */
static int lc_gemm_simd_rv(const struct lc_target *t, int dt)
{
    int RV = t->gemm_simd_vectors;
    return lc_dtype_size(dt) == 8 && RV > 1 ? RV / 2 : RV;
}

static int lc_gemm_simd_post(struct lc_cg *g, const struct lc_gemm *m, struct lc_gpost *gp)
{
    const struct lc_target *t = g->t;
    int64_t rows = (int64_t)lc_gemm_simd_group(t, g->shape[m->dm]) * t->gemm_simd_rows;
    int64_t cols = (int64_t)t->gemm_simd_width * lc_gemm_simd_rv(t, m->dt);
    return lc_gpost_init(g, m->dm, m->dn, (g->shape[m->dm] + rows - 1) / rows,
                         (g->shape[m->dn] + cols - 1) / cols, gp);
}

static int lc_gemm_simd_fits(struct lc_cg *g)
{
    struct lc_gemm m;
    struct lc_gpost gp;
    int ok = lc_gemm_simd_match(g, &m);
    free(m.side);
    if (ok && lc_gpost_has(g))
        ok = lc_gemm_simd_post(g, &m, &gp);
    return ok;
}

/* gemm.h */
void lc_gemm_epilogue(struct lc_cg *g, struct lc_sb *sb, const char *v, const char *ind)
{
    lc_sb_printf(sb, "%sconst %s s0_a = %s;\n", ind, lc_red_acc(g, &g->k->reds[0]), v);
    lc_emit_exprs(g, sb, 1, ind);
    lc_store_outputs(g, sb, ind, g->nk);
}

/* A work-group of WG items owns WG * RM rows x RV vectors of W columns; neighbouring groups
 * share rows (the column block varies fastest: the rows' block stays in the core's cache
 * while the panels change; PoCL, 2 cores, 2048^2, the other order 10% slower in three
 * alternating runs). Per step of KC along
 * K the items compute the right operand's KC x (RV * W) panel into local memory (contiguous:
 * the columns of a row-major operand lie a page apart per k, which thrashes the TLB when read
 * in place), then each folds its RM rows against it: per k RM values of the left operand
 * and RV vectors of the panel, RM * RV vector fmas into registers. Rows past M read the last
 * row (their sums are not stored); the panel is zero past N and K. */
static int lc_gen_gemm_simd(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    const struct lc_target *t = g->t;
    struct lc_gemm m;
    if (!lc_gemm_simd_match(g, &m))
        return -1;
    if (lc_gemm_panels_fit(g, &m)) {
        int rc = lc_gen_gemm_panels(g, c, sb, &m);
        free(m.side);
        return rc;
    }
    int W = t->gemm_simd_width, RM = t->gemm_simd_rows, RV = lc_gemm_simd_rv(t, m.dt);
    int dm = m.dm, dn = m.dn, dk = m.dk;
    int CW = W * RV, WG = lc_gemm_simd_group(t, g->shape[dm]), KC = t->gemm_simd_kc;
    const char *T = lc_T(m.dt);
    int64_t MG = (g->shape[dm] + WG * RM - 1) / (WG * RM), NB = (g->shape[dn] + CW - 1) / CW;
    int64_t batch = 1;
    for (int d = 0; d < dm; d++)
        batch *= g->shape[d];
    struct lc_gpost gp;
    lc_gemm_simd_post(g, &m, &gp);
    /* A large product packs its right operand first (gemm_pack.c): no panels built here. */
    int pack = lc_gemm_pack_fits(g, &m, batch, gp.mask != 0);
    if (pack && lc_gen_gemm_pack(g, c, sb, &m, W, RV, NB) < 0) {
        free(m.side);
        return -1;
    }
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l) {
        free(m.side);
        return -1;
    }
    /* With post-reduction partials beside it in local memory, the panel takes at most 32 KiB
     * (a device of 48 KiB holds both: Oclgrind's limit; 6 x 3 float16 over 256 rows take
     * 48 KiB alone). */
    while (gp.mask && KC > 16 && (size_t)KC * RV * W * lc_dtype_size(m.dt) > 32768)
        KC /= 2;
    lc_sb_printf(sb, "__kernel __attribute__((reqd_work_group_size(%d, 1, 1)))\nvoid @K@(", WG);
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0 ||
        lc_add_i64(l, MG) < 0 || lc_add_i64(l, NB) < 0) {
        free(m.side);
        return -1;
    }
    lc_sb_printf(sb, ", const long MG, const long NB");
    union lc_scalar none = {0};
    if (pack && (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
                 lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0)) {
        free(m.side);
        return -1;
    }
    if (pack)
        lc_sb_printf(sb, ",\n    __global char *s_, const long sbase");
    if (gp.mask && lc_gpost_params(g, c, l, sb, &gp) < 0) {
        free(m.side);
        return -1;
    }
    lc_sb_printf(sb, ")\n{\n");
    if (!pack)
        lc_sb_printf(sb, "    __local %s%d Bp[%d][%d];\n", T, W, KC, RV);
    lc_sb_printf(sb, "    const long q_ = get_group_id(0);\n"
                     "    const int lid = get_local_id(0);\n"
                     "    const long qm_ = q_ / NB %% MG, qn_ = q_ %% NB;   /* the group's blocks */\n"
                     "    const long bm_ = qm_ * %d + lid * %d, bn_ = qn_ * %d;\n"
                     "    const int nfull_ = bn_ + %d <= n%d;\n",
                 WG * RM, RM, CW, CW, dn);
    if (gp.mask)
        lc_gpost_local(g, sb, lc_gpost_simd_points(&gp, W, RV, WG));
    if (dm > 0) {
        lc_sb_printf(sb, "    const long z_ = q_ / MG / NB;\n");
        lc_unravel(sb, 0, dm, "z_", "    ");
    }
    if (gp.mask)
        lc_gpost_head(g, sb, &gp, "    ");
    /* Each panel's sums start from zero and are then added to the totals: the rounding error
     * grows with KC + K / KC, not with K (float32 products as accurate as BLAS's). */
    lc_sb_printf(sb, "    %s%d acc[%d][%d], tot[%d][%d];\n", T, W, RM, RV, RM, RV);
    for (int r = 0; r < RM; r++)
        for (int v = 0; v < RV; v++)
            lc_sb_printf(sb, "    tot[%d][%d] = 0;\n", r, v);
    lc_sb_printf(sb, "    for (long k0 = 0; k0 < n%d; k0 += %d) {\n", dk, KC);
    for (int r = 0; r < RM; r++)
        for (int v = 0; v < RV; v++)
            lc_sb_printf(sb, "        acc[%d][%d] = 0;\n", r, v);
    if (!pack) {   /* the panel's row kk: vectors along N where the block is whole */
        lc_sb_printf(sb, "        for (int kk = lid; kk < %d; kk += %d) {\n"
                         "            const long i%d = k0 + kk;\n",
                     KC, WG, dk);
        lc_gemm_brow(g, sb, &m, W, RV, 0, "            ");
        lc_sb_printf(sb, "        }\n        barrier(CLK_LOCAL_MEM_FENCE);\n");
    } else {
        lc_sb_printf(sb, "        __global const %s *Bq_ = (__global const %s *)(s_ + sbase) + "
                         "(bn_ / %d * n%d + k0) * %d;\n", T, T, CW, dk, CW);
    }
    lc_sb_printf(sb, "        const int kn_ = min((long)%d, n%d - k0);\n"
                     "        for (int kk = 0; kk < kn_; kk++) {\n"
                     "            const long i%d = k0 + kk;\n"
                     "            %s a_[%d];\n",
                 KC, dk, dk, T, RM);
    if (pack)   /* the panel's row kk, in order in the packed operand */
        for (int v = 0; v < RV; v++)
            lc_sb_printf(sb, "            const %s%d b%d_ = vload%d(%d, Bq_ + kk * %d);\n", T, W, v,
                         W, v, CW);
    for (int r = 0; r < RM; r++) {
        lc_sb_printf(sb, "            {\n                const long i%d = min(bm_ + %d, n%d - 1);\n",
                     dm, r, dm);
        for (int i = 0; i < k->n_exprs; i++)
            if ((m.side[i] & 1) && !k->exprs[i].epilogue)
                lc_emit_expr(g, sb, i, "                ");
        lc_sb_printf(sb, "                a_[%d] = v%d;\n            }\n", r, m.x);
    }
    /* Written out: PoCL keeps named vectors in registers where a looped array may not be. */
    for (int r = 0; r < RM; r++) {
        lc_sb_printf(sb, "            {\n                const %s%d x_ = (%s%d)(a_[%d]);\n", T, W, T, W, r);
        for (int v = 0; v < RV; v++)
            lc_sb_printf(sb, pack ? "                acc[%d][%d] = fma(x_, b%d_, acc[%d][%d]);\n"
                                  : "                acc[%d][%d] = fma(x_, Bp[kk][%d], acc[%d][%d]);\n",
                         r, v, v, r, v);
        lc_sb_printf(sb, "            }\n");
    }
    lc_sb_printf(sb, "        }\n");
    for (int r = 0; r < RM; r++)
        for (int v = 0; v < RV; v++)
            lc_sb_printf(sb, "        tot[%d][%d] += acc[%d][%d];\n", r, v, r, v);
    lc_sb_printf(sb, pack ? "    }\n" : "        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n");
    if (gp.mask) {
        /* Reductions of the epilogue's values: partials, combined by a second launch. */
        lc_gpost_simd_epilogue(g, sb, &gp, W, RM, RV, WG);
        lc_sb_printf(sb, "}\n");
    } else {
    lc_sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n"
                     "        const long i%d = bm_ + i;\n"
                     "        if (i%d >= n%d)\n"
                     "            break;\n"
                     "        for (int j = 0; j < %d; j++) {\n",
                 RM, dm, dm, dm, RV);
    for (int p = 0; p < W; p++) {
        char v[32];
        snprintf(v, sizeof v, "tot[i][j].s%x", p);
        lc_sb_printf(sb, "            {\n"
                         "                const long i%d = bn_ + j * %d + %d;\n"
                         "                if (i%d < n%d) {\n", dn, W, p, dn, dn);
        lc_gemm_epilogue(g, sb, v, "                    ");
        lc_sb_printf(sb, "                }\n            }\n");
    }
    lc_sb_printf(sb, "        }\n    }\n}\n");
    }
    l->work_dim = 1;
    l->use_local = 1;
    l->local[0] = (size_t)WG;
    l->local[1] = l->local[2] = 1;
    l->global[0] = (size_t)(MG * NB * batch * WG);
    snprintf(c->schedule, sizeof c->schedule,
             "gemm: %d rows x %d columns per item (%d-wide vectors), panels of %d along K %s%s",
             RM, CW, W, KC, pack ? "packed first" : "in local memory",
             gp.mask ? ", post-reduction partials" : "");
    free(m.side);
    /* After the launch above is complete: a new launch may move it. */
    return gp.mask ? lc_gpost_combine(g, c, sb, &gp) : 0;
}

const struct lc_schedule lc_sched_gemm_simd = {LC_KERNEL_REDUCE, "gemm", lc_gemm_simd_fits,
                                               lc_gen_gemm_simd};

/* ---- CLBlast (LAZYCL_GEMM=clblast, or where the autotuner found it faster): plain float products */

/* A product CLBlast's row-major GEMM computes as it is: float32 or float64 operands read
 * straight from buffers (no producer, no gather), each with a unit stride along one of its
 * dims and a leading dim covering the other, no batch, and the sums stored as they are into a
 * contiguous result (no epilogue). Fills the launch's GEMM description. */
static int lc_gemm_blas_plain(struct lc_cg *g, struct lc_launch *l)
{
    const struct lc_kernel *k = g->k;
    struct lc_gemm m;
    if (!g->t->gemm_blas || g->k->post_axes || !lc_gemm_match(g, &m))
        return 0;
    free(m.side);
    int dm = m.dm, dn = m.dn, dk = m.dk;
    if (dm != 0 || (m.dt != LC_FLOAT32 && m.dt != LC_FLOAT64) || k->n_outputs != 1)
        return 0;
    int reads = 0, red = -1;
    for (int i = 0; i < k->n_exprs; i++) {
        const struct lc_expr *x = &k->exprs[i];
        if (x->epilogue) {
            if (x->op != LC_EXPR_REDUCED || red >= 0)
                return 0;
            red = i;
        } else if (i != m.red) {
            const struct lc_access *a = x->access >= 0 ? &g->acc[x->access] : NULL;
            if (!a || (a->kind != LC_ACCESS_INPUT && a->kind != LC_ACCESS_TEMP) || a->n_dyn ||
                a->offset < 0)
                return 0;
            reads++;
        }
    }
    const struct lc_output *o = &k->outputs[0];
    if (reads != 2 || red < 0 || o->expr != red || k->exprs[red].dtype != m.dt ||
        g->ostr[0][dm] != g->shape[dn] || g->ostr[0][dn] != 1)
        return 0;
    const int64_t M = g->shape[dm], N = g->shape[dn], K = g->shape[dk];
    const int64_t *sa = g->acc[k->exprs[m.x].access].strides, *sb = g->acc[k->exprs[m.y].access].strides;
    if (sa[dk] == 1 && sa[dm] >= K) {
        l->blas_trans_a = 0;
        l->blas_lda = sa[dm];
    } else if (sa[dm] == 1 && sa[dk] >= M) {
        l->blas_trans_a = 1;
        l->blas_lda = sa[dk];
    } else {
        return 0;
    }
    if (sb[dn] == 1 && sb[dk] >= N) {
        l->blas_trans_b = 0;
        l->blas_ldb = sb[dk];
    } else if (sb[dk] == 1 && sb[dn] >= K) {
        l->blas_trans_b = 1;
        l->blas_ldb = sb[dn];
    } else {
        return 0;
    }
    l->blas = 1;
    l->blas_m = M;
    l->blas_n = N;
    l->blas_k = K;
    l->blas_ldc = N;
    l->blas_off[0] = g->acc[k->exprs[m.x].access].offset;
    l->blas_off[1] = g->acc[k->exprs[m.y].access].offset;
    l->blas_off[2] = 0;
    return 1;
}

static int lc_gemm_blas_fits(struct lc_cg *g)
{
    struct lc_launch l;
    memset(&l, 0, sizeof l);
    return lc_gemm_blas_plain(g, &l);
}

/* No kernel: one launch the engine hands to CLBlast, with the buffers of A, B and C, then the
 * offsets of A and B (bound at each run: blas_off[0..1] are those of the plan's first graph). */
static int lc_gen_gemm_blas(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l || !lc_gemm_blas_plain(g, l))
        return -1;
    struct lc_gemm m;
    lc_gemm_match(g, &m);
    free(m.side);
    union lc_scalar none = {0};
    const struct lc_access *a = &g->acc[k->exprs[m.x].access], *b = &g->acc[k->exprs[m.y].access];
    if (lc_add_arg(l, a->kind == LC_ACCESS_INPUT ? LC_CGARG_INPUT : LC_CGARG_TEMP, a->source,
                   m.dt, none) < 0 ||
        lc_add_arg(l, b->kind == LC_ACCESS_INPUT ? LC_CGARG_INPUT : LC_CGARG_TEMP, b->source,
                   m.dt, none) < 0 ||
        lc_add_arg(l, LC_CGARG_TEMP, k->outputs[0].buffer, m.dt, none) < 0 ||
        lc_add_offset(l, a, k->exprs[m.x].access, a->offset) < 0 ||
        lc_add_offset(l, b, k->exprs[m.y].access, b->offset) < 0)
        return -1;
    lc_sb_printf(sb, "/* CLBlast %cGEMM, row-major: C = %s @ %s (no OpenCL C of lazycl's) */\n",
                 m.dt == LC_FLOAT64 ? 'D' : 'S', l->blas_trans_a ? "A^T" : "A",
                 l->blas_trans_b ? "B^T" : "B");
    snprintf(c->schedule, sizeof c->schedule, "gemm: CLBlast %cgemm (%s)",
             m.dt == LC_FLOAT64 ? 'd' : 's',
             g->t->gemm_blas == 1 ? "LAZYCL_GEMM=clblast" : "autotuned: faster here");
    return 0;
}

const struct lc_schedule lc_sched_gemm_blas = {LC_KERNEL_REDUCE, "gemm", lc_gemm_blas_fits,
                                               lc_gen_gemm_blas};
