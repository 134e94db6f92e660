/* store.c: the store schedule: a value written in place into an existing array.
 *
 * One item per element of the target's index space computes the value (and
 * the predicate) and writes it at the place the target reads: strided (a
 * slice, the whole array) or gathered (an integer-array key, a compaction's
 * position). Assignments are plain stores: where several items write one
 * place (repeated indices), one of them wins, which NumPy leaves unspecified
 * too. Combined stores (np.add.at, bincount) fold the value in atomically,
 * so every item counts (atomic.c; dtypes under 4 bytes are folded into a
 * 32-bit copy first). A gathered
 * index out of range writes nothing: the item only reports it (lc_gidx),
 * and the host raises IndexError.
 *
 * On CPUs an atomic costs 20-50 ns, so a scatter-add into a small target
 * (bincount, np.add.at) runs privatized instead: each of G items adds a
 * contiguous share of the elements into a private copy of the target's span
 * with plain adds, and a second launch sums the G copies in order into the
 * target. Both orders are fixed, so the result is the same on every run; the
 * atomic schedule's float sums depend on the order items reach the target.
 */
#include "codegen/cg.h"

#include <stdio.h>

/* The condition under which this item writes: its predicate holds and every
 * index the target gathers by is in range. */
static int lc_store_guard_of(struct lc_cg *g, struct lc_sb *sb, int pred)
{
    const struct lc_kernel *k = g->k;
    const struct lc_access *t = &g->acc[k->store_access];
    int any = 0;
    if (pred && k->store_pred >= 0) {
        lc_sb_printf(sb, "v%d", k->store_pred);
        any = 1;
    }
    for (int j = 0; j < t->n_dyn; j++) {
        const struct lc_expr *x = &k->exprs[t->dyn[j] - 1];
        int r = x->in[0];
        if (x->axis < 0)
            continue;               /* in range by construction (clamped) */
        if (any)
            lc_sb_printf(sb, " && ");
        /* As lc_gidx reads it: a uint64 index past the long range wraps (NumPy's cast). */
        lc_sb_printf(sb, "(long)v%d >= -x%d_n && (long)v%d < x%d_n", r, t->dyn[j] - 1, r,
                     t->dyn[j] - 1);
        any = 1;
    }
    return any;
}

int lc_store_guard(struct lc_cg *g, struct lc_sb *sb)
{
    return lc_store_guard_of(g, sb, 1);
}

void lc_store_item_head(struct lc_cg *g, struct lc_sb *sb)
{
    lc_emit_exprs(g, sb, 0, "        ");
    struct lc_sb cond = {0};
    if (lc_store_guard(g, &cond))
        lc_sb_printf(sb, "        if (%s) {\n", cond.s ? cond.s : "0");
    else
        lc_sb_printf(sb, "        {\n");
    if (cond.oom)
        sb->oom = 1;
    lc_sb_free(&cond);
    lc_sb_printf(sb, "            const long q_ = ");
    lc_addr(g, sb, g->k->store_access);
    lc_sb_printf(sb, ";\n");
}

/* Fold v<value> into the target's element atomically. */
static void lc_store_atomic(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    const struct lc_kernel *k = g->k;
    int a = k->store_access;
    struct lc_sb ptr = {0};
    char v[32];
    lc_sb_printf(&ptr, "a%d + ", a);
    lc_addr(g, &ptr, a);
    snprintf(v, sizeof v, "v%d", k->store_value);
    if (ptr.oom)
        sb->oom = 1;
    lc_emit_atomic_fold(g, sb, ind, g->acc[a].dtype, k->store_combine, "__global",
                        ptr.s ? ptr.s : "", v);
    lc_sb_free(&ptr);
}

static void lc_store_write(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    const struct lc_kernel *k = g->k;
    int a = k->store_access;
    if (!k->store_combine) {
        lc_sb_printf(sb, "%sa%d[", ind, a);
        lc_addr(g, sb, a);
        lc_sb_printf(sb, "] = v%d;\n", k->store_value);
    } else {
        lc_store_atomic(g, sb, ind);
    }
}

void lc_store_emit(struct lc_cg *g, struct lc_sb *sb, const char *ind)
{
    struct lc_sb cond = {0};
    /* In row order, the row's writes end at its first false predicate (graph.h). */
    int ordered = g->k->store_ordered && g->k->store_pred >= 0;
    if (ordered)
        lc_sb_printf(sb, "%sif (!v%d)\n%s    break;\n", ind, g->k->store_pred, ind);
    if (lc_store_guard_of(g, &cond, !ordered)) {
        char in2[64];
        snprintf(in2, sizeof in2, "%s    ", ind);
        lc_sb_printf(sb, "%sif (%s) {\n", ind, cond.s ? cond.s : "0");
        lc_store_write(g, sb, in2);
        lc_sb_printf(sb, "%s}\n", ind);
    } else {
        lc_store_write(g, sb, ind);
    }
    if (cond.oom)
        sb->oom = 1;
    lc_sb_free(&cond);
}

