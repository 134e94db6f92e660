/* sort_tile.c: GPU sorts along the last dim, in work-group tiles (sort, argsort).
 *
 * The same order-preserving keys as sort.c (lc_key_of, lc_emit_key), sorted
 * by LSD radix over digits of the target's sort_digit_bits (<= 8). A tile
 * is LT work-items x LI keys in local memory. Inside a tile, keys are ordered
 * stably by a digit through splits of 4 bits: each item counts the 4 bits
 * of its LI consecutive keys in its own column of a 16 x LT table, one scan
 * of the table in (value, item) order gives every key its place. So no item
 * ever waits for another group (no forward-progress assumption), and no
 * atomic decides an order.
 *
 * A row that fits in one tile is sorted whole in it (one launch; the
 * short-rows schedule). Longer rows take per digit: a count of the digit's
 * values per tile (local atomics: order-free), stored tile by tile; an
 * exclusive scan of the counts per row in (value, tile) order, in three
 * launches (each value's sums over segments of tiles, their scan with the
 * values' bases, the segments' scan into a table of places), every access
 * coalesced; and a move: each tile sorts itself by the
 * digit locally and writes each key to its value's place, runs of a value
 * adjacent (coalesced). The first count and move compute the key expression
 * itself (the fused producer; nothing is materialized before the sort); the
 * last move writes the outputs.
 *
 * A one-sweep variant (one launch counting every digit, then per digit a move
 * whose groups take tickets and look back over the tiles before them for
 * their values' places) removed 15 of the 20 launches of a 4-byte key but made
 * each move longer by more than that on float keys (H100: sort 12.4 ms
 * against 11.5, argsort 19.8 against 15.8): docs/benchmarks.md, 2026-11-28.
 *
 * The payload is the element's index in its row (uint: rows shorter than
 * 2^31), carried by argsort, and by a float sort only when the data hold a
 * NaN or -0.0 (a flag the first count sets): their keys are folded, so the
 * last move reads those values again at their index; every other value is
 * its key's inverse.
 */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LC_LT 256 /* items per tile group; the scans' groups too */
#define LC_TILE_SEGS 256 /* segments of tiles per row in the counts' scan, at most: each item of
                            its one group per row scans a value's segments 16 at a time */

static int lc_tile_items(int dt)   /* keys per item: tiles fit in 48 KiB of local memory */
{
    return lc_key_of(dt).bits == 64 ? 8 : 16;
}

static int lc_sort_tile_fits(struct lc_cg *g)
{
    int bits = g->t->sort_digit_bits;
    return g->t->sort_tiles && g->t->max_work_group >= LC_LT &&
           g->shape[g->nd - 1] < ((int64_t)1 << 31) &&
           bits >= 4 && bits <= 8 && bits % 4 == 0;
}

/* The helpers every kernel of the program shares: tile geometry, a group scan, the 4-bit
 * split and the tile sort by `bits` bits at `sh`. */
