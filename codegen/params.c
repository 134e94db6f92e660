/* params.c: a kernel's parameters and its launches' arguments: the outputs, reads (with their
 * offsets, strides and gathers' indices) and shape, the addresses they make, and the
 * launches themselves (names, fixed work-groups). */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lc_add_arg(struct lc_launch *l, enum lc_cgarg_kind kind, int index, int dtype,
               union lc_scalar v)
{
    if (l->n_args == l->cap_args) {
        int ncap = l->cap_args ? l->cap_args * 2 : 16;
        void *na = realloc(l->args, (size_t)ncap * sizeof *l->args);
        if (!na)
            return -1;
        l->args = na;
        l->cap_args = ncap;
    }
    l->args[l->n_args++] = (struct lc_cgarg){kind, index, dtype, v, LC_FROM_STRUCTURE, -1};
    return 0;
}

/* A scalar argument taken from access a's leaf (its value or its step). */
static int lc_add_leaf_arg(struct lc_launch *l, int a, enum lc_cgarg_from from, int dtype,
                           union lc_scalar v)
{
    if (lc_add_arg(l, LC_CGARG_SCALAR, 0, dtype, v) < 0)
        return -1;
    l->args[l->n_args - 1].from = from;
    l->args[l->n_args - 1].access = a;
    return 0;
}

int lc_add_offset(struct lc_launch *l, const struct lc_access *x, int a, int64_t off)
{
    const struct lc_node *leaf = x->leaf;
    if (!leaf || (leaf->op != LC_OP_BUFFER && leaf->op != LC_OP_IOTA))
        return lc_add_i64(l, off);
    union lc_scalar d = {.i = off - leaf->offset};
    return lc_add_leaf_arg(l, a, LC_FROM_OFFSET, LC_INT64, d);
}

int lc_add_i64(struct lc_launch *l, int64_t x)
{
    union lc_scalar v;
    v.i = x;
    return lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT64, v);
}

int lc_stclass(int64_t s)
{
    return s == 0 ? LC_ST_ZERO : s == 1 ? LC_ST_UNIT : LC_ST_ANY;
}

/* The float type for IOTA arithmetic and float accumulators. */
const char *lc_iota_type(struct lc_cg *g, int dt)
{
    if (lc_dtype_is_float(dt))
        return g->acc_float;
    return lc_T(dt);
}

