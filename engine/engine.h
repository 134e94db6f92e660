/* engine.h: forcing a graph on its device: fuse, generate, build, run, realize.
 *
 * The engine is the only place where the graph layers meet the runtime. Its state is the
 * plan cache (engine/plancache.h), each device's targets (engine/devtarget.h) and GEMM
 * tuning (engine/autotune.h); one lock serialises every force and explain, so it may be
 * called from several threads.
 * The storage adapters and host transfers it offers live in engine/storage.h.
 */
#ifndef LC_ENGINE_H
#define LC_ENGINE_H

#include "lazycl.h"
#include "engine/pokes.h"
#include "engine/storage.h"
#include "graph/graph.h"
#include "runtime/runtime.h"

/* Compute every output in `outs` (all owned by q): after success each
 * pending output is a realized contiguous buffer leaf; with
 * LC_FUSE_COPY_LEAVES (fusion.h) leaf views are made contiguous too. Work is
 * enqueued, not waited for: call lc_engine_sync (or lc_queue_finish) to wait. Two
 * things wait all the same, unless LC_FORCE_DEFER: a plan that gathers reads its index
 * check (an index out of range is LC_ERR_INDEX, nothing realized), and so does a force
 * reading a leaf whose check (engine/check.h) is still pending. With LC_FORCE_DEFER
 * neither waits: the outputs are realized at once, guarded by the pending checks, and an
 * index out of range is reported at the next wait on q and by every read of the outputs.
 * A leaf whose check failed fails the force with its IndexError. The engine lock is held
 * while planning and enqueueing, not while waiting for q (lc_engine_sync). */
lc_status lc_engine_force(lc_queue_t q, struct lc_node *const *outs, size_t n, unsigned flags,
                          struct lc_error *e);
#define LC_FORCE_DEFER (1u << 30)   /* beside fusion.h's LC_FUSE_* flags; not a plan's */

/* A wait: everything enqueued on q (on every queue of d when q is NULL, on every queue when
 * both are) has finished, then the index checks pending there are read; the first that found
 * an index out of range is LC_ERR_INDEX (engine/check.h). Without the engine lock. */
lc_status lc_engine_sync(lc_queue_t q, lc_device_t d, struct lc_error *e);
/* Before the host reads storage s of q (a read, a mapping): the checks pending on q are
 * read, and s's own, which fails with its IndexError where an index out of range left s
 * wrong. With q NULL (a copy, a raw launch: not a wait), s's own only. */
lc_status lc_engine_ready(lc_queue_t q, const struct lc_storage *s, struct lc_error *e);

/* The kind of device the code generator shapes kernels for on d: "gpu",
 * "pocl" or "cpu" (LAZYCL_SCHEDULE may override the device's own). */
const char *lc_engine_schedule_kind(lc_device_t d);

/* outs plus the sorts, scans, selections and small reductions under them that something
 * else still holds (engine/keep.c): *all is a malloc'd list, or NULL when there are none
 * (then use outs). */
lc_status lc_engine_with_kept(struct lc_node *const *outs, size_t n, struct lc_node ***all,
                              size_t *n_all, struct lc_error *e);
/* The same over w, a walk of `outs` the caller made (its graph signature's). */
struct lc_walk;
lc_status lc_engine_kept_in(const struct lc_walk *w, struct lc_node *const *outs, size_t n,
                            struct lc_node ***all, size_t *n_all, struct lc_error *e);

/* The plan and OpenCL C of forcing `outs` on q's device, as text (malloc'd),
 * without running or building anything; NULL on failure (e says why). Planned as a
 * force plans (a sizeable product on a device not tuned yet tunes it first). */
char *lc_engine_explain(lc_queue_t q, struct lc_node *const *outs, size_t n,
                        struct lc_error *e);

#endif
