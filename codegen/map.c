/* map.c: the map schedules: elementwise kernels, no item waits for another.
 *
 * Each work-item owns a fixed set of output elements and computes them from
 * the inputs alone: one element (items), four adjacent elements of a 1-d run
 * or of a row with 16-byte loads and stores (vec4, vec4 rows: targets with
 * map_vec4), or W adjacent elements of a row in explicit W-lane vectors
 * (simd: targets with simd, whose driver calls the scalar math library per
 * element otherwise). Nothing is combined between items, so there is no
 * local memory, no barrier and no scratch. Outputs never alias inputs, so
 * the SIMD schedule may recompute (and rewrite with the same values) a few
 * elements of its neighbour instead of taking a tail branch.
 */
#include "codegen/cg.h"
#include "graph/userfn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "out<o> + i0 * os<o>_0 + ... + i<in>": output o's address at the start of
 * a run along its contiguous dim `in` (strides as lc_output_stride_params
 * declares them). */
static void lc_out_row_addr(struct lc_cg *g, struct lc_sb *sb, int o, int in)
{
    lc_sb_printf(sb, "out%d + ", o);
    for (int d = 0; d < in; d++) {
        int c = lc_stclass(g->ostr[o][d]);
        if (c == LC_ST_UNIT)
            lc_sb_printf(sb, "i%d + ", d);
        else if (c == LC_ST_ANY)
            lc_sb_printf(sb, "i%d * os%d_%d + ", d, o, d);
    }
    lc_sb_printf(sb, "i%d", in);
}

/* Does every buffer read, along dim `in`, either stay put (a broadcast
 * value: one scalar load per item) or run contiguously from a 16-byte
 * aligned start (offset and the strides of the outer dims multiples of 4)? */
static int lc_reads_aligned4(struct lc_cg *g, int in)
{
    /* Complex values are 2-vectors already: no 4-lane registers of them. */
    for (int o = 0; o < g->k->n_outputs; o++)
        if (lc_dtype_is_complex(g->k->outputs[o].dtype))
            return 0;
    for (int a = 0; a < g->k->n_access; a++)
        if (lc_dtype_is_complex(g->acc[a].dtype))
            return 0;
    for (int a = 0; a < g->k->n_access; a++) {
        const struct lc_access *x = &g->acc[a];
        if (x->kind == LC_ACCESS_CONST)
            continue;
        if (x->kind == LC_ACCESS_RANDOM && !x->n_dyn &&
            (x->strides[in] == 0 || x->strides[in] == 1) && lc_random_quad_ok(g, a))
            continue;   /* four values of a Philox block (its counter's alignment is checked
                           where it runs) */
        if (x->kind == LC_ACCESS_IOTA || x->kind == LC_ACCESS_RANDOM || x->n_dyn)
            return 0;
        if (x->strides[in] == 0)
            continue;
        if (x->strides[in] != 1 || x->offset % 4 != 0)
            return 0;
        for (int d = 0; d < in; d++)
            if (x->strides[d] % 4 != 0)
                return 0;
    }
    return 1;
}

/* Whether the kernel calls a user function with a loop (graph/userfn.c). */
static int lc_calls_loop(const struct lc_kernel *k)
{
    for (int i = 0; i < k->n_exprs; i++)
        if (k->exprs[i].op == LC_OP_USER) {
            const struct lc_userfn *f = lc_userfn_get(k->exprs[i].node->p.user.fn);
            if (f && f->loops)
                return 1;
        }
    return 0;
}

/* Maps whose reads and writes are all contiguous 1-d runs starting at a
 * multiple of 4 elements take four elements per item with 16-byte accesses
 * on targets with map_vec4 (one float per item leaves bandwidth unused on
 * large GPUs). Not a map that calls a user function with a loop (an escape-
 * time fractal): its work per element is long and uneven, and four elements
 * in a row per item would add up the slowest lanes of each SIMT group. */
static int lc_map_vec4(struct lc_cg *g)
{
    return g->t->map_vec4 && g->nd == 1 && g->shape[0] >= 4 && lc_reads_aligned4(g, 0) &&
           !lc_calls_loop(g->k);
}

