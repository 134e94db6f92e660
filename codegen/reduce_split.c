/* reduce_split.c: reductions that share each output among several work-items, whose
 * partials the last one to finish combines.
 *
 * Split (B): P groups of L items per output, each item folding a chunk or a
 * strided share of the reduced elements; column splits (C: groups of L
 * adjacent outputs; D: SIMD blocks of V*W adjacent outputs) give each item
 * a chunk of rows of several outputs. Partials go to scratch, as [M][P] or
 * [P][M] per state field, after a zeroed counter per output (or block).
 * An item or group that finishes increments the counter; the one that sees
 * P - 1 is the last, combines the P partials in chunk order (the same bits
 * every run) and runs the epilogue. No group ever waits for another, so
 * nothing assumes that groups make progress together. (Schedule D, whose
 * partials are many, combines them in a second launch instead.)
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <string.h>

/* Partials are written and read by atomics, a word at a time: the groups of one launch share
 * them, and OpenCL 1.2 orders plain accesses of different groups by nothing (not by the fence
 * and counter), so a plain write and the last group's plain read would be a data race. The
 * last group still reads only after every other group has counted itself done, so each
 * partial's words are whole. Fields of 8 bytes or more are 8-byte words (64-bit atomics, under
 * cl_khr_int64_base_atomics as in store.c: half the atomics of 4-byte words); smaller fields
 * take one 4-byte word in scratch. */
static int lc_field_wide(struct lc_cg *g, int s, int f)
{
    return lc_red_fsize(g, &g->k->reds[s], f) >= 8;
}

static int lc_field_words(struct lc_cg *g, int s, int f)
{
    return lc_field_wide(g, s, f) ? (int)(lc_red_fsize(g, &g->k->reds[s], f) / 8) : 1;
}

/* Enable 64-bit atomics where some field is an 8-byte word (before the kernel). */
static void lc_partials_pragma(struct lc_cg *g, struct lc_sb *sb)
{
    int wide = 0;
    for (int s = 0; s < g->k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&g->k->reds[s]); f++)
            wide |= lc_field_wide(g, s, f);
    if (wide)
        lc_sb_printf(sb, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
}

/* The address of field f of slot s's partial `at`, as words. */
static void lc_field_words_at(struct lc_cg *g, struct lc_sb *sb, int s, int f, const char *at,
                              const char *ind)
{
    int w = lc_field_words(g, s, f);
    const char *U = lc_field_wide(g, s, f) ? "ulong" : "uint";
    lc_sb_printf(sb, "%s    union { %s t; %s w[%d]; } u_;\n"
                     "%s    volatile __global %s *w_ = (volatile __global %s *)(scratch + so%d_%d) + (%s)",
                 ind, lc_red_ftype(g, &g->k->reds[s], f), U, w, ind, U, U, s, f, at);
    if (w > 1)
        lc_sb_printf(sb, " * %d", w);
    lc_sb_printf(sb, ";\n");
}

/* Field f of slot s's partial `at` = val. */
static void lc_put_field(struct lc_cg *g, struct lc_sb *sb, int s, int f, const char *at,
                         const char *val, const char *ind)
{
    lc_sb_printf(sb, "%s{\n", ind);
    lc_field_words_at(g, sb, s, f, at, ind);
    if (lc_red_fsize(g, &g->k->reds[s], f) < 4)
        lc_sb_printf(sb, "%s    u_.w[0] = 0;\n", ind);
    lc_sb_printf(sb, "%s    u_.t = %s;\n", ind, val);
    for (int i = 0; i < lc_field_words(g, s, f); i++)
        lc_sb_printf(sb, "%s    %s(w_ + %d, u_.w[%d]);\n", ind,
                     lc_field_wide(g, s, f) ? "atom_xchg" : "atomic_xchg", i, i);
    lc_sb_printf(sb, "%s}\n", ind);
}

/* `T var` = field f of slot s's partial `at`. */
static void lc_get_field(struct lc_cg *g, struct lc_sb *sb, int s, int f, const char *at,
                         const char *var, const char *ind)
{
    lc_sb_printf(sb, "%s%s %s;\n%s{\n", ind, lc_red_ftype(g, &g->k->reds[s], f), var, ind);
    lc_field_words_at(g, sb, s, f, at, ind);
    for (int i = 0; i < lc_field_words(g, s, f); i++)
        lc_sb_printf(sb, "%s    u_.w[%d] = %s(w_ + %d, 0);\n", ind, i,
                     lc_field_wide(g, s, f) ? "atom_add" : "atomic_add", i);
    lc_sb_printf(sb, "%s    %s = u_.t;\n%s}\n", ind, var, ind);
}

/* Every slot's state s<k> stored as this item's partial at scratch index `at` (atomic: read
 * by another group of the same launch; else plain, read by a later launch). */
