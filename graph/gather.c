/* gather.c: the gather builder: the node behind advanced indexing, take and take_along_axis. */
#include "graph/internal.h"

struct lc_node *lc_node_gather(struct lc_node *src, struct lc_node *idx, int axis, int report_axis,
                               struct lc_error *e)
{
    if (lc_check_owner((struct lc_node *const[]){src, idx}, 2, e) < 0)
        return NULL;
    char k = lc_dtype_kind(idx->dtype);
    if (k != 'i' && k != 'u') {
        lc_error_set(e, LC_ERR_INDEX, "arrays used as indices must be of integer (or boolean) type");
        return NULL;
    }
    if (src->ndim != idx->ndim || axis < 0 || axis >= src->ndim ||
        report_axis < LC_GATHER_BOUNDED) {
        lc_error_set(e, LC_ERR_INVALID, "internal: a gather needs an index of the source's ndim, "
                     "an axis of it and an axis to report (or a clamp mode)");
        return NULL;
    }
    for (int d = 0; d < src->ndim; d++)
        if (d != axis && src->shape[d] != idx->shape[d] && src->shape[d] != 1) {
            lc_error_set(e, LC_ERR_SHAPE, "shape mismatch: the index of shape dim %d (%lld) does "
                         "not match the array's (%lld)", d, (long long)idx->shape[d],
                         (long long)src->shape[d]);
            return NULL;
        }
    if (src->shape[axis] == 0 && idx->size > 0) {
        lc_error_set(e, LC_ERR_INDEX, "index 0 is out of bounds for axis %d with size 0",
                     report_axis);
        return NULL;
    }
    struct lc_node *in[2] = {src, idx};
    struct lc_node *n = lc_node_new(LC_OP_GATHER, src->dtype, idx->ndim, idx->shape, in, 2, e);
    if (!n)
        return NULL;
    n->p.gather.axis = axis;
    n->p.gather.report_axis = report_axis;
    lc_node_seal(n);
    return n;
}
