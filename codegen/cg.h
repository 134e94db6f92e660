/* cg.h: what the parts of the code generator share (internal to codegen/).
 *
 * codegen.c collapses a kernel's index space into a struct lc_cg
 * (collapse.c), takes the first schedule of the kernel's kind in target.c's
 * table that fits it, and lets that schedule write the kernel body with the
 * shared emitter: params.c (parameters, arguments, addresses, launches),
 * emit.c and emit_vec.c (expressions as scalars and as W-lane vectors),
 * expr.c and complex.c (each op's spelling), redstate.c (reduction states:
 * declare, fold, combine, finalize, spill to scratch), atomic.c and
 * random.c. The schedules live one family per file: map.c, reduce.c and
 * reduce_split.c, gemm.c (with gemm_post.c), scan.c, sort.c (with
 * sort_row.c, sort_net.c and sort_tile.c), topk.c, store.c, store_local.c and
 * store_ranges.c. Every
 * function here writes OpenCL C into a struct lc_sb (sb.c), whose oom flag
 * the caller checks once at the end.
 */
#ifndef LC_CG_H
#define LC_CG_H

#include "codegen/codegen.h"

/* Stride classes, part of the kernel's structure (and so of its source). */
enum { LC_ST_ZERO = 0, LC_ST_UNIT = 1, LC_ST_ANY = 2 };

struct lc_cg {
    const struct lc_plan *p;
    const struct lc_kernel *k;
    const struct lc_target *t;
    struct lc_error *e;
    /* The index space after collapsing: dims [0, nk) kept, [nk, nd) reduced
     * (REDUCE) or the scanned axis (SCAN, nd - 1). MAP: nk == nd. */
    int nd, nk;
    int64_t shape[LC_MAXDIM];
    struct lc_access *acc;              /* copies, strides collapsed */
    int64_t (*ostr)[LC_MAXDIM];         /* output strides, collapsed */
    struct lc_helpers h;
    int f64;                            /* the source needs doubles */
    int lane;                           /* >= 0: buffer reads come from registers t<a>.s<lane> */
    int lane_dim;                       /* ... for reads with stride 1 along this dim */
    int shifted;                        /* float32 var/std as shifted sums (no divide per element) */
    const char *acc_float;              /* float accumulator type: "double" or "float" */
    int rnd_lanes;                      /* random sources read W lanes at a time: the widths
                                           read, 8 | 16 (random.c) */
    int rnd_quads;                      /* ... or four values of a Philox block at a time */
    int index_mode;                     /* a checked gather index (LC_EXPR_INDEX, axis >= 0):
                                           LC_INDEX_REPORT, _APART or _FLAG (emit.c) */
};

/* How lc_emit_expr emits a checked gather index. REPORT: lc_gidx, which reports one out of
 * range. APART: lc_gidx_w, wrapped and clamped only (a second launch checks them, map.c);
 * FLAG: lc_gidx_f, which sets the item's `bad_` instead of reporting. */
enum { LC_INDEX_REPORT, LC_INDEX_APART, LC_INDEX_FLAG };

/* A schedule: how kernels of one kind are cut into work-items. It serves
 * kernels of `kind` alone (target.c never offers it another); `fits` says
 * whether it takes this kernel on this target (NULL: every kernel of its
 * kind); `gen` appends the kernel(s) to sb, with @K@ for the kernel name,
 * adds the launches to c and names the schedule in c->schedule. gen returns
 * 0, or -1 when out of memory. */
struct lc_schedule {
    enum lc_kernel_kind kind;
    const char *family;       /* "map", "reduce", "gemm", "scan", "sort", "select" (top-k),
                                 "store": in kernel names and their sources' first comment */
    int (*fits)(struct lc_cg *g);
    int (*gen)(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb);
};

/* The schedule kernel g takes on its target (target.c): the first of its kind that takes it. */
const struct lc_schedule *lc_schedule_for(struct lc_cg *g);
/* Every schedule that would take kernel g, wherever it stands in the table: how many, and
 * the first `cap` names (as in LC_SCHEDULES) into names. */
int lc_schedules_taking(struct lc_cg *g, const char **names, int cap);

static inline const char *lc_T(int dt) { return lc_dtype_cl(dt); }

/* Put before a loop whose iterations update a table at data-dependent places
 * (h[key]++, o[digit]++, p[index] += v). LLVM's loop vectorizer may turn such a loop
 * into gathers and scatters without checking that the lanes' places differ, which
 * loses updates: LLVM 15.0.6 in PoCL 3.1 (Debian 12) does it on pthread-skylake-avx512
 * (the first AVX-512 target, where masked scatters are cheap), and the radix sort's
 * counts came out short. The hint keeps the loop scalar on every compiler that reads
 * clang's loop pragmas and is ignored by the others; no kernel may leave it out of
 * such a loop. tests/test_sort.py and `make oclgrind` check the sorts and scatters. */