static int lc_store_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    int dt = g->acc[k->store_access].dtype;
    if (k->store_combine && lc_dtype_size(dt) == 8)
        lc_sb_printf(sb, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0)
        return -1;
    lc_sb_printf(sb, ")\n{\n");
    int nd = g->nd;
    int64_t total = 1;
    for (int d = 0; d < nd; d++)
        total *= g->shape[d];
    /* 1-d: one group up to LC_SMALL_GROUP_MAX items, else the driver's groups (a bound test
     * in every item cost PoCL's vectorizer: map.c's lc_gen_map_items). 2-3 dims: the driver's
     * groups too. The ladder's covering groups took A[1:-1, 1:-1] = B[1:-1, 1:-1] * 2 over
     * 10^6 rows of 10 from 6.3-7.5 ms to 2.3-3.4, but jacobi_2d's stores of rows of 1998 from
     * 55 to 81-83 ms (groups of 4096 a row, half of them returning). */
    int grouped = nd == 1 && lc_small_group_check(g->t, total);   /* never with fixed groups */
    if (nd >= 1 && nd <= 3) {
        /* OpenCL dim 0 is the innermost (fastest) kernel dim. */
        for (int d = nd - 1; d >= 0; d--) {
            lc_sb_printf(sb, "    const long i%d = get_global_id(%d);\n", d, nd - 1 - d);
            l->global[nd - 1 - d] = (size_t)g->shape[d];
        }
        l->work_dim = (unsigned)nd;
        if (g->t->fixed_groups) {
            lc_sb_printf(sb, "    if (i%d >= n%d) return;\n", nd - 1, nd - 1);
        } else if (grouped) {
            lc_cpu_range(g->t, sb, l, NULL);   /* at most LC_SMALL_GROUP_MAX: one group */
        }
    } else {
        lc_sb_printf(sb, "    const long gid = get_global_id(0);\n");
        if (g->t->fixed_groups || nd == 0) {
            lc_sb_printf(sb, "    if (gid >= 1");
            for (int d = 0; d < nd; d++)
                lc_sb_printf(sb, " * n%d", d);
            lc_sb_printf(sb, ") return;\n");
        }
        if (nd)
            lc_unravel(sb, 0, nd, "gid", "    ");
        l->work_dim = 1;
        l->global[0] = (size_t)total;
    }
    if (g->t->fixed_groups) {
        size_t wg = g->t->work_group;
        l->use_local = 1;
        l->local[0] = wg;
        l->local[1] = l->local[2] = 1;
        l->global[0] = total ? lc_round_up(l->global[0] ? l->global[0] : 1, wg) : 0;
    }
    lc_emit_exprs(g, sb, 0, "    ");
    lc_store_emit(g, sb, "    ");
    lc_sb_printf(sb, "}\n");
    snprintf(c->schedule, sizeof c->schedule, "store %d-d, one item per element%s", nd,
             k->store_combine ? ", combined atomically" : "");
    return 0;
}

/* The places the target's leaf spans: every place the store may write
 * (gathered indices are checked against the leaf's extents). */
void lc_leaf_span(const struct lc_node *leaf, int64_t *lo, int64_t *hi)
{
    *lo = *hi = leaf->offset;
    for (int d = 0; d < leaf->ndim; d++) {
        int64_t r = leaf->strides[d] * (leaf->shape[d] - 1);
        if (r < 0)
            *lo += r;
        else
            *hi += r;
    }
}

static int lc_private_fits(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    const struct lc_access *t = &g->acc[k->store_access];
    int dt = t->dtype;
    int64_t G = g->t->store_private, lo, hi, n = 1;
    if (k->store_combine != LC_OP_ADD || G < 1 || t->n_dyn < 1 || !t->leaf ||
        t->leaf->size == 0 || dt == LC_BOOL || lc_dtype_size(dt) < 4)
        return 0;
    lc_leaf_span(t->leaf, &lo, &hi);
    for (int d = 0; d < g->nd; d++)
        n *= g->shape[d];
    int64_t span = hi - lo + 1;
    return span <= g->t->store_private_max / G && span * G <= n;
}

/* Both launches' last arguments: the scratch holding the copies, and G, T, lo (a place of
 * the target's storage, bound from its leaf at each run). */