static void lc_tile_helpers(struct lc_sb *sb, const char *K, int LI, int rolled)
{
    /* The tile sort's loops over an item's keys: unrolled (in registers), or rolled. */
    const char *U = LC_UNROLL(rolled);
    lc_sb_printf(sb, "#define LT %d\n#define LI %d\n#define LN (LT * LI)\n"
                     "#define LP(i) ((i) + ((i) >> 5))   /* padded: no bank conflicts */\n\n", LC_LT, LI);
    lc_sb_printf(sb,
        "/* The exclusive scan of v over the group; *tot = the group's sum. NVIDIA: warps scan\n"
        " * by shuffles, then every item adds the totals of the warps before its own (two\n"
        " * barriers, not two per step). */\n"
        "static inline uint lc_gscan(__local uint *s, const uint v, uint *tot)\n{\n"
        "    const int l = get_local_id(0);\n"
        "#if defined(cl_nv_pragma_unroll)\n"
        "    const int lane = l & 31, w = l >> 5;\n    uint x = v;\n"
        "    for (int o = 1; o < 32; o <<= 1) {\n        uint y;\n"
        "        asm volatile(\"shfl.sync.up.b32 %%0, %%1, %%2, 0, 0xffffffff;\" : \"=r\"(y) : \"r\"(x), \"r\"(o));\n"
        "        if (lane >= o)\n            x += y;\n    }\n"
        "    if (lane == 31)\n        s[w] = x;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    uint pre = 0, all = 0;\n"
        "    for (int i = 0; i < LT / 32; i++) {\n        const uint t = s[i];\n"
        "        pre += i < w ? t : 0;\n        all += t;\n    }\n"
        "    *tot = all;\n    barrier(CLK_LOCAL_MEM_FENCE);\n    return pre + x - v;\n"
        "#else\n"
        "    s[l] = v;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    for (int o = 1; o < LT; o <<= 1) {\n"
        "        const uint a = l >= o ? s[l - o] : 0;\n        barrier(CLK_LOCAL_MEM_FENCE);\n"
        "        s[l] += a;\n        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n"
        "    const uint r = s[l];\n    *tot = s[LT - 1];\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    return r - v;\n"
        "#endif\n}\n\n");
    lc_sb_printf(sb,
        "/* The exclusive scan of the 8 lanes of x. */\n"
        "static inline uint8 lc_scan8(const uint8 x)\n{\n"
        "    uint8 y = x + (uint8)(0, x.s0, x.s1, x.s2, x.s3, x.s4, x.s5, x.s6);\n"
        "    y += (uint8)(0, 0, y.s0, y.s1, y.s2, y.s3, y.s4, y.s5);\n"
        "    y += (uint8)(0, 0, 0, 0, y.s0, y.s1, y.s2, y.s3);\n"
        "    return y - x;\n}\n\n");
    lc_sb_printf(sb,
        "/* Sort the tile's keys lk (and, with pay, their payloads lv) stably by `bits` bits at\n"
        " * sh, 4 at a time: item l holds keys l*LI.. in order; its counts of each 4-bit value go\n"
        " * to its column of c (16 x LT), whose scan in (value, item) order places every key.\n"
        " * Each key's value and rank among the item's keys are kept 4 bits each (LI <= 16); the\n"
        " * payloads move after the keys, so only one of the two is in registers at a time. */\n"
        "static inline void lc_tile_sort(__local %s *lk, __local uint *lv, __local ushort *c,\n"
        "                                __local uint *s, const int sh, const int bits,\n"
        "                                const int pay)\n{\n"
        "    const int l = get_local_id(0);\n"
        "#pragma unroll 1\n"
        "    for (int b = 0; b < bits; b += 4) {\n"
        "        %s k[LI];\n"
        "        /* the item's counts of the 16 values, 8 bits each, in registers (LI < 256) */\n"
        "        ulong lo_ = 0, hi_ = 0, rp = 0, dp = 0;\n"
        "%s"
        "        for (int j = 0; j < LI; j++) {\n"
        "            k[j] = lk[LP(l * LI + j)];\n"
        "            const int d = (int)(k[j] >> (sh + b)) & 15, at = (d & 7) * 8;\n"
        "            const ulong one = 1ul << at;\n            ulong r;\n"
        "            if (d < 8) {\n                r = (lo_ >> at) & 255;\n                lo_ += one;\n"
        "            } else {\n                r = (hi_ >> at) & 255;\n                hi_ += one;\n            }\n"
        "            rp |= r << (4 * j);\n            dp |= (ulong)d << (4 * j);\n"
        "        }\n"
        "%s"
        "        for (int d = 0; d < 8; d++) {\n"
        "            c[d * LT + l] = (ushort)((lo_ >> (d * 8)) & 255);\n"
        "            c[(d + 8) * LT + l] = (ushort)((hi_ >> (d * 8)) & 255);\n        }\n"
        "        barrier(CLK_LOCAL_MEM_FENCE);\n"
        "        /* item l scans entries 16 l.. of the table: two 16-byte loads */\n"
        "        const uint8 x0 = convert_uint8(vload8(0, c + l * 16));\n"
        "        const uint8 x1 = convert_uint8(vload8(1, c + l * 16));\n"
        "        uint tot;\n"
        "        const uint8 y0 = lc_scan8(x0), y1 = lc_scan8(x1) + y0.s7 + x0.s7;\n"
        "        const uint acc = lc_gscan(s, y1.s7 + x1.s7, &tot);\n"
        "        vstore8(convert_ushort8(y0 + acc), 0, c + l * 16);\n"
        "        vstore8(convert_ushort8(y1 + acc), 1, c + l * 16);\n"
        "        barrier(CLK_LOCAL_MEM_FENCE);\n"
        "%s"
        "        for (int j = 0; j < LI; j++) {\n"
        "            const int d = (int)(dp >> (4 * j)) & 15;\n"
        "            lk[LP(c[d * LT + l] + (uint)((rp >> (4 * j)) & 15))] = k[j];\n        }\n"
        "        if (pay) {   /* lv still holds the old order: read it, then place it */\n"
        "            uint o[LI];\n"
        "%s"
        "            for (int j = 0; j < LI; j++)\n                o[j] = lv[LP(l * LI + j)];\n"
        "            barrier(CLK_LOCAL_MEM_FENCE);\n"
        "%s"
        "            for (int j = 0; j < LI; j++) {\n"
        "                const int d = (int)(dp >> (4 * j)) & 15;\n"
        "                lv[LP(c[d * LT + l] + (uint)((rp >> (4 * j)) & 15))] = o[j];\n            }\n"
        "        }\n"
        "        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n}\n\n", K, K, U, U, U, U, U);
}