#define LC_LOOP_SCALAR "#pragma clang loop vectorize(disable) interleave(disable)\n"
/* The pragma before a loop a GPU unrolls to keep its arrays in registers: rolled instead for a
 * CPU running GPU-shaped kernels (lc_target's roll_loops; the same arithmetic). */
#define LC_UNROLL(rolled) ((rolled) ? "#pragma unroll 1\n" : "#pragma unroll\n")

/* ---- collapse.c: the index space ------------------------------------------------------ */

/* Merge adjacent dims that every access and output walks as one, drop dims of extent 1. */
void lc_collapse(struct lc_cg *g);
/* The number of outputs (product of the kept dims) and of reduced elements per output. */
int64_t lc_kept_count(const struct lc_cg *g);
int64_t lc_reduced_count(const struct lc_cg *g);

/* ---- params.c: parameters, arguments, addresses, launches ------------------------------ */

/* Append an argument to launch l; -1 when out of memory. */
int lc_add_arg(struct lc_launch *l, enum lc_cgarg_kind kind, int index, int dtype,
               union lc_scalar v);
int lc_add_i64(struct lc_launch *l, int64_t x);
/* Append `off`, a place in access a's storage: bound at each run as the access's leaf offset
 * plus off's distance from it (leaves' offsets are not part of a plan's structure). */
int lc_add_offset(struct lc_launch *l, const struct lc_access *x, int a, int64_t off);
/* Append a launch named by `suffix` (completed with the kernel name later). */
struct lc_launch *lc_new_launch(struct lc_kcode *c, const char *suffix);
size_t lc_round_up(size_t x, size_t m);
/* On targets with fixed groups, a 1-d launch in groups of wg, its range rounded up (1); else 0. */
int lc_fixed_groups(const struct lc_target *t, struct lc_launch *l, size_t wg);
/* One item per work-group (CPUs): each long chunk may go to another core, where a driver left
 * to choose would pack the few items into one group, run by one thread. */
void lc_single_item_groups(struct lc_launch *l);
/* A CPU target's 1-d launch of `total` items, 0 < total <= LC_SMALL_GROUP_MAX: one work-group
 * of the next size of the ladder 8, 64, 512, 4096 (groups of the largest power of two the device
 * takes where that is more than its work-group limit), so that a driver that specializes each
 * kernel per work-group size (PoCL: about 110 ms to build each) makes at most four, not one per
 * size; lc_small_group_check says whether the kernel must test `i < total`, and lc_small_group
 * sets the launch. A driver left to choose takes a divisor of the size: one item per group for
 * a prime, a function call each; and PoCL keeps few specializations, reloading the others. The
 * items past `total` return at once: a group of 4096 holding 1025 costs 0.2 us more than one of
 * 2048 (PoCL 3.1, Zen 4). */
#define LC_SMALL_GROUP_MIN 8
#define LC_SMALL_GROUP_STEP 8
#define LC_SMALL_GROUP_MAX 4096
int lc_small_group_check(const struct lc_target *t, int64_t total);
/* A CPU target's 1-d launch of `total` items of any size, in groups of the ladder: one group
 * up to LC_SMALL_GROUP_MAX (lc_small_group), else groups of 4096 items, a step of the ladder
 * smaller until there are two per compute unit; the range rounded up, so the kernel must test
 * its bound. Left to choose, PoCL took a divisor of the count (a prime: one item per group,
 * 2.4x the time of a 1-d map of 8000024 floats) and built the kernel again for each. */
void lc_cpu_groups(const struct lc_target *t, struct lc_launch *l, int64_t total);
/* A CPU launch of 1 dim (l->global set) in the ladder's groups (lc_cpu_groups): emits the
 * test that ends the items past the range, `inner` (NULL: i0 >= n0). */
void lc_cpu_range(const struct lc_target *t, struct lc_sb *sb, struct lc_launch *l,
                  const char *inner);
/* A CPU launch of a map of 2-3 dims (i0 .. i<nd-2> declared, l->global set, `count` the
 * kernel's expression of the items a row, l->global[0]): declares the innermost item index
 * `name` and tests only the outer ones. The innermost dim's groups are a size of the ladder
 * within the row (lc_row_group) and the row's last group starts that many items before its
 * end, its first items those of the group before it: they compute the same elements again
 * and write the same values (a map's outputs never alias its inputs). A test along the
 * lanes PoCL vectorizes cost it 2x (4096^2, (X - m) / s: 11.8-23 ms tested, 5.6-8.5
 * shifted); groups covering the row cost up to 6x (rows of 1000 in groups of 4096: 42 ms
 * against 6.2 in groups of 512 shifted). The outer dims take the ladder's size that covers
 * each within 4096 items a group, smaller until there are two groups per compute unit, their
 * ranges rounded up (the driver's choice took a divisor of each extent: rows of 7 of 1000003
 * elements, 6.7 ms against 3.6 for 1000000 rows). */
