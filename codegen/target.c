/* target.c: one const profile per device kind, a device's target made from its kind's
 * profile, and which schedule a kernel takes.
 *
 * A schedule never asks which kind of device it runs on: it reads the
 * fields of struct lc_target (codegen.h), which lc_target_init fills here
 * from the profile of the device's kind (lc_profiles: every value of one kind
 * in one place) and the device's facts. A kernel takes the first schedule
 * of its kernel kind, in the order of LC_SCHEDULES, whose fits() accepts it;
 * each schedule declares the one kernel kind it serves, so the order matters
 * only among the schedules of one kind. A new schedule family is one new
 * file and one line in LC_SCHEDULES.
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one kind of device is given. The device's target starts as a copy of `fixed` (the
 * kind's value of every field that does not depend on the device; those that do are 0
 * there), then lc_target_init adds the device's facts and the counts below. */
struct lc_target_profile {
    struct lc_target fixed;   /* fixed.shifted_variance: where the device has fp64;
                                 fixed.gemm_tiles: where its work-groups hold gemm_group^2
                                 items */
    int split_group;          /* split reductions take a whole work-group (work_group items)
                                 per group, else fixed.split_items */
    /* Counts per compute unit: the device's value is fixed.<name> plus this times its
     * compute units. */
    int64_t reduce_loop_outputs, column_loop_outputs, scan_split_rows, scan_max_chunks,
            store_private, store_local_groups, sort_items, topk_items;
};

/* The values every kind shares. */
#define LC_EVERY_KIND                                                                        \
    .complex_source = 1, /* whatever the schedules: only SPIR-V intake is affected */       \
    /* Measured (4096^2 mean+std): V = 1..8 and P = 8..32 within 10% for chunks of ~256      \
     * rows; one chunk of 4096 rows per block is twice as slow. */                          \
    .colblock_vectors = 4, .colblock_min_rows = 256,                                         \
    .scan_tile_per_item = 8, .scan_lookback_per_item = 16,                                   \
    .store_private_max = (int64_t)1 << 23,                                                   \
    /* 8-bit digits: four passes over 32-bit keys. */                                        \
    .sort_digit_bits = 8,                                                                    \
    /* Products: 128 x 128 outputs per group of 16 x 16 items (8 x 8 each), K in steps of 4  \
     * (H100 SGEMM 8192^2, TFLOP/s: steps of 2/4/8/16/32 gave 32.6/40.1/38.4/30.4/24.3;      \
     * blocks of 128x64 36.9 and 64x64 31.7 at 8; fewer registers for the next step's values \
     * keep more groups resident). The autotuner may pick another of lc_gemm_gpu_tiles. */  \
    .gemm_group = 16, .gemm_tile_m = 128, .gemm_tile_n = 128, .gemm_tile_k = 4,              \
    .gemm_min = 64, .gemm_vec = 4, .gemm_min_k = 16,                                         \
    /* CPUs' vector products: 4 rows x 2 float8 per item, 8 vector accumulators in          \
     * registers (double8: 1); 16 items share a 256-row panel (measured on 2 cores, 2048^2:  \
     * WG 8/16/32 gave 65/95/79 GFLOP/s, KC 128/256/512 91/95/95, RM x RV 4x2 95, 6x2 89-105, \
     * 8x2 76, 2x4 71; the autotuner may pick another of lc_gemm_cpu_blocks). */            \
    .gemm_simd_width = 8, .gemm_simd_vectors = 2, .gemm_simd_group = 16, .gemm_simd_kc = 256, \
    /* The panels of products of a few rows (gemm_panels.c): float8, measured there. */      \
    .gemm_panel_width = 8

/* What both CPU kinds are given. CPU drivers pick a work-group size well for one item per
 * element. A CPU is full with a few outputs per core (reductions, scans, sorts and top-k
 * cut into a few chunks per core), and adds into a private copy per core at the speed of a
 * plain add (atomics cost 20-50 ns each there). A row of at most sort_row_max elements is
 * sorted by one item in one launch (measured on PoCL, 2 cores, shared, one float64 row, ms,
 * one launch vs 24: 1000: 0.08/0.19, 4096: 0.13-0.21/0.19-0.52, 8192: 0.22-0.35/0.31-0.71,
 * 16384: 0.41-0.64/0.56-0.97; at 16384 and over, the chunks sort.c spreads over the cores
 * win when both are free; many rows take it too, one item per row either way: 16384 x 256
 * and 4096 x 4096 cost the same CPU time). Longer rows take sort.c's passes over 11-bit
 * digits, three for 32-bit keys (PoCL, 2 cores, 2^24 float32, kernel ms in three
 * alternating runs: 8-bit digits 190/207/195, 11-bit 160/164/167; a move's 2048 lines of
 * 64 bytes stay in L2). */
