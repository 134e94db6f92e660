/* codegen.h: one plan kernel -> OpenCL C source plus the launches that run it.
 *
 * The source depends only on the kernel's structure (ops, dtypes, which
 * strides are 0 or 1, the schedule), never on sizes: sizes, offsets, strides
 * and scalar values are kernel arguments, so one compiled kernel serves every
 * size of the same expression. Kernel names say what they are:
 * lc_<family>_<dtype>_<16 hex digits of the source hash>, the family being the
 * schedule's (map, reduce, gemm, scan, sort, select for top-k, store), and a
 * kernel of several launches names each after it with a suffix (_first, ...).
 */
#ifndef LC_CODEGEN_H
#define LC_CODEGEN_H

#include "lazycl.h"
#include "fusion/fusion.h"

/* The device kinds lazycl shapes kernels for. */
enum lc_target_kind {
    LC_TARGET_CPU,  /* a CPU driver left to vectorize across work-items by itself (asked
                       for by LAZYCL_SCHEDULE=cpu) */
    LC_TARGET_SIMD, /* a CPU driver given explicit float8 code (every CPU device: PoCL's
                       driver vectorizes across work-items but not loops inside one, and
                       Intel's runs these kernels faster than its own vectorized ones) */
    LC_TARGET_GPU,  /* a GPU (or accelerator): coalesced accesses, work-groups, local memory */
};

/* What the code generator knows of a device: a plain description that the
 * schedules read (they never ask which kind of device it is). Built by
 * lc_target_init (codegen/target.c) from the const profile of its kind,
 * which holds every value of that kind, and the device's facts; the engine
 * makes it once per device and kind (engine/devtarget.c). */