void lc_cpu_rows(const struct lc_target *t, struct lc_sb *sb, struct lc_launch *l, int nd,
                 const char *name, const char *count);
void lc_small_group(const struct lc_target *t, struct lc_launch *l, int64_t total);
/* As lc_small_group for items that each do `per_item` steps (a reduction's length): past
 * LC_SMALL_GROUP_WORK steps in all, groups small enough for two per compute unit (a
 * matrix-vector product of 2000 rows used one group, one core); more than
 * LC_SMALL_GROUP_MAX items take lc_cpu_groups (the sums of 1000003 rows of 8 floats took
 * 5.6 ms with a group per row, the driver's choice for a prime, 1.7-2.3 in groups). */
#define LC_SMALL_GROUP_WORK 65536.0
void lc_small_group_work(const struct lc_target *t, struct lc_launch *l, int64_t total,
                         int64_t per_item);

int lc_stclass(int64_t s);
/* The type of IOTA arithmetic in dtype dt: the float accumulator type for floats. */
const char *lc_iota_type(struct lc_cg *g, int dt);
/* Parameters shared by every launch of a kernel: outputs, reads, shape. */
int lc_common_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb);
/* The strides of the outputs over dims [0, cover) that are neither 0 nor 1. */
int lc_output_stride_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb,
                            int cover);
/* Does the kernel gather (an LC_EXPR_INDEX: reads at data-dependent places)? */
int lc_has_gather(const struct lc_cg *g);
/* ... one whose index is checked (and reported: the kernel takes lc_err)? */
int lc_has_checked_gather(const struct lc_cg *g);
/* The address of access a at index vars i0..: "a3_o + i0 * a3_s0 + i1". */
void lc_addr(struct lc_cg *g, struct lc_sb *sb, int a);

/* ---- emit.c: scalar expressions, indices, stores -------------------------------------- */

/* Declare i<lo>..i<hi-1> from a linear index `lin` over those dims. */
void lc_unravel(struct lc_sb *sb, int lo, int hi, const char *lin, const char *ind);
/* out<o>[address at i0..i<cover-1>] = v<output expr>, for every output. */
void lc_store_outputs(struct lc_cg *g, struct lc_sb *sb, const char *ind, int cover);
/* Emit every expr of the given phase (0 prologue / whole map; 1 epilogue) as v<i>. */
void lc_emit_exprs(struct lc_cg *g, struct lc_sb *sb, int phase, const char *ind);
/* The exprs of phase 0 whose value does not change along dim d, as a calloc'd mask over the
 * kernel's exprs (NULL when out of memory): reads of constants, and of buffers at a place that
 * does not move along d (no gathered index; never the store's target, which the loop writes),
 * and ops over those alone. A loop along d computes them once before it. */
char *lc_row_invariants(const struct lc_cg *g, int d);
/* The exprs of phase 0 outside a loop along the invariants' dim (inside = 0: those of `inv`)
 * or inside it (inside = 1: the others). */
void lc_emit_exprs_hoisted(struct lc_cg *g, struct lc_sb *sb, const char *inv, int inside,
                           const char *ind);
/* need[i] set, on entry, for the exprs wanted: set too, on return, for every expr they are
 * computed from (their inputs, and the indices their gathered reads take), all the way down. */
void lc_exprs_needed(const struct lc_cg *g, char *need);
/* Emit expr i alone as v<i> (its inputs must be emitted before it in the same scope). */
void lc_emit_expr(struct lc_cg *g, struct lc_sb *sb, int i, const char *ind);
/* A comment naming the op of the node expr x computes (nothing when x has no node). */
void lc_describe_expr(struct lc_sb *sb, const struct lc_expr *x);

/* ---- emit_vec.c: vector expressions (explicit SIMD) ----------------------------------- */

/* Can the prologue run W lanes at a time along dim rd (explicit SIMD)? */
int lc_vec_ok(struct lc_cg *g, int rd);
/* The prologue exprs as W-lane vectors w<i> at consecutive indices of dim rd. */
void lc_emit_exprs_vec(struct lc_cg *g, struct lc_sb *sb, int W, int rd, const char *ind);
/* Expr i alone as w<i> (its inputs emitted before it in the same scope). */
void lc_emit_expr_vec(struct lc_cg *g, struct lc_sb *sb, int i, int W, int rd, const char *ind);
/* Can prologue expr i be computed W lanes at a time along dim rd? */
int lc_vec_expr_ok(struct lc_cg *g, int i, int rd, int W);
/* "v" converted from float dtype `from` to `to`, W lanes. */
void lc_vcast(struct lc_sb *sb, const char *v, int from, int to, int W);

