/* topk_group.c: the top k of a long row in one launch on GPUs (topk.c's first pass, then this).
 *
 * Where a row is cut into many chunks (a long 1-d row: 67584 on an H100), the items' lists
 * used to go to scratch whole (1.08 M candidates for the top 16 of 2^28) and six launches of
 * merges took them down to k (0.19 ms of 1.10). Here each group of items, its chunks all in one
 * row (P is a multiple of the group's size), selects its own k best from its items' lists in
 * local memory, writes only those, and counts itself done; the last group of a row to finish
 * merges the row's P / wg * k candidates the same way and writes the result. One launch.
 *
 * A candidate is one 64-bit word, key << 32 | rank of its position, whose unsigned order is the
 * selection's order (TK_BETTER): the rank is the position + 1 where the later of equal keys
 * ranks first (the largest), INT_MAX - the position otherwise, so that no element's word is 0,
 * the word of an empty place. Positions are ints here (rows shorter than INT_MAX, keys of 32
 * bits or fewer: topk.c's LC_TK_I32 with the shared bound).
 *
 * The group's k best: k rounds, each a tree of maxima over the items' best remaining words in
 * local memory; the item whose word won drops it. Words are unique, so one item drops each
 * round. Candidates are written by 64-bit atomics and read as scan_lookback.c's states are
 * (lc_emit_shared_read64): OpenCL 1.2 orders plain accesses of different groups by nothing.
 * The counter (one int a row) is in zeroed scratch; no group waits for another.
 *
 * H100, top 16 of 2^28 float32: kernels 1.10 ms (first pass 0.91, six merges 0.19) -> 0.88 in
 * one launch. Items per compute unit, with it: 384 1.04 ms, 512 (kept) 0.88, 768 1.14, 1024
 * 1.00; the last group reading 4, 8 (kept) or 16 candidates at once: 0.881, 0.877, 0.874.
 */
#include "codegen/cg.h"

#include <stdio.h>

/* Before the kernel: the words' macros and the 64-bit atomics. */
void lc_topk_group_helpers(struct lc_sb *sb, int largest)
{
    lc_sb_printf(sb, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                     "/* A candidate's word (0: an empty place), and its position back. */\n");
    if (largest)
        lc_sb_printf(sb, "#define TK_WORD(k, i) ((i) == TI_NONE ? 0ul : ((ulong)(k) << 32) | (ulong)(uint)((i) + 1))\n"
                         "#define TK_WPOS(w) ((w) == 0ul ? TK_NONE : (long)(uint)(w) - 1)\n");
    else
        lc_sb_printf(sb, "#define TK_WORD(k, i) ((i) == TI_NONE ? 0ul : ((ulong)(k) << 32) | (ulong)(uint)(INT_MAX - (i)))\n"
                         "#define TK_WPOS(w) ((w) == 0ul ? TK_NONE : (long)INT_MAX - (long)(uint)(w))\n");
    lc_emit_shared_read64(sb, "TK_WREAD");
    lc_sb_printf(sb, "\n");
}

/* The group's KK best words into sel_[0, KK), best first, from each item's sorted hw[KB]
 * (consumed). Every item of the group runs it (barriers). */
static void lc_topk_group_select(struct lc_sb *sb, const char *unroll)
{
    lc_sb_printf(sb,
                 "#pragma unroll 1\n"
                 "    for (int r_ = 0; r_ < KK; r_++) {\n"
                 "        red_[lid_] = hw[0];\n"
                 "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                 "#pragma unroll 1\n"
                 "        for (int h_ = 1; h_ < wgs_; h_ <<= 1) {\n"
                 "            if ((lid_ & (2 * h_ - 1)) == 0 && lid_ + h_ < wgs_)\n"
                 "                red_[lid_] = max(red_[lid_], red_[lid_ + h_]);\n"
                 "            barrier(CLK_LOCAL_MEM_FENCE);\n"
                 "        }\n"
                 "        const ulong w_ = red_[0];\n"
                 "        if (w_ != 0ul && hw[0] == w_) {\n"
                 "%s"
                 "            for (int j_ = 0; j_ < KB - 1; j_++)\n"
                 "                hw[j_] = hw[j_ + 1];\n"
                 "            hw[KB - 1] = 0ul;\n"
                 "        }\n"
                 "        if (lid_ == 0)\n"
                 "            sel_[r_] = w_;\n"
                 "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                 "    }\n",
                 unroll);
}