#define LC_CPU_PROFILE(kind_, simd_, rows_, net_)                                            \
    .fixed = {LC_EVERY_KIND, .kind = kind_, .simd = simd_, .reduce_rows = rows_,             \
              .read_panels = (rows_) > 1, .simd_maps = (simd_) > 1,                           \
              .simd_outer_cols = (simd_) > 1,                                                \
              .split_min_reduced = 4096,                                                     \
              .split_items = 1, .split_per_item = 16384, .sort_row_max = 8192,               \
              .sort_net_max = net_, .sort_stream_stores = 1, .gemm_simd_rows = 4,            \
              .sort_radix_bits = 11},                                                        \
    .reduce_loop_outputs = 8, .scan_split_rows = 8, .scan_max_chunks = 8,                    \
    .store_private = 2, .sort_items = 8, .topk_items = 8

static const struct lc_target_profile lc_profiles[] = {
    /* A CPU driver left to vectorize across work-items (LAZYCL_SCHEDULE=cpu). */
    [LC_TARGET_CPU] = {LC_CPU_PROFILE(LC_TARGET_CPU, 0, 0, 0)},
    /* PoCL's CPU driver vectorizes across work-items but not loops inside one, and calls
     * the scalar math library per element: float8 code. Intel's CPU runtime, which does
     * vectorize across work-items, runs these kernels faster than the generic CPU target's
     * (on 2 Zen 4 cores, 2^24 float32, ms, generic / SIMD: softmax 37.6 / 10.5, cumsum 11.0
     * / 6.97, compaction 12.7 / 7.83, top_k 16 22.2 / 2.38, sort of rows 4096^2 65.0 / 26.1,
     * matmul 2048^2 112 / 87.8, random 173 / 30.5; docs/benchmarks.md). */
    [LC_TARGET_SIMD] = {LC_CPU_PROFILE(LC_TARGET_SIMD, 8, 8, 65536)},
    /* A GPU: fixed work-groups (kernels test their bounds), four elements per map item,
     * reductions of rows by work-groups whatever their number (strided shares, column
     * blocks), float32 variances as shifted sums in double (the fp64 divide is slow
     * there), scans in tiles, scatter-adds into a copy per work-group in local memory
     * (32 KiB leaves room for two groups per multiprocessor, a few groups per compute
     * unit), or into bigger float targets by ranges of 2^11 places (store_ranges.c),
     * sorts in tiles of local memory (coalesced moves; rows that fit a tile never
     * leave it), top-k with about 1024 items per compute unit, neighbouring items reading
     * neighbouring elements, and products in register-blocked tiles. */
    [LC_TARGET_GPU] = {
        .fixed = {LC_EVERY_KIND, .kind = LC_TARGET_GPU, .fixed_groups = 1, .map_vec4 = 1,
                  .split_min_reduced = 64, .split_strided = 1, .split_per_item = 16,
                  .column_blocks = 1,
                  .shifted_variance = 1, .scan_max_chunks = 16384, .scan_tiles = 1,
                  .scan_lookback = 1,
                  .store_local_bytes = 32768, .store_range_bits = 11, .sort_tiles = 1,
                  .topk_coalesce = 1,
                  .sort_radix_bits = 8, .gemm_tiles = 1},
        .split_group = 1,
        .column_loop_outputs = 2048, .scan_split_rows = 256, .store_local_groups = 4,
        .sort_items = 256, .topk_items = 512},
};

void lc_target_init(struct lc_target *t, enum lc_target_kind kind, int fp64,
                    unsigned compute_units, size_t max_work_group, const char *device_name)
{
    const struct lc_target_profile *p = &lc_profiles[kind];
    int64_t cu = compute_units ? compute_units : 1;
    size_t mwg = max_work_group ? max_work_group : 1;
    memcpy(t, &p->fixed, sizeof *t);   /* padding too: the plan cache hashes the bytes */
    t->fp64 = fp64;
    t->compute_units = (unsigned)cu;
    t->max_work_group = max_work_group;
    t->device_name = device_name;
    t->simd_random = t->simd;

    t->work_group = mwg < 256 ? mwg : 256;
    t->scan_work_group = mwg < 64 ? mwg : 64;
    t->scan_carry_group = mwg < 1024 ? mwg : 1024;
    if (p->split_group)
        t->split_items = t->work_group;
    t->shifted_variance = p->fixed.shifted_variance && fp64;
    t->gemm_tiles = p->fixed.gemm_tiles &&
                    mwg >= (size_t)p->fixed.gemm_group * (size_t)p->fixed.gemm_group;

    t->reduce_loop_outputs += cu * p->reduce_loop_outputs;
    t->column_loop_outputs += cu * p->column_loop_outputs;
    t->scan_split_rows += cu * p->scan_split_rows;
    t->scan_max_chunks += cu * p->scan_max_chunks;
    t->store_private += (int)(cu * p->store_private);
    t->store_local_groups += cu * p->store_local_groups;
    t->sort_items += cu * p->sort_items;
    t->topk_items += cu * p->topk_items;
}