/* ---- atomic.c: folding into memory other items fold into ------------------------ */

/* *ptr = *ptr <op> val atomically; ptr is an expression of a pointer to dtype dt in
 * `space` ("__global" or "__local"), val one of dt. */
void lc_emit_atomic_fold(struct lc_cg *g, struct lc_sb *sb, const char *ind, int dt, int op,
                         const char *space, const char *ptr, const char *val);
/* The value a copy that items add into starts at, dtype dt's ("-0.0f", "-0.0" or "0": a place no
 * add reached still holds its bits, so that floats keep a -0.0 target's sign), and the test
 * (OpenCL C, a bool expression) that such a copy's value v was added to. */
const char *lc_add_identity(int dt);
void lc_emit_added(struct lc_sb *sb, int dt, const char *v);
/* Before a kernel: `#define name(p)`, the read of a 64-bit word in global memory that other
 * work-groups of the launch write by atomics (cl_khr_int64_base_atomics enabled). */
void lc_emit_shared_read64(struct lc_sb *sb, const char *name);

/* ---- sort.c ---------------------------------------------------------------------------- */

/* The unsigned key of dtype dt: its type, bit count, sign bit and all-ones mask. */
struct lc_key {
    const char *type, *sign, *all;
    int bits;
};
struct lc_key lc_key_of(int dt);
/* key_ = the order-preserving key of value v (dtype dt), complemented when descending:
 * floats -0.0 as +0.0 and every NaN the all-ones key (last either way). */
void lc_emit_key(struct lc_sb *sb, int dt, const char *v, int desc, const char *ind);
/* The bits of the NaN a folded key comes back as (NumPy's np.nan), as an OpenCL literal. */
const char *lc_nan_bits(int dt);
/* The bits of +inf shifted left by one (past them, a float's bits << 1 are a NaN's), as an
 * OpenCL literal of the float dtype dt's width. */
const char *lc_inf2_bits(int dt);
/* Sets `flag` to 1 where float value v is one its key cannot give back: -0.0, or a NaN of
 * other bits than lc_nan_bits'. */
void lc_emit_special(struct lc_sb *sb, int dt, const char *v, const char *flag, const char *ind);
/* val_ = the value of dtype dt whose key is `key` (exact but for a float's NaN payload and
 * the sign of its zero: the keys lc_emit_key folds; a NaN comes back as lc_nan_bits');
 * `declare`: as a new const variable. */
void lc_emit_unkey(struct lc_sb *sb, int dt, const char *key, int desc, int declare,
                   const char *ind);
/* val_ of the sorted value whose key is key_: the key's inverse (lc_emit_unkey), or, for a
 * float key lc_emit_key folded (NaN, zero) where `have` holds, the value computed again at
 * index `idx` along the sorted dim (a payload kept for those values). */
void lc_emit_sort_value(struct lc_cg *g, struct lc_sb *sb, int dt, int desc, const char *have,
                        const char *idx, const char *ind);
/* The parameters of a sort kernel: the common ones (outputs, reads, shape: one argument list
 * serves every kernel of the sort), the scratch, then the schedule's own (`rest`, text); the
 * text into sb and the arguments so far into l (either may be NULL). */
int lc_sort_params(struct lc_cg *g, struct lc_launch *l, struct lc_sb *sb, const char *rest);
/* out<o>[row address i0.. + pos_ * last stride] = val_, for every output. */
void lc_emit_sort_store(struct lc_cg *g, struct lc_sb *sb, const char *ind);
/* Is there one output, contiguous along the sorted dim? Then `__global T *od_` = its row
 * (address i0.., T its dtype). */
int lc_sort_out_row_ok(const struct lc_cg *g);
void lc_emit_sort_out_row(struct lc_cg *g, struct lc_sb *sb, const char *ind);

/* ---- sort_net.c: rows of keys sorted in vector registers --------------------------------- */

/* Lanes per vector of keys of key_bits bits, and keys per block (rows are padded to it). */
int lc_sort_net_lanes(int key_bits);
int64_t lc_sort_net_block(int key_bits);
/* The helpers @K@_net_block and `__global K *@K@_net_sort(__global K *a, __global K *b,
 * long np)`: np keys at a (a multiple of the block) sorted ascending, b room for as many;
 * returns a or b, whichever holds them. Not stable. */
