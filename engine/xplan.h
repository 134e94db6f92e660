/* xplan.h: an executable plan: what forcing a graph of one structure needs.
 *
 * An xplan is made once from a fused plan (lc_fuse), the code of each of its
 * kernels (lc_xplan_codegen) and the compiled kernels (lc_kernel_get). It refers to
 * no node: leaves are named by their place in the graph signature's walk, so
 * the same xplan runs every graph with an equal signature (graph/signature.h),
 * binding that graph's storage and constant values at each run.
 */
#ifndef LC_ENGINE_XPLAN_H
#define LC_ENGINE_XPLAN_H

#include "codegen/codegen.h"
#include "graph/signature.h"
#include "runtime/runtime.h"

struct lc_xkernel {
    struct lc_kcode code;         /* source and launches; in each launch's arguments,
                                     a SCALAR taken from a leaf has `index` set to
                                     the leaf's place in the walk */
    lc_kernel_t *kerns;           /* one per launch (owned by the device's kernel cache) */
    lc_kernel_t *kerns_in;        /* the same for the device's in-thread companion, got on
                                     a launch's first small run (under the engine's lock) */
    double work;                  /* bytes its index space touches: elements x the bytes each
                                     reads and writes (CONST/IOTA/RANDOM loads read nothing),
                                     plus a product's multiply-adds; picks in-thread or not */
};

struct lc_xbuffer {
    size_t nbytes;
    int producer, last_use, is_output;
};

struct lc_xplan {
    /* What it was made for (compared by the plan cache). */
    uint64_t key;
    uint64_t *words;
    size_t n_words;
    lc_device_t device;
    struct lc_target target;
    /* What it runs. */
    struct lc_xkernel *kernels;
    int n_kernels;
    struct lc_xbuffer *buffers;
    int n_buffers;
    long *inputs;                 /* plan input i: the storage of the leaf at walk place inputs[i] */
    int n_inputs;
    int *out_buffer;              /* per forced output: its buffer, or -1 */
    int n_out;
    int max_args;
    int gathers;                  /* some launch checks indices: a run needs an error buffer */
    /* The plan cache's links. */
    struct lc_xplan *lru_prev, *lru_next, *chain;
};

/* The code of each of p's kernels for target t (lc_codegen): *codes is a malloc'd array of
 * p->n_kernels, freed with lc_xplan_codes_free. On failure nothing is held. */
lc_status lc_xplan_codegen(const struct lc_plan *p, const struct lc_target *t,
                           struct lc_kcode **codes, struct lc_error *e);
void lc_xplan_codes_free(struct lc_kcode *codes, int n);
/* Make the xplan of plan `p` for the graph of `sig` on device d and target t, building its
 * kernels. `codes` is p's code for t (lc_xplan_codegen); the xplan takes it over, on failure
 * too. With debug >= 4 each kernel's source is printed. On failure nothing is held. */
lc_status lc_xplan_make(const struct lc_plan *p, struct lc_kcode *codes,
                        const struct lc_graph_sig *sig, lc_device_t d, const struct lc_target *t,
                        int debug, struct lc_xplan **out, struct lc_error *e);
/* Run x over the graph of `sig` (equal to the one x was made for) on q, and
 * realize the forced outputs `outs`. Work is enqueued, not waited for. */
lc_status lc_xplan_run(const struct lc_xplan *x, lc_queue_t q, const struct lc_graph_sig *sig,
                       struct lc_node *const *outs, size_t n, int debug, struct lc_error *e);
void lc_xplan_free(struct lc_xplan *x);

#endif