/* Quads per item of a 1-d vec4 map (lc_map_vec4): four where it reads a random source four values
 * at a time, in a loop over quads one grid apart (the work of an element is long, and fewer items
 * of more of it ran faster: H100, 2^28 float32 normals, 0.62 ms at one quad per item, 0.61 at two,
 * 0.567 at four, kept rolled, 0.570 unrolled, the same at eight); one otherwise. */
static int lc_map_quads(const struct lc_cg *g)
{
    for (int a = 0; a < g->k->n_access; a++)
        if (g->acc[a].kind == LC_ACCESS_RANDOM && g->acc[a].strides[0] == 1)
            return 4;
    return 1;
}

/* The outputs ov<o> of four lanes, each lane's exprs reading loads with
 * stride 1 along `dim` from registers t<a>.s<lane>. */
static void lc_emit_four_lanes(struct lc_cg *g, struct lc_sb *sb, int dim, const char *ind)
{
    const struct lc_kernel *k = g->k;
    char in2[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    for (int o = 0; o < k->n_outputs; o++)
        lc_sb_printf(sb, "%s%s4 ov%d;\n", ind, lc_T(k->outputs[o].dtype), o);
    g->lane_dim = dim;
    for (int u = 0; u < 4; u++) {
        g->lane = u;
        lc_sb_printf(sb, "%s{\n", ind);
        lc_emit_exprs(g, sb, 0, in2);
        for (int o = 0; o < k->n_outputs; o++)
            lc_sb_printf(sb, "%sov%d.s%d = v%d;\n", in2, o, u, k->outputs[o].expr);
        lc_sb_printf(sb, "%s}\n", ind);
    }
    g->lane = -1;
    g->lane_dim = 0;
}

/* Maps (map_vec4 targets) over 2-3 dims whose rows (the innermost dim) are
 * a multiple of 4 long, read contiguously (or broadcast) and start 16-byte
 * aligned: four elements of a row per item with 16-byte accesses, no tail. */
static int lc_map_vec4_rows(struct lc_cg *g)
{
    int nd = g->nd, in = nd - 1;
    if (!g->t->map_vec4 || nd < 2 || nd > 3 || g->shape[in] % 4 != 0 || g->shape[in] == 0 ||
        !lc_reads_aligned4(g, in))
        return 0;
    for (int o = 0; o < g->k->n_outputs; o++) {
        if (g->ostr[o][in] != 1)
            return 0;
        for (int d = 0; d < in; d++)
            if (g->ostr[o][d] % 4 != 0)
                return 0;
    }
    return 1;
}

static int lc_gen_map_vec4_rows(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                                struct lc_launch *l)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, in = nd - 1;
    size_t wg = g->t->work_group;
    for (int d = 0; d < in; d++) {
        lc_sb_printf(sb, "    const long i%d = get_global_id(%d);\n", d, nd - 1 - d);
        l->global[nd - 1 - d] = (size_t)g->shape[d];
    }
    lc_sb_printf(sb, "    const long q_ = get_global_id(0);\n"
                     "    if (q_ * 4 >= n%d) return;\n"
                     "    const long i%d = q_ * 4;\n", in, in);
    l->work_dim = (unsigned)nd;
    l->use_local = 1;
    l->local[0] = wg;
    l->local[1] = l->local[2] = 1;
    l->global[0] = lc_round_up((size_t)(g->shape[in] / 4), wg);
    for (int a = 0; a < k->n_access; a++)
        if (g->acc[a].kind == LC_ACCESS_RANDOM && g->acc[a].strides[in] == 1) {
            lc_sb_printf(sb, "    const %s4 t%d = ", lc_T(g->acc[a].dtype), a);
            lc_random_quad(g, sb, a);
            lc_sb_printf(sb, ";\n");
        } else if (g->acc[a].kind != LC_ACCESS_CONST && g->acc[a].strides[in] == 1) {
            lc_sb_printf(sb, "    const %s4 t%d = *(__global const %s4 *)(a%d + ", lc_T(g->acc[a].dtype), a,
                         lc_T(g->acc[a].dtype), a);
            lc_addr(g, sb, a);
            lc_sb_printf(sb, ");\n");
        }
    lc_emit_four_lanes(g, sb, in, "    ");
    for (int o = 0; o < k->n_outputs; o++) {
        lc_sb_printf(sb, "    *(__global %s4 *)(", lc_T(k->outputs[o].dtype));
        lc_out_row_addr(g, sb, o, in);
        lc_sb_printf(sb, ") = ov%d;\n", o);
    }
    lc_sb_printf(sb, "}\n");
    snprintf(c->schedule, sizeof c->schedule, "map %d-d range, four elements of a row per item (vector loads)", nd);
    return 0;
}