void lc_emit_sort_net(struct lc_sb *sb, const char *K, int key_bits);
/* Whether the keys of the row's values (of dtype dt) can be made lc_sort_net_lanes at a time
 * (lc_emit_key_vec): float values of 4 or 8 bytes whose key expression is vector-safe along
 * the row. */
int lc_key_vec_ok(struct lc_cg *g, int dt);
/* key_ = the keys of W float values in vector v (lc_emit_key, W at a time); where `flag`,
 * it is set to 1 if a lane is a value its key cannot give back (lc_emit_special). */
void lc_emit_key_vec(struct lc_sb *sb, int dt, const char *v, int desc, int W, const char *flag,
                     const char *ind);
/* Can dtype dt's values come back from their keys W at a time (the key's width: floats,
 * 32- and 64-bit integers)? */
int lc_unkey_vec_ok(int dt);
/* val_ = the W values of dtype dt whose keys are the vector `key` (lc_emit_unkey). */
void lc_emit_unkey_vec(struct lc_sb *sb, int dt, const char *key, int desc, int W,
                       const char *ind);

/* ---- topk_simd.c: top-k's first pass on SIMD targets (topk.c has the rest) -------------- */

/* key_ = the key of the row's element at the current index (topk.c): the kernel's exprs, then
 * lc_emit_key's key of v<vexpr>, complemented for the smallest. */
void lc_topk_elem_key(struct lc_cg *g, struct lc_sb *sb, const struct lc_key *key, int dt,
                      int vexpr, int largest, const char *ind);
/* Every top-k launch's trailing parameters. */
#define LC_TOPK_PARAMS                                                                      \
    "const long M, const long P, const long L, const long G, const int fin, const int kk, " \
    "const long ksrc, const long isrc, const long kdst, const long idst"
#define LC_TK_VECS 4          /* SIMD rows: vectors an item tests at once */
/* lc_tkv_offer, the list of KB (VL = 8 or 16) 32-bit keys in a vector, its indices of type IT
 * (int or long) in another. */
void lc_topk_vec_helper(struct lc_sb *sb, int VL, int largest, const char *IT);
/* The first pass with W neighbouring rows per item, in vector lanes (its own kernel). */
int lc_topk_first_vec(struct lc_cg *g, struct lc_sb *sb, const struct lc_key *key, int dt,
                      int vexpr, int W, int largest);
/* The first pass's walk of a row read along the axis, S values a vector (inside the kernel
 * lc_topk_gen opens; VL: the list in vectors, VIT and VNONE its indices' type and empty
 * index). */
void lc_topk_steps(struct lc_cg *g, struct lc_sb *sb, const struct lc_key *key, int dt,
                   int vexpr, int S, int largest, int VL, const char *VIT, const char *VNONE);

/* ---- topk_group.c: a long row's top k in one launch on GPUs ----------------------------- */

#define LC_TK_GROUP_BATCH 8   /* candidates an item of the last group reads at once */
/* Before the kernel: a candidate's 64-bit word and its reads (TK_WORD, TK_WPOS, TK_WREAD). */
void lc_topk_group_helpers(struct lc_sb *sb, int largest);
/* The first pass's end where each group's items take chunks of one row (P a multiple of the
 * group's size wg; the shared bound, lists in registers with int positions): the group's k best
 * to scratch (`kdst`, after one zeroed counter a row), and the row's last group writes the
 * result. Closes the kernel. */
void lc_topk_group_finish(struct lc_cg *g, struct lc_sb *sb, size_t wg, int rolled);

/* ---- random.c: random sources ------------------------------------------------------ */

/* The Philox helpers the kernel's random accesses need (nothing without one). */
void lc_random_helpers(const struct lc_cg *g, struct lc_sb *sb);
/* The value of random access a at the current index. */
void lc_random_expr(struct lc_cg *g, struct lc_sb *sb, int a);
/* Can random access a be read four values at a time (float32, uint32, float64)? */
int lc_random_quad_ok(const struct lc_cg *g, int a);
/* Its four values at the current index and the next three along a unit-stride dim (a 4-vector,
 * one Philox block for 32-bit values when they start one); the kernel then gets the quads. */
void lc_random_quad(struct lc_cg *g, struct lc_sb *sb, int a);
/* Can random access a be read W lanes at a time (float dtypes, W = 8; float32, W = 16)? */
int lc_random_vec_ok(const struct lc_cg *g, int a, int W);
/* Its W lanes along dim rd (stride 0 or 1 there); the kernel then gets the W-lane helpers. */
void lc_random_expr_vec(struct lc_cg *g, struct lc_sb *sb, int a, int W, int rd);
/* The SIMD loops' width for this kernel: the target's simd_random where it draws float32
 * random numbers and no others, else its simd. */