struct lc_target {
    enum lc_target_kind kind;
    /* The device's facts. */
    int fp64;                   /* doubles available */
    unsigned compute_units;     /* >= 1 */
    size_t max_work_group;
    const char *device_name;    /* for error messages */
    /* Launches. */
    size_t work_group;          /* items per work-group of maps and reductions (and of scan tiles) */
    int fixed_groups;           /* launches name their work-group size and round the range up to
                                   it, so kernels test their bounds (else the driver picks) */
    size_t scan_work_group;     /* items per work-group of row and chunk scans (fixed_groups) */
    size_t scan_carry_group;    /* items of the one group per row that scans the tile totals */
    /* Vector code. */
    int complex_source;         /* kernels that read or compute complex values are built from
                                   OpenCL C, not SPIR-V, on devices that take SPIR-V: Intel's
                                   CPU compiler crashes (in its vectorizer) on some of them
                                   taken from SPIR-V */
    int simd;                   /* explicit SIMD width of loops inside a work-item (0: none) */
    int simd_maps;              /* maps take `simd` elements per item in explicit vectors (else
                                   one item per element, vectorized by the driver) */
    int simd_outer_cols;        /* column reductions that read no matrix (each read moves along
                                   the outputs or along the rows, not both: norm(Vd @ C,
                                   axis=0) for a small K) take SIMD schedules (else one item
                                   per output, vectorized by the driver) */
    int simd_math_bits;         /* the widest vector a math builtin (sin, log1p, pow, ...) takes
                                   whole, in bits; wider vectors call it on halves (0: any).
                                   PoCL 3.1's vectors wider than the device's native ones gave
                                   garbage on AVX2 (double8 sin, float16 cbrt, ...) */
    int simd_random;            /* ... of those that draw float32 random numbers (random.c): 16
                                   where the device prefers vectors of 16 floats (AVX-512),
                                   Philox's 64-bit products four blocks a vector; else simd */
    int map_vec4;               /* maps over aligned contiguous runs take four elements per item
                                   with 16-byte loads and stores */
    /* Reductions. */
    int64_t reduce_loop_outputs; /* with this many outputs, one work-item per output (0: never
                                    for that reason alone) */
    int reduce_rows;            /* SIMD targets whose loads stream best in long runs: loops of
                                   one output per item take this many outputs per item where
                                   they share a read (A @ v's vector, reduce.c); 0 or 1: one */
    int read_panels;            /* ... column sums with such a read take panels of columns
                                   (v @ A, reduce_colpanel.c), products of a few rows all rows
                                   x panels of columns (gemm_panels.c) */
    int64_t split_min_reduced;  /* fewer reduced elements than this: one work-item per output */
    size_t split_items;         /* items per work-group of a split reduction */
    int split_strided;          /* each item of a split reduction folds a strided share (coalesced
                                   across the group), else a contiguous chunk */
    int64_t split_per_item;     /* reduced elements per item before another group is added */
    int column_blocks;          /* column reductions take blocks of adjacent outputs x row chunks */
    int64_t column_loop_outputs; /* ... unless there are this many outputs: one item per output */
    int colblock_vectors;       /* SIMD column blocks: vectors of state per reduction field */
    int64_t colblock_min_rows;  /* SIMD column reductions with this many rows take column blocks */
    int shifted_variance;       /* float32 variances as sums of x - K in double (no divide per
                                   element; the fp64 divide is slow on GPUs) */
    /* Scans. */
    int64_t scan_split_rows;    /* fewer rows than this (and long ones): split each row */
    int64_t scan_max_chunks;    /* chunks per row of a split scan, at most */
    int scan_tiles;             /* long rows in tiles per work-group (three launches) */
    int scan_lookback;          /* scans of long rows in tiles in one pass, a decoupled
                                   look-back (groups wait for groups that started before them) */
    int scan_lookback_per_item; /* elements each item of such a tile scans */
    int scan_tile_per_item;     /* elements each item of a tile scans */
    /* Scatter-adds. */
    int store_private;          /* a scatter-add into a small target (np.add.at, bincount) gives
                                   each of this many items a private copy of it, summed after
                                   (0: never; every item adds atomically) */
    int64_t store_private_max;  /* ... while the copies hold at most this many elements */
    int64_t store_local_bytes;  /* a scatter-add into a target of at most this many bytes adds into
                                   a copy per work-group in local memory (0: never) */
    int64_t store_local_groups; /* ... with at most this many work-groups */
    int store_range_bits;       /* a scatter-add of many elements into a bigger float target
                                   orders them by ranges of 2^bits places, each range then
                                   summed in local memory (store_ranges.c; 0: never) */
    /* Sorts. */
    int64_t sort_items;         /* items a sort's rows are cut into (chunks of >= 1024) */
    int sort_digit_bits;        /* bits per radix digit (4 or 8) */
    int sort_radix_bits;        /* ... in sort.c's passes (the long rows on CPUs): 8 or 11 */
    int sort_tiles;             /* sorts in work-group tiles of local memory (sort_tile.c) */
    int sort_stream_stores;     /* sort.c's moves store whole lines with clang's streaming
                                   (non-temporal) stores (CPUs) */
    int64_t topk_items;         /* items a top-k selection's rows are cut into (topk.c) */
    int topk_coalesce;          /* rows read along the axis: neighbouring items interleave */
    int roll_loops;             /* GPU-shaped kernels on a CPU device (LAZYCL_SCHEDULE=gpu there):
                                   the loops a GPU unrolls to keep arrays in registers (top-k's
                                   list, a sort tile's keys) stay rolled (the same arithmetic;
                                   PoCL compiled a top_k kernel in 29 s unrolled, 4 s so; a
                                   sort's in 10 s, 6 s) */
    int64_t sort_row_max;       /* rows of at most this many elements are sorted by one item
                                   each, in one launch (sort_row.c; 0: never) */
    int64_t sort_net_max;       /* ... and rows of at most this many, in vector registers where
                                   equal keys are equal values (sort_net.c; 0: never) */
    int vec_len_hint;           /* that sort's kernel tells the driver not to vectorize it across
                                   work-items (intel_vec_len_hint(1): Intel's CPU runtime) */
    /* Matrix products (gemm.c). */
    int gemm_tiles;             /* products in register-blocked tiles of local memory */
    int gemm_group;             /* items per work-group side (gemm_group^2 items) */
    int gemm_tile_m, gemm_tile_n; /* outputs per work-group (multiples of gemm_group) */
    int gemm_tile_k;            /* K per step (gemm_tile_m * gemm_tile_k a multiple of
                                   gemm_group^2, and so for n) */
    int64_t gemm_min;           /* M and N at least this (else the generic reduction) */
    int gemm_vec;               /* float tiles read 4 values at a time (4) or 1 */
    int64_t gemm_min_k;         /* ... and K at least this */
    int gemm_blas;              /* plain float products call CLBlast: 0 no, 1 asked
                                   (LAZYCL_GEMM=clblast), 2 the autotuner found it faster */
    int gemm_simd_rows;         /* CPUs: rows per item (0: no vector product schedule) */
    int gemm_simd_width;        /* ... columns per vector (explicit vectors, on every CPU) */
    int gemm_simd_vectors;      /* ... and vectors of `simd` columns per item */
    int gemm_simd_group;        /* ... items per work-group (sharing a panel of the right operand) */
    int gemm_simd_kc;           /* ... panel rows (K per step) */
    int gemm_panel_width;       /* CPUs: columns per vector of the few-row products' panels
                                   (gemm_panels.c) */
};