/* Parameters shared by every launch of a kernel: outputs, reads, shape. */
int lc_common_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    union lc_scalar none = {0};
    const char *sep = "";
    for (int o = 0; o < k->n_outputs; o++) {
        lc_sb_printf(sb, "%s\n    __global %s *restrict out%d", sep, lc_T(k->outputs[o].dtype), o);
        sep = ",";
        if (lc_add_arg(l, LC_CGARG_TEMP, k->outputs[o].buffer, 0, none) < 0)
            return -1;
    }
    for (int a = 0; a < k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        int cover = x->epilogue ? g->nk : g->nd;
        if (x->kind == LC_ACCESS_CONST) {
            lc_sb_printf(sb, "%s\n    const %s a%d_v", sep, lc_T(x->dtype), a);
            sep = ",";
            if (lc_add_leaf_arg(l, a, LC_FROM_VALUE, x->dtype, x->value) < 0)
                return -1;
            continue;
        }
        if (x->kind == LC_ACCESS_IOTA) {
            const char *it = lc_iota_type(g, x->dtype);
            int adt = lc_dtype_is_float(x->dtype) ? (g->f64 ? LC_FLOAT64 : LC_FLOAT32) : x->dtype;
            union lc_scalar v0 = lc_scalar_cast(x->value, x->dtype, adt);
            union lc_scalar v1 = lc_scalar_cast(x->step, x->dtype, adt);
            lc_sb_printf(sb, "%s\n    const %s a%d_v, const %s a%d_st", sep, it, a, it, a);
            sep = ",";
            if (lc_add_leaf_arg(l, a, LC_FROM_VALUE, adt, v0) < 0 ||
                lc_add_leaf_arg(l, a, LC_FROM_STEP, adt, v1) < 0)
                return -1;
        } else if (x->kind == LC_ACCESS_RANDOM) {
            /* The key and the counter of element 0, raw 64-bit words (engine/xplan.c). */
            union lc_scalar key = x->value, ctr = x->step;
            lc_sb_printf(sb, "%s\n    const ulong a%d_k, const ulong a%d_c", sep, a, a);
            sep = ",";
            if (lc_add_leaf_arg(l, a, LC_FROM_VALUE, LC_UINT64, key) < 0 ||
                lc_add_leaf_arg(l, a, LC_FROM_STEP, LC_UINT64, ctr) < 0)
                return -1;
        } else if (k->kind == LC_KERNEL_STORE && x->kind == LC_ACCESS_INPUT &&
                   x->source == k->access[k->store_access].source) {
            /* The array a store writes (every read of it shares the pointer). */
            lc_sb_printf(sb, "%s\n    __global %s *a%d", sep, lc_T(x->dtype), a);
            sep = ",";
            if (lc_add_arg(l, LC_CGARG_INPUT, x->source, 0, none) < 0)
                return -1;
        } else {
            lc_sb_printf(sb, "%s\n    __global const %s *restrict a%d", sep, lc_T(x->dtype), a);
            sep = ",";
            if (lc_add_arg(l, x->kind == LC_ACCESS_INPUT ? LC_CGARG_INPUT : LC_CGARG_TEMP,
                           x->source, 0, none) < 0)
                return -1;
        }
        lc_sb_printf(sb, ", const long a%d_o", a);
        if (lc_add_offset(l, x, a, x->offset) < 0)
            return -1;
        for (int d = 0; d < cover; d++)
            if (lc_stclass(x->strides[d]) == LC_ST_ANY) {
                lc_sb_printf(sb, ", const long a%d_s%d", a, d);
                if (lc_add_i64(l, x->strides[d]) < 0)
                    return -1;
            }
        for (int j = 0; j < x->n_dyn; j++)
            if (lc_stclass(x->dyn_stride[j]) == LC_ST_ANY) {
                lc_sb_printf(sb, ", const long a%d_g%d", a, j);
                if (lc_add_i64(l, x->dyn_stride[j]) < 0)
                    return -1;
            }
    }
    for (int d = 0; d < g->nd; d++) {
        lc_sb_printf(sb, "%s\n    const long n%d", sep, d);
        sep = ",";
        if (lc_add_i64(l, g->shape[d]) < 0)
            return -1;
    }
    /* Gathers: the extent each index is checked against (or clamped into), and where an
     * index out of range is reported. */
    for (int i = 0; i < k->n_exprs; i++)
        if (k->exprs[i].op == LC_EXPR_INDEX) {
            lc_sb_printf(sb, ",\n    const long x%d_n", i);
            if (lc_add_i64(l, k->exprs[i].size) < 0)
                return -1;
        }
    if (lc_has_checked_gather(g)) {
        lc_sb_printf(sb, ",\n    __global int *restrict lc_err");
        if (lc_add_arg(l, LC_CGARG_ERROR, 0, 0, none) < 0)
            return -1;
    }
    return 0;
}

int lc_has_gather(const struct lc_cg *g)
{
    for (int i = 0; i < g->k->n_exprs; i++)
        if (g->k->exprs[i].op == LC_EXPR_INDEX)
            return 1;
    return 0;
}

int lc_has_checked_gather(const struct lc_cg *g)
{
    for (int i = 0; i < g->k->n_exprs; i++)
        if (g->k->exprs[i].op == LC_EXPR_INDEX && g->k->exprs[i].axis >= 0)
            return 1;
    return 0;
}

/* The address of access a at index vars i0..: "a3_o + i0 * a3_s0 + i1". */
void lc_addr(struct lc_cg *g, struct lc_sb *sb, int a)
{
    const struct lc_access *x = &g->acc[a];
    int cover = x->epilogue ? g->nk : g->nd;
    lc_sb_printf(sb, "a%d_o", a);
    for (int d = 0; d < cover; d++) {
        int c = lc_stclass(x->strides[d]);
        if (c == LC_ST_UNIT)
            lc_sb_printf(sb, " + i%d", d);
        else if (c == LC_ST_ANY)
            lc_sb_printf(sb, " + i%d * a%d_s%d", d, a, d);
    }
    for (int j = 0; j < x->n_dyn; j++) {
        int c = lc_stclass(x->dyn_stride[j]);
        if (c == LC_ST_UNIT)
            lc_sb_printf(sb, " + v%d", x->dyn[j] - 1);
        else if (c == LC_ST_ANY)
            lc_sb_printf(sb, " + v%d * a%d_g%d", x->dyn[j] - 1, a, j);
    }
}