int lc_simd_lanes(const struct lc_cg *g);

/* ---- store.c: what the store schedules share ------------------------------------- */

/* The condition under which an item writes (its predicate, its gathered indices in
 * range) into sb; 0 when it always writes. */
int lc_store_guard(struct lc_cg *g, struct lc_sb *sb);
/* In an item's loop over elements (8 spaces in): the exprs, then "if (guard) {" (or "{")
 * and q_ = the place written; the caller writes and closes the brace. */
void lc_store_item_head(struct lc_cg *g, struct lc_sb *sb);
/* The write of an item at the current indices (its value, where its guard holds), its
 * exprs emitted before; in a row loop of a store in row order, a false predicate ends it. */
void lc_store_emit(struct lc_cg *g, struct lc_sb *sb, const char *ind);
/* The places [lo, hi] of the storage the store target's leaf spans. */
void lc_leaf_span(const struct lc_node *leaf, int64_t *lo, int64_t *hi);

/* ---- scan.c: what a store computing its scan shares ----------------------------------- */

/* The accumulator type and the identity of scan op `op` with result dtype dt. */
const char *lc_scan_acc(struct lc_cg *g, int op, int dt);
const char *lc_scan_identity(int op, int dt);
/* acc <- acc op v (v cast to A, the accumulator type). */
void lc_scan_step(struct lc_helpers *h, struct lc_sb *sb, int op, int dt, const char *acc,
                  const char *v, const char *A, const char *ind);
/* LC_EXPR_SCANNED expr i: its prologue value folded into the running state sacc_ (which
 * the schedule declares), then v<i> = that state. */
void lc_scan_emit_scanned(struct lc_cg *g, struct lc_sb *sb, int i, const char *ind);
/* The number of rows (every dim but the last). */
int64_t lc_scan_rows(const struct lc_cg *g);
/* Few rows, and long: each row is split among several items (or groups). */
int lc_scan_split(struct lc_cg *g);
/* Each of the group's L items puts its `acc` in local tot[] and the group scans tot[] in
 * place (inclusive, item order). */
void lc_group_inclusive_scan(struct lc_helpers *h, struct lc_sb *sb, int op, int dt,
                             const char *A, const char *id, size_t L);
/* Bytes of an OpenCL C scalar or vector type of the scans' accumulators (0: unknown). */
int lc_acc_bytes(const char *A);
/* floor(log2(E)): a tile's index k is at k + (k >> lc_tile_shift(E)) in local memory, a word
 * of padding every 2^shift elements (every E where E is a power of 2, as every target's is);
 * the tile takes TS + (TS >> shift) words, a row of L items L + (L >> shift). */
int lc_tile_shift(int E);
/* The local words of n tile elements with that padding: n + (n >> lc_tile_shift(E)) (a whole
 * tile, TS; a row of items, L). */
int64_t lc_tile_words(int64_t n, int E);
/* A tile scan's first step: the tile's values (index k at k + k / E: no bank conflicts where
 * items read E adjacent values, each item's at a stride of E + 1; k from base, E per item) into local buf[] as A, read coalesced,
 * then a barrier; v<..> is the value, `prologue`: only what it needs is emitted (a store's scan,
 * lc_emit_scan_prologue), else every expr. */
void lc_tile_load(struct lc_cg *g, struct lc_sb *sb, int prologue, const char *v, const char *A,
                  const char *id, int E);
/* lc_tile_load of a store's scan whose items keep the values of the exprs in `keep` (indexed by
 * expr; NULL: none) in registers for the store's loop: kv<i>[j] for the item's j-th element
 * (the loop unrolled: lc_target's roll_loops). With `flags`, the values (0 or 1) are not put
 * in the tile but in the bits of the item's uint fl_me (bit j: its j-th element's), and no
 * barrier follows (LC_FLAGS_BALLOTS). With LC_FLAGS_QUADS the item's elements are E / 4 quads
 * of adjacent elements, quad j at base + 4 * (j * L + lid), and the flags go into the item's
 * uint fq_[E / 16], quad j's in the low 4 bits of byte j % 4 of fq_[j / 4]. A tile inside its
 * row loads without testing each index. */
#define LC_FLAGS_BALLOTS 1
#define LC_FLAGS_QUADS 2
void lc_tile_load_keeping(struct lc_cg *g, struct lc_sb *sb, const char *v, const char *A,
                          const char *id, int E, const char *keep, int flags);
