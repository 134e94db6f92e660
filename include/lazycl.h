/* lazycl.h: the public C API of lazycl, a lazy dataflow-graph array engine.
 *
 * Usage (every call returns an lc_status; on failure `err` says why):
 *
 *     struct lc_error err = {0};
 *     lc_device_t dev;
 *     if (lc_device_select("pocl:cpu", &dev, &err) != LC_OK) {
 *         fprintf(stderr, "%s\n", err.msg);
 *         return 1;
 *     }
 *     struct lc_node *x = lc_node_from_host(dev_queue, LC_F32, 1, shape, data, &err);
 *     struct lc_node *y = lc_node_binary(LC_OP_MUL, x, x, &err);   // nothing runs
 *     lc_engine_force(&y, 1, &err);                                 // one fused kernel
 *
 * The layers, each with its own header: graph/graph.h (nodes and builders),
 * fusion/fusion.h (graph -> plan), codegen/codegen.h (plan -> OpenCL C),
 * runtime/runtime.h (devices, queues, buffers, programs) and engine/engine.h
 * (forcing a graph on its device). Only runtime/ includes OpenCL.
 */
#ifndef LAZYCL_H
#define LAZYCL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LAZYCL_VERSION "0.1.0"

typedef enum lc_status {
    LC_OK = 0,
    LC_ERR_NOMEM,      /* an allocation failed (host or device) */
    LC_ERR_INVALID,    /* bad user input: a value, a filter string, an argument */
    LC_ERR_SHAPE,      /* shapes that do not broadcast or do not fit */
    LC_ERR_TYPE,       /* a dtype that the operation does not take */
    LC_ERR_DEVICE,     /* an OpenCL call failed */
    LC_ERR_COMPILE,    /* a kernel failed to build: `detail` holds source and log */
    LC_ERR_PLACEMENT,  /* arrays on different devices/queues were mixed */
    LC_ERR_UNSUPPORTED,/* valid but not supported (e.g. float64 on a device without fp64) */
    LC_ERR_IO,         /* a file could not be read or written */
    LC_ERR_INDEX,      /* an index out of range */
    LC_ERR_AXIS,       /* an axis out of range (NumPy's AxisError: a ValueError and an IndexError) */
} lc_status;

/* An error: a code, a one-line message and, for build failures, a detail
 * text (kernel source and build log) owned by the error. Free it with
 * lc_error_clear(); an lc_error set twice keeps the last message. */
struct lc_error {
    lc_status code;
    char msg[1024];
    char *detail;
};

/* Record an error and return `code`. `fmt` is printf-style. */
lc_status lc_error_set(struct lc_error *e, lc_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Attach a detail text (copied). */
void lc_error_set_detail(struct lc_error *e, const char *detail);
/* Free the detail and reset to LC_OK. */
void lc_error_clear(struct lc_error *e);
/* The name of a status, e.g. "LC_ERR_DEVICE". */
const char *lc_status_name(lc_status s);

#define LC_TRY(expr) do { lc_status st_ = (expr); if (st_ != LC_OK) return st_; } while (0)

/* A kernel source containing this comment is built from OpenCL C even where the device takes
 * SPIR-V (under LAZYCL_BUILD=auto): codegen writes it, runtime reads it. */
#define LC_SOURCE_ONLY_MARK "/* lazycl: build from source */"
/* A kernel source containing this comment goes to PoCL as unoptimized SPIR bitcode (-O0) where
 * the others are optimized lightly (-O1): PoCL took 60 s instead of 2 to make the work-group
 * function of a float64 product's register tiles from -O1 bitcode (docs/env.md). */
#define LC_SPIR_O0_MARK "/* lazycl: SPIR unoptimized */"

#ifdef __cplusplus
}
#endif
#endif