int lc_pocl_major(const char *platform_version)
{
    const char *p = platform_version ? strstr(platform_version, "PoCL ") : NULL;
    int major = 0;
    return p && sscanf(p + 5, "%d", &major) == 1 && major > 0 ? major : 0;
}

/* The vector merges of sorted runs (sort_net.c) were measured fast on PoCL 3.1 only: on PoCL
 * 5.0 (Ubuntu 24.04, an Intel Xeon with AVX-512, 2 cores; ms, two calls) rows of 4096^2
 * float32 took 535-561 merged, 72-118 by the radix passes (NumPy 69-79), while rows of 256 (one
 * block, no merge) took 61-89 in the network, 84-123 by the radix passes; loading the runs'
 * heads by two loads and a select, not a select of pointers, was as slow (570). PoCL 4 was not
 * measured. So from PoCL 4 on only rows of one block take the network. */
void lc_target_for_pocl(struct lc_target *t, int pocl_major)
{
    if (pocl_major >= 4 && t->sort_net_max > 256)
        t->sort_net_max = 256;
}

/* Intel's CPU runtime widens the vector merge sort's network (sort_net.c) across work-items,
 * and took 15-20 s a kernel to build it so (PoCL: 1-1.5 s). Told not to (intel_vec_len_hint(1),
 * where the runtime lists cl_intel_vec_len_hint; from source, as clang drops the attribute)
 * it builds one in ~1 s and runs it as written:
 * 4096^2 float32 along rows 25-27 ms against the radix passes' 78 (NumPy's AVX2 sort 90-95);
 * without the extension, its value sorts of rows keep the radix passes. Turning its
 * vectorizer off for every kernel (CL_CONFIG_CPU_VECTORIZER_MODE=1) made no other row faster
 * and maps slower (softmax 12.1 -> 42.5 ms, randn 26.4 -> 195). It also vectorizes the
 * float8 code across work-items, and A @ v's row blocks of 8 outputs an item then run at a
 * third of one output an item's speed (2000 x 30000 float32 @ v, 2 Zen 4 cores: 23.2 ms
 * against 8.3; NumPy 8.0); the panels of v @ A and of products of a few rows stay (u @ A 8.1
 * ms against 13.0 without; 8 x 30000 @ 30000 x 2000 17.6 against 33.6). Its maps run faster
 * one item per element, vectorized by its own compiler and math library, than in float8 code
 * (2^24 float32, ms, float8 / float16 / one item per element: transc 16.0 / 9.8 / 7.8, jacobi_2d
 * 2000^2 x 10 55.1 / 50.9 / 46.7, randn 30.8 / - / 26.5); reductions, scans, sorts and top-k
 * keep the float8 code (softmax 10.3 ms against 46.7 in plain items). Other CPU runtimes were
 * not measured: they take Intel's changes, the safer ones. */
void lc_target_for_cpu_runtime(struct lc_target *t, int vec_len_hint)
{
    if (vec_len_hint)
        t->vec_len_hint = 1;
    else
        t->sort_net_max = 0;
    t->reduce_rows = 0;
    t->simd_maps = 0;
    t->simd_outer_cols = 0;
}

/* The GEMM tile candidates the autotuner times (engine/autotune.c) on a device of each kind
 * (at most LC_TUNEREC_MAX_CANDIDATES, engine/tunerec.h); the first of each list is the default
 * lc_target_init sets. GPUs: the H100 sweep's best (K in steps of 4) and its neighbours (steps
 * of 8; blocks of 128x64 and 64x64 at 8), all in groups of 16 x 16 items. CPUs: {rows,
 * vectors, lanes per vector, group, panel}: the 2-core sweep's 4 rows x 2 float8 per item in
 * groups of 16 with panels of 256 and its neighbours (6 x 2; panels of 128; groups of 8),
 * then 16-lane vectors (one AVX-512 register each; two where registers are narrower, which
 * the timing then rejects). PoCL, 2 cores with AVX-512, 2048^2 float32 (GFLOP/s, one sweep):
 * 4 x 2 float8 80-88, 6 x 2 float8 101; 6 x 3 float16 152-160, in groups of 32 147, 6 x 2
 * float16 113-148, 4 x 3 float16 125-140, 8 x 2 float16 123-142, 5 x 3 136, 6 x 4 (panels of
 * 128) 111, 8 x 3 (128) 91; at 768^3 (the size timed) all the float16 ones 128-155. Panels
 * longer than 256 are left out: they sum more values in one float32 run. */
