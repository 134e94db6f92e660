/* store_local.c: a scatter-add into few places, privatized per work-group.
 *
 * On GPUs, atomics into a small target (a histogram of a few hundred bins,
 * np.add.at into a short array) serialize on the same few addresses. Each
 * work-group instead keeps its own copy of the target's span in local
 * memory: its items walk the elements grid-stride (coalesced), fold each
 * value into the local copy with local atomics, and after a barrier fold
 * every place their group touched into the target with one global atomic.
 * The copies start at the identity (-0.0 for floats, so an untouched place
 * is recognized by its bits and skipped). The local copy is declared at the
 * target description's capacity and its length is an argument, so the
 * source does not change with the sizes.
 */
#include "codegen/cg.h"

#include <stdio.h>

static int64_t lc_local_groups(struct lc_cg *g, int64_t *groups)
{
    int64_t n = 1;
    for (int d = 0; d < g->nd; d++)
        n *= g->shape[d];
    int64_t wg = (int64_t)g->t->work_group;
    int64_t G = (n + wg - 1) / wg;
    if (G > g->t->store_local_groups)
        G = g->t->store_local_groups;
    *groups = G;
    return n;
}

static int lc_local_fits(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    const struct lc_access *t = &g->acc[k->store_access];
    int dt = t->dtype;
    int64_t lo, hi, G;
    if (k->store_combine != LC_OP_ADD || g->t->store_local_bytes <= 0 || t->n_dyn < 1 ||
        !t->leaf || t->leaf->size == 0 || dt == LC_BOOL || lc_dtype_size(dt) < 4 ||
        lc_dtype_kind(dt) == 'c')
        return 0;
    lc_leaf_span(t->leaf, &lo, &hi);
    int64_t span = hi - lo + 1;
    int64_t n = lc_local_groups(g, &G);
    /* The copy fits in local memory, and the groups' final folds are few beside the elements. */
    return span * (int64_t)lc_dtype_size(dt) <= g->t->store_local_bytes && span * G * 4 <= n;
}

static int lc_local_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    const struct lc_access *t = &g->acc[k->store_access];
    int a = k->store_access, dt = t->dtype, nd = g->nd;
    int64_t lo, hi, G;
    lc_leaf_span(t->leaf, &lo, &hi);
    int64_t span = hi - lo + 1;
    lc_local_groups(g, &G);
    size_t wg = g->t->work_group;
    const char *T = lc_T(dt);
    const char *zero = lc_add_identity(dt);
    struct lc_launch *l = lc_new_launch(c, "");
    if (!l)
        return -1;
    if (lc_dtype_size(dt) == 8)
        lc_sb_printf(sb, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
    lc_sb_printf(sb, "__kernel void @K@(");
    if (lc_common_params(g, l, sb) < 0)
        return -1;
    lc_sb_printf(sb, ", const long lo, const long T_)\n{\n");
    if (lc_add_offset(l, t, a, lo) < 0 || lc_add_i64(l, span) < 0)
        return -1;
    lc_sb_printf(sb, "    __local %s h_[%lld];\n    const long l_ = get_local_id(0);\n"
                     "    for (long b_ = l_; b_ < T_; b_ += %zu)\n        h_[b_] = %s;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n    const long N_ = 1",
                 T, (long long)(g->t->store_local_bytes / lc_dtype_size(dt)), wg, zero);
    for (int d = 0; d < nd; d++)
        lc_sb_printf(sb, " * n%d", d);
    lc_sb_printf(sb, ";\n    for (long gid = get_global_id(0); gid < N_; gid += get_global_size(0)) {\n");
    lc_unravel(sb, 0, nd, "gid", "        ");
    lc_store_item_head(g, sb);
    char v[32];
    snprintf(v, sizeof v, "v%d", k->store_value);
    lc_emit_atomic_fold(g, sb, "            ", dt, LC_OP_ADD, "__local", "h_ + (q_ - lo)", v);
    lc_sb_printf(sb, "        }\n    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (long b_ = l_; b_ < T_; b_ += %zu) {\n        const %s s_ = h_[b_];\n",
                 wg, T);
    lc_sb_printf(sb, "        if (");
    lc_emit_added(sb, dt, "s_");
    lc_sb_printf(sb, ") {\n");
    char p[48];
    snprintf(p, sizeof p, "a%d + lo + b_", a);
    lc_emit_atomic_fold(g, sb, "            ", dt, LC_OP_ADD, "__global", p, "s_");
    lc_sb_printf(sb, "        }\n    }\n}\n");
    l->work_dim = 1;
    l->global[0] = (size_t)G * wg;
    l->local[0] = wg;
    l->local[1] = l->local[2] = 1;
    l->use_local = 1;
    snprintf(c->schedule, sizeof c->schedule,
             "store %d-d, scatter-add into a local copy per work-group, then into the target", nd);
    return 0;
}

const struct lc_schedule lc_sched_store_local = {LC_KERNEL_STORE, "store", lc_local_fits,
                                                 lc_local_gen};
