/* storage.h: runtime buffers as graph storage: the adapters, leaves from host data, reads.
 *
 * A graph leaf holds a `struct lc_storage` (graph/graph.h), which knows nothing of OpenCL;
 * the engine's storages hold one reference to a runtime buffer each. Everything here is
 * thread-safe and takes no engine lock.
 */
#ifndef LC_ENGINE_STORAGE_H
#define LC_ENGINE_STORAGE_H

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

/* Read a node that is a contiguous buffer leaf into `dst` (n->size elements),
 * blocking. */
lc_status lc_engine_read(lc_queue_t q, const struct lc_node *n, void *dst, struct lc_error *e);

#endif