static const int lc_gemm_gpu_tiles[][3] = {{128, 128, 4}, {128, 128, 8}, {128, 64, 8}, {64, 64, 8}};
static const int lc_gemm_cpu_blocks[][5] = {
    {4, 2, 8, 16, 256},  {6, 2, 8, 16, 256},  {4, 2, 8, 16, 128},  {4, 2, 8, 8, 256},
    {6, 3, 16, 16, 256}, {6, 3, 16, 32, 256}, {6, 2, 16, 16, 256}, {4, 3, 16, 16, 256}};
#define LC_COUNT(a) ((int)(sizeof a / sizeof *a))

int lc_target_gemm_count(const struct lc_target *t)
{
    if (t->kind == LC_TARGET_GPU)
        return t->gemm_tiles ? LC_COUNT(lc_gemm_gpu_tiles) : 0;
    return t->gemm_simd_rows ? LC_COUNT(lc_gemm_cpu_blocks) : 0;
}

int lc_target_gemm_set(struct lc_target *t, int i)
{
    if (i < 0 || i >= lc_target_gemm_count(t))
        return -1;
    if (t->kind == LC_TARGET_GPU) {
        t->gemm_tile_m = lc_gemm_gpu_tiles[i][0];
        t->gemm_tile_n = lc_gemm_gpu_tiles[i][1];
        t->gemm_tile_k = lc_gemm_gpu_tiles[i][2];
    } else {
        t->gemm_simd_rows = lc_gemm_cpu_blocks[i][0];
        t->gemm_simd_vectors = lc_gemm_cpu_blocks[i][1];
        t->gemm_simd_width = lc_gemm_cpu_blocks[i][2];
        t->gemm_simd_group = lc_gemm_cpu_blocks[i][3];
        t->gemm_simd_kc = lc_gemm_cpu_blocks[i][4];
    }
    return 0;
}

void lc_target_gemm_name(const struct lc_target *t, char *out, size_t n)
{
    if (t->kind == LC_TARGET_GPU)
        snprintf(out, n, "tiles %dx%d, %d along K, groups of %dx%d", t->gemm_tile_m,
                 t->gemm_tile_n, t->gemm_tile_k, t->gemm_group, t->gemm_group);
    else
        snprintf(out, n, "%d rows x %d vectors of %d, groups of %d, panels of %d",
                 t->gemm_simd_rows, t->gemm_simd_vectors, t->gemm_simd_width,
                 t->gemm_simd_group, t->gemm_simd_kc);
}

enum lc_target_kind lc_target_kind_of(int gpu)
{
    const char *sched = getenv("LAZYCL_SCHEDULE");
    if (sched && !strcmp(sched, "gpu"))
        return LC_TARGET_GPU;
    if (sched && !strcmp(sched, "cpu"))
        return LC_TARGET_CPU;
    if (sched && (!strcmp(sched, "simd") || !strcmp(sched, "pocl")))
        return LC_TARGET_SIMD;
    return gpu ? LC_TARGET_GPU : LC_TARGET_SIMD;
}

const char *lc_target_kind_name(enum lc_target_kind kind)
{
    return kind == LC_TARGET_GPU ? "gpu" : kind == LC_TARGET_SIMD ? "simd" : "cpu";
}

