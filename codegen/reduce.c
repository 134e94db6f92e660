/* reduce.c: reductions with one work-item per output (or per W adjacent outputs), and the
 * W-lane folding loops that SIMD targets use here and in split reductions.
 *
 * Each work-item owns whole outputs: it folds every reduced element of its
 * output(s) in order into private states, runs the epilogue and stores, so
 * nothing is combined between items and no item waits for another. With
 * explicit SIMD a row's elements are folded W lanes at a time into per-lane
 * states, whose lanes are then combined in lane order (then the tail); in
 * the column schedule the W lanes are W adjacent outputs instead.
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <string.h>

/* Declare the W-lane states q<s> of every reduction (named q<s>_a<sfx>, q<s>_b<sfx>, ...). */
static void lc_vec_states_x(struct lc_cg *g, struct lc_sb *sb, int W, const char *ind,
                            const char *sfx)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        const char *A = lc_red_acc(g, r);
        switch (r->op) {
        case LC_OP_SUM:
            lc_sb_printf(sb, "%s%s%d q%d_a%s = 0;\n", ind, A, W, s, sfx);
            break;
        case LC_OP_RMAX: case LC_OP_RMIN:
            lc_sb_printf(sb, "%s%s%d q%d_a%s = (%s%d)(%s);\n", ind, A, W, s, sfx, A, W,
                         lc_limit(r->in_dtype, r->op == LC_OP_RMIN));
            break;
        case LC_OP_SUMEXP:
            lc_sb_printf(sb, "%s%s%d q%d_a%s = (%s%d)(-INFINITY); %s%d q%d_b%s = 0;\n", ind,
                         lc_T(r->in_dtype), W, s, sfx, lc_T(r->in_dtype), W, A, W, s, sfx);
            break;
        case LC_OP_USERRED: {
            char q[32];
            snprintf(q, sizeof q, "q%d_a%s", s, sfx);
            lc_user_vec_init(g, sb, s, q, W, ind);
            break;
        }
        default: /* MEANVAR */
            lc_sb_printf(sb, "%s%s%d q%d_a%s = 0, q%d_b%s = 0, q%d_c%s = 0;\n", ind, A, W, s, sfx, s,
                         sfx, s, sfx);
            break;
        }
    }
}

static void lc_vec_states(struct lc_cg *g, struct lc_sb *sb, int W, const char *ind)
{
    lc_vec_states_x(g, sb, W, ind, "");
}

/* The SUMEXP slot reducing the same value as RMAX slot s, or -1: blocked
 * loops take that max from the block maxima. */
static int lc_sumexp_twin(const struct lc_kernel *k, int s)
{
    if (k->reds[s].op != LC_OP_RMAX)
        return -1;
    for (int t = 0; t < k->n_reds; t++)
        if (k->reds[t].op == LC_OP_SUMEXP && k->reds[t].expr == k->reds[s].expr)
            return t;
    return -1;
}

/* SUMEXP slot s: lanes where `v` (W lanes) exceeds the running max q<s>_a
 * take it as their max and rescale their sums q<s>_b. */
static void lc_sumexp_grow(struct lc_cg *g, struct lc_sb *sb, int s, int W, const char *v,
                           const char *ind)
{
    const struct lc_reduction *r = &g->k->reds[s];
    const char *A = lc_red_acc(g, r), *T = lc_T(r->in_dtype);
    int dbl = !strcmp(A, "double");
    struct lc_sb cm = {0}, cn = {0};
    lc_vcast(&cm, "q_m_", r->in_dtype, dbl ? LC_FLOAT64 : LC_FLOAT32, W);
    lc_vcast(&cn, "n_m_", r->in_dtype, dbl ? LC_FLOAT64 : LC_FLOAT32, W);
    lc_sb_printf(sb, "%sif (any(%s > q%d_a)) {\n"
                     "%s    const %s%d q_m_ = q%d_a, n_m_ = select(q%d_a, %s, %s > q%d_a);\n"
                     "%s    q%d_b = select(q%d_b * exp(%s - %s), q%d_b, convert_%s%d(n_m_ == q_m_));\n"
                     "%s    q%d_a = n_m_;\n%s}\n",
                 ind, v, s, ind, T, W, s, s, v, v, s, ind, s, s, cm.s, cn.s, s,
                 dbl ? "long" : "int", W, ind, s, ind);
    lc_sb_free(&cm);
    lc_sb_free(&cn);
}

