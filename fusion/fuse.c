/* fuse.c: lc_fuse, grouping a DAG into kernels, with views pushed down to the leaves: mark
 * the nodes written to memory (mark.c), then plan (place.c) until every reshape has a layout. */
#include "fusion/internal.h"

#include <stdlib.h>
#include <string.h>

lc_status lc_fuse(struct lc_node *const *outs, size_t n_outs, unsigned flags,
                  struct lc_plan *plan, struct lc_error *e)
{
    struct lc_fuse f;
    memset(&f, 0, sizeof f);
    f.e = e;
    f.plan = plan;
    f.flags = flags;
    memset(plan, 0, sizeof *plan);
    f.topo = lc_graph_topo(outs, n_outs, &f.n, e);
    if (!f.topo)
        return e->code;
    lc_status st = LC_OK;
    f.info = calloc(f.n ? f.n : 1, sizeof *f.info);
    if (!f.info) {
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory planning kernels");
        goto done;
    }
    for (size_t i = 0; i < f.n; i++) {
        f.info[i].alias = f.info[i].scan_store = f.info[i].store_total = -1;
        f.offsets_fixed |= f.topo[i]->op == LC_OP_STORE &&
                           lc_shape_size(f.topo[i]->ndim, f.topo[i]->shape) != 1;
    }
    for (size_t i = 0; i < f.n; i++)
        if (lc_map_put(&f.index, (uint64_t)(uintptr_t)f.topo[i], (int)i) < 0) {
            st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory planning kernels");
            goto done;
        }
    lc_mark(&f, outs, n_outs);
    if (flags & LC_FUSE_COPY_LEAVES)
        for (size_t r = 0; r < n_outs; r++)
            if (lc_node_is_leaf(outs[r]) && !lc_node_is_contiguous(outs[r]))
                f.info[lc_idx(&f, outs[r])].mat = 1;
    /* Stack 0 is the empty stack. */
    if (lc_stack_push(&f, 0, -1) != 0) {
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory planning kernels");
        goto done;
    }
    for (int attempt = 0;; attempt++) {
        lc_alias_reshapes(&f);
        for (size_t i = 0; i < f.n; i++) {
            f.info[i].kernel = -1;
            f.info[i].buffer = -1;
            f.info[i].slot = -1;
        }
        f.fail_node = -1;
        for (int m = 0; m < f.cap_memo; m++)
            lc_map_free(&f.memo[m]);
        lc_map_free(&f.inputs);
        int rc = lc_plan_once(&f);
        if (rc == 0)
            break;
        lc_plan_free(plan);
        f.plan = plan;
        if (rc != -3 || f.fail_node < 0 || f.info[f.fail_node].mat ||
            f.info[f.fail_node].alias >= 0 || attempt > (int)f.n) {
            if (rc != -2)
                lc_error_set(e, LC_ERR_INVALID, "internal: fusion could not place a reshape");
            st = e->code ? e->code : LC_ERR_INVALID;
            goto done;
        }
        f.info[f.fail_node].mat = 1;
    }
    plan->out_buffer = malloc((n_outs ? n_outs : 1) * sizeof *plan->out_buffer);
    if (!plan->out_buffer) {
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory planning kernels");
        goto done;
    }
    plan->n_out = (int)n_outs;
    for (size_t r = 0; r < n_outs; r++) {
        const struct lc_nodeinfo *ni = &f.info[lc_idx(&f, outs[r])];
        plan->out_buffer[r] = ni->alias >= 0 ? f.info[ni->alias].buffer : ni->buffer;
    }
done:
    if (st != LC_OK)
        lc_plan_free(plan);
    free(f.topo);
    free(f.info);
    free(f.stack);
    for (int m = 0; m < f.cap_memo; m++)
        lc_map_free(&f.memo[m]);
    free(f.memo);
    lc_map_free(&f.index);
    lc_map_free(&f.stacks);
    lc_map_free(&f.inputs);
    return st;
}
