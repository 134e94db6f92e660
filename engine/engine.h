/* engine.h: forcing a graph on its device: fuse, generate, build, run, realize.
 *
 * The engine is the only place where the graph layers meet the runtime. It
 * holds no state of its own beyond the runtime's caches, so it may be used
 * from several threads as long as each graph is forced by one at a time.
 */
#ifndef LC_ENGINE_H
#define LC_ENGINE_H

#include "lazycl.h"
#include "graph/graph.h"
#include "runtime/runtime.h"

/* A storage for a runtime buffer: the storage takes over the caller's
 * reference to `b`. NULL when out of host memory (b is then released). */
struct lc_storage *lc_engine_storage(lc_buffer_t b);
/* The runtime buffer behind a storage (borrowed). */
lc_buffer_t lc_engine_buffer(const struct lc_storage *s);

/* A new leaf holding a copy of contiguous host data, on queue q (the node's
 * owner). Blocking copy: `data` may be freed on return. */
struct lc_node *lc_engine_from_host(lc_queue_t q, int dtype, int ndim, const int64_t *shape,
                                    const void *data, struct lc_error *e);

/* Compute every output in `outs` (all owned by q): after success each
 * pending output is a realized contiguous buffer leaf; with
 * LC_FUSE_COPY_LEAVES (fusion.h) leaf views are made contiguous too. Work is
 * enqueued, not waited for: call lc_queue_finish to wait. */
lc_status lc_engine_force(lc_queue_t q, struct lc_node *const *outs, size_t n, unsigned flags,
                          struct lc_error *e);

/* The kind of device the code generator shapes kernels for on d: "gpu",
 * "pocl" or "cpu" (LAZYCL_SCHEDULE may override the device's own). */
const char *lc_engine_schedule_kind(lc_device_t d);

/* Read a node that is a contiguous buffer leaf into `dst` (n->size elements),
 * blocking. */
lc_status lc_engine_read(lc_queue_t q, const struct lc_node *n, void *dst, struct lc_error *e);

/* The plan and OpenCL C of forcing `outs` on q's device, as text (malloc'd),
 * without running anything. */
/* outs plus the sorts, scans and selections under them that something else still holds
 * (engine/keep.c): *all is a malloc'd list, or NULL when there are none (then use outs). */
lc_status lc_engine_with_kept(struct lc_node *const *outs, size_t n, struct lc_node ***all,
                              size_t *n_all, struct lc_error *e);
char *lc_engine_explain(lc_queue_t q, struct lc_node *const *outs, size_t n,
                        struct lc_error *e);

#endif