/* Vector exprs at the current indices, folded lane-wise into q<s>. With
 * fixed_max, SUMEXP lanes add exp(x - max) without growing the max (the
 * block's max was taken first). */
static void lc_vec_fold_x(struct lc_cg *g, struct lc_sb *sb, int W, int vd, const char *ind,
                          int fixed_max);

static void lc_vec_fold(struct lc_cg *g, struct lc_sb *sb, int W, int vd, const char *ind)
{
    lc_vec_fold_x(g, sb, W, vd, ind, 0);
}

static void lc_vec_fold_x(struct lc_cg *g, struct lc_sb *sb, int W, int vd, const char *ind,
                          int fixed_max)
{
    const struct lc_kernel *k = g->k;
    lc_emit_exprs_vec(g, sb, W, vd, ind);
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        if (fixed_max && lc_sumexp_twin(k, s) >= 0)
            continue;
        const char *A = lc_red_acc(g, r);
        char v[32];
        snprintf(v, sizeof v, "w%d", r->expr);
        struct lc_sb cv = {0};
        lc_vcast(&cv, v, k->exprs[r->expr].dtype, !strcmp(A, "double") ? LC_FLOAT64 : LC_FLOAT32, W);
        switch (r->op) {
        case LC_OP_SUM:
            lc_sb_printf(sb, "%sq%d_a += %s;\n", ind, s, cv.s);
            break;
        case LC_OP_RMAX: case LC_OP_RMIN:
            lc_sb_printf(sb, "%sq%d_a = select(q%d_a, %s, (%s %s q%d_a) | isnan(%s));\n", ind, s, s,
                         v, v, r->op == LC_OP_RMAX ? ">" : "<", s, v);
            break;
        case LC_OP_USERRED: {
            char q[16];
            snprintf(q, sizeof q, "q%d_a", s);
            lc_user_vec_fold(g, sb, s, q, v, W, ind);
            break;
        }
        case LC_OP_SUMEXP: {
            /* Lanes whose max grows (rare after the first few) rescale their sums. */
            const char *T = lc_T(r->in_dtype);
            struct lc_sb ce = {0};
            char e[256];
            if (fixed_max) {
                /* qe: the block's max with -inf as 0, so -inf adds exp(-inf) = 0 */
                snprintf(e, sizeof e, "exp(%s - qe%d_)", v, s);
            } else {
                lc_sumexp_grow(g, sb, s, W, v, ind);
                snprintf(e, sizeof e, "select(exp(%s - q%d_a), (%s%d)(0), %s == (%s%d)(-INFINITY))", v,
                         s, T, W, v, T, W);
            }
            lc_vcast(&ce, e, r->in_dtype, !strcmp(A, "double") ? LC_FLOAT64 : LC_FLOAT32, W);
            lc_sb_printf(sb, "%sq%d_b += %s;\n", ind, s, ce.s);
            lc_sb_free(&ce);
            break;
        }
        default:
            lc_sb_printf(sb, "%s{ const %s%d x_ = %s; q%d_a += 1; const %s%d d_ = x_ - q%d_b;"
                         " q%d_b += d_ / q%d_a; q%d_c += d_ * (x_ - q%d_b); }\n",
                         ind, A, W, cv.s, s, A, W, s, s, s, s, s);
            break;
        }
        lc_sb_free(&cv);
    }
}

static void lc_vec_fold_finish(struct lc_cg *g, struct lc_sb *sb, const char *hi, int W,
                               const char *in2);