void lc_store_partials_at(struct lc_cg *g, struct lc_sb *sb, const char *at, const char *ind,
                          int atomic)
{
    for (int s = 0; s < g->k->n_reds; s++) {
        char pre[16];
        snprintf(pre, sizeof pre, "s%d", s);
        if (!atomic) {
            lc_red_store(g, sb, s, pre, at, ind);
            continue;
        }
        for (int f = 0; f < lc_red_nfields(&g->k->reds[s]); f++) {
            char v[24];
            snprintf(v, sizeof v, "%s_%c", pre, 'a' + f);
            lc_put_field(g, sb, s, f, at, v, ind);
        }
    }
}

/* State `pre` (o<k>) of slot s = the partial at scratch index `at`. */
static void lc_load_partial(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                            const char *at, const char *ind)
{
    for (int f = 0; f < lc_red_nfields(&g->k->reds[s]); f++) {
        char v[40];
        snprintf(v, sizeof v, "%.30s_%c", pre, 'a' + f);
        lc_get_field(g, sb, s, f, at, v, ind);
    }
}

static void lc_store_partials(struct lc_cg *g, struct lc_sb *sb, const char *at)
{
    lc_store_partials_at(g, sb, at, "        ", 1);
}

/* The last group's part of a split reduction: fold the partials of this
 * output in chunk order (partial q at scratch index `at`, written in terms of
 * q), then the epilogue and the stores. */
static void lc_combine_partials_at(struct lc_cg *g, struct lc_sb *sb, const char *at,
                                   const char *ind, int atomic)
{
    const struct lc_kernel *k = g->k;
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    lc_init_all(g, sb, "s", ind);
    lc_sb_printf(sb, "%sfor (long q = 0; q < P; q++) {\n", ind);
    for (int s = 0; s < k->n_reds; s++) {
        char me[16], o[16];
        snprintf(me, sizeof me, "s%d", s);
        snprintf(o, sizeof o, "o%d", s);
        if (atomic)
            lc_load_partial(g, sb, s, o, at, in2);
        else
            lc_red_load(g, sb, s, o, at, in2);
        lc_red_combine(g, sb, s, me, o, in2);
    }
    lc_sb_printf(sb, "%s}\n", ind);
    lc_emit_exprs(g, sb, 1, ind);
    lc_store_outputs(g, sb, ind, g->nk);
}

static void lc_combine_partials(struct lc_cg *g, struct lc_sb *sb, const char *at)
{
    lc_combine_partials_at(g, sb, at, "    ", 1);
    lc_sb_printf(sb, "}\n");
}

/* Declare the scratch offsets of every reduction's partials (M*P each),
 * starting at byte `off`; returns the scratch size, or 0 on no memory. */
static size_t lc_partial_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb, size_t off,
                                size_t count)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++) {
            lc_sb_printf(sb, ", const long so%d_%d", s, f);
            if (lc_add_i64(l, (int64_t)off) < 0)
                return 0;
            off = lc_round_up(off + count * (lc_field_wide(g, s, f) ? 8 : 4) *
                                        (size_t)lc_field_words(g, s, f), 16);
        }
    return off;
}

/* The header of kernel @K@<suffix>, a column reduction over `blocks` blocks of outputs
 * times P chunks: the common parameters, then a scratch area holding one
 * zeroed counter per block and the [P][M] partials of every reduction. */
int lc_block_partials_header(struct lc_cg *g, struct lc_kcode *c, struct lc_launch *l,
                             struct lc_sb *sb, const char *suffix, int64_t blocks, int64_t P,
                             int64_t M, int64_t N)
{
    size_t off = lc_round_up((size_t)blocks * sizeof(int), 16);
    c->zero_bytes = (size_t)blocks * sizeof(int);
    lc_sb_printf(sb, "__kernel void @K@%s(", suffix);
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0)
        return -1;
    union lc_scalar none = {0};
    lc_sb_printf(sb, ",\n    __global char *scratch_, const long sbase, const long P, const long N, const long M");
    if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 ||
        lc_add_i64(l, P) < 0 || lc_add_i64(l, N) < 0 || lc_add_i64(l, M) < 0)
        return -1;
    off = lc_partial_params(g, l, sb, off, (size_t)M * (size_t)P);
    if (!off)
        return -1;
    c->scratch_bytes = off;
    lc_sb_printf(sb, ")\n{\n");
    return 0;
}

/* The chunks of rows of a column reduction in `blocks` blocks of N rows: about 256 rows each,
 * up to 16, at least 4 items per compute unit, at least 64 rows each. */
int64_t lc_block_chunks(const struct lc_cg *g, int64_t N, int64_t blocks)
{
    int64_t cu = g->t->compute_units, maxp = N / 64 < 1 ? 1 : N / 64;
    int64_t P = N / 256 < 1 ? 1 : N / 256 > 16 ? 16 : N / 256;
    if (blocks * P < 4 * cu)
        P = (4 * cu + blocks - 1) / blocks;
    return P > maxp ? maxp : P;
}

