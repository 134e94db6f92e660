/* pokes.h: writes of one element with a constant value, applied later, many in one launch.
 *
 * `x[i, j] = 1.5` on an array no pending graph reads needs no graph: the element's place in
 * the buffer and the value's bytes are recorded against the storage (a later write of the
 * same place replaces the earlier one), and one launch writes every recorded element before
 * anything reads the storage: a force whose graph holds a leaf of it, a read to the host, a
 * copy, an export. A storage holds at most LC_POKES_MAX; one more applies them first.
 * Thread-safe (one lock over every storage's record); no engine lock is needed to record.
 */
#ifndef LC_ENGINE_POKES_H
#define LC_ENGINE_POKES_H

#include "lazycl.h"
#include "graph/graph.h"
#include "runtime/runtime.h"

#define LC_POKES_MAX 4096

/* Record a write of `size` bytes (1, 2, 4, 8 or 16) at byte `offset` of s's buffer (a
 * multiple of size); `bits` holds the value. q: the queue that will apply it. */
lc_status lc_pokes_add(lc_queue_t q, struct lc_storage *s, size_t offset, const void *bits,
                       size_t size, struct lc_error *e);
/* Apply s's recorded writes now (enqueued on q, in order with what follows). */
lc_status lc_pokes_flush(lc_queue_t q, struct lc_storage *s, struct lc_error *e);

#endif