/* Fold the reduced elements [lo, hi) of the single reduced dim: W lanes at a
 * time into per-lane states, the lanes then folded in order into the scalar
 * states s<k>, then the tail one by one. */
void lc_vec_fold_loop(struct lc_cg *g, struct lc_sb *sb, const char *lo, const char *hi,
                      int W, const char *ind)
{
    const struct lc_kernel *k = g->k;
    int rd = g->nk;
    char in2[64], in3[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    snprintf(in3, sizeof in3, "%s        ", ind);
    lc_sb_printf(sb, "%s{\n", ind);
    lc_vec_states(g, sb, W, in2);
    lc_sb_printf(sb, "%slong i%d = %s;\n", in2, rd, lo);
    int sumexp = 0;
    for (int s = 0; s < k->n_reds; s++)
        sumexp |= k->reds[s].op == LC_OP_SUMEXP;
    if (sumexp) {
        /* Blocks of 32 vectors: the block's max first (re-reading it from
         * L1 costs less than testing every vector), then the sums. */
        char in4[80];
        snprintf(in4, sizeof in4, "%s    ", in3);
        int BW = 32 * W;
        lc_sb_printf(sb, "%sfor (; i%d + %d <= %s; i%d += %d) {\n", in2, rd, BW, hi, rd, BW);
        lc_sb_printf(sb, "%sconst long b0_ = i%d;\n", in3, rd);
        for (int s = 0; s < k->n_reds; s++)
            if (k->reds[s].op == LC_OP_SUMEXP)
                lc_sb_printf(sb, "%s%s%d bm%d_ = (%s%d)(-INFINITY);\n", in3,
                             lc_T(k->reds[s].in_dtype), W, s, lc_T(k->reds[s].in_dtype), W);
        lc_sb_printf(sb, "%sfor (long i%d = b0_; i%d < b0_ + %d; i%d += %d) {\n", in3, rd, rd,
                     BW, rd, W);
        lc_emit_exprs_vec(g, sb, W, rd, in4);
        /* NaN-propagating: a NaN lane keeps its max (its sum is NaN anyway) */
        for (int s = 0; s < k->n_reds; s++)
            if (k->reds[s].op == LC_OP_SUMEXP)
                lc_sb_printf(sb, "%sbm%d_ = select(bm%d_, w%d, (w%d > bm%d_) | isnan(w%d));\n", in4,
                             s, s, k->reds[s].expr, k->reds[s].expr, s, k->reds[s].expr);
        lc_sb_printf(sb, "%s}\n", in3);
        for (int s = 0; s < k->n_reds; s++) {
            int t = lc_sumexp_twin(k, s);
            if (t >= 0)
                lc_sb_printf(sb, "%sq%d_a = select(q%d_a, bm%d_, (bm%d_ > q%d_a) | isnan(bm%d_));\n",
                             in3, s, s, t, t, s, t);
        }
        for (int s = 0; s < k->n_reds; s++)
            if (k->reds[s].op == LC_OP_SUMEXP) {
                char v[32];
                const char *T = lc_T(k->reds[s].in_dtype);
                snprintf(v, sizeof v, "bm%d_", s);
                lc_sumexp_grow(g, sb, s, W, v, in3);
                lc_sb_printf(sb, "%sconst %s%d qe%d_ = select(q%d_a, (%s%d)(0), q%d_a == (%s%d)(-INFINITY));\n",
                             in3, T, W, s, s, T, W, s, T, W);
            }
        lc_sb_printf(sb, "%sfor (long i%d = b0_; i%d < b0_ + %d; i%d += %d) {\n", in3, rd, rd,
                     BW, rd, W);
        lc_vec_fold_x(g, sb, W, rd, in4, 1);
        lc_sb_printf(sb, "%s}\n%s}\n", in3, in2);
    }
    lc_sb_printf(sb, "%sfor (; i%d + %d <= %s; i%d += %d) {\n", in2, rd, W, hi, rd, W);
    lc_vec_fold(g, sb, W, rd, in3);
    lc_sb_printf(sb, "%s}\n", in2);
    lc_vec_fold_finish(g, sb, hi, W, in2);
    lc_sb_printf(sb, "%s}\n", ind);
}

/* The end of a W-lane fold of the single reduced dim, whose index i<nk> stands where the
 * vector loop stopped: the lanes of q<s> folded in order into the scalar states s<s>, then
 * the elements up to `hi` one by one. */
static void lc_vec_fold_finish(struct lc_cg *g, struct lc_sb *sb, const char *hi, int W,
                               const char *in2)
{
    const struct lc_kernel *k = g->k;
    int rd = g->nk;
    char in3[64];
    snprintf(in3, sizeof in3, "%s    ", in2);
    /* Lanes in order into the scalar states. */
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        char me[16], lane[16];
        snprintf(me, sizeof me, "s%d", s);
        for (int l = 0; l < W; l++) {
            snprintf(lane, sizeof lane, "l%d", s);
            if (r->op == LC_OP_MEANVAR) {
                lc_sb_printf(sb, "%s{ const %s l%d_a = q%d_a.s%x, l%d_b = q%d_b.s%x, l%d_c = q%d_c.s%x;\n",
                             in2, lc_red_acc(g, r), s, s, l, s, s, l, s, s, l);
                lc_red_combine(g, sb, s, me, lane, in3);
                lc_sb_printf(sb, "%s}\n", in2);
            } else if (r->op == LC_OP_SUMEXP) {
                lc_sb_printf(sb, "%s{ const %s l%d_a = q%d_a.s%x; const %s l%d_b = q%d_b.s%x;\n",
                             in2, lc_T(r->in_dtype), s, s, l, lc_red_acc(g, r), s, s, l);
                lc_red_combine(g, sb, s, me, lane, in3);
                lc_sb_printf(sb, "%s}\n", in2);
            } else {
                char v[32];
                snprintf(v, sizeof v, "q%d_a.s%x", s, l);
                lc_red_update(g, sb, s, me, v, "0", in2);
            }
        }
    }
    lc_sb_printf(sb, "%sfor (; i%d < %s; i%d++) {\n", in2, rd, hi, rd);
    lc_fold_all(g, sb, "0", in3);
    lc_sb_printf(sb, "%s}\n", in2);
}