/* Whether a map is plain arithmetic: no transcendental math, random source or user function,
 * the work PoCL vectorizes across work-items as well as explicit vectors do. */
static int lc_map_plain(const struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    for (int i = 0; i < k->n_exprs; i++) {
        int op = k->exprs[i].op;
        if (lc_op_is_transcendental(op) || op == LC_OP_USER || op == LC_OP_SUMEXP)
            return 0;
    }
    for (int a = 0; a < k->n_access; a++)
        if (g->acc[a].kind == LC_ACCESS_RANDOM)
            return 0;
    return 1;
}

/* Maps on targets with SIMD maps (simd_maps: PoCL; Intel's compiler vectorizes plain items
 * better, target.c) of float expressions whose reads are contiguous or constant along the
 * innermost dim: W elements per item in explicit vectors. PoCL
 * vectorizes plain arithmetic across work-items by itself but calls the
 * scalar math library per element; written as float8, exp/log/sin/tanh run
 * from its vector library (measured: exp 9.8 -> 6.8 ms, log 225 -> 16 ms at
 * 2^24 on two cores).
 * Plain arithmetic over 2-3 dims (a row broadcast, strided rows) takes one item per element:
 * there PoCL's own vectorization ran ahead (4096^2, (X - mean) / std: 6.0 ms in float8 items,
 * 4.5 one per element; X * m + Y: 7.2 and 6.7), where over one dim the two are even. */
static int lc_map_simd(struct lc_cg *g)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, W = lc_simd_lanes(g);
    if (!g->t->simd_maps || W <= 1 || nd < 1 || nd > 3 || g->shape[nd - 1] < W ||
        !lc_vec_ok(g, nd - 1))
        return 0;
    if (nd >= 2 && lc_map_plain(g))
        return 0;
    for (int o = 0; o < k->n_outputs; o++)
        if (g->ostr[o][nd - 1] != 1)
            return 0;
    return 1;
}

static int lc_gen_map_simd(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                           struct lc_launch *l)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, W = lc_simd_lanes(g), in = nd - 1;
    for (int d = 0; d < nd; d++) {
        l->global[nd - 1 - d] = (size_t)g->shape[d];
        if (d < in)
            lc_sb_printf(sb, "    const long i%d = get_global_id(%d);\n", d, nd - 1 - d);
    }
    /* No tail branch (it costs PoCL's work-group vectorizer a third of the
     * time): the last item of a row starts at n - W and so recomputes up to
     * W - 1 elements of its neighbour, writing the same values (outputs
     * never alias inputs). */
    l->global[0] = (size_t)((g->shape[in] + W - 1) / W);
    l->work_dim = (unsigned)nd;
    const char *item = "(long)get_global_id(0)";
    if (!g->t->fixed_groups && nd >= 2) {
        char count[32];   /* the items a row; the rows' groups shifted (lc_cpu_rows) */
        snprintf(count, sizeof count, "(n%d + %d) / %d", in, W - 1, W);
        lc_cpu_rows(g->t, sb, l, nd, "j_", count);
        item = "j_";
    } else if (!g->t->fixed_groups) {
        char inner[64];   /* the item's first element past its row */
        snprintf(inner, sizeof inner, "(long)get_global_id(0) * %d >= n%d", W, in);
        lc_cpu_range(g->t, sb, l, inner);
    }
    lc_sb_printf(sb, "    const long i%d = min(%s * %d, n%d - %d);\n", in, item, W, in, W);
    lc_emit_exprs_vec(g, sb, W, in, "    ");
    for (int o = 0; o < k->n_outputs; o++) {
        lc_sb_printf(sb, "    vstore%d(w%d, 0, ", W, k->outputs[o].expr);
        lc_out_row_addr(g, sb, o, in);
        lc_sb_printf(sb, ");\n");
    }
    lc_sb_printf(sb, "}\n");
    snprintf(c->schedule, sizeof c->schedule, "map %d-d, %d elements per item (%d-wide SIMD)",
             nd, W, W);
    return 0;
}