/* The fold launch's kernel of a column reduction in blocks (schedule D, the panels): its header
 * and item (blk, p)'s outputs from c0 = blk B and rows [r0, r_end) of chunk p. */
int lc_block_part_head(struct lc_cg *g, struct lc_kcode *c, struct lc_launch *l, struct lc_sb *sb,
                       int64_t blocks, int64_t P, int64_t M, int64_t N, int64_t B)
{
    if (lc_block_partials_header(g, c, l, sb, "_part", blocks, P, M, N) < 0)
        return -1;
    lc_sb_printf(sb, "    __global char *scratch = scratch_ + sbase;\n"
                     "    const long blk = get_global_id(0), p = get_global_id(1);\n"
                     "    const long c0 = blk * %lld;\n"
                     "    const long chunk = (N + P - 1) / P;\n"
                     "    const long r0 = min(N, p * chunk), r_end = min(N, r0 + chunk);\n",
                 (long long)B);
    return 0;
}

/* Output i0 of a column reduction in blocks folded alone over rows [r0, r_end) and stored as
 * its partial (the outputs past a block's or panel's whole vectors). */
void lc_block_fold_one(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    lc_init_all(g, sb, "s", ind);
    lc_sb_printf(sb, "%sfor (long r = r0; r < r_end; r++) {\n", ind);
    lc_unravel(sb, g->nk, g->nd, "r", in2);
    lc_fold_all(g, sb, "r", in2);
    lc_sb_printf(sb, "%s}\n", ind);
    lc_store_partials_at(g, sb, "p * M + i0", ind, 0);
}

/* The fold launch `part` of a column reduction in blocks (schedule D, the panels) set to
 * blocks x P items, one a group; then the combining launch: item blk combines its block's
 * (B outputs') partials in chunk order. A launch of its own, not a last item counted in: the
 * M*P partials would each take atomics (plain accesses of two groups of one launch race), at
 * a cost comparable with the fold's. */
int lc_block_combine(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, struct lc_launch *part,
                     int64_t blocks, int64_t P, int64_t M, int64_t N, int64_t B)
{
    part->work_dim = 2;
    lc_single_item_groups(part);
    part->global[0] = (size_t)blocks;
    part->global[1] = (size_t)P;
    /* (part is no use past here: a new launch may move the launches.) */
    struct lc_launch *l = lc_new_launch(c, "_comb");
    if (!l || lc_block_partials_header(g, c, l, sb, "_comb", blocks, P, M, N) < 0)
        return -1;
    c->zero_bytes = 0;
    lc_sb_printf(sb, "    __global char *scratch = scratch_ + sbase;\n"
                     "    const long c0 = get_global_id(0) * %lld;\n"
                     "    for (long i0 = c0; i0 < min(M, c0 + %lld); i0++) {\n",
                 (long long)B, (long long)B);
    lc_combine_partials_at(g, sb, "q * M + i0", "        ", 0);
    lc_sb_printf(sb, "    }\n}\n");
    l->work_dim = 1;
    lc_single_item_groups(l);
    l->global[0] = (size_t)blocks;
    return 0;
}

/* Schedule C (column reductions on targets with column_blocks, GPUs): groups of L adjacent outputs times P
 * chunks of the reduced elements. Item (block, chunk, lid) folds its chunk
 * of output block*L + lid, so each step of the loop reads L adjacent
 * addresses (coalesced); partials go to scratch as [P][M], and the last
 * group of each block combines them in chunk order. */
static int lc_gen_reduce_colsplit(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    int nd = g->nd, nk = g->nk;
    int64_t M = lc_kept_count(g), N = lc_reduced_count(g);
    size_t L = g->t->work_group;
    unsigned cu = g->t->compute_units;
    int64_t blocks = (M + (int64_t)L - 1) / (int64_t)L;
    int64_t want = (int64_t)cu * 8 / blocks, maxp = N / 16;
    size_t P = (size_t)(want < 1 ? 1 : want > maxp ? (maxp < 1 ? 1 : maxp) : want);
    lc_partials_pragma(g, sb);
    if (lc_block_partials_header(g, c, l, sb, "", blocks, (int64_t)P, M, N) < 0)
        return -1;
    lc_sb_printf(sb, "    __local int last_[1];\n"
                     "    __global char *scratch = scratch_ + sbase;\n"
                     "    const long grp = get_group_id(0);\n"
                     "    const long blk = grp / P, p = grp %% P;\n"
                     "    const int lid = get_local_id(0);\n"
                     "    const long i0 = blk * %zu + lid;\n"
                     "    const int valid = i0 < M;\n"
                     "    if (valid) {\n", L);
    lc_init_all(g, sb, "s", "        ");
    lc_sb_printf(sb, "        const long chunk = (N + P - 1) / P;\n"
                     "        const long r_end = min(N, (p + 1) * chunk);\n"
                     "        for (long r = p * chunk; r < r_end; r++) {\n");
    lc_unravel(sb, nk, nd, "r", "            ");
    lc_fold_all(g, sb, "r", "            ");
    lc_sb_printf(sb, "        }\n");
    lc_store_partials(g, sb, "p * M + i0");
    lc_sb_printf(sb, "        mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                     "    }\n"
                     "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
                     "    if (lid == 0)\n"
                     "        last_[0] = atomic_inc((volatile __global int *)scratch + blk) == (int)(P - 1);\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    if (!last_[0] || !valid) return;\n"
                     "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
    lc_combine_partials(g, sb, "q * M + i0");
    l->work_dim = 1;
    l->use_local = 1;
    l->local[0] = L;
    l->local[1] = l->local[2] = 1;
    l->global[0] = (size_t)blocks * P * L;
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: blocks of %zu adjacent outputs x chunks of rows, last group combines", L);
    return 0;
}