/* Open nested loops over the reduced dims [nk, nd); returns the indent. */
static void lc_open_red_loops(struct lc_cg *g, struct lc_sb *sb, char *ind, size_t n)
{
    for (int d = g->nk; d < g->nd; d++) {
        lc_sb_printf(sb, "%sfor (long i%d = 0; i%d < n%d; i%d++) {\n", ind, d, d, d, d);
        strncat(ind, "    ", n - strlen(ind) - 1);
    }
}

static void lc_close_red_loops(struct lc_cg *g, struct lc_sb *sb, char *ind)
{
    for (int d = g->nk; d < g->nd; d++) {
        ind[strlen(ind) - 4] = '\0';
        lc_sb_printf(sb, "%s}\n", ind);
    }
}

/* The whole scalar reduction of one output whose kept indices are declared:
 * init, loops, epilogue, stores. */
static void lc_scalar_reduce_body(struct lc_cg *g, struct lc_sb *sb, const char *ind0)
{
    char ind[64];
    snprintf(ind, sizeof ind, "%s", ind0);
    lc_init_all(g, sb, "s", ind);
    lc_sb_printf(sb, "%slong r = 0;\n", ind);
    lc_open_red_loops(g, sb, ind, sizeof ind);
    lc_fold_all(g, sb, "r", ind);
    lc_sb_printf(sb, "%sr++;\n", ind);
    lc_close_red_loops(g, sb, ind);
    lc_emit_exprs(g, sb, 1, ind);
    lc_store_outputs(g, sb, ind, g->nk);
}

/* A launch over M outputs and its kernel's header: the common parameters, the output strides
 * of the nk kept dims, then M. NULL on no memory. */
