/* target.c: one description per device kind, and which schedule a kernel takes.
 *
 * A schedule never asks which kind of device it runs on: it reads the
 * fields of struct lc_target (codegen.h), which lc_target_init fills here,
 * all the values of one kind in one place. A kernel takes the first
 * schedule of its kind, in the order of LC_SCHEDULES, whose fits() accepts
 * it; a new schedule family is one new file and one line in LC_SCHEDULES.
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lc_target_init(struct lc_target *t, enum lc_target_kind kind, int fp64,
                    unsigned compute_units, size_t max_work_group, const char *device_name)
{
    memset(t, 0, sizeof *t);
    int gpu = kind == LC_TARGET_GPU;
    int64_t cu = compute_units ? compute_units : 1;
    size_t mwg = max_work_group ? max_work_group : 1;
    t->kind = kind;
    t->fp64 = fp64;
    t->compute_units = (unsigned)cu;
    t->max_work_group = max_work_group;
    t->device_name = device_name;

    t->work_group = mwg < 256 ? mwg : 256;
    t->scan_work_group = mwg < 64 ? mwg : 64;
    t->scan_carry_group = mwg < 1024 ? mwg : 1024;
    /* CPU drivers pick a work-group size well for one item per element. */
    t->fixed_groups = gpu;

    /* PoCL's CPU driver vectorizes across work-items but not loops inside
     * one, and calls the scalar math library per element: float8 code. */
    t->simd = kind == LC_TARGET_POCL ? 8 : 0;
    t->complex_source = 1;     /* whatever the schedules: only SPIR-V intake is affected */
    t->map_vec4 = gpu;

    /* A CPU is full with a few outputs per core; a GPU reduces rows with
     * work-groups whatever their number. */
    t->reduce_loop_outputs = gpu ? 0 : cu * 8;
    t->split_min_reduced = gpu ? 64 : 4096;
    t->split_items = gpu ? t->work_group : 1;
    t->split_strided = gpu;
    t->split_per_item = gpu ? 16 : 16384;
    t->column_blocks = gpu;
    t->column_loop_outputs = gpu ? cu * 2048 : 0;
    /* Measured (4096^2 mean+std): V = 1..8 and P = 8..32 within 10% for chunks
     * of ~256 rows; one chunk of 4096 rows per block is twice as slow. */
    t->colblock_vectors = 4;
    t->colblock_min_rows = 256;
    t->shifted_variance = gpu && fp64;

    t->scan_split_rows = gpu ? cu * 256 : cu * 8;
    t->scan_max_chunks = gpu ? 16384 : cu * 8;
    t->scan_tiles = gpu;
    t->scan_tile_per_item = 8;

    /* A CPU adds into a private copy per core at the speed of a plain add
     * (atomics cost 20-50 ns each there); GPUs add atomically. */
    t->store_private = gpu ? 0 : (int)(cu * 2);
    t->store_private_max = (int64_t)1 << 23;
    /* A GPU work-group adds into a copy in local memory (32 KiB leaves room
     * for two groups per multiprocessor), a few groups per compute unit. */
    t->store_local_bytes = gpu ? 32768 : 0;
    t->store_local_groups = gpu ? cu * 4 : 0;
    /* Sorts cut their rows into chunks over about this many items in all. */
    t->sort_items = gpu ? cu * 256 : cu * 8;
    /* 8-bit digits: four passes over 32-bit keys. GPUs sort in tiles of local memory
     * (coalesced moves; rows that fit a tile never leave it). */
    t->sort_digit_bits = 8;
    t->sort_tiles = gpu;
    /* Top-k selections: a few chunks per row on CPUs; on GPUs about 1024 items per compute
     * unit, neighbouring items reading neighbouring elements. */
    t->topk_items = gpu ? cu * 1024 : cu * 8;
    t->topk_coalesce = gpu;
    /* CPUs: a row of at most this many elements is sorted by one item in one launch (GPUs
     * sort a row that fits a tile in one launch). Measured on PoCL (2 cores, shared), one
     * float64 row, ms, one launch vs 24: 1000: 0.08/0.19, 4096: 0.13-0.21/0.19-0.52,
     * 8192: 0.22-0.35/0.31-0.71, 16384: 0.41-0.64/0.56-0.97 (at 16384 and over, the chunks
     * sort.c spreads over the cores win when both are free). Many rows take it too (one
     * item per row either way): 16384 x 256 and 4096 x 4096 cost the same CPU time. */
    t->sort_row_max = gpu ? 0 : 8192;
    /* Products: 128 x 128 outputs per group of 16 x 16 items (8 x 8 each), K in steps of 4
     * (H100 SGEMM 8192^2, TFLOP/s: steps of 2/4/8/16/32 gave 32.6/40.1/38.4/30.4/24.3; blocks
     * of 128x64 36.9 and 64x64 31.7 at 8; fewer registers for the next step's values keep
     * more groups resident). The autotuner may pick another of lc_gemm_gpu_tiles below. */
    t->gemm_tiles = gpu && mwg >= 256;
    t->gemm_group = 16;
    t->gemm_tile_m = t->gemm_tile_n = 128;
    t->gemm_tile_k = 4;
    t->gemm_min = 64;
    t->gemm_vec = 4;
    t->gemm_min_k = 16;
    /* PoCL: 4 rows x 2 float8 per item, 8 vector accumulators in registers (double8: 1). */
    t->gemm_simd_rows = gpu ? 0 : 4;
    t->gemm_simd_width = 8;
    t->gemm_simd_vectors = 2;
    /* ... 16 items share a 256-row panel (measured on 2 cores, 2048^2: WG 8/16/32 gave
     * 65/95/79 GFLOP/s, KC 128/256/512 91/95/95, RM x RV 4x2 95, 6x2 89-105, 8x2 76, 2x4 71;
     * the autotuner may pick another of lc_gemm_cpu_blocks below) */
    t->gemm_simd_group = 16;
    t->gemm_simd_kc = 256;
}