/* The declaration `const long i<nd-1> = ...;` of the row index of element j (a loop variable)
 * of the item's tile: base + j * L + lid, or with `flags` LC_FLAGS_QUADS element j % 4 of its
 * quad j / 4, base + 4 * ((j / 4) * L + lid) + j % 4. */
void lc_tile_index(struct lc_cg *g, struct lc_sb *sb, int flags, const char *ind);
/* A tile scan's last step: after a barrier, the outputs of the group's L*E elements (its
 * value v<out> read from local buf[], index k at k + k / E, at base + k), coalesced. */
void lc_tile_write_outputs(struct lc_cg *g, struct lc_sb *sb, int E, const char *v);
/* The exprs a store's scan folds in (its prologue: the scanned value and what it reads), in
 * order. */
void lc_emit_scan_prologue(struct lc_cg *g, struct lc_sb *sb, const char *ind);
/* Those exprs: need[i] set for each (malloc'd, n_exprs entries), NULL when out of memory. */
char *lc_scan_prologue_need(const struct lc_cg *g);

/* ---- redstate.c: reduction states ------------------------------------------------- */

/* The state of slot s is fields <pre>_a, <pre>_b, ... of these types. */
const char *lc_red_acc(struct lc_cg *g, const struct lc_reduction *r);
int lc_red_nfields(const struct lc_reduction *r);
const char *lc_red_ftype(struct lc_cg *g, const struct lc_reduction *r, int f);
size_t lc_red_fsize(struct lc_cg *g, const struct lc_reduction *r, int f);
/* Is slot s a variance kept as shifted sums (see redstate.c)? */
int lc_shifted(const struct lc_cg *g, int s);
/* The largest (max) or smallest value of dtype dt, as OpenCL C. */
const char *lc_limit(int dt, int max);
/* Declare and initialize the state <pre> of slot s. */
void lc_red_init_state(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                       const char *ind);
void lc_red_update(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                   const char *v, const char *idx, const char *ind);
void lc_red_combine(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                    const char *o, const char *ind);
void lc_finalize_expr(struct lc_cg *g, struct lc_sb *sb, int s);
void lc_red_store(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                  const char *at, const char *ind);
void lc_red_load(struct lc_cg *g, struct lc_sb *sb, int s, const char *pre,
                 const char *at, const char *ind);
/* Every slot: declare and initialize the states <prefix><s>; fold the prologue at the
 * current indices into s<s>. */
void lc_init_all(struct lc_cg *g, struct lc_sb *sb, const char *prefix, const char *ind);

/* Column reductions in blocks of outputs x P chunks of rows (reduce_split.c's schedule D,
 * reduce_colpanel.c's panels): every slot's state stored as this item's partial at scratch
 * index `at` (atomic: read by another group of the same launch); a kernel's header with the
 * scratch of a counter per block and the [P][M] partials (with the fold item's c0, r0 and
 * r_end: lc_block_part_head); the chunks of N rows for `blocks` blocks; the fold launch's
 * shape and the combining launch, item blk adding its B outputs' partials in chunk order. */
void lc_store_partials_at(struct lc_cg *g, struct lc_sb *sb, const char *at, const char *ind,
                          int atomic);
int lc_block_partials_header(struct lc_cg *g, struct lc_kcode *c, struct lc_launch *l,
                             struct lc_sb *sb, const char *suffix, int64_t blocks, int64_t P,
                             int64_t M, int64_t N);
int lc_block_part_head(struct lc_cg *g, struct lc_kcode *c, struct lc_launch *l, struct lc_sb *sb,
                       int64_t blocks, int64_t P, int64_t M, int64_t N, int64_t B);
int64_t lc_block_chunks(const struct lc_cg *g, int64_t N, int64_t blocks);
int lc_block_combine(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, struct lc_launch *part,
                     int64_t blocks, int64_t P, int64_t M, int64_t N, int64_t B);
/* Output i0 folded alone over rows [r0, r_end), its partial stored (a block's last outputs). */
void lc_block_fold_one(struct lc_cg *g, struct lc_sb *sb, const char *ind);
/* Column sums sharing a read along the outputs (v @ A) on SIMD targets: reduce_colpanel.c. */
int lc_reduce_colpanel_fits(struct lc_cg *g);
int lc_gen_reduce_colpanel(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb);
void lc_fold_all(struct lc_cg *g, struct lc_sb *sb, const char *idx, const char *ind);
/* User reduction slot s (USERRED with an identity) as W lanes: declare vector state q at the
 * identity; fold W-lane value v into it lane by lane (lane l of every step into lane l). */
void lc_user_vec_init(struct lc_cg *g, struct lc_sb *sb, int s, const char *q, int W,
                      const char *ind);
void lc_user_vec_fold(struct lc_cg *g, struct lc_sb *sb, int s, const char *q, const char *v,
                      int W, const char *ind);
