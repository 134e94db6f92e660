/* gemm_pack.c: the right operand of a large CPU product packed once before it (gemm.c's SIMD
 * blocks).
 *
 * gemm.c's SIMD schedule gives each work-group the KC x CW panel of the right operand it
 * multiplies, built into local memory per step of K: rows of CW values, a row stride apart.
 * For a large product each panel is built again for every block of rows, and those strided
 * reads cost a quarter of the time (PoCL, 2 cores, 2048^2 float32: 108-117 ms with panels in
 * local memory, 86-91 without building them). Here a launch before the product writes the
 * operand once, computed (its producer fused), as column blocks of CW values per row of K,
 * each block's rows contiguous: [block][k][CW], zero past N. The product then reads its
 * panel straight from that scratch, in order, with no local memory and no barrier (88-99 ms
 * with the pack's launch measured apart). Taken for products of one matrix (no batch, no
 * post-reductions) of at least 256 rows whose right operand has 2^20 elements or more; the
 * others keep their one launch.
 */
#include "codegen/gemm.h"

#include <stdio.h>
#include <string.h>

#define LC_PACK_MIN_ROWS 256
#define LC_PACK_MIN_ELEMS ((int64_t)1 << 20)

int lc_gemm_pack_fits(const struct lc_cg *g, const struct lc_gemm *m, int64_t batch, int post)
{
    return batch == 1 && !post && g->shape[m->dm] >= LC_PACK_MIN_ROWS &&
           g->shape[m->dk] * g->shape[m->dn] >= LC_PACK_MIN_ELEMS;
}

void lc_gemm_brow(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m, int W, int RV,
                  int pack, const char *ind)
{
    const struct lc_kernel *k = g->k;
    const char *T = lc_T(m->dt);
    int dk = m->dk, dn = m->dn;
    char in2[64], in4[64];
    snprintf(in2, sizeof in2, "%s    ", ind);
    snprintf(in4, sizeof in4, "%s            ", ind);
    for (int v = 0; v < RV; v++) {
        lc_sb_printf(sb, "%sif (i%d < n%d && nfull_) {\n%sconst long i%d = bn_ + %d;\n", ind, dk,
                     dk, in2, dn, v * W);
        for (int i = 0; i < k->n_exprs; i++)
            if ((m->side[i] & 2) && !k->exprs[i].epilogue)
                lc_emit_expr_vec(g, sb, i, W, dn, in2);
        if (pack)
            lc_sb_printf(sb, "%svstore%d(w%d, %d, Bw_);\n", in2, W, m->y, v);
        else
            lc_sb_printf(sb, "%sBp[kk][%d] = w%d;\n", in2, v, m->y);
        lc_sb_printf(sb, "%s} else {\n"
                         "%s%s e_[%d];\n"
                         "%sfor (int p = 0; p < %d; p++) {\n"
                         "%s    const long i%d = bn_ + %d + p;\n"
                         "%s    e_[p] = 0;\n"
                         "%s    if (i%d < n%d && i%d < n%d) {\n",
                     ind, in2, T, W, in2, W, in2, dn, v * W, in2, in2, dk, dk, dn, dn);
        for (int i = 0; i < k->n_exprs; i++)
            if ((m->side[i] & 2) && !k->exprs[i].epilogue)
                lc_emit_expr(g, sb, i, in4);
        lc_sb_printf(sb, "%se_[p] = v%d;\n%s    }\n%s}\n", in4, m->y, in2, in2);
        if (pack)
            lc_sb_printf(sb, "%svstore%d(vload%d(0, e_), %d, Bw_);\n%s}\n", in2, W, W, v, ind);
        else
            lc_sb_printf(sb, "%sBp[kk][%d] = vload%d(0, e_);\n%s}\n", in2, v, W, ind);
    }
}

int lc_gen_gemm_pack(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                     const struct lc_gemm *m, int W, int RV, int64_t NB)
{
    int dk = m->dk, dn = m->dn, CW = W * RV;
    const char *T = lc_T(m->dt);
    union lc_scalar none = {0};
    struct lc_launch *l = lc_new_launch(c, "_pack");
    if (!l)
        return -1;
    lc_sb_printf(sb, "__kernel void @K@_pack(");
    if (lc_common_params(g, l, sb) < 0 || lc_output_stride_params(g, l, sb, g->nk) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH, 0, 0, none) < 0 ||
        lc_add_arg(l, LC_CGARG_SCRATCH_BASE, 0, LC_INT64, none) < 0 || lc_add_i64(l, NB) < 0)
        return -1;
    lc_sb_printf(sb, ",\n    __global char *s_, const long sbase, const long NB)\n{\n"
                     "    const long g_ = get_global_id(0);\n"
                     "    if (g_ >= NB * n%d) return;\n"
                     "    const long i%d = g_ %% n%d, bn_ = g_ / n%d * %d;\n"
                     "    const int nfull_ = bn_ + %d <= n%d;\n"
                     "    __global %s *Bw_ = (__global %s *)(s_ + sbase) + g_ * %d;\n",
                 dk, dk, dk, dk, CW, CW, dn, T, T, CW);
    lc_gemm_brow(g, sb, m, W, RV, 1, "    ");
    lc_sb_printf(sb, "}\n\n");
    l->work_dim = 1;
    l->global[0] = (size_t)(NB * g->shape[dk]);   /* groups: the driver's choice */
    c->scratch_bytes = (size_t)(NB * g->shape[dk] * CW) * (size_t)lc_dtype_size(m->dt);
    c->zero_bytes = 0;
    return 0;
}