static struct lc_launch *lc_reduce_m_head(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                                          int64_t M)
{
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return NULL;
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0)
        return NULL;
    lc_sb_printf(sb, ", const long M)\n{\n");
    return lc_add_i64(l, M) < 0 ? NULL : l;
}

/* Schedule A with lanes across the kept dim (column reductions on SIMD targets, PoCL):
 * each work-item reduces W adjacent outputs at once with vector loads along
 * the kept dim, then runs the epilogue lane by lane. */
static int lc_gen_reduce_cols(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    int W = g->t->simd;
    int64_t M = lc_kept_count(g);
    struct lc_launch *l = lc_reduce_m_head(g, c, sb, M);
    if (!l)
        return -1;
    lc_sb_printf(sb, "    const long c0 = get_global_id(0) * %d;\n"
                     "    if (c0 >= M) return;\n"
                     "    if (c0 + %d <= M) {\n"
                     "        const long i0 = c0;\n", W, W);
    lc_vec_states(g, sb, W, "        ");
    char ind[64] = "        ";
    lc_open_red_loops(g, sb, ind, sizeof ind);
    lc_vec_fold(g, sb, W, 0, ind);
    lc_close_red_loops(g, sb, ind);
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++) {
            const char *A = lc_red_acc(g, &k->reds[s]);
            lc_sb_printf(sb, "        %s p%d_%c[%d];\n        vstore%d(q%d_%c, 0, p%d_%c);\n", A, s,
                         'a' + f, W, W, s, 'a' + f, s, 'a' + f);
        }
    lc_sb_printf(sb, "        for (int ln = 0; ln < %d; ln++) {\n"
                     "            const long i0 = c0 + ln;\n", W);
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        const char *A = lc_red_acc(g, r);
        if (r->op == LC_OP_MEANVAR)
            lc_sb_printf(sb, "            %s s%d_a = p%d_a[ln], s%d_b = p%d_b[ln], s%d_c = p%d_c[ln];\n",
                         A, s, s, s, s, s, s);
        else
            lc_sb_printf(sb, "            %s s%d_a = p%d_a[ln];\n", A, s, s);
    }
    lc_emit_exprs(g, sb, 1, "            ");
    lc_store_outputs(g, sb, "            ", g->nk);
    lc_sb_printf(sb, "        }\n"
                     "    } else {\n"
                     "        for (long i0 = c0; i0 < M; i0++) {\n");
    lc_scalar_reduce_body(g, sb, "            ");
    lc_sb_printf(sb, "        }\n    }\n}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)((M + W - 1) / W);
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: one item per %d outputs, %d-wide SIMD across outputs", W, W);
    return 0;
}

/* Outputs per item of the row-block loop (0: one per item). SIMD targets, a single reduced
 * dim folded in vectors, every slot a sum, max, min or variance, and a read that adjacent
 * outputs share (its stride along the last kept dim 0, along the reduced one not: a
 * matrix-vector product's vector): R outputs of one item fold side by side, so the shared
 * vector is loaded once per R rows (the compiler merges the R equal loads), and R rows stream
 * at once. Measured on PoCL, 2 cores, float32 2000 x 30000 @ v (NumPy 10.3 ms): one row per
 * item 20-21 ms whatever its accumulators (double8, or four float8), 4 rows 10.5 ms, 8 rows
 * 8.3-8.7 ms (float8 sums; double8 about as fast at 4 rows, slower at 8 under load). */
static int lc_reduce_rows(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    int nk = g->nk, R = g->t->reduce_rows;
    if (R < 2 || nk < 1 || g->nd - nk != 1 || !lc_vec_ok(g, nk) || lc_kept_count(g) < 2 * R)
        return 0;
    for (int s = 0; s < k->n_reds; s++) {
        int op = k->reds[s].op;
        if (op != LC_OP_SUM && op != LC_OP_RMAX && op != LC_OP_RMIN && op != LC_OP_MEANVAR)
            return 0;
    }
    for (int a = 0; a < k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (!x->epilogue && (x->kind == LC_ACCESS_INPUT || x->kind == LC_ACCESS_TEMP) &&
            x->strides[nk - 1] == 0 && x->strides[nk] != 0)
            return R;
    }
    return 0;
}