/* Describe a device of kind `kind` from that kind's profile and the device's facts. */
void lc_target_init(struct lc_target *t, enum lc_target_kind kind, int fp64,
                    unsigned compute_units, size_t max_work_group, const char *device_name);
/* PoCL's major version in its platform version string ("OpenCL 3.0 PoCL 5.0+debian ..."),
 * 0 if none is named. */
int lc_pocl_major(const char *platform_version);
/* What a PoCL device of that major version changes in t (a SIMD target's): from PoCL 4 on,
 * sort_net_max is one block (target.c says why). */
void lc_target_for_pocl(struct lc_target *t, int pocl_major);
/* What a CPU device of another runtime (Intel's) changes in t (a SIMD target's): one output
 * per item of a row loop, maps left to the driver, and sort networks only where the runtime
 * can be told not to vectorize them (vec_len_hint: cl_intel_vec_len_hint; target.c says why). */
void lc_target_for_cpu_runtime(struct lc_target *t, int vec_len_hint);
/* The GEMM tile candidates of t's kind that the autotuner times (engine/autotune.c): how
 * many (0: no product schedule to tune); candidate 0 is lc_target_init's default. */
int lc_target_gemm_count(const struct lc_target *t);
/* Put candidate i's tile sizes into t; -1 (t unchanged) when there is no candidate i. */
int lc_target_gemm_set(struct lc_target *t, int i);
/* t's GEMM tile sizes in words ("4 rows x 2 vectors of 8, groups of 16, panels of 256"). */
void lc_target_gemm_name(const struct lc_target *t, char *out, size_t n);
/* The kind to shape kernels for on a device: a GPU (or accelerator), or a CPU (explicit
 * SIMD); LAZYCL_SCHEDULE=gpu|simd|cpu shapes them as for a GPU, a SIMD CPU or a generic
 * CPU instead ("pocl", the SIMD kind's first name, still reads as simd; tests run the GPU
 * schedules on CPU devices, and `make oclgrind` runs all three on Oclgrind's simulator). */
enum lc_target_kind lc_target_kind_of(int gpu);
/* The kind's name, as LAZYCL_SCHEDULE spells it: "gpu", "simd" or "cpu". */
const char *lc_target_kind_name(enum lc_target_kind kind);

enum lc_cgarg_kind {
    LC_CGARG_INPUT,   /* plan->inputs[index] */
    LC_CGARG_TEMP,    /* plan->buffers[index] */
    LC_CGARG_SCRATCH, /* the kernel's scratch buffer */
    LC_CGARG_SCALAR,  /* value of dtype */
    LC_CGARG_SCRATCH_BASE, /* the byte offset of the scratch area in its buffer (int64) */
    LC_CGARG_ERROR,   /* the plan's error buffer: 8 ints, zero before the first launch;
                         int 0 set to 1 by the first index out of range, int 1 its axis,
                         longs 1 and 2 the index and the extent */
};

/* Where a SCALAR argument's value comes from, so that a cached plan can take
 * it from another graph of the same structure. */
enum lc_cgarg_from {
    LC_FROM_STRUCTURE, /* sizes, strides, offsets: fixed by the structure */
    LC_FROM_VALUE,     /* access `access`'s leaf value, cast to `dtype` */
    LC_FROM_STEP,      /* access `access`'s leaf step (IOTA), cast to `dtype` */
    LC_FROM_OFFSET,    /* access `access`'s leaf offset plus `value` (the views' shift, fixed
                          by the structure): int64. A plan serves every offset of a buffer or
                          arange leaf (slices of one array in a loop) */
};

struct lc_cgarg {
    enum lc_cgarg_kind kind;
    int index;
    int dtype;
    union lc_scalar value;
    enum lc_cgarg_from from;
    int access;        /* LC_FROM_VALUE / _STEP / _OFFSET: the kernel's access */
};