/* One item per element (v4: four, with 16-byte accesses, when lc_map_vec4 holds). */
static int lc_gen_map_items(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                            struct lc_launch *l, int v4)
{
    int nd = g->nd;
    int64_t total = 1;
    for (int d = 0; d < nd; d++)
        total *= g->shape[d];
    size_t wg = g->t->work_group;
    /* Past LC_SMALL_GROUP_MAX items the driver picks the groups: a bound test in every item
     * cost PoCL's work-group vectorizer (a bool map of 2^24 read 1.2 ms without it, 2.0-2.2
     * with it in groups of 4096), so an item map keeps the driver's groups there, and with
     * them a group per item for a prime count (bool, 8000023: 35 ms against 0.3-0.5). */
    int small = nd == 1 && !v4 && lc_small_group_check(g->t, total);
    if (nd <= 1) {
        lc_sb_printf(sb, "    const long i0 = get_global_id(0);\n");
        if (g->t->fixed_groups || small)
            lc_sb_printf(sb, nd ? "    if (i0 >= n0) return;\n" : "    if (i0 >= 1) return;\n");
        l->work_dim = 1;
        l->global[0] = (size_t)total;
        if (small)
            lc_small_group(g->t, l, total);
        snprintf(c->schedule, sizeof c->schedule, "map 1-d, one item per element");
    } else if (nd <= 3) {
        /* OpenCL dim 0 is the innermost (fastest) kernel dim. */
        int rows = !g->t->fixed_groups && !v4;   /* lc_cpu_rows declares the innermost */
        for (int d = nd - 1; d >= 0; d--) {
            if (!rows || d < nd - 1)
                lc_sb_printf(sb, "    const long i%d = get_global_id(%d);\n", d, nd - 1 - d);
            l->global[nd - 1 - d] = (size_t)g->shape[d];
        }
        l->work_dim = (unsigned)nd;
        if (g->t->fixed_groups) {
            lc_sb_printf(sb, "    if (i%d >= n%d) return;\n", nd - 1, nd - 1);
        } else if (rows) {
            char name[16], count[16];
            snprintf(name, sizeof name, "i%d", nd - 1);
            snprintf(count, sizeof count, "n%d", nd - 1);
            lc_cpu_rows(g->t, sb, l, nd, name, count);
        }
        snprintf(c->schedule, sizeof c->schedule, "map %d-d range, one item per element", nd);
    } else {
        lc_sb_printf(sb, "    const long gid = get_global_id(0);\n");
        if (g->t->fixed_groups) {
            lc_sb_printf(sb, "    if (gid >= n0");
            for (int d = 1; d < nd; d++)
                lc_sb_printf(sb, " * n%d", d);
            lc_sb_printf(sb, ") return;\n");
        }
        lc_unravel(sb, 0, nd, "gid", "    ");
        l->work_dim = 1;
        l->global[0] = (size_t)total;
        snprintf(c->schedule, sizeof c->schedule, "map %d-d unravelled, one item per element", nd);
    }
    int quads = v4 ? lc_map_quads(g) : 1;
    if (v4) {
        /* Four elements per item with 16-byte loads and stores (quads of them one grid apart). */
        l->global[0] = (size_t)((total + 4 * quads - 1) / (4 * quads));
        if (quads > 1)
            snprintf(c->schedule, sizeof c->schedule,
                     "map 1-d, %d x four elements per item, a grid apart (vector loads)", quads);
        else
            snprintf(c->schedule, sizeof c->schedule, "map 1-d, four elements per item (vector loads)");
    }
    if (g->t->fixed_groups) {
        l->use_local = 1;
        l->local[0] = wg;
        l->local[1] = l->local[2] = 1;
        l->global[0] = lc_round_up(l->global[0] ? l->global[0] : 1, wg);
        if (total == 0)
            l->global[0] = 0;
    }
    if (v4) {
        const struct lc_kernel *k = g->k;
        if (quads > 1)
            lc_sb_printf(sb, "    const long grid = get_global_size(0);\n"
                             "#pragma unroll 1\n"
                             "    for (int q_ = 0; q_ < %d; q_++) {\n"
                             "    const long base = (i0 + q_ * grid) * 4;\n", quads);
        else
            lc_sb_printf(sb, "    const long base = i0 * 4;\n");
        lc_sb_printf(sb, "    if (base + 4 <= n0) {\n");
        for (int a = 0; a < k->n_access; a++) {
            const char *T = lc_T(g->acc[a].dtype);
            if (g->acc[a].kind == LC_ACCESS_RANDOM && g->acc[a].strides[0] == 1) {
                lc_sb_printf(sb, "        %s4 t%d;\n        {\n            const long i0 = base;\n"
                                 "            t%d = ", T, a, a);
                lc_random_quad(g, sb, a);
                lc_sb_printf(sb, ";\n        }\n");
            } else if (g->acc[a].kind != LC_ACCESS_CONST && g->acc[a].strides[0] == 1) {
                lc_sb_printf(sb, "        const %s4 t%d = *(__global const %s4 *)(a%d + a%d_o + base);\n",
                             T, a, T, a, a);
            }
        }
        lc_emit_four_lanes(g, sb, 0, "        ");
        for (int o = 0; o < k->n_outputs; o++)
            lc_sb_printf(sb, "        *(__global %s4 *)(out%d + base) = ov%d;\n",
                         lc_T(k->outputs[o].dtype), o, o);
        lc_sb_printf(sb, "        %s;\n    }\n"
                         "    for (long i0 = base; i0 < n0; i0++) {\n", quads > 1 ? "continue" : "return");
        lc_emit_exprs(g, sb, 0, "        ");
        lc_store_outputs(g, sb, "        ", nd);
        lc_sb_printf(sb, quads > 1 ? "    }\n    }\n}\n" : "    }\n}\n");
        return 0;
    }
    lc_emit_exprs(g, sb, 0, "    ");
    lc_store_outputs(g, sb, "    ", nd);
    lc_sb_printf(sb, "}\n");
    return 0;
}