/* Row r's W-lane states (q<s>_<f>r<r>) as the names the folds use (q<s>_<f>), or back. */
static void lc_rows_swap(struct lc_cg *g, struct lc_sb *sb, int r, int W, int in,
                         const char *ind)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++) {
            char c = (char)('a' + f);
            if (in)
                lc_sb_printf(sb, "%s%s%d q%d_%c = q%d_%cr%d;\n", ind, lc_red_acc(g, &k->reds[s]), W,
                             s, c, s, c, r);
            else
                lc_sb_printf(sb, "%sq%d_%cr%d = q%d_%c;\n", ind, s, c, r, s, c);
        }
}

/* Schedule A in row blocks (lc_reduce_rows): item q owns outputs [q R, q R + R); the last
 * item's outputs past a whole block take the one-output loop. */
static int lc_gen_reduce_rows(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int R)
{
    int nk = g->nk, W = g->t->simd;
    int64_t M = lc_kept_count(g);
    struct lc_launch *l = lc_reduce_m_head(g, c, sb, M);
    if (!l)
        return -1;
    char hi[16], sfx[16];
    snprintf(hi, sizeof hi, "n%d", nk);
    lc_sb_printf(sb, "    const long m0 = get_global_id(0) * %d;\n"
                     "    if (m0 >= M) return;\n"
                     "    if (m0 + %d <= M) {\n", R, R);
    for (int r = 0; r < R; r++) {
        snprintf(sfx, sizeof sfx, "r%d", r);
        lc_vec_states_x(g, sb, W, "        ", sfx);
    }
    lc_sb_printf(sb, "        long e_ = 0;\n"
                     "        for (; e_ + %d <= %s; e_ += %d) {\n"
                     "            const long i%d = e_;\n", W, hi, W, nk);
    for (int r = 0; r < R; r++) {
        lc_sb_printf(sb, "            {\n                const long m = m0 + %d;\n", r);
        lc_unravel(sb, 0, nk, "m", "                ");
        lc_rows_swap(g, sb, r, W, 1, "                ");
        lc_vec_fold(g, sb, W, nk, "                ");
        lc_rows_swap(g, sb, r, W, 0, "                ");
        lc_sb_printf(sb, "            }\n");
    }
    lc_sb_printf(sb, "        }\n");
    for (int r = 0; r < R; r++) {
        lc_sb_printf(sb, "        {\n            const long m = m0 + %d;\n", r);
        lc_unravel(sb, 0, nk, "m", "            ");
        lc_init_all(g, sb, "s", "            ");
        lc_sb_printf(sb, "            {\n");
        lc_rows_swap(g, sb, r, W, 1, "                ");
        lc_sb_printf(sb, "                long i%d = e_;\n", nk);
        lc_vec_fold_finish(g, sb, hi, W, "                ");
        lc_sb_printf(sb, "            }\n");
        lc_emit_exprs(g, sb, 1, "            ");
        lc_store_outputs(g, sb, "            ", nk);
        lc_sb_printf(sb, "        }\n");
    }
    lc_sb_printf(sb, "    } else {\n"
                     "        for (long m = m0; m < M; m++) {\n");
    lc_unravel(sb, 0, nk, "m", "            ");
    lc_init_all(g, sb, "s", "            ");
    lc_vec_fold_loop(g, sb, "0", hi, W, "            ");
    lc_emit_exprs(g, sb, 1, "            ");
    lc_store_outputs(g, sb, "            ", nk);
    lc_sb_printf(sb, "        }\n    }\n}\n");
    int64_t items = (M + R - 1) / R;
    l->work_dim = 1;
    l->global[0] = (size_t)items;
    lc_small_group_work(g->t, l, items, g->shape[nk] * R);   /* the kernel tests m0 < M */
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: one item per %d outputs (a shared read), %d-wide SIMD", R, W);
    return 0;
}

