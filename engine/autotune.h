/* autotune.h: GEMM tile sizes, and CLBlast or not, chosen by timing once per device.
 *
 * The engine calls lc_autotune_apply on every target it makes (so the tiles of a tuned
 * device, its CLBlast choice and the environment's settings are part of the target, hence of
 * the plan cache key; the tiles are constants in the kernel source, hence in the kernel cache
 * key). When a plan holds a float product of at least LC_AUTOTUNE_MIN_WORK multiply-adds and
 * lc_autotune_due says the device has no choice yet, the engine calls lc_autotune_run and
 * makes the target again. Every function here is thread-safe (one lock over the table of
 * devices); lc_autotune_run is called under the engine's lock.
 */
#ifndef LC_ENGINE_AUTOTUNE_H
#define LC_ENGINE_AUTOTUNE_H

#include "codegen/codegen.h"
#include "runtime/runtime.h"

/* Products smaller than this (batch * M * N * K) never start a tuning: 2^27, 512^3. */
#define LC_AUTOTUNE_MIN_WORK ((int64_t)1 << 27)

/* Set t's GEMM choices for device d: LAZYCL_GEMM (clblast / lazycl), the LAZYCL_GEMM_CANDIDATE
 * test hook, else the device's tuned tiles and CLBlast choice (read from its record on disk
 * the first time) unless LAZYCL_AUTOTUNE=0. */
void lc_autotune_apply(lc_device_t d, struct lc_target *t);
/* Should a plan whose largest float product has `work` multiply-adds tune device d first? */
int lc_autotune_due(lc_device_t d, const struct lc_target *t, int64_t work);
/* Time t's GEMM candidates and CLBlast on q's device, keep the choice (in memory and on disk).
 * Never fails the caller: a failure is logged (LAZYCL_DEBUG=1) and the device keeps the
 * defaults for the rest of the process. */
void lc_autotune_run(lc_queue_t q, const struct lc_target *t);
/* One line for explain(): which engine ran a product and why. `blas`: CLBlast ran it. */
void lc_autotune_describe(lc_device_t d, const struct lc_target *t, int blas, char *out,
                          size_t n);

#endif