/* The GEMM tile candidates the autotuner times (engine/autotune.c) on a device of each kind;
 * the first of each list is the default lc_target_init sets. GPUs: the H100 sweep's best (K
 * in steps of 4) and its neighbours (steps of 8; blocks of 128x64 and 64x64 at 8), all in
 * groups of 16 x 16 items. CPUs: the 2-core sweep's 4 rows x 2 vectors per item in groups of
 * 16 with panels of 256, and its neighbours (6 x 2; panels of 128; groups of 8). Panels
 * longer than 256 are left out: they sum more values in one float32 run. */
static const int lc_gemm_gpu_tiles[][3] = {{128, 128, 4}, {128, 128, 8}, {128, 64, 8}, {64, 64, 8}};
static const int lc_gemm_cpu_blocks[][4] = {{4, 2, 16, 256}, {6, 2, 16, 256}, {4, 2, 16, 128},
                                            {4, 2, 8, 256}};
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
        t->gemm_simd_group = lc_gemm_cpu_blocks[i][2];
        t->gemm_simd_kc = lc_gemm_cpu_blocks[i][3];
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

enum lc_target_kind lc_target_kind_of(int gpu, int pocl)
{
    const char *sched = getenv("LAZYCL_SCHEDULE");
    if (sched && !strcmp(sched, "gpu"))
        return LC_TARGET_GPU;
    if (sched && !strcmp(sched, "cpu"))
        return LC_TARGET_CPU;
    return gpu ? LC_TARGET_GPU : pocl ? LC_TARGET_POCL : LC_TARGET_CPU;
}

/* Every schedule, in order of preference within its kernel kind. */
#define LC_SCHEDULES(X)                                                                    \
    X(map_simd)           /* map.c: W elements of a row per item, W-lane vectors */        \
    X(map_vec4_rows)      /* map.c: four elements of a row per item, 16-byte accesses */   \
    X(map_vec4)           /* map.c: four elements of a 1-d run per item */                 \
    X(map_items)          /* map.c: one item per element */                                \
    X(gemm_blas)          /* gemm.c: plain float products through CLBlast (asked or tuned) */\
    X(gemm_tiles)         /* gemm.c: products in register-blocked local-memory tiles */   \
    X(gemm_simd)          /* gemm.c: products in register blocks of rows x vectors (SIMD) */ \
    X(reduce_colblock)    /* reduce_split.c: SIMD blocks of outputs x row chunks */        \
    X(reduce_cols)        /* reduce.c: one item per W outputs, lanes across outputs */     \
    X(reduce_colsplit)    /* reduce_split.c: groups of adjacent outputs x row chunks */    \
    X(reduce_loop)        /* reduce.c: one item per output */                              \
    X(reduce_split)       /* reduce_split.c: groups per output, last group combines */     \
    X(topk_select)        /* topk.c: the k best of each row chunk, then merged (argtopk) */ \
    X(sort_tiles)         /* sort_tile.c: radix sort in work-group tiles (GPUs) */         \
    X(sort_rows)          /* sort_row.c: one item per row, every digit in one launch (CPUs) */ \
    X(sort_radix)         /* sort.c: LSD radix sort along the last dim (sort, argsort) */  \
    X(scan_row)           /* scan.c: one item per row */                                   \
    X(scan_tiles)         /* scan.c: tiles per work-group, three launches */               \
    X(scan_chunks)        /* scan.c: chunks of each row, three launches */              \
    X(store_private)      /* store.c: scatter-adds into private copies, then summed */     \
    X(store_local)        /* store_local.c: scatter-adds into a local copy per group */    \
    X(store_items)        /* store.c: one item per element written in place */

#define LC_DECLARE(name) extern const struct lc_schedule lc_sched_##name;
LC_SCHEDULES(LC_DECLARE)
#define LC_ENTRY(name) &lc_sched_##name,
static const struct lc_schedule *const lc_schedules[] = {LC_SCHEDULES(LC_ENTRY)};

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

const struct lc_schedule *lc_schedule_for(struct lc_cg *g)
{
    for (size_t i = 0; i < sizeof lc_schedules / sizeof *lc_schedules; i++) {
        const struct lc_schedule *s = lc_schedules[i];
        if (s->kind == g->k->kind && (!g->k->post_axes || lc_takes_post(s)) &&
            (!s->fits || s->fits(g)))
            return s;
    }
    return NULL;
}