/* What the long rows' kernels share (every kernel's parameters M, B, S in scope): where each
 * count table starts in the scratch, and the running sum the counts' scan takes twice. */
static void lc_tile_scan_helpers(struct lc_sb *sb, int R)
{
    lc_sb_printf(sb,
        "/* The count tables after the flag's 16 bytes: the counts (M x B x RV, each tile's RV\n"
        " * values adjacent, so every access is coalesced), each value's sums over segments of\n"
        " * tiles (M x S x RV), the values' bases (M x RV) and the places the counts become\n"
        " * (M x B x RV: value-major, all of value 0 first, tile by tile, then value 1, ...). */\n"
        "#define RV %d\n"
        "#define LC_CNT(s) ((__global uint *)((s) + 16))\n"
        "#define LC_SEG(s) (LC_CNT(s) + M * B * RV)\n"
        "#define LC_BAS(s) (LC_SEG(s) + M * S * RV)\n"
        "#define LC_PL(s) (LC_BAS(s) + M * RV)\n\n", R);
    lc_sb_printf(sb,
        "/* Value l's entries [lo, hi) of src (rows of RV) scanned from acc, exclusive, into dst\n"
        " * (src itself or not): 16 loads at once, then their stores. Returns the sum. */\n"
        "static inline uint lc_carry(__global const uint *src, __global uint *dst, const long lo,\n"
        "                            const long hi, uint acc)\n{\n"
        "    const int l = get_local_id(0);\n"
        "#pragma unroll 1\n    for (long c0 = lo; c0 < hi; c0 += 16) {\n"
        "        uint v[16];\n"
        "        for (int j = 0; j < 16; j++)\n"
        "            v[j] = c0 + j < hi ? src[(c0 + j) * RV + l] : 0;\n"
        "        for (int j = 0; j < 16; j++) {\n"
        "            if (c0 + j < hi)\n                dst[(c0 + j) * RV + l] = acc;\n"
        "            acc += v[j];\n        }\n    }\n    return acc;\n}\n\n");
}

/* The key of the element at i<nr> (declared by the caller), computed from the key expression;
 * for a float sort, -0.0 or a NaN of other bits than np.nan's sets the flag at *fl (a folded
 * NaN key comes back as np.nan, lc_emit_unkey). */