/* Schedule D (column reductions on targets with explicit SIMD, PoCL): items are blocks
 * of V*W adjacent outputs times P chunks of the reduced rows. Each item walks
 * its rows with V W-lane vectors of state per reduction (a row chunk of a
 * block is a few cache lines per row, read once: walking all rows of 8
 * columns instead reads half a line per 16 KB stride and runs at a third of
 * the bandwidth); variances accumulate x - K (K = the chunk's first row) and
 * leave the chunk as Welford partials, [P][M] in scratch; a second launch
 * combines each block's in chunk order and runs the epilogue. */
static void lc_cb_exprs(struct lc_cg *g, struct lc_sb *sb, int W, int j, const char *ind)
{
    lc_sb_printf(sb, "%sconst long i0 = c0 + %d;\n", ind, j * W);
    lc_emit_exprs_vec(g, sb, W, 0, ind);
}

/* Slot s's partial from an earlier variance slot that folds the same values (x.mean(0) or
 * x.var(0) beside x.std(0)), with no state of its own: that slot, else -1. A float sum is
 * n K + sum(x - K), another variance (mean, any ddof) has the same partial. */
static int lc_cb_twin(struct lc_cg *g, int s)
{
    const struct lc_kernel *k = g->k;
    const struct lc_reduction *r = &k->reds[s];
    if (r->op != LC_OP_MEANVAR &&
        (r->op != LC_OP_SUM || !lc_dtype_is_float(r->in_dtype) || lc_dtype_is_complex(r->in_dtype)))
        return -1;
    for (int v = 0; v < k->n_reds; v++) {
        const struct lc_reduction *o = &k->reds[v];
        if (o->op == LC_OP_MEANVAR && o->expr == r->expr && (r->op != LC_OP_MEANVAR || v < s) &&
            !strcmp(lc_red_acc(g, o), lc_red_acc(g, r)))
            return v;   /* the first such: a state of its own */
    }
    return -1;
}