struct lc_launch {
    char name[96];
    struct lc_cgarg *args;
    int n_args, cap_args;
    unsigned work_dim;
    size_t global[3];
    size_t local[3];
    int use_local;           /* else the driver picks the work-group size */
    /* A call of CLBlast's GEMM in place of a kernel (schedule gemm_blas): its arguments are the
     * buffers of A, B and C; C = op(A) @ op(B), row-major, with these sizes (in elements). */
    int blas;
    int blas_trans_a, blas_trans_b;
    int64_t blas_m, blas_n, blas_k, blas_lda, blas_ldb, blas_ldc, blas_off[3];
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
    int64_t gemm_work;       /* a float product (a gemm schedule): batch * M * N * K; else 0 */
    int source_only;         /* the driver must build it from its source (LC_SOURCE_ONLY_MARK):
                                it carries a driver's attribute that clang's SPIR-V drops */
};

/* Generate the code of plan kernel `k`. On failure nothing is held. */
lc_status lc_codegen(const struct lc_plan *plan, int k, const struct lc_target *t,
                     struct lc_kcode *out, struct lc_error *e);
void lc_kcode_free(struct lc_kcode *c);
/* The source of a kernel `lc_ucheck` that calls every output of user function fn
 * (graph/userfn.h), to build it alone: malloc'd, NULL when fn is unknown or out of memory. */
char *lc_user_check_source(uint64_t fn);
/* The same for n functions (1 <= n <= LC_USER_CHECK_MAX, a ReductionKernel's parts) in one
 * kernel, a preamble they share defined once. */
#define LC_USER_CHECK_MAX 8
char *lc_user_check_sources(const uint64_t *fns, int n);
/* Does some schedule take plan kernel `k` on target t? (Every kernel but one with
 * post-reductions, which only the GEMM schedules take, for some shapes: fusion.h.) */
int lc_codegen_fits(const struct lc_plan *plan, int k, const struct lc_target *t);
/* The lc_fuse flags to fuse without, for every kernel of plan to have a schedule on t: 0 when
 * every one has. A kernel with post-reductions and none drops LC_FUSE_PRODUCT_POST; a store
 * computing its scan drops LC_FUSE_SCAN_TOTAL when it writes the scan's totals, else
 * LC_FUSE_SCAN_STORE. */
unsigned lc_codegen_unfit(const struct lc_plan *plan, const struct lc_target *t);
/* Every schedule that would take plan kernel `k` on t, whatever the order of the schedule
 * table (tests check with it that a kernel only ever reaches schedules of its own kind):
 * how many, and the first `cap` names ("sort_radix", "scan_chunks", ...) into names. */
int lc_codegen_schedules(const struct lc_plan *plan, int k, const struct lc_target *t,
                         const char **names, int cap);

/* The OpenCL C of the kernels that write recorded single elements (codegen/poke.c):
 * lc_poke_1, _2, _4, _8 and _16, each (dst, records, n). */
const char *lc_codegen_poke_source(void);

/* ---- a string builder (codegen/sb.c) ---------------------------------------------- */

/* A growing NUL-terminated string, zero-initialized to start ({0}); s is NULL until the
 * first append. An append that runs out of memory sets oom (the text is then incomplete)
 * and later appends do nothing, so a writer checks oom once, at the end. The caller owns s
 * (lc_sb_free, or takes s and frees it). */
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

/* ---- internal: expressions (codegen/expr.c, complex.c) ----------------------------- */

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
/* complex.c: casts to, from and between complex dtypes; complex ops (1 when `op` is one). */
void lc_cg_complex_cast(struct lc_sb *sb, const char *v, int from, int to);
int lc_cg_complex_op(struct lc_sb *sb, struct lc_helpers *h, int op, int ct, int rt,
                     const char *const *operands);
void lc_cg_complex_helpers(struct lc_sb *sb, const struct lc_helpers *h);
/* The literal 1 of dtype dt (a complex one is (1, 0), not 1 in both parts). */
const char *lc_cg_one(int dt);
/* The statement `acc = acc * v;` for complex dtype ct (products fold through it). */
void lc_cg_complex_mul_into(struct lc_sb *sb, struct lc_helpers *h, int ct, const char *acc,
                            const char *v, const char *ind);

#endif
