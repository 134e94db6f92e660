/* devtarget.h: the code generator's description of each device (struct lc_target), made once. */
#ifndef LC_ENGINE_DEVTARGET_H
#define LC_ENGINE_DEVTARGET_H

#include "codegen/codegen.h"
#include "runtime/runtime.h"

/* Copy into t the target of device d for the kind kernels are shaped for on it now: the
 * device's own kind, or the one LAZYCL_SCHEDULE names (read at each call, as docs/env.md
 * says). Each (device, kind) target is made from its kind's profile on first use, once,
 * and kept until exit; any thread may call. The GEMM tiles are the profile's default: the
 * caller applies the autotune's (lc_autotune_apply). */
void lc_engine_target(lc_device_t d, struct lc_target *t);

#endif