static void lc_tile_key_expr(struct lc_cg *g, struct lc_sb *sb, int dt, int desc, int flag,
                             const char *ind)
{
    int vexpr = g->k->outputs[0].expr;
    char v[16];
    snprintf(v, sizeof v, "v%d", vexpr);
    lc_emit_exprs(g, sb, 0, ind);
    lc_emit_key(sb, dt, v, desc, ind);
    if (flag) {   /* the values its key cannot give back (lc_emit_special) */
        lc_sb_printf(sb, "%suint sp_ = 0;\n", ind);
        lc_emit_special(sb, dt, v, "sp_", ind);
        lc_sb_printf(sb, "%sif (sp_)\n%s    *fl = 1;\n", ind, ind);
    }
}

enum {
    LC_T_LOCAL, LC_T_CFIRST, LC_T_COUNT, LC_T_SRED, LC_T_SSCAN, LC_T_SDOWN,
    LC_T_MFIRST, LC_T_MOVE, LC_T_MLAST, LC_T_MONLY, LC_T_N
};
static const char *const lc_tile_names[LC_T_N] = {
    "_local", "_cfirst", "_count", "_sred", "_sscan", "_sdown", "_mfirst", "_move", "_mlast", "_monly"};

/* This schedule's own parameters, after the scratch (lc_sort_params). */
#define LC_TILE_PARAMS                                                                      \
    "const long M, const long B, const long S, const long TS, const int shift, "           \
    "const long ks, const long vs, const long kd, const long vd"