static int lc_gen_reduce_colblock(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    if (lc_reduce_colpanel_fits(g))
        return lc_gen_reduce_colpanel(g, c, sb);
    const struct lc_kernel *k = g->k;
    struct lc_launch *l = lc_new_launch(c, "_part");
    if (!l)
        return -1;
    int nd = g->nd, nk = g->nk, W = g->t->simd;
    int64_t M = lc_kept_count(g), N = lc_reduced_count(g);
    /* V vectors per reduction field (target.c: four, measured). A float32 mean and std keep
     * 3 x 4 double8 states, more than AVX2's 16 registers hold, yet 2 vectors were slower:
     * 4096^2 statistics 7.4-11 ms against 4.4-5.9 with 4 (PoCL and Intel, 2 Zen 3 cores,
     * alternating builds, huge pages on or off; the wider block reads two lines a row). */
    int V = g->t->colblock_vectors;
    int64_t B = (int64_t)V * W;
    int64_t blocks = (M + B - 1) / B;
    int64_t P = lc_block_chunks(g, N, blocks);
    if (lc_block_part_head(g, c, l, sb, blocks, P, M, N, B) < 0)
        return -1;
    lc_sb_printf(sb, "    if (c0 + %lld <= M) {\n", (long long)B);
    /* Vector states q<s>_<f><j>. */
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        const char *A = lc_red_acc(g, r);
        for (int j = 0; j < V; j++) {
            if (r->op == LC_OP_RMAX || r->op == LC_OP_RMIN)
                lc_sb_printf(sb, "        %s%d q%d_a%d = (%s%d)(%s);\n", A, W, s, j, A, W,
                             lc_limit(r->in_dtype, r->op == LC_OP_RMIN));
            else if (lc_cb_twin(g, s) >= 0)
                continue;
            else if (r->op == LC_OP_MEANVAR)
                lc_sb_printf(sb, "        %s%d q%d_k%d = 0, q%d_b%d = 0, q%d_c%d = 0;\n", A, W, s,
                             j, s, j, s, j);
            else if (r->op == LC_OP_USERRED) {
                char q[24];
                snprintf(q, sizeof q, "q%d_a%d", s, j);
                lc_user_vec_init(g, sb, s, q, W, "        ");
            } else
                lc_sb_printf(sb, "        %s%d q%d_a%d = 0;\n", A, W, s, j);
        }
    }
    int any_var = 0;
    for (int s = 0; s < k->n_reds; s++)
        any_var |= k->reds[s].op == LC_OP_MEANVAR;
    if (any_var) {
        /* K: the chunk's first row. */
        lc_sb_printf(sb, "        if (r0 < r_end) {\n");
        lc_unravel(sb, nk, nd, "r0", "            ");
        for (int j = 0; j < V; j++) {
            lc_sb_printf(sb, "            {\n");
            lc_cb_exprs(g, sb, W, j, "                ");
            for (int s = 0; s < k->n_reds; s++)
                if (k->reds[s].op == LC_OP_MEANVAR && lc_cb_twin(g, s) < 0) {
                    char v[32];
                    snprintf(v, sizeof v, "w%d", k->reds[s].expr);
                    lc_sb_printf(sb, "                q%d_k%d = ", s, j);
                    lc_vcast(sb, v, k->exprs[k->reds[s].expr].dtype,
                             !strcmp(lc_red_acc(g, &k->reds[s]), "double") ? LC_FLOAT64 : LC_FLOAT32, W);
                    lc_sb_printf(sb, ";\n");
                }
            lc_sb_printf(sb, "            }\n");
        }
        lc_sb_printf(sb, "        }\n");
    }
    lc_sb_printf(sb, "        for (long r = r0; r < r_end; r++) {\n");
    lc_unravel(sb, nk, nd, "r", "            ");
    for (int j = 0; j < V; j++) {
        lc_sb_printf(sb, "            {\n");
        lc_cb_exprs(g, sb, W, j, "                ");
        for (int s = 0; s < k->n_reds; s++) {
            const struct lc_reduction *r = &k->reds[s];
            const char *A = lc_red_acc(g, r);
            char v[32];
            snprintf(v, sizeof v, "w%d", r->expr);
            struct lc_sb cv = {0};
            lc_vcast(&cv, v, k->exprs[r->expr].dtype, !strcmp(A, "double") ? LC_FLOAT64 : LC_FLOAT32, W);
            if (lc_cb_twin(g, s) >= 0)
                ;   /* a variance's sums give it */
            else if (r->op == LC_OP_SUM)
                lc_sb_printf(sb, "                q%d_a%d += %s;\n", s, j, cv.s);
            else if (r->op == LC_OP_MEANVAR) {
                /* x_ = the value less the shift. float32 data into double: the shift subtracted
                 * in float32 (exact where the value is within a factor 2 of it, the case the
                 * shift is for; else rounded relative to the difference), then widened: PoCL,
                 * 4096^2 column statistics, 7.4 ms with a double subtraction, 6.0 so
                 * (hand-written sums without a shift: 5.8). fma: one rounding, where the
                 * product and the sum took two. */
                struct lc_sb dv = {0};
                char d[128];
                if (k->exprs[r->expr].dtype == LC_FLOAT32 && !strcmp(A, "double") && W > 1) {
                    snprintf(d, sizeof d, "(%s - convert_float%d(q%d_k%d))", v, W, s, j);
                    lc_vcast(&dv, d, LC_FLOAT32, LC_FLOAT64, W);
                } else {
                    lc_sb_printf(&dv, "%s - q%d_k%d", cv.s, s, j);
                }
                lc_sb_printf(sb, "                { const %s%d x_ = %s; q%d_b%d += x_; q%d_c%d = fma(x_, x_, q%d_c%d); }\n",
                             A, W, dv.s ? dv.s : "", s, j, s, j, s, j);
                lc_sb_free(&dv);
            }
            else if (r->op == LC_OP_USERRED) {
                char q[24];
                snprintf(q, sizeof q, "q%d_a%d", s, j);
                lc_user_vec_fold(g, sb, s, q, v, W, "                ");
            } else
                lc_sb_printf(sb, "                q%d_a%d = select(q%d_a%d, %s, (%s %s q%d_a%d) | isnan(%s));\n",
                             s, j, s, j, v, v, r->op == LC_OP_RMAX ? ">" : "<", s, j, v);
            lc_sb_free(&cv);
        }
        lc_sb_printf(sb, "            }\n");
    }
    lc_sb_printf(sb, "        }\n");
    /* Partials: variances as (count, mean, M2). */
    for (int s = 0; s < k->n_reds; s++) {
        const struct lc_reduction *r = &k->reds[s];
        const char *A = lc_red_acc(g, r);
        int tw = lc_cb_twin(g, s), st = tw >= 0 ? tw : s;   /* the state it reads */
        for (int j = 0; j < V; j++) {
            if (r->op == LC_OP_MEANVAR) {
                lc_sb_printf(sb,
                             "        {\n"
                             "            const %s n_ = (%s)(r_end - r0);\n"
                             "            const %s%d m2_ = q%d_c%d - q%d_b%d * q%d_b%d / n_;\n"
                             "            vstore%d((%s%d)(n_), 0, (__global %s *)(scratch + so%d_0) + p * M + c0 + %d);\n"
                             "            vstore%d(n_ > 0 ? q%d_k%d + q%d_b%d / n_ : (%s%d)(0), 0, (__global %s *)(scratch + so%d_1) + p * M + c0 + %d);\n"
                             "            vstore%d(n_ > 0 ? select(m2_, (%s%d)(0), m2_ < 0) : (%s%d)(0), 0, (__global %s *)(scratch + so%d_2) + p * M + c0 + %d);\n"
                             "        }\n",
                             A, A, A, W, st, j, st, j, st, j,
                             W, A, W, A, s, j * W,
                             W, st, j, st, j, A, W, A, s, j * W,
                             W, A, W, A, W, A, s, j * W);
            } else if (tw >= 0) {
                lc_sb_printf(sb, "        vstore%d((%s)(r_end - r0) * q%d_k%d + q%d_b%d, 0, (__global %s *)(scratch + so%d_0) + p * M + c0 + %d);\n",
                             W, A, tw, j, tw, j, A, s, j * W);
            } else {
                lc_sb_printf(sb, "        vstore%d(q%d_a%d, 0, (__global %s *)(scratch + so%d_0) + p * M + c0 + %d);\n",
                             W, s, j, A, s, j * W);
            }
        }
    }
    /* Outputs past the last whole block: one at a time. */
    lc_sb_printf(sb, "    } else {\n"
                     "        for (long i0 = c0; i0 < M; i0++) {\n");
    lc_block_fold_one(g, sb, "            ");
    lc_sb_printf(sb, "        }\n"
                     "    }\n}\n\n");
    /* Launch 2: item blk combines its block's partials in chunk order (lc_block_combine). */
    if (lc_block_combine(g, c, sb, l, blocks, P, M, N, B) < 0)
        return -1;
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: blocks of %lld outputs x chunks of rows, %d-wide SIMD, then a launch combines",
             (long long)B, W);
    return 0;
}