/* Does every prologue read move by 0 or 1 along dim d, one of them by 1? */
static int lc_reads_along(struct lc_cg *g, int d)
{
    int moved = 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->epilogue || x->kind == LC_ACCESS_CONST)
            continue;
        int c = lc_stclass(x->strides[d]);
        if (c == LC_ST_ANY)
            return 0;
        moved |= c == LC_ST_UNIT;
    }
    return moved;
}

/* Whether the items of reduce_loop are groups of one: on CPU targets whose driver vectorizes
 * across a group's items itself (no simd_maps: the generic CPU target, LAZYCL_SCHEDULE=cpu,
 * and Intel's CPU runtime, whose reductions that explicit vectors cannot read take this loop:
 * the count of x > 0.5 over 2^24 float32 in 16 rows, 7.4-8.1 ms in groups of 8, 2.0-2.2 in
 * groups of one; PoCL's own groups of 8 ran it in 2.7), items walking their rows in order
 * would read as many rows at once, a gather per step. Sums only, with enough work:
 * Intel's CPU runtime, 2 cores, float32, ms, groups of the ladder / of one: A @ v 2000x30000
 * 20.4 / 7.8 (NumPy 7.85), sum(axis=1) of 4096^2 7.8 / 1.1, of 2^20 x 16 8.5 / 6.5; but
 * std(axis=1) of 4096^2 10.2 / 46.1 and max(axis=1) of 2000x30000 21.3 / 33.6, whose items
 * the runtime no longer runs side by side in vector lanes, and a 30x8 sum 0.007 / 0.018. */
static int lc_rows_one_item_groups(struct lc_cg *g, int64_t M, int64_t per_item)
{
    const struct lc_kernel *k = g->k;
    /* the rows: every read walks the last reduced dim in order */
    if (g->t->simd_maps || g->t->fixed_groups ||
        (double)M * (double)per_item < LC_SMALL_GROUP_WORK || g->nd == g->nk ||
        !lc_reads_along(g, g->nd - 1))
        return 0;
    for (int s = 0; s < k->n_reds; s++)
        if (k->reds[s].op != LC_OP_SUM)
            return 0;
    return 1;
}