/* Every schedule, in order of preference within its kernel kind. */
#define LC_SCHEDULES(X)                                                                    \
    X(map_simd)           /* map.c: W elements of a row per item, W-lane vectors */        \
    X(map_vec4_rows)      /* map.c: four elements of a row per item, 16-byte accesses */   \
    X(map_vec4)           /* map.c: four elements of a 1-d run per item */                 \
    X(map_items)          /* map.c: one item per element */                                \
    X(gemm_blas)          /* gemm.c: plain float products through CLBlast (asked or tuned) */\
    X(gemm_skinny)        /* gemm_skinny.c: products of up to 16 rows, K in slices (GPUs) */\
    X(gemm_tiles)         /* gemm.c: products in register-blocked local-memory tiles */   \
    X(gemm_simd)          /* gemm.c: products in register blocks of rows x vectors (SIMD) */ \
    X(reduce_colblock)    /* reduce_split.c: SIMD blocks of outputs x row chunks */        \
    X(reduce_cols)        /* reduce.c: one item per W outputs, lanes across outputs */     \
    X(reduce_colsplit)    /* reduce_split.c: groups of adjacent outputs x row chunks */    \
    X(reduce_loop)        /* reduce.c: one item per output */                              \
    X(reduce_split)       /* reduce_split.c: groups per output, last group combines */     \
    X(topk_chunks)        /* topk.c: the k best of each row chunk, then merged (argtopk) */ \
    X(sort_tiles)         /* sort_tile.c: radix sort in work-group tiles (GPUs) */         \
    X(sort_rows)          /* sort_row.c: one item per row, every digit in one launch (CPUs) */ \
    X(sort_radix)         /* sort.c: LSD radix sort along the last dim (sort, argsort) */  \
    X(scan_row)           /* scan.c: one item per row */                                   \
    X(scan_lookback)      /* scan_lookback.c: scans in tiles per work-group, one pass */   \
    X(scan_tiles)         /* scan.c: tiles per work-group, three launches */               \
    X(scan_chunks)        /* scan.c: chunks of each row, three launches */              \
    X(store_scan_rows)    /* scan.c: stores computing a scan or in row order, a row per item */\
    X(store_scan_chunks)  /* scan.c: a store computing its scan, chunks, three launches */ \
    X(store_scan_lookback) /* scan_lookback.c: a store computing its scan, tiles */ \
    X(store_private)      /* store.c: scatter-adds into private copies, then summed */     \
    X(store_local)        /* store_local.c: scatter-adds into a local copy per group */    \
    X(store_ranges)       /* store_ranges.c: scatter-adds ordered by range, summed locally */\
    X(store_items)        /* store.c: one item per element written in place */

#define LC_DECLARE(name) extern const struct lc_schedule lc_sched_##name;
LC_SCHEDULES(LC_DECLARE)
#define LC_ENTRY(name) &lc_sched_##name,
static const struct lc_schedule *const lc_schedules[] = {LC_SCHEDULES(LC_ENTRY)};
#define LC_NAME(name) #name,
static const char *const lc_schedule_names[] = {LC_SCHEDULES(LC_NAME)};

/* The schedules that take kernels with post-reductions (fusion.h's post_axes); such a
 * kernel takes one of these or none (the engine then fuses without them). */
#define LC_POST_SCHEDULES(X) X(gemm_tiles) X(gemm_simd)

static int lc_takes_post(const struct lc_schedule *s)
{
#define LC_IS(name) if (s == &lc_sched_##name) return 1;
    LC_POST_SCHEDULES(LC_IS)
#undef LC_IS
    return 0;
}

/* The schedules that take stores computing a scan or assigning in row order (fusion.h's
 * store_scan, store_ordered); such a kernel takes one of these (a store computing its scan
 * maybe none: the engine then fuses without them), and they take no other. */
#define LC_SCAN_STORE_SCHEDULES(X) X(store_scan_rows) X(store_scan_chunks) X(store_scan_lookback)

static int lc_takes_scan_store(const struct lc_schedule *s)
{
#define LC_IS(name) if (s == &lc_sched_##name) return 1;
    LC_SCAN_STORE_SCHEDULES(LC_IS)
#undef LC_IS
    return 0;
}

/* Does schedule s take kernel g: one of its kind, with post-reductions only if s runs them,
 * a store computing its scan or assigning in row order only if s does, and one its fits()
 * accepts? */
static int lc_takes(const struct lc_schedule *s, struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    return s->kind == k->kind && (!k->post_axes || lc_takes_post(s)) &&
           (k->kind != LC_KERNEL_STORE ||
            (k->store_scan >= 0 || k->store_ordered) == lc_takes_scan_store(s)) &&
           (!s->fits || s->fits(g));
}

const struct lc_schedule *lc_schedule_for(struct lc_cg *g)
{
    for (size_t i = 0; i < sizeof lc_schedules / sizeof *lc_schedules; i++)
        if (lc_takes(lc_schedules[i], g))
            return lc_schedules[i];
    return NULL;
}

int lc_schedules_taking(struct lc_cg *g, const char **names, int cap)
{
    int n = 0;
    for (size_t i = 0; i < sizeof lc_schedules / sizeof *lc_schedules; i++)
        if (lc_takes(lc_schedules[i], g)) {
            if (n < cap)
                names[n] = lc_schedule_names[i];
            n++;
        }
    return n;
}
