/* plan.c: a fused plan after the pass: freeing it, and its text for explain and LAZYCL_DEBUG=3. */
#include "fusion/fusion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lc_plan_free(struct lc_plan *p)
{
    for (int i = 0; i < p->n_kernels; i++) {
        struct lc_kernel *k = &p->kernels[i];
        free(k->exprs);
        free(k->access);
        free(k->outputs);
        free(k->reds);
        free(k->fused);
    }
    free(p->kernels);
    free(p->buffers);
    free(p->inputs);
    free(p->out_buffer);
    memset(p, 0, sizeof *p);
}

char *lc_plan_describe(const struct lc_plan *p)
{
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
#define APPEND(...)                                                             \
    do {                                                                        \
        int w_ = snprintf(s + len, cap - len, __VA_ARGS__);                     \
        if (w_ < 0)                                                             \
            break;                                                              \
        if ((size_t)w_ >= cap - len) {                                          \
            size_t nc_ = (cap + (size_t)w_) * 2;                                \
            char *ns_ = realloc(s, nc_);                                        \
            if (!ns_) {                                                         \
                free(s);                                                        \
                return NULL;                                                    \
            }                                                                   \
            s = ns_;                                                            \
            cap = nc_;                                                          \
            snprintf(s + len, cap - len, __VA_ARGS__);                          \
        }                                                                       \
        len += (size_t)w_;                                                      \
    } while (0)
    /* Sorts and top-k selections are described as scans (kernels along an axis), as
     * explain has always printed them. */
    static const char *kinds[] = {[LC_KERNEL_MAP] = "map", [LC_KERNEL_REDUCE] = "reduce",
                                  [LC_KERNEL_SCAN] = "scan", [LC_KERNEL_STORE] = "store",
                                  [LC_KERNEL_SORT] = "scan", [LC_KERNEL_TOPK] = "scan"};
    APPEND("plan: %d kernel%s, %d buffer%s\n", p->n_kernels, p->n_kernels == 1 ? "" : "s",
           p->n_buffers, p->n_buffers == 1 ? "" : "s");
    for (int i = 0; i < p->n_kernels; i++) {
        const struct lc_kernel *k = &p->kernels[i];
        APPEND("kernel %d: %s over [", i, kinds[k->kind]);
        for (int d = 0; d < k->ndim; d++)
            APPEND("%s%lld", d ? "," : "", (long long)k->shape[d]);
        APPEND("]");
        if (k->kind == LC_KERNEL_REDUCE)
            APPEND(" keeping %d dim%s", k->nkept, k->nkept == 1 ? "" : "s");
        APPEND(", %d op%s fused, %d read%s, %d output%s\n", k->n_fused,
               k->n_fused == 1 ? "" : "s", k->n_access, k->n_access == 1 ? "" : "s",
               k->n_outputs, k->n_outputs == 1 ? "" : "s");
        for (int j = 0; j < k->n_fused; j++) {
            char line[512];
            lc_node_describe(k->fused[j], line, sizeof line);
            APPEND("    %s\n", line);
        }
        for (int o = 0; o < k->n_outputs; o++)
            APPEND("    -> buffer %d\n", k->outputs[o].buffer);
        if (k->kind == LC_KERNEL_STORE)
            APPEND("    -> in place, where read %d reads%s%s%s\n", k->store_access,
                   k->store_combine ? ", combined atomically" : "",
                   k->store_ordered ? ", each row in order" : "",
                   k->store_scan >= 0 ? ", its scan computed here" : "");
    }
    for (int b = 0; b < p->n_buffers; b++) {
        const struct lc_plan_buffer *pb = &p->buffers[b];
        APPEND("buffer %d: %s[%lld] %zu bytes, written by kernel %d, last read by kernel %d%s\n",
               b, lc_dtype_name(pb->dtype), (long long)pb->size, pb->nbytes, pb->producer,
               pb->last_use, pb->is_output ? ", output" : ", temporary");
    }
#undef APPEND
    return s;
}