int lc_output_stride_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb,
                            int cover)
{
    for (int o = 0; o < g->k->n_outputs; o++)
        for (int d = 0; d < cover; d++)
            if (lc_stclass(g->ostr[o][d]) == LC_ST_ANY) {
                lc_sb_printf(sb, ", const long os%d_%d", o, d);
                if (lc_add_i64(l, g->ostr[o][d]) < 0)
                    return -1;
            }
    return 0;
}

struct lc_launch *lc_new_launch(struct lc_kcode *c, const char *suffix)
{
    struct lc_launch *nl = realloc(c->launches, (size_t)(c->n_launches + 1) * sizeof *nl);
    if (!nl)
        return NULL;
    c->launches = nl;
    struct lc_launch *l = &nl[c->n_launches++];
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", suffix);
    return l;
}

int lc_fixed_groups(const struct lc_target *t, struct lc_launch *l, size_t wg)
{
    if (!t->fixed_groups || !l->global[0])
        return 0;
    l->use_local = 1;
    l->local[0] = wg;
    l->local[1] = l->local[2] = 1;
    l->global[0] = lc_round_up(l->global[0], wg);
    return 1;
}

void lc_single_item_groups(struct lc_launch *l)
{
    l->use_local = 1;
    l->local[0] = l->local[1] = l->local[2] = 1;
}

int lc_small_group_check(const struct lc_target *t, int64_t total)
{
    return !t->fixed_groups && total > 0 && total <= LC_SMALL_GROUP_MAX;
}

/* Work-groups of wg items, or of the largest power of two below it the device takes: a device
 * with smaller work-groups (Oclgrind: 1024) takes several of those. */
static size_t lc_wg_within(const struct lc_target *t, size_t wg)
{
    size_t max = t->max_work_group ? t->max_work_group : 1;
    while (wg > max && wg > 1)
        wg /= 2;
    return wg;
}

/* The work-groups that keep every compute unit busy: two each. */
static size_t lc_groups_wanted(const struct lc_target *t)
{
    return 2 * (size_t)(t->compute_units ? t->compute_units : 1);
}

void lc_small_group(const struct lc_target *t, struct lc_launch *l, int64_t total)
{
    if (!lc_small_group_check(t, total))
        return;
    size_t wg = LC_SMALL_GROUP_MIN;
    while (wg < (size_t)total)
        wg *= LC_SMALL_GROUP_STEP;
    wg = lc_wg_within(t, wg);
    l->use_local = 1;
    l->local[0] = wg;
    l->global[0] = lc_round_up((size_t)total, wg);
    l->local[1] = l->local[2] = 1;
}

void lc_small_group_work(const struct lc_target *t, struct lc_launch *l, int64_t total,
                         int64_t per_item)
{
    if (!lc_small_group_check(t, total)) {
        lc_cpu_groups(t, l, total);   /* more items: groups of the ladder, two per unit or more */
        return;
    }
    lc_small_group(t, l, total);
    if ((double)total * (double)per_item < LC_SMALL_GROUP_WORK)
        return;
    /* Enough work that one group (one thread on PoCL) would leave the other cores idle: groups
     * a step of the ladder smaller, down to its first, until there are two per compute unit. */
    size_t groups = lc_groups_wanted(t);
    while (l->local[0] > LC_SMALL_GROUP_MIN && l->global[0] / l->local[0] < groups) {
        l->local[0] = l->local[0] / LC_SMALL_GROUP_STEP > LC_SMALL_GROUP_MIN
                          ? l->local[0] / LC_SMALL_GROUP_STEP : LC_SMALL_GROUP_MIN;
        l->global[0] = lc_round_up((size_t)total, l->local[0]);
    }
}