/* A strided split reduction over one reduced dim that reads a random source along it takes
 * four elements per step: a Philox block gives four values (random.c), the other reads move by
 * 0 or 1 along the dim (unit ones as 4-vectors). */
static int lc_split_quads(struct lc_cg *g)
{
    int rd = g->nk, any = 0;
    if (g->nd - g->nk != 1 || lc_has_gather(g))
        return 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->kind == LC_ACCESS_CONST || x->epilogue)
            continue;
        if (x->kind == LC_ACCESS_IOTA || x->n_dyn || x->strides[rd] > 1 || x->strides[rd] < 0)
            return 0;
        if (x->kind == LC_ACCESS_RANDOM && x->strides[rd] == 1) {
            if (!lc_random_quad_ok(g, a))
                return 0;
            any = 1;
        }
    }
    return any;
}

/* The items' loop over whole quads (element r4 + u in lane u), leaving the tail N & 3. */
static void lc_quad_fold(struct lc_cg *g, struct lc_sb *sb)
{
    int rd = g->nk;
    lc_sb_printf(sb, "    for (long r4 = (p * L + lid) * 4; r4 < (N & ~3L); r4 += P * L * 4) {\n"
                     "        const long i%d = r4;\n", rd);
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->kind == LC_ACCESS_CONST || x->epilogue || x->strides[rd] != 1)
            continue;
        lc_sb_printf(sb, "        const %s4 t%d = ", lc_T(x->dtype), a);
        if (x->kind == LC_ACCESS_RANDOM) {
            lc_random_quad(g, sb, a);
        } else {
            lc_sb_printf(sb, "vload4(0, a%d + ", a);
            lc_addr(g, sb, a);
            lc_sb_printf(sb, ")");
        }
        lc_sb_printf(sb, ";\n");
    }
    g->lane_dim = rd;
    for (int u = 0; u < 4; u++) {
        char idx[32];
        snprintf(idx, sizeof idx, "(r4 + %d)", u);
        g->lane = u;
        lc_sb_printf(sb, "        {\n");
        lc_fold_all(g, sb, idx, "            ");
        lc_sb_printf(sb, "        }\n");
    }
    g->lane = -1;
    g->lane_dim = 0;
    lc_sb_printf(sb, "    }\n");
}