static int lc_tile_kernel(struct lc_cg *g, struct lc_sb *sb, int kk, int R)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, nr = nd - 1, arg = k->scan_op == LC_OP_ARGSORT;
    int dt = k->exprs[k->outputs[0].expr].dtype;
    int desc = k->outputs[0].node ? k->outputs[0].node->p.red.kind != 0 : 0;
    int isf = lc_dtype_kind(dt) == 'f';
    struct lc_key key = lc_key_of(dt);
    const char *K = key.type;
    int first = kk == LC_T_CFIRST || kk == LC_T_MFIRST || kk == LC_T_MONLY || kk == LC_T_LOCAL;
    int last = kk == LC_T_MLAST || kk == LC_T_MONLY || kk == LC_T_LOCAL;
    int move = kk >= LC_T_MFIRST || kk == LC_T_LOCAL;

    lc_sb_printf(sb, "__kernel __attribute__((reqd_work_group_size(LT, 1, 1)))\nvoid @K@%s(",
                 lc_tile_names[kk]);
    if (lc_sort_params(g, NULL, sb, LC_TILE_PARAMS) < 0)
        return -1;
    lc_sb_printf(sb, "    __global char *s = s_ + sbase;\n    __global int *fl = (__global int *)s;\n"
                     "    const int l = get_local_id(0);\n    const long g_ = get_group_id(0);\n"
                     "    __local uint sl[LT];\n");
    if (kk == LC_T_SRED || kk == LC_T_SSCAN || kk == LC_T_SDOWN) {
        /* Row m's tables (lc_tile_scan_helpers); SRED and SDOWN: segment q, tiles [b0, b1). */
        if (kk == LC_T_SSCAN)
            lc_sb_printf(sb, "    const long m = g_;\n");
        else
            lc_sb_printf(sb, "    const long m = g_ / S, q = g_ %% S, b0 = q * TS, "
                             "b1 = min(B, b0 + TS);\n");
        lc_sb_printf(sb, "    __global uint *cnt = LC_CNT(s) + m * B * RV;\n"
                         "    __global uint *pl = LC_PL(s) + m * B * RV;\n"
                         "    __global uint *seg = LC_SEG(s) + m * S * RV;\n"
                         "    __global uint *bas = LC_BAS(s) + m * RV;\n");
        if (kk == LC_T_SRED)   /* each value's count in segment q */
            lc_sb_printf(sb, "    if (l < RV) {\n        uint sum = 0;\n#pragma unroll 16\n"
                             "        for (long b = b0; b < b1; b++)\n"
                             "            sum += cnt[b * RV + l];\n"
                             "        seg[q * RV + l] = sum;\n    }\n}\n\n");
        else if (kk == LC_T_SSCAN)   /* each value's segments scanned; the values' bases */
            lc_sb_printf(sb, "    uint tot;\n"
                             "    const uint acc = l < RV ? lc_carry(seg, seg, 0, S, 0) : 0;\n"
                             "    const uint base = lc_gscan(sl, acc, &tot);\n"
                             "    if (l < RV)\n        bas[l] = base;\n}\n\n");
        else   /* each tile's first place of each value, in a table of their own (in place,
                * the H100 took 0.199 ms for 2^28 keys; apart, 0.06: docs/benchmarks.md) */
            lc_sb_printf(sb, "    if (l < RV)\n"
                             "        lc_carry(cnt, pl, b0, b1, bas[l] + seg[q * RV + l]);\n}\n\n");
        return 0;
    }
    /* Tile kernels: tile b of row m. */
    lc_sb_printf(sb, "    const long m = %s, b = %s;\n", kk == LC_T_LOCAL ? "g_" : "g_ / B",
                 kk == LC_T_LOCAL ? "0" : "g_ % B");
    if (nr > 0)
        lc_unravel(sb, 0, nr, "m", "    ");
    lc_sb_printf(sb, "    const long N = n%d, tb = b * LN, nb = min((long)LN, N - tb);\n"
                     "    __global %s *ksrc = (__global %s *)(s + ks) + m * N;\n"
                     "    __global %s *kdst = (__global %s *)(s + kd) + m * N;\n"
                     "    __global uint *vsrc = (__global uint *)(s + vs) + m * N;\n"
                     "    __global uint *vdst = (__global uint *)(s + vd) + m * N;\n",
                 nr, K, K, K, K);
    if (!move) {
        /* COUNT: the digit's values in this tile; the keys first (every load in flight at
         * once), then the local atomics. */
        lc_sb_printf(sb, "    __local uint h[%d];\n    %s kk_[LI];\n"
                         "    for (int j = 0; j < LI; j++) {\n        const long e = j * LT + l;\n"
                         "        kk_[j] = 0;\n        if (e < nb) {\n", R, K);
        if (first) {
            lc_sb_printf(sb, "            const long i%d = tb + e;\n", nr);
            lc_tile_key_expr(g, sb, dt, desc, isf && !arg, "            ");
            lc_sb_printf(sb, "            kk_[j] = key_;\n");
        } else {
            lc_sb_printf(sb, "            kk_[j] = ksrc[tb + e];\n");
        }
        lc_sb_printf(sb, "        }\n    }\n    if (l < %d)\n        h[l] = 0;\n"
                         "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    for (int j = 0; j < LI; j++)\n        if (j * LT + l < nb)\n"
                         "            atomic_inc(&h[(int)(kk_[j] >> shift) & %d]);\n"
                         "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                         "    if (l < RV)\n        LC_CNT(s)[(m * B + b) * RV + l] = h[l];\n}\n\n",
                     R, R - 1);
        return 0;
    }
    /* MOVE (and LOCAL): load the tile, sort it locally, write each key to its place. */
    lc_sb_printf(sb, "    __local %s lk[LP(LN)];\n    __local uint lv[LP(LN)];\n"
                     "    __local ushort c[16 * LT] __attribute__((aligned(16)));\n", K);
    if (kk != LC_T_LOCAL)
        lc_sb_printf(sb, "    __local uint go[RV], ds[RV];\n"
                         "    if (l < RV)\n        go[l] = LC_PL(s)[(m * B + b) * RV + l];\n");
    if (arg)
        lc_sb_printf(sb, "    const int pay = 1;\n");
    else if (isf)
        lc_sb_printf(sb, "    const int pay = %s;\n", kk == LC_T_LOCAL ? "1" : "*fl != 0");
    else
        lc_sb_printf(sb, "    const int pay = 0;\n");
    lc_sb_printf(sb, "    for (int j = 0; j < LI; j++) {\n        const int e = j * LT + l;\n"
                     "        %s k_ = %s;\n        if (e < nb) {\n", K, key.all);
    if (first) {
        lc_sb_printf(sb, "            const long i%d = tb + e;\n", nr);
        lc_tile_key_expr(g, sb, dt, desc, 0, "            ");
        lc_sb_printf(sb, "            k_ = key_;\n");
    } else {
        lc_sb_printf(sb, "            k_ = ksrc[tb + e];\n");
    }
    /* The payload, in local memory beside its key (a gather from global memory after the
     * local sort would read 32-byte sectors for 4-byte values). */
    lc_sb_printf(sb, "            if (pay)\n                lv[LP(e)] = %s;\n",
                 first ? "(uint)(tb + e)" : "vsrc[tb + e]");
    /* Padding entries (e >= nb) get a defined payload too: the local sort moves them. */
    lc_sb_printf(sb, "        } else if (pay) {\n            lv[LP(e)] = 0;\n        }\n"
                     "        lk[LP(e)] = k_;\n    }\n"
                     "    barrier(CLK_LOCAL_MEM_FENCE);\n");
    if (kk == LC_T_LOCAL) {
        lc_sb_printf(sb, "    lc_tile_sort(lk, lv, c, sl, 0, %d, pay);\n", key.bits);
        lc_sb_printf(sb, "    for (int j = 0; j < LI; j++) {\n        const int p = j * LT + l;\n"
                         "        if (p < nb) {\n            const %s key_ = lk[LP(p)];\n"
                         "            const long idx_ = lv[LP(p)], pos_ = p;\n", K);
    } else {
        lc_sb_printf(sb, "    lc_tile_sort(lk, lv, c, sl, shift, %d, pay);\n", g->t->sort_digit_bits);
        /* Where each value's run starts in the sorted tile. */
        lc_sb_printf(sb, "    for (int j = 0; j < LI; j++) {\n        const int p = j * LT + l;\n"
                         "        const int d = (int)(lk[LP(p)] >> shift) & %d;\n"
                         "        if (p == 0 || d != ((int)(lk[LP(p - 1)] >> shift) & %d))\n"
                         "            ds[d] = p;\n    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n",
                     R - 1, R - 1);
        lc_sb_printf(sb, "    for (int j = 0; j < LI; j++) {\n        const int p = j * LT + l;\n"
                         "        if (p < nb) {\n            const %s key_ = lk[LP(p)];\n"
                         "            const int d = (int)(key_ >> shift) & %d;\n"
                         "            const long pos_ = go[d] + (p - ds[d]);\n"
                         "            const long idx_ = lv[LP(p)];\n",
                     K, R - 1);
    }
    if (!last) {
        lc_sb_printf(sb, "            kdst[pos_] = key_;\n            if (pay)\n"
                         "                vdst[pos_] = (uint)idx_;\n        }\n    }\n}\n\n");
        return 0;
    }
    if (arg)
        lc_sb_printf(sb, "            const long val_ = idx_;\n");
    else
        lc_emit_sort_value(g, sb, dt, desc, "pay", "idx_", "            ");
    lc_emit_sort_store(g, sb, "            ");
    lc_sb_printf(sb, "        }\n    }\n}\n\n");
    return 0;
}