/* The kernel's parameters (one launch): every map schedule's header. */
static struct lc_launch *lc_map_header_as(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                                          const char *suffix)
{
    struct lc_launch *l = lc_new_launch(c, suffix);
    if (!l)
        return NULL;
    int nd = g->nd;
    lc_sb_printf(sb, "__kernel void @K@%s(", suffix);
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, nd) < 0)
        return NULL;
    if (g->k->n_outputs + g->k->n_access + nd == 0)
        lc_sb_printf(sb, "const long unused_");
    lc_sb_printf(sb, ")\n{\n");
    return l;
}

static struct lc_launch *lc_map_header(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    return lc_map_header_as(g, c, sb, "");
}

/* A CPU's 1-d item map of at least LC_CHECK_APART_MIN elements with checked gather indices
 * checks them in a kernel of its own, launched after it: there each item walks
 * LC_CHECK_CHUNK elements computing only the indices, and a range with one out of range
 * walks again to report it (lc_gidx). The map then only wraps and clamps them (lc_gidx_w).
 * In the map, the report's branch in every item kept PoCL's work-group loop scalar:
 * x[idx] over 2^24 took 102-128 ms so, 81-98 checked apart (of which the check 6-7),
 * against 73-83 for a hand-written gather that checks nothing (AVX2, 2 cores). */
#define LC_CHECK_APART_MIN ((int64_t)1 << 18)
#define LC_CHECK_CHUNK 1024

static int lc_check_apart(const struct lc_cg *g, int v4, int64_t total)
{
    return !g->t->fixed_groups && g->nd == 1 && !v4 && total >= LC_CHECK_APART_MIN &&
           lc_has_checked_gather(g);
}