void lc_cpu_groups(const struct lc_target *t, struct lc_launch *l, int64_t total)
{
    if (t->fixed_groups || total <= 0)
        return;
    if (total <= LC_SMALL_GROUP_MAX) {
        lc_small_group(t, l, total);
        return;
    }
    size_t wg = lc_wg_within(t, LC_SMALL_GROUP_MAX);
    /* Two groups or more per compute unit, each a size of the ladder. */
    size_t groups = lc_groups_wanted(t);
    while (wg / LC_SMALL_GROUP_STEP >= LC_SMALL_GROUP_MIN &&
           lc_round_up((size_t)total, wg) / wg < groups)
        wg /= LC_SMALL_GROUP_STEP;
    l->use_local = 1;
    l->local[0] = wg;
    l->local[1] = l->local[2] = 1;
    l->global[0] = lc_round_up((size_t)total, wg);
}

/* The work-groups of launch l once each range is rounded up to its local size. */
static size_t lc_groups_of(const struct lc_launch *l)
{
    size_t groups = 1;
    for (unsigned k = 0; k < l->work_dim; k++)
        groups *= lc_round_up(l->global[k], l->local[k]) / l->local[k];
    return groups;
}

/* The innermost dim's group for rows of `count` items (lc_cpu_rows): the largest size of
 * the ladder within the row and `budget` whose rounding adds at most an eighth to the row,
 * else the ladder's first within the row, else 1 (rows shorter than it). */
static size_t lc_row_group(size_t count, size_t budget)
{
    size_t best = 0;
    for (size_t w = LC_SMALL_GROUP_MIN; w <= count && w <= budget; w *= LC_SMALL_GROUP_STEP)
        if (!best || (lc_round_up(count, w) - count) * 8 <= count)
            best = w;
    return best ? best : 1;
}

/* The groups of lc_cpu_rows' launch of 2-3 dims: the rows' (innermost) dim lc_row_group's
 * size; each outer dim, innermost first, the ladder's size (from 1: 8, 64, ...) that covers
 * it within what the dims before it left of 4096 items; then the outer dims' sizes smaller,
 * outermost first, until there are two groups per compute unit; every range rounded up. */
static void lc_rows_groups(const struct lc_target *t, struct lc_launch *l)
{
    if (t->fixed_groups || l->work_dim < 2)
        return;
    size_t budget = lc_wg_within(t, LC_SMALL_GROUP_MAX);
    for (unsigned d = 0; d < l->work_dim; d++)
        if (!l->global[d])
            return;   /* nothing to run: the driver's way */
    for (unsigned d = 0; d < l->work_dim; d++) {
        size_t w = 1;
        if (!d)
            w = lc_row_group(l->global[0], budget);
        else
            while (w < l->global[d] && w * LC_SMALL_GROUP_STEP <= budget)
                w *= LC_SMALL_GROUP_STEP;
        l->local[d] = w;
        budget /= w;
    }
    /* Two groups or more per compute unit: the outermost dims' groups shrink first. */
    size_t want = lc_groups_wanted(t);
    for (int d = (int)l->work_dim - 1; d >= 0; d--)
        while (l->local[d] > 1 && lc_groups_of(l) < want)
            l->local[d] = l->local[d] / LC_SMALL_GROUP_STEP ? l->local[d] / LC_SMALL_GROUP_STEP : 1;
    l->use_local = 1;
    for (unsigned d = 0; d < l->work_dim; d++)
        l->global[d] = lc_round_up(l->global[d], l->local[d]);
}

void lc_cpu_range(const struct lc_target *t, struct lc_sb *sb, struct lc_launch *l,
                  const char *inner)
{
    lc_sb_printf(sb, "    if (%s) return;\n", inner ? inner : "i0 >= n0");
    lc_cpu_groups(t, l, (int64_t)l->global[0]);
}

void lc_cpu_rows(const struct lc_target *t, struct lc_sb *sb, struct lc_launch *l, int nd,
                 const char *name, const char *count)
{
    lc_sb_printf(sb, "    const long %s = min((long)get_group_id(0) * (long)get_local_size(0), "
                     "%s - (long)get_local_size(0)) + (long)get_local_id(0);\n", name, count);
    lc_sb_printf(sb, "    if (");
    for (int d = 0; d < nd - 1; d++)
        lc_sb_printf(sb, "%si%d >= n%d", d ? " || " : "", d, d);
    lc_sb_printf(sb, ") return;\n");
    lc_rows_groups(t, l);
}

size_t lc_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}
