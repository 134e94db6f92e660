/* codegen.h: one plan kernel -> OpenCL C source plus the launches that run it.
 *
 * The source depends only on the kernel's structure (ops, dtypes, which
 * strides are 0 or 1, the schedule), never on sizes: sizes, offsets, strides
 * and scalar values are kernel arguments, so one compiled kernel serves every
 * size of the same expression. Kernel names say what they are:
 * lc_<map|reduce|scan>_<dtype>_<16 hex digits of the source hash>.
 */
#ifndef LC_CODEGEN_H
#define LC_CODEGEN_H

#include "lazycl.h"
#include "fusion/fusion.h"

/* What the code generator needs to know of the device. */
struct lc_target {
    int gpu;                 /* shape work for a GPU (else one item per element, CPU) */
    int vec;                 /* CPU: explicit SIMD width for reduction loops (0: none). The
                                PoCL CPU driver does not vectorize loops inside a work-item,
                                so lazycl writes float8 code for it. */
    int fp64;                /* doubles available */
    unsigned compute_units;
    size_t max_work_group;
    const char *device_name; /* for error messages */
};

enum lc_cgarg_kind {
    LC_CGARG_INPUT,   /* plan->inputs[index] */
    LC_CGARG_TEMP,    /* plan->buffers[index] */
    LC_CGARG_SCRATCH, /* the kernel's scratch buffer */
    LC_CGARG_SCALAR,  /* value of dtype */
    LC_CGARG_SCRATCH_BASE, /* the byte offset of the scratch area in its buffer (int64) */
};

/* Where a SCALAR argument's value comes from, so that a cached plan can take
 * it from another graph of the same structure. */
enum lc_cgarg_from {
    LC_FROM_STRUCTURE, /* sizes, strides, offsets: fixed by the structure */
    LC_FROM_VALUE,     /* access `access`'s leaf value, cast to `dtype` */
    LC_FROM_STEP,      /* access `access`'s leaf step (IOTA), cast to `dtype` */
};

struct lc_cgarg {
    enum lc_cgarg_kind kind;
    int index;
    int dtype;
    union lc_scalar value;
    enum lc_cgarg_from from;
    int access;        /* LC_FROM_VALUE / LC_FROM_STEP: the kernel's access */
};

struct lc_launch {
    char name[96];
    struct lc_cgarg *args;
    int n_args, cap_args;
    unsigned work_dim;
    size_t global[3];
    size_t local[3];
    int use_local;           /* else the driver picks the work-group size */
};

/* The code of one plan kernel: one program with one __kernel per launch. */
struct lc_kcode {
    char *source;
    struct lc_launch *launches;
    int n_launches;
    size_t scratch_bytes;    /* a scratch area of this size is passed (0: none), as a buffer
                                and a byte offset into it (8-aligned): the engine may place
                                it in the tail of an output's buffer */
    size_t zero_bytes;       /* its first zero_bytes must be zero before the first launch */
    char schedule[128];      /* the schedule chosen (no sizes: it is in the source) */
};

/* Generate the code of plan kernel `k`. On failure nothing is held. */
lc_status lc_codegen(const struct lc_plan *plan, int k, const struct lc_target *t,
                     struct lc_kcode *out, struct lc_error *e);
void lc_kcode_free(struct lc_kcode *c);

/* ---- internal: expressions (codegen/expr.c) --------------------------------------- */

struct lc_sb {
    char *s;
    size_t len, cap;
    int oom;
};
void lc_sb_printf(struct lc_sb *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void lc_sb_free(struct lc_sb *sb);

/* Helper functions an expression needs, emitted once per program. */
struct lc_helpers {
    uint32_t need[LC_NDTYPES]; /* bit per helper kind */
};
/* Append the C expression converting `v` (of dtype `from`) to `to`. */
void lc_cg_cast(struct lc_sb *sb, const char *v, int from, int to);
/* Append the C expression of elementwise `op` computing in `ct` with result
 * dtype `rt` over operand expressions already converted to `ct` (where's
 * condition is in its own dtype). */
void lc_cg_op(struct lc_sb *sb, struct lc_helpers *h, int op, int ct, int rt,
              const char *const *operands);
/* Emit the helper functions recorded in h. */
void lc_cg_helpers(struct lc_sb *sb, const struct lc_helpers *h);

#endif
