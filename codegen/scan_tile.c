/* scan_tile.c: a work-group's tile of a scan on GPUs (scan.c's tiles, scan_lookback.c's one
 * pass): the group's inclusive scan of its items' values (warp shuffles on NVIDIA, a tree in
 * local memory elsewhere), the tile's loads into local memory (or into the items' registers
 * and flags, for a store computing its running count of flags) and its coalesced outputs.
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NVIDIA (cl_nv_pragma_unroll): each warp scans its items' values by shuffles of 32-bit words
 * (an item adds the one `o` lanes below it, o = 1, 2, .. 16), then every item folds the totals
 * of the warps before its own, in warp order: three barriers, where the tree in local memory
 * takes two per step (H100, the last phase of a 2^28 float32 cumsum: 0.916 ms with the tree,
 * 0.803 with warps). Floats associate differently from the tree, the same way every run. */
static void lc_warp_inclusive_scan(struct lc_helpers *h, struct lc_sb *sb, int op, int dt,
                                   const char *A, int words)
{
    lc_sb_printf(sb, "#if defined(cl_nv_pragma_unroll)\n"
                     "    {\n"
                     "        const int lane_ = lid & 31, w_ = lid >> 5;\n"
                     "        for (int o_ = 1; o_ < 32; o_ <<= 1) {\n"
                     "            union { %s t; uint u[%d]; } x_, y_;\n", A, words);
    for (int k = 0; k < words; k++)
        lc_sb_printf(sb, "            x_.u[%d] = 0;\n", k);
    lc_sb_printf(sb, "            x_.t = acc;\n");
    for (int k = 0; k < words; k++)
        lc_sb_printf(sb, "            asm volatile(\"shfl.sync.up.b32 %%0, %%1, %%2, 0, 0xffffffff;\" "
                         ": \"=r\"(y_.u[%d]) : \"r\"(x_.u[%d]), \"r\"(o_));\n", k, k);
    lc_sb_printf(sb, "            if (lane_ >= o_) {\n"
                     "                %s t_ = y_.t;\n", A);
    lc_scan_step(h, sb, op, dt, "t_", "acc", A, "                ");
    lc_sb_printf(sb, "                acc = t_;\n"
                     "            }\n"
                     "        }\n"
                     "        if (lane_ == 31)\n"
                     "            tot[w_] = acc;\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "        if (w_ > 0) {\n"
                     "            %s t_ = tot[0];\n"
                     "            for (int i_ = 1; i_ < w_; i_++) {\n", A);
    lc_scan_step(h, sb, op, dt, "t_", "tot[i_]", A, "                ");
    lc_sb_printf(sb, "            }\n");
    lc_scan_step(h, sb, op, dt, "t_", "acc", A, "            ");
    lc_sb_printf(sb, "            acc = t_;\n"
                     "        }\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "        tot[lid] = acc;\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n"
                     "#else\n");
}

void lc_group_inclusive_scan(struct lc_helpers *h, struct lc_sb *sb, int op, int dt,
                             const char *A, const char *id, size_t L)
{
    int bytes = lc_acc_bytes(A);
    if (bytes && L % 32 == 0)
        lc_warp_inclusive_scan(h, sb, op, dt, A, (bytes + 3) / 4);
    lc_sb_printf(sb, "    tot[lid] = acc;\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (int off = 1; off < %zu; off <<= 1) {\n"
                     "        %s t_ = lid >= off ? tot[lid - off] : (%s)(%s);\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n", L, A, A, id);
    lc_scan_step(h, sb, op, dt, "t_", "tot[lid]", A, "        ");
    lc_sb_printf(sb, "        tot[lid] = t_;\n"
                     "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    }\n");
    if (bytes && L % 32 == 0)
        lc_sb_printf(sb, "#endif\n");
}

int lc_tile_shift(int E)
{
    int s = 0;
    while ((1 << (s + 1)) <= E)
        s++;
    return s;
}

int64_t lc_tile_words(int64_t n, int E)
{
    return n + (n >> lc_tile_shift(E));
}

void lc_tile_index(struct lc_cg *g, struct lc_sb *sb, int flags, const char *ind)
{
    int nr = g->nd - 1;
    size_t L = g->t->work_group;
    if (flags == LC_FLAGS_QUADS)   /* element j of the item: element j % 4 of its quad j / 4 */
        lc_sb_printf(sb, "%sconst long i%d = base + ((long)((j >> 2) * %zu + lid) << 2) + "
                         "(j & 3);\n", ind, nr, L);
    else
        lc_sb_printf(sb, "%sconst long i%d = base + j * %zu + lid;\n", ind, nr, L);
}

/* The load loop of lc_tile_load_as, with or without the test of each element's index. */
static void lc_tile_load_loop(struct lc_cg *g, struct lc_sb *sb, int prologue, const char *v,
                              const char *A, const char *id, int E, const char *keep, int flags,
                              int guard, const char *ind)
{
    int nr = g->nd - 1;
    size_t L = g->t->work_group;
    const struct lc_kernel *k = g->k;
    if (keep)   /* its arrays in registers */
        lc_sb_printf(sb, "%s%s", ind, LC_UNROLL(g->t->roll_loops));
    char in1[32], in2[32];
    snprintf(in1, sizeof in1, "%s    ", ind);
    snprintf(in2, sizeof in2, "%s        ", ind);
    lc_sb_printf(sb, "%sfor (int j = 0; j < %d; j++) {\n", ind, E);
    lc_tile_index(g, sb, flags, in1);
    char test[48] = "";
    if (guard)
        snprintf(test, sizeof test, "if (i%d < n%d) ", nr, nr);
    lc_sb_printf(sb, "%s    %s x_ = (%s)(%s);\n"
                     "%s    %s{\n", ind, A, A, id, ind, test);
    if (prologue)
        lc_emit_scan_prologue(g, sb, in2);
    else
        lc_emit_exprs(g, sb, 0, in2);
    for (int i = 0; keep && i < k->n_exprs; i++)
        if (keep[i])
            lc_sb_printf(sb, "%skv%d[j] = v%d;\n", in2, i, i);
    lc_sb_printf(sb, "%sx_ = (%s)%s;\n"
                     "%s    }\n", in2, A, v, ind);
    if (flags == LC_FLAGS_QUADS)   /* quad q's flags in byte q % 4 of word q / 4 */
        lc_sb_printf(sb, "%s    fq_[j >> 4] |= (uint)(x_ != 0) << (((j >> 2) & 3) * 8 + "
                         "(j & 3));\n", ind);
    else if (flags)
        lc_sb_printf(sb, "%s    fl_me |= (uint)(x_ != 0) << j;\n", ind);
    else
        lc_sb_printf(sb, "%s    buf[j * %zu + lid + (lid >> %d)] = x_;\n", ind,
                     (size_t)lc_tile_words((int64_t)L, E), lc_tile_shift(E));
    lc_sb_printf(sb, "%s}\n", ind);
}

/* The tile's loads. A store's tile inside its row (`whole`) loads without testing each index,
 * so that the compiler issues every load before the first use of one: NVIDIA issued each load
 * and waited for it inside its test. H200, 2^28 unless stated, kernel ms, tested / not:
 * x[x > 0.9] float32 (in quads) 1.14 / 0.62, x8[x8 > 49] int8 1.20 / 0.66, float64 (ballots,
 * 2^27) 0.53 / 0.49, x[m] by a bool mask (the tile's scan) 0.83 / 0.77 (the stores' loop
 * untested too). A scan's tile keeps its tests: untested, cumsum(x) float32 took 0.93 ms
 * against 0.82, float64 (2^27) 0.62 against 0.60 (int32 0.63 against 0.66). */
static void lc_tile_load_as(struct lc_cg *g, struct lc_sb *sb, int prologue, const char *v,
                            const char *A, const char *id, int E, const char *keep, int flags,
                            int whole)
{
    int nr = g->nd - 1;
    size_t L = g->t->work_group;
    const struct lc_kernel *k = g->k;
    for (int i = 0; keep && i < k->n_exprs; i++)
        if (keep[i])
            lc_sb_printf(sb, "    %s kv%d[%d];\n", lc_T(k->exprs[i].dtype), i, E);
    if (whole) {
        lc_sb_printf(sb, "    if (base + %lld <= n%d) {\n", (long long)L * E, nr);
        lc_tile_load_loop(g, sb, prologue, v, A, id, E, keep, flags, 0, "        ");
        lc_sb_printf(sb, "    } else {\n");
        lc_tile_load_loop(g, sb, prologue, v, A, id, E, keep, flags, 1, "        ");
        lc_sb_printf(sb, "    }\n");
    } else {
        lc_tile_load_loop(g, sb, prologue, v, A, id, E, keep, flags, 1, "    ");
    }
    if (!flags)
        lc_sb_printf(sb, "    barrier(CLK_LOCAL_MEM_FENCE);\n");
}

void lc_tile_load(struct lc_cg *g, struct lc_sb *sb, int prologue, const char *v, const char *A,
                  const char *id, int E)
{
    lc_tile_load_as(g, sb, prologue, v, A, id, E, NULL, 0, 0);
}

void lc_tile_load_keeping(struct lc_cg *g, struct lc_sb *sb, const char *v, const char *A,
                          const char *id, int E, const char *keep, int flags)
{
    lc_tile_load_as(g, sb, 1, v, A, id, E, keep, flags, 1);
}

void lc_tile_write_outputs(struct lc_cg *g, struct lc_sb *sb, int E, const char *v)
{
    int nr = g->nd - 1;
    size_t L = g->t->work_group;
    const char *T = lc_T(g->k->outputs[0].dtype);
    lc_sb_printf(sb, "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "    for (int j = 0; j < %d; j++) {\n", E);
    lc_tile_index(g, sb, 0, "        ");
    lc_sb_printf(sb, "        if (i%d < n%d) {\n"
                     "            const %s %s = (%s)buf[j * %zu + lid + (lid >> %d)];\n",
                 nr, nr, T, v, T, (size_t)lc_tile_words((int64_t)L, E), lc_tile_shift(E));
    lc_store_outputs(g, sb, "            ", g->nd);
    lc_sb_printf(sb, "        }\n    }\n}\n");
}