/* Schedule B: P work-groups of L items per output; each item folds a part
 * (a contiguous chunk, or a strided share on split_strided targets, GPUs),
 * the group combines
 * its items in local memory, and the last group to finish an output
 * combines the P partials in order and runs the epilogue. No group ever
 * waits for another, so nothing assumes forward progress. */
/* Fold the states s<k> of a group's L items into item 0's (and every
 * item's s<k> = the group total afterwards), through local arrays ls<s>_<f>. */
static void lc_group_tree(struct lc_cg *g, struct lc_sb *sb, size_t L)
{
    const struct lc_kernel *k = g->k;
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "    ls%d_%d[lid] = s%d_%c;\n", s, f, s, 'a' + f);
    lc_sb_printf(sb, "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (int w = %zu / 2; w > 0; w >>= 1) {\n"
                     "        if (lid < w) {\n", L);
    for (int s = 0; s < k->n_reds; s++) {
        char pre[16];
        snprintf(pre, sizeof pre, "o%d", s);
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "            %s %s_%c = ls%d_%d[lid + w];\n",
                         lc_red_ftype(g, &k->reds[s], f), pre, 'a' + f, s, f);
        char me[16];
        snprintf(me, sizeof me, "s%d", s);
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "            s%d_%c = ls%d_%d[lid];\n", s, 'a' + f, s, f);
        lc_red_combine(g, sb, s, me, pre, "            ");
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "            ls%d_%d[lid] = s%d_%c;\n", s, f, s, 'a' + f);
    }
    lc_sb_printf(sb, "        }\n        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n");
    for (int s = 0; s < k->n_reds; s++)
        for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
            lc_sb_printf(sb, "    s%d_%c = ls%d_%d[0];\n", s, 'a' + f, s, f);
}