/* Schedule A: one work-item per output, looping over every reduced element. */
static int lc_gen_reduce_loop(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    int R = lc_reduce_rows(g);
    if (R)
        return lc_gen_reduce_rows(g, c, sb, R);
    int nd = g->nd, nk = g->nk;
    int64_t M = 1;
    for (int d = 0; d < nk; d++)
        M *= g->shape[d];
    struct lc_launch *l = lc_reduce_m_head(g, c, sb, M);
    if (!l)
        return -1;
    lc_sb_printf(sb, "    const long m = get_global_id(0);\n    if (m >= M) return;\n");
    if (nk > 0)
        lc_unravel(sb, 0, nk, "m", "    ");
    lc_init_all(g, sb, "s", "    ");
    if (nd - nk == 1 && lc_vec_ok(g, nk)) {
        char hi[16];
        int W = lc_simd_lanes(g);
        snprintf(hi, sizeof hi, "n%d", nk);
        lc_vec_fold_loop(g, sb, "0", hi, W, "    ");
        lc_emit_exprs(g, sb, 1, "    ");
        lc_store_outputs(g, sb, "    ", nk);
        lc_sb_printf(sb, "}\n");
        l->work_dim = 1;
        l->global[0] = (size_t)M;
        lc_small_group_work(g->t, l, M, g->shape[nk]);   /* the kernel tests m < M */
        snprintf(c->schedule, sizeof c->schedule, "reduce: one item per output, %d-wide SIMD",
                 W);
        return 0;
    }
    lc_sb_printf(sb, "    long r = 0;\n");
    char ind[64] = "    ";
    for (int d = nk; d < nd; d++) {
        lc_sb_printf(sb, "%sfor (long i%d = 0; i%d < n%d; i%d++) {\n", ind, d, d, d, d);
        strncat(ind, "    ", sizeof ind - strlen(ind) - 1);
    }
    lc_fold_all(g, sb, "r", ind);
    lc_sb_printf(sb, "%sr++;\n", ind);
    for (int d = nk; d < nd; d++) {
        ind[strlen(ind) - 4] = '\0';
        lc_sb_printf(sb, "%s}\n", ind);
    }
    lc_emit_exprs(g, sb, 1, "    ");
    lc_store_outputs(g, sb, "    ", nk);
    lc_sb_printf(sb, "}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)M;
    int64_t per_item = 1;
    for (int d = nk; d < nd; d++)
        per_item *= g->shape[d];
    if (lc_rows_one_item_groups(g, M, per_item))
        lc_single_item_groups(l);
    else
        lc_small_group_work(g->t, l, M, per_item);   /* the kernel tests m < M */
    if (g->t->fixed_groups) {
        size_t wg = g->t->work_group;
        l->use_local = 1;
        l->local[0] = wg;
        l->local[1] = l->local[2] = 1;
        l->global[0] = M ? lc_round_up((size_t)M, wg) : 0;
    }
    snprintf(c->schedule, sizeof c->schedule, "reduce: one item per output");
    return 0;
}

/* Does every prologue read move by 0 or 1 along kept dim 0 (so adjacent
 * outputs read adjacent addresses: a column reduction)? */
int lc_columnlike(struct lc_cg *g)
{
    return g->nk == 1 && g->nd - g->nk >= 1 && lc_reads_along(g, 0);
}

/* Does some prologue read move along kept dim 0 and along a reduced dim (a matrix streamed
 * through the reduction), rather than each read along one of them alone? */
static int lc_reads_matrix(struct lc_cg *g)
{
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->epilogue || x->kind == LC_ACCESS_CONST || x->strides[0] == 0)
            continue;
        for (int d = 1; d < g->nd; d++)
            if (x->strides[d] != 0)
                return 1;
    }
    return 0;
}

/* Column reductions with enough outputs to fill the device, on targets with
 * explicit SIMD: lanes across outputs (here, or in column blocks). Where no read is a
 * matrix, only with simd_outer_cols: Intel's CPU runtime runs one item per output faster,
 * the reads along the outputs held in registers across the rows (2 cores, norm(Vd @ C,
 * axis=0), Vd 100000x3, C 3x4096 float32, ms: panels of columns 38.1, column blocks 45, 8
 * outputs an item 120, one item per output 27.7). */
int lc_reduce_simd_columns(struct lc_cg *g)
{
    const struct lc_target *t = g->t;
    int64_t M = lc_kept_count(g);
    return t->simd && t->reduce_loop_outputs && M >= t->reduce_loop_outputs && g->nk == 1 &&
           M >= t->simd && lc_vec_ok(g, 0) && (t->simd_outer_cols || lc_reads_matrix(g));
}

/* One item per output when there are enough outputs, too few reduced
 * elements to share out, or a column reduction that column blocks left. */
static int lc_reduce_loop_fits(struct lc_cg *g)
{
    const struct lc_target *t = g->t;
    int64_t M = lc_kept_count(g);
    return (t->reduce_loop_outputs && M >= t->reduce_loop_outputs) ||
           lc_reduced_count(g) < t->split_min_reduced || (t->column_blocks && lc_columnlike(g));
}

const struct lc_schedule lc_sched_reduce_cols = {LC_KERNEL_REDUCE, "reduce", lc_reduce_simd_columns,
                                                 lc_gen_reduce_cols};
const struct lc_schedule lc_sched_reduce_loop = {LC_KERNEL_REDUCE, "reduce", lc_reduce_loop_fits,
                                                 lc_gen_reduce_loop};
