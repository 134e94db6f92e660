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
    int ops;                      /* graph nodes computed in it (the plan kernel's `fused`) */
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
 * realize the forced outputs `outs`. Work is enqueued, not waited for, but for the index
 * check of a plan that gathers: its error buffer is read at the end (waiting for the run),
 * and an index out of range is LC_ERR_INDEX with nothing realized.
 * Where q is not alone (lc_queue_alone), every buffer the run uses is held by q until the
 * run has finished, so that no other queue takes it from the pool meanwhile. */
lc_status lc_xplan_run(const struct lc_xplan *x, lc_queue_t q, const struct lc_graph_sig *sig,
                       struct lc_node *const *outs, size_t n, int debug, struct lc_error *e);
/* A run whose index check is left for the caller to read (lc_xplan_run_split): what
 * realizing its outputs then needs. All zero when nothing is left (err NULL). */
struct lc_xheld {
    lc_buffer_t err;              /* the gathers' error buffer (retained) */
    size_t n;
    struct lc_node **nodes;       /* the forced outputs, retained */
    lc_buffer_t *bufs;            /* per output: the buffer written for it (retained), or NULL */
    char *was_pending;            /* per output: it was not a leaf at the run */
};
/* lc_xplan_run, but where the plan gathers its index check is not read: the outputs are not
 * realized, *held (zeroed by the caller) keeps what the caller needs to read the check
 * (lc_xheld_check, without the engine lock: it waits for the run) and realize them
 * (lc_xheld_realize, under the lock; an output another force computed meanwhile is left as
 * it is). Free it with lc_xheld_free, on failure too. */
lc_status lc_xplan_run_split(const struct lc_xplan *x, lc_queue_t q, const struct lc_graph_sig *sig,
                             struct lc_node *const *outs, size_t n, int debug,
                             struct lc_xheld *held, struct lc_error *e);
lc_status lc_xheld_check(lc_queue_t q, const struct lc_xheld *h, struct lc_error *e);
lc_status lc_xheld_realize(const struct lc_xheld *h, struct lc_error *e);
void lc_xheld_free(struct lc_xheld *h);

/* What a force that does not wait asks of a run (engine/check.h). */
struct lc_check;
struct lc_xdefer {
    struct lc_check *const *parents;   /* the pending checks of the storages the run reads */
    size_t n_parents;
};
/* lc_xplan_run, waiting for nothing where `defer` is given: the error buffer of a plan that
 * gathers becomes a check pending on q, and the outputs are realized at once, guarded by it
 * and by defer's parents (when either is there). */
lc_status lc_xplan_run_deferred(const struct lc_xplan *x, lc_queue_t q,
                                const struct lc_graph_sig *sig, struct lc_node *const *outs,
                                size_t n, int debug, const struct lc_xdefer *defer,
                                struct lc_error *e);
void lc_xplan_free(struct lc_xplan *x);

#endif
