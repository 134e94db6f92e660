/* check.h: deferred index checks, for forces that do not wait.
 *
 * A run whose kernels gather writes the first out-of-range index it meets into a small error
 * buffer. A force that waits reads that buffer at once and realizes nothing when it holds an
 * error (engine/xplan.c). A force that does not wait leaves it unread: a check records it,
 * pending on the force's queue until the next wait there (lc_check_wait), and guards the
 * storages of the outputs, which are realized at once. Whoever later reads a guarded storage
 * (lc_engine_ready, a force reading it as a leaf) resolves its check first: a storage that
 * an out-of-range index left wrong raises that IndexError, for ever, never its values.
 * A force that does not wait and reads guarded storages whose checks are still pending
 * guards its own outputs by them too (a check's parents), so nothing waits on the way.
 *
 * Thread-safe: one lock guards the pending list and the guarded storages; resolving reads
 * the device and takes no engine lock.
 */
#ifndef LC_ENGINE_CHECK_H
#define LC_ENGINE_CHECK_H

#include "lazycl.h"
#include "graph/graph.h"
#include "runtime/runtime.h"

#include <stdint.h>

struct lc_check;

/* The IndexError of a run's error buffer (errv[0]: found, [1]: the axis, [2..3]: the index,
 * [4..5]: the size), with NumPy's message; LC_OK when errv[0] is 0. */
lc_status lc_check_index_error(const int32_t errv[8], struct lc_error *e);

/* A new check for a run on q: `err` (the run's error buffer, retained; NULL when the run
 * gathered nothing) and `parents`, the pending checks of what the run read (each retained).
 * With `err` it is pending on q until a wait there reports it. NULL when out of memory. */
struct lc_check *lc_check_new(lc_queue_t q, lc_buffer_t err, struct lc_check *const *parents,
                              size_t n_parents);
void lc_check_retain(struct lc_check *c);
void lc_check_release(struct lc_check *c);

/* A storage for b (taking over the caller's reference) whose readers resolve c first (c is
 * retained while the storage lives). NULL when out of memory (b is then released). */
struct lc_storage *lc_check_storage(lc_buffer_t b, struct lc_check *c);
/* The check guarding s, retained; NULL when none guards it or its check found no error. */
struct lc_check *lc_check_of(const struct lc_storage *s);

/* Does c know its answer without waiting? 1: no error found, -1: an index out of range (e
 * has the IndexError), 0: still pending. */
int lc_check_known(struct lc_check *c, struct lc_error *e);
/* Wait for c's answer: read its error buffer (after the work enqueued on its queue before
 * it) and its parents'. LC_ERR_INDEX with NumPy's message when an index was out of range;
 * the answer is kept. */
lc_status lc_check_resolve(struct lc_check *c, struct lc_error *e);

/* A wait: resolve the checks pending on q (on every queue of d when q is NULL; on every
 * queue when both are NULL), oldest first. Each is reported once: the first that found an
 * index out of range is returned; the storages of every failed one stay poisoned. */
lc_status lc_check_wait(lc_queue_t q, lc_device_t d, struct lc_error *e);

#endif