static int lc_tile_launch(struct lc_cg *g, struct lc_kcode *c, int kk, int64_t groups, int shift,
                          const size_t ko[2], const size_t vo[2], const int64_t MBS[4])
{
    struct lc_launch *l = lc_new_launch(c, lc_tile_names[kk]);
    if (!l)
        return -1;
    union lc_scalar sh = {.i = shift};
    if (lc_sort_params(g, l, NULL, LC_TILE_PARAMS) < 0 || lc_add_i64(l, MBS[0]) < 0 ||
        lc_add_i64(l, MBS[1]) < 0 || lc_add_i64(l, MBS[2]) < 0 || lc_add_i64(l, MBS[3]) < 0 ||
        lc_add_arg(l, LC_CGARG_SCALAR, 0, LC_INT32, sh) < 0 ||
        lc_add_i64(l, (int64_t)ko[0]) < 0 || lc_add_i64(l, (int64_t)vo[0]) < 0 ||
        lc_add_i64(l, (int64_t)ko[1]) < 0 || lc_add_i64(l, (int64_t)vo[1]) < 0)
        return -1;
    l->work_dim = 1;
    l->global[0] = (size_t)groups * LC_LT;
    l->use_local = 1;
    l->local[0] = LC_LT;
    l->local[1] = l->local[2] = 1;
    return 0;
}