void lc_topk_group_finish(struct lc_cg *g, struct lc_sb *sb, size_t wg, int rolled)
{
    const char *unroll = LC_UNROLL(rolled);
    lc_sb_printf(sb, "    /* The group's k best (topk_group.c). */\n"
                     "    __local ulong red_[%zu];\n"
                     "    __local ulong sel_[KB];\n"
                     "    __local int last_;\n"
                     "    const int wgs_ = (int)get_local_size(0);\n"
                     "    ulong hw[KB];\n"
                     "%s"
                     "    for (int j = 0; j < KB; j++)\n"
                     "        hw[j] = live_ && j < KK ? TK_WORD(tk[j], ti[j]) : 0ul;\n",
                 wg, unroll);
    lc_topk_group_select(sb, unroll);
    lc_sb_printf(sb,
                 "    /* Its words to the row's candidates, then the count of groups done. */\n"
                 "    const long GP = P / wgs_;\n"
                 "    volatile __global ulong *cw_ = (volatile __global ulong *)(s + kdst) + m * GP * KK;\n"
                 "    for (int j = lid_; j < KK; j += wgs_)\n"
                 "        atom_xchg(cw_ + (q / wgs_) * KK + j, sel_[j]);\n"
                 "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                 "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
                 "    if (lid_ == 0)\n"
                 "        last_ = atomic_inc((volatile __global int *)s + m) == (int)(GP - 1);\n"
                 "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                 "    if (!last_)\n"
                 "        return;\n"
                 "    mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                 "    /* The last group: the row's GP * KK candidates, %d read at once by each item. */\n"
                 "%s"
                 "    for (int j = 0; j < KB; j++)\n"
                 "        hw[j] = 0ul;\n"
                 "#pragma unroll 1\n"
                 "    for (long b_ = lid_; b_ < GP * KK; b_ += %d * wgs_) {\n"
                 "        ulong wb_[%d];\n"
                 "#pragma unroll\n"
                 "        for (int u_ = 0; u_ < %d; u_++) {\n"
                 "            const long j_ = b_ + u_ * wgs_;\n"
                 "            wb_[u_] = j_ < GP * KK ? TK_WREAD(cw_ + j_) : 0ul;\n"
                 "        }\n"
                 "%s"
                 "        for (int u_ = 0; u_ < %d; u_++) {\n"
                 "            const ulong w_ = wb_[u_];\n"
                 "            if (w_ > hw[KB - 1]) {\n"
                 "%s"
                 "                for (int j_ = KB - 1; j_ > 0; j_--)\n"
                 "                    hw[j_] = w_ > hw[j_ - 1] ? hw[j_ - 1] : w_ > hw[j_] ? w_ : hw[j_];\n"
                 "                if (w_ > hw[0])\n"
                 "                    hw[0] = w_;\n"
                 "            }\n"
                 "        }\n"
                 "    }\n",
                 LC_TK_GROUP_BATCH, unroll, LC_TK_GROUP_BATCH, LC_TK_GROUP_BATCH,
                 LC_TK_GROUP_BATCH, unroll, LC_TK_GROUP_BATCH, unroll);
    lc_topk_group_select(sb, unroll);
    lc_sb_printf(sb, "    for (int j = lid_; j < KK; j += wgs_) {\n"
                     "        const long pos_ = j;\n"
                     "        const long val_ = TK_WPOS(sel_[j]);\n");
    lc_emit_sort_store(g, sb, "        ");
    lc_sb_printf(sb, "    }\n}\n\n");
}