static int lc_gen_reduce_split(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nk = g->nk;
    int64_t M = lc_kept_count(g), N = lc_reduced_count(g);
    const struct lc_target *t = g->t;
    /* P groups per output, each item folding split_per_item elements or more; about 8
     * groups per compute unit, over all outputs when the shares are strided. */
    size_t L = t->split_items, P;
    int64_t want = N / ((int64_t)L * t->split_per_item);
    int64_t cap = (int64_t)t->compute_units * 8;
    if (t->split_strided) {
        cap /= M > 0 ? M : 1;
        if (cap < 1) cap = 1;
    }
    P = (size_t)(want < 1 ? 1 : want > cap ? cap : want);
    /* Scratch: M counters (zeroed), then per slot and field M*P partials. */
    size_t off = lc_round_up((size_t)M * sizeof(int), 16);
    c->zero_bytes = (size_t)M * sizeof(int);
    lc_partials_pragma(g, sb);
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, nk) < 0)
        return -1;
    union lc_scalar none = {0};
    lc_sb_printf(sb, ",\n    __global char *scratch_, const long sbase, const long P, const long N");
    if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 ||
        lc_add_i64(l, (int64_t)P) < 0 || lc_add_i64(l, N) < 0)
        return -1;
    off = lc_partial_params(g, l, sb, off, (size_t)M * P);
    if (!off)
        return -1;
    c->scratch_bytes = off;
    lc_sb_printf(sb, ")\n{\n");
    if (L > 1)
        for (int s = 0; s < k->n_reds; s++)
            for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
                lc_sb_printf(sb, "    __local %s ls%d_%d[%zu];\n", lc_red_ftype(g, &k->reds[s], f),
                             s, f, L);
    lc_sb_printf(sb, "    __local int last_[1];\n"
                     "    __global char *scratch = scratch_ + sbase;\n"
                     "    const long grp = get_group_id(0);\n"
                     "    const long m = grp / P, p = grp %% P;\n"
                     "    const int lid = get_local_id(0);\n"
                     "    const long L = get_local_size(0);\n");
    if (nk > 0)
        lc_unravel(sb, 0, nk, "m", "    ");
    lc_sb_printf(sb, "    {\n");
    lc_init_all(g, sb, "s", "    ");
    int quad = t->split_strided && lc_split_quads(g);
    if (quad) {
        lc_quad_fold(g, sb);
        lc_sb_printf(sb, "    for (long r = (N & ~3L) + p * L + lid; r < N; r += P * L) {\n");
    } else if (t->split_strided)
        lc_sb_printf(sb, "    for (long r = p * L + lid; r < N; r += P * L) {\n");
    else
        lc_sb_printf(sb, "    const long t = p * L + lid, chunk = (N + P * L - 1) / (P * L);\n"
                         "    const long r_end = min(N, (t + 1) * chunk);\n");
    int vec = nd - nk == 1 && lc_vec_ok(g, nk), W = vec ? lc_simd_lanes(g) : 0;
    if (vec) {
        lc_vec_fold_loop(g, sb, "t * chunk", "r_end", W, "    ");
    } else if (!t->split_strided) {
        lc_sb_printf(sb, "    for (long r = t * chunk; r < r_end; r++) {\n");
    }
    if (vec) {
    } else if (nd - nk > 0) {
        lc_sb_printf(sb, "        {\n");
        lc_unravel(sb, nk, nd, "r", "        ");
        lc_fold_all(g, sb, "r", "        ");
        lc_sb_printf(sb, "        }\n");
    } else {
        lc_fold_all(g, sb, "r", "        ");
    }
    if (!vec)
        lc_sb_printf(sb, "    }\n");
    if (L > 1)
        lc_group_tree(g, sb, L);
    lc_sb_printf(sb, "    if (lid == 0) {\n");
    lc_store_partials(g, sb, "m * P + p");
    lc_sb_printf(sb, "        mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                     "        last_[0] = atomic_inc((volatile __global int *)scratch + m) == (int)(P - 1);\n"
                     "    }\n"
                     "    }\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n");
    if (L > 1) {
        /* The last group: its items fold partials lid, lid + L, ..., then
         * item 0 folds theirs (a fixed order: the same bits every run). */
        lc_sb_printf(sb, "    if (!last_[0]) return;\n"
                         "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
        lc_init_all(g, sb, "s", "    ");
        lc_sb_printf(sb, "    for (long q = lid; q < P; q += L) {\n");
        for (int s = 0; s < k->n_reds; s++) {
            char me[16], o[16];
            snprintf(me, sizeof me, "s%d", s);
            snprintf(o, sizeof o, "o%d", s);
            lc_load_partial(g, sb, s, o, "m * P + q", "        ");
            lc_red_combine(g, sb, s, me, o, "        ");
        }
        lc_sb_printf(sb, "    }\n");
        /* Item 0 folds the L items' states from local memory, in order. */
        for (int s = 0; s < k->n_reds; s++)
            for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
                lc_sb_printf(sb, "    ls%d_%d[lid] = s%d_%c;\n", s, f, s, 'a' + f);
        lc_sb_printf(sb, "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    if (lid != 0) return;\n"
                         "    for (int w = 1; w < L; w++) {\n");
        for (int s = 0; s < k->n_reds; s++) {
            char me[16], o[16];
            snprintf(me, sizeof me, "s%d", s);
            snprintf(o, sizeof o, "o%d", s);
            for (int f = 0; f < lc_red_nfields(&k->reds[s]); f++)
                lc_sb_printf(sb, "        const %s %s_%c = ls%d_%d[w];\n",
                             lc_red_ftype(g, &k->reds[s], f), o, 'a' + f, s, f);
            lc_red_combine(g, sb, s, me, o, "        ");
        }
        lc_sb_printf(sb, "    }\n");
        lc_emit_exprs(g, sb, 1, "    ");
        lc_store_outputs(g, sb, "    ", g->nk);
        lc_sb_printf(sb, "}\n");
    } else {
        lc_sb_printf(sb, "    if (lid != 0 || !last_[0]) return;\n"
                         "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
        /* The last group: fold partials 0..P-1 in order. */
        lc_combine_partials(g, sb, "m * P + q");
    }
    l->work_dim = 1;
    l->use_local = 1;
    l->local[0] = L;
    l->local[1] = l->local[2] = 1;
    l->global[0] = (size_t)M * P * L;
    char simd[32] = "";
    if (vec)
        snprintf(simd, sizeof simd, ", %d-wide SIMD", W);
    snprintf(c->schedule, sizeof c->schedule,
             "reduce: split over groups of %zu items, last group combines%s", L, simd);
    return 0;
}

/* Column reductions on SIMD targets with enough rows for row chunks. */
static int lc_reduce_colblock_fits(struct lc_cg *g)
{
    return lc_reduce_simd_columns(g) && lc_reduced_count(g) >= g->t->colblock_min_rows;
}

/* Column reductions on column_blocks targets, too few outputs to fill the
 * device one item each, enough rows to share out. */
static int lc_reduce_colsplit_fits(struct lc_cg *g)
{
    const struct lc_target *t = g->t;
    return t->column_blocks && lc_columnlike(g) && lc_kept_count(g) < t->column_loop_outputs &&
           lc_reduced_count(g) >= t->split_min_reduced;
}

const struct lc_schedule lc_sched_reduce_colblock = {LC_KERNEL_REDUCE, "reduce",
                                                     lc_reduce_colblock_fits,
                                                     lc_gen_reduce_colblock};
const struct lc_schedule lc_sched_reduce_colsplit = {LC_KERNEL_REDUCE, "reduce",
                                                     lc_reduce_colsplit_fits,
                                                     lc_gen_reduce_colsplit};
const struct lc_schedule lc_sched_reduce_split = {LC_KERNEL_REDUCE, "reduce", NULL,
                                                  lc_gen_reduce_split};