static int lc_private_args(struct lc_cg *g, struct lc_launch *l, int64_t G, int64_t span,
                           int64_t lo)
{
    union lc_scalar none = {0};
    int a = g->k->store_access;
    if (lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 ||
        lc_add_i64(l, G) < 0 || lc_add_i64(l, span) < 0 || lc_add_offset(l, &g->acc[a], a, lo) < 0)
        return -1;
    return 0;
}

static int lc_private_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    const struct lc_access *t = &g->acc[k->store_access];
    int a = k->store_access, dt = t->dtype, nd = g->nd;
    int64_t G = g->t->store_private, lo, hi;
    lc_leaf_span(t->leaf, &lo, &hi);
    int64_t span = hi - lo + 1;
    const char *T = lc_T(dt), *zero = lc_add_identity(dt);
    union lc_scalar none = {0};
    c->scratch_bytes = (size_t)(G * span) * (size_t)lc_dtype_size(dt);

    /* Launch 1: item g adds elements [N g / G, N (g + 1) / G) into copy g,
     * which starts at the identity (-0.0 keeps a -0.0 target's sign). */
    struct lc_launch *l = lc_new_launch(c, "_acc");
    if (!l)
        return -1;
    lc_sb_printf(sb, "__kernel void @K@_acc(");
    if (lc_common_params(g, l, sb) < 0)
        return -1;
    lc_sb_printf(sb, ",\n    __global char *scratch_, const long sbase, const long G, const long T, "
                     "const long lo)\n{\n");
    if (lc_private_args(g, l, G, span, lo) < 0)
        return -1;
    lc_sb_printf(sb, "    const long g_ = get_global_id(0);\n"
                     "    __global %s *p_ = (__global %s *)(scratch_ + sbase) + g_ * T;\n"
                     "    for (long b_ = 0; b_ < T; b_++)\n        p_[b_] = %s;\n"
                     "    const long N_ = 1", T, T, zero);
    for (int d = 0; d < nd; d++)
        lc_sb_printf(sb, " * n%d", d);
    lc_sb_printf(sb, ";\n" LC_LOOP_SCALAR
                     "    for (long gid = N_ * g_ / G; gid < N_ * (g_ + 1) / G; gid++) {\n");
    lc_unravel(sb, 0, nd, "gid", "        ");
    lc_store_item_head(g, sb);
    char v[32];
    snprintf(v, sizeof v, "v%d", k->store_value);
    const char *ops[2] = {"p_[q_ - lo]", v};
    lc_sb_printf(sb, "            p_[q_ - lo] = ");
    lc_cg_op(sb, &g->h, LC_OP_ADD, dt, dt, ops);
    lc_sb_printf(sb, ";\n        }\n    }\n}\n\n");
    l->work_dim = 1;
    l->global[0] = (size_t)G;
    lc_single_item_groups(l);

    /* Launch 2: each place of the span sums its G copies in order into the target. */
    l = lc_new_launch(c, "_merge");
    if (!l)
        return -1;
    lc_sb_printf(sb, "__kernel void @K@_merge(__global %s *a%d, __global char *scratch_, "
                     "const long sbase,\n    const long G, const long T, const long lo)\n{\n", T, a);
    if (lc_add_arg(l, LC_CGARG_INPUT, t->source, 0, none) < 0 || lc_private_args(g, l, G, span, lo) < 0)
        return -1;
    lc_sb_printf(sb, "    const long b_ = get_global_id(0);\n    if (b_ >= T)\n        return;\n"
                     "    __global const %s *p_ = (__global const %s *)(scratch_ + sbase) + b_;\n"
                     "    %s s_ = p_[0];\n    for (long g_ = 1; g_ < G; g_++)\n        s_ = ", T, T, T);
    const char *sum[2] = {"s_", "p_[g_ * T]"};
    lc_cg_op(sb, &g->h, LC_OP_ADD, dt, dt, sum);
    lc_sb_printf(sb, ";\n    a%d[lo + b_] = ", a);
    char tv[32];
    snprintf(tv, sizeof tv, "a%d[lo + b_]", a);
    const char *put[2] = {tv, "s_"};
    lc_cg_op(sb, &g->h, LC_OP_ADD, dt, dt, put);
    lc_sb_printf(sb, ";\n}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)span;
    if (g->t->fixed_groups) {
        l->use_local = 1;
        l->local[0] = g->t->work_group;
        l->local[1] = l->local[2] = 1;
        l->global[0] = lc_round_up((size_t)span, g->t->work_group);
    }
    snprintf(c->schedule, sizeof c->schedule,
             "store %d-d, scatter-add into private copies, then their sum", nd);
    return 0;
}

const struct lc_schedule lc_sched_store_private = {LC_KERNEL_STORE, "store", lc_private_fits,
                                                   lc_private_gen};

const struct lc_schedule lc_sched_store_items = {LC_KERNEL_STORE, "store", NULL, lc_store_gen};