static int lc_sort_tile_gen(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    int nd = g->nd, arg = k->scan_op == LC_OP_ARGSORT;
    int dt = k->exprs[k->outputs[0].expr].dtype;
    struct lc_key key = lc_key_of(dt);
    int LI = lc_tile_items(dt), LN = LC_LT * LI, DB = g->t->sort_digit_bits, R = 1 << DB;
    int64_t M = 1, N = g->shape[nd - 1];
    for (int d = 0; d < nd - 1; d++)
        M *= g->shape[d];
    /* The counts' scan: each row's B tiles in S segments of TS, at most LC_TILE_SEGS. */
    int64_t B = (N + LN - 1) / LN, E = R * B, TS = (B + LC_TILE_SEGS - 1) / LC_TILE_SEGS;
    int64_t S = (B + TS - 1) / TS;
    int64_t args[4] = {M, B, S, TS};
    int passes = key.bits / DB;
    int pay = arg || lc_dtype_kind(dt) == 'f';

    lc_tile_helpers(sb, key.type, LI, g->t->roll_loops);
    size_t ko[2] = {0, 0}, vo[2] = {0, 0};
    if (B <= 1) {
        /* Short rows: each sorted whole in one group. */
        if (lc_tile_kernel(g, sb, LC_T_LOCAL, R) < 0)
            return -1;
        c->scratch_bytes = 8;
        c->zero_bytes = 0;
        if (lc_tile_launch(g, c, LC_T_LOCAL, M, 0, ko, vo, args) < 0)
            return -1;
        snprintf(c->schedule, sizeof c->schedule,
                 "sort: rows in one work-group tile of %d, %d local passes of 4 bits", LN,
                 key.bits / 4);
        return 0;
    }
    /* Scratch: the flag, the count tables (lc_tile_scan_helpers: counts and places M x B x R
     * each, segment sums M x S x R, bases M x R), keys and payloads twice (ping-pong). */
    lc_tile_scan_helpers(sb, R);
    size_t MN = (size_t)(M * N), ks = key.bits == 64 ? 8 : 4;
    size_t at = lc_round_up(16 + (size_t)(2 * M * E + M * S * R + M * R) * 4, 16);
    size_t kb = lc_round_up(MN * ks, 8), vb = pay ? lc_round_up(MN * 4, 8) : 0;
    ko[0] = at;
    ko[1] = at + kb;
    vo[0] = at + 2 * kb;
    vo[1] = vo[0] + vb;
    c->scratch_bytes = vo[1] + vb;
    c->zero_bytes = 16;
    /* Per digit: count, the counts' scan (three launches), move; each kernel written once. */
    int used[LC_T_N] = {0};
    for (int p = 0; p < passes; p++) {
        int kinds[5] = {p == 0 ? LC_T_CFIRST : LC_T_COUNT, LC_T_SRED, LC_T_SSCAN, LC_T_SDOWN,
                        passes == 1 ? LC_T_MONLY : p == 0 ? LC_T_MFIRST
                        : p == passes - 1 ? LC_T_MLAST : LC_T_MOVE};
        int64_t groups[5] = {M * B, M * S, M, M * S, M * B};
        for (int i = 0; i < 5; i++) {
            if (!used[kinds[i]] && lc_tile_kernel(g, sb, kinds[i], R) < 0)
                return -1;
            used[kinds[i]] = 1;
            if (lc_tile_launch(g, c, kinds[i], groups[i], p * DB, ko, vo, args) < 0)
                return -1;
        }
        size_t t = ko[0];
        ko[0] = ko[1];
        ko[1] = t;
        t = vo[0];
        vo[0] = vo[1];
        vo[1] = t;
    }
    snprintf(c->schedule, sizeof c->schedule,
             "sort: LSD radix in work-group tiles of %d, %d passes of %d-bit digits", LN, passes, DB);
    return 0;
}

const struct lc_schedule lc_sched_sort_tiles = {LC_KERNEL_SORT, "sort", lc_sort_tile_fits,
                                                lc_sort_tile_gen};