/* The helper functions the states need, emitted once before the kernels. */
void lc_red_helpers(struct lc_cg *g, struct lc_sb *sb);
/* user.c: the definitions of the user functions kernel g calls, and one call. */
void lc_user_helpers(struct lc_cg *g, struct lc_sb *sb);
void lc_user_call(struct lc_sb *sb, const struct lc_expr *x);
/* The call of user expr x W lanes at a time: a vector of its lanes' calls over w<in>.s<l>. */
void lc_user_call_vec(struct lc_sb *sb, const struct lc_expr *x, int W);

/* ---- gemm_post.c: a product's post-reductions in the GEMM schedules -------------------- */

struct lc_gpost {
    unsigned mask;        /* post-reduced dims among the collapsed kept dims */
    int dm, dn;           /* the product's M and N dims */
    int pm, pn;           /* M, N post-reduced */
    int64_t MB, NB;       /* the schedule's blocks along M and N */
    int64_t T, NO;        /* partials per output; outputs */
};

/* Has the kernel post-reductions? */
int lc_gpost_has(const struct lc_cg *g);
/* Fill gp for a schedule of MB x NB blocks (gp->mask 0: no post-reductions); 0 when the
 * schedule cannot run them (neither M nor N post-reduced, an op without partials). */
int lc_gpost_init(struct lc_cg *g, int dm, int dn, int64_t MB, int64_t NB, struct lc_gpost *gp);
/* Local memory for `points` states of every post slot, and whether it fits. */
size_t lc_gpost_local_bytes(struct lc_cg *g, int64_t points);
int lc_gpost_local_ok(struct lc_cg *g, int64_t points);
/* The scratch and size parameters (either launch); sets c->scratch_bytes. */
int lc_gpost_params(struct lc_cg *g, struct lc_kcode *c, struct lc_launch *l, struct lc_sb *sb,
                    const struct lc_gpost *gp);
/* __local pl<s>_<f>[points] (at kernel scope). */
void lc_gpost_local(struct lc_cg *g, struct lc_sb *sb, int64_t points);
/* scratch, and the batch parts pob_ (outputs) and ptb_ (partials), once i0.. of the batch
 * dims are declared. */
void lc_gpost_head(struct lc_cg *g, struct lc_sb *sb, const struct lc_gpost *gp, const char *ind);
/* States p<s>: declare; fold the phase-1 values in; into pl<s>_<f>[at]; declared and
 * combined from pl[at] for u_ in [0, count); stored as the partial of block (mb, nb) at the
 * current i<dm> / i<dn> (those not post-reduced). */
void lc_gpost_init_states(struct lc_cg *g, struct lc_sb *sb, const char *ind);
void lc_gpost_fold(struct lc_cg *g, struct lc_sb *sb, const char *ind);
void lc_gpost_to_local(struct lc_cg *g, struct lc_sb *sb, const char *at, const char *ind);
void lc_gpost_from_local(struct lc_cg *g, struct lc_sb *sb, int64_t count, const char *at,
                         const char *ind);
void lc_gpost_store(struct lc_cg *g, struct lc_sb *sb, const struct lc_gpost *gp,
                    const char *mb, const char *nb, const char *ind);
/* The post epilogues of the two GEMM schedules (after their K loops) and the local points
 * each needs (see gemm.c for the geometry). */
void lc_gpost_tiles_epilogue(struct lc_cg *g, struct lc_sb *sb, const struct lc_gpost *gp,
                             int G, int TM, int TN, int V);
int64_t lc_gpost_tiles_points(const struct lc_gpost *gp, int G, int TM, int TN);
void lc_gpost_simd_epilogue(struct lc_cg *g, struct lc_sb *sb, const struct lc_gpost *gp,
                            int W, int RM, int RV, int WG);
int64_t lc_gpost_simd_points(const struct lc_gpost *gp, int W, int RV, int WG);
/* The second launch: one item per output combines its partials, runs phase 2, stores. */
int lc_gpost_combine(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                     const struct lc_gpost *gp);

/* ---- reduce.c, shared with reduce_split.c ------------------------------------------ */

/* Fold reduced elements [lo, hi) of the single reduced dim W lanes at a time into s<k>. */
void lc_vec_fold_loop(struct lc_cg *g, struct lc_sb *sb, const char *lo, const char *hi,
                      int W, const char *ind);
/* Does every prologue read move by 0 or 1 along kept dim 0 (a column reduction)? */
int lc_columnlike(struct lc_cg *g);
/* A column reduction with enough outputs for lanes across outputs (SIMD targets)? */
int lc_reduce_simd_columns(struct lc_cg *g);

#endif