/* The check kernel @K@_chk (lc_check_apart), launched after the map's own. */
static int lc_gen_check_apart(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int64_t total)
{
    const struct lc_kernel *k = g->k;
    char *need = calloc((size_t)k->n_exprs + 1, 1);
    if (!need)
        return -1;
    /* The checked indices and what they are computed from. */
    for (int i = 0; i < k->n_exprs; i++)
        need[i] = k->exprs[i].op == LC_EXPR_INDEX && k->exprs[i].axis >= 0;
    lc_exprs_needed(g, need);
    struct lc_launch *l = lc_map_header_as(g, c, sb, "_chk");
    if (!l) {
        free(need);
        return -1;
    }
    l->work_dim = 1;
    l->global[0] = (size_t)((total + LC_CHECK_CHUNK - 1) / LC_CHECK_CHUNK);
    lc_sb_printf(sb, "    const long c_ = (long)get_global_id(0) * %d;\n"
                     "    const long e_ = min(c_ + %d, n0);\n"
                     "    int bad_ = 0;\n"
                     "    for (long i0 = c_; i0 < e_; i0++) {\n",
                 LC_CHECK_CHUNK, LC_CHECK_CHUNK);
    g->index_mode = LC_INDEX_FLAG;
    lc_emit_exprs_hoisted(g, sb, need, 0, "        ");
    lc_sb_printf(sb, "    }\n    if (bad_)\n        for (long i0 = c_; i0 < e_; i0++) {\n");
    g->index_mode = LC_INDEX_REPORT;
    lc_emit_exprs_hoisted(g, sb, need, 0, "            ");
    lc_sb_printf(sb, "        }\n}\n");
    free(need);
    return 0;
}

static int lc_map_simd_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_launch *l = lc_map_header(g, c, sb);
    return l ? lc_gen_map_simd(g, c, sb, l) : -1;
}

static int lc_map_vec4_rows_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    struct lc_launch *l = lc_map_header(g, c, sb);
    return l ? lc_gen_map_vec4_rows(g, c, sb, l) : -1;
}

static int lc_map_items_or_vec4(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, int v4)
{
    int64_t total = 1;
    for (int d = 0; d < g->nd; d++)
        total *= g->shape[d];
    int apart = lc_check_apart(g, v4, total);
    if (apart) {
        /* The map reads at indices wrapped and clamped; the check reports. */
        lc_sb_printf(sb, "static inline long lc_gidx_w(const long i, const long n) {\n"
                         "    const long j = i < 0 ? i + n : i;\n"
                         "    return (ulong)j < (ulong)n ? j : 0;\n}\n"
                         "static inline long lc_gidx_f(const long i, const long n, int *bad) {\n"
                         "    const long j = i < 0 ? i + n : i;\n"
                         "    const int ok = (ulong)j < (ulong)n;\n"
                         "    *bad |= !ok;\n"
                         "    return ok ? j : 0;\n}\n");
        g->index_mode = LC_INDEX_APART;
    }
    struct lc_launch *l = lc_map_header(g, c, sb);
    int rc = l ? lc_gen_map_items(g, c, sb, l, v4) : -1;
    g->index_mode = LC_INDEX_REPORT;
    if (rc == 0 && apart) {
        size_t n = strlen(c->schedule);
        snprintf(c->schedule + n, sizeof c->schedule - n, ", indices checked apart");
        rc = lc_gen_check_apart(g, c, sb, total);
    }
    return rc;
}

static int lc_map_vec4_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    return lc_map_items_or_vec4(g, c, sb, 1);
}

static int lc_map_items_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    return lc_map_items_or_vec4(g, c, sb, 0);
}

const struct lc_schedule lc_sched_map_simd = {LC_KERNEL_MAP, "map", lc_map_simd, lc_map_simd_gen};
const struct lc_schedule lc_sched_map_vec4_rows = {LC_KERNEL_MAP, "map", lc_map_vec4_rows,
                                                   lc_map_vec4_rows_gen};
const struct lc_schedule lc_sched_map_vec4 = {LC_KERNEL_MAP, "map", lc_map_vec4, lc_map_vec4_gen};
const struct lc_schedule lc_sched_map_items = {LC_KERNEL_MAP, "map", NULL, lc_map_items_gen};
