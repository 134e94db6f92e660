/* gemm.h: what the product schedules share (gemm.c's tiles and SIMD blocks, gemm_skinny.c's
 * split products of a few rows on GPUs, gemm_panels.c's column panels of a few rows on CPUs). */
#ifndef LC_CODEGEN_GEMM_H
#define LC_CODEGEN_GEMM_H

#include "codegen/cg.h"

/* The two operands of the product: their exprs and which is the left one. */
struct lc_gemm {
    int red;              /* the MUL expr reduced */
    int x, y;             /* left operand (constant along N), right (constant along M) */
    unsigned char *side;  /* per expr: bit 0 in x's tree, bit 1 in y's */
    int dm, dn, dk;       /* the collapsed dims */
    int dt;               /* the operands' dtype */
};

/* Is kernel g a product (a sum over K of x * y, kept dims [batch..., M, N]) of at least min_m
 * rows, N and K at least the target's gemm_min and gemm_min_k? Fills *m; its side is the
 * caller's to free (NULL when not a product). */
int lc_gemm_match_m(struct lc_cg *g, struct lc_gemm *m, int64_t min_m);
/* Does some read of the operand with side bit `bit` move by 1 along dim d? */
int lc_gemm_unit_along(const struct lc_cg *g, const struct lc_gemm *m, int bit, int d);
/* The epilogue of output (i<dm>, i<dn>) whose sum is `v`, and its stores. */
void lc_gemm_epilogue(struct lc_cg *g, struct lc_sb *sb, const char *v, const char *ind);
/* Does the SIMD product m take gemm_panels.c's panels (a few rows, no batch, no post-reductions,
 * a target with read_panels)? */
int lc_gemm_panels_fit(struct lc_cg *g, const struct lc_gemm *m);
/* The panels schedule of product m (gemm_panels.c). */
int lc_gen_gemm_panels(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb, struct lc_gemm *m);

/* gemm_pack.c: does the SIMD product m (batch `batch`, `post`: with post-reductions) pack its
 * right operand first? */
int lc_gemm_pack_fits(const struct lc_cg *g, const struct lc_gemm *m, int64_t batch, int post);
/* The RV vectors of W values of the right operand's row i<dk> at columns bn_ ... (nfull_: the
 * block is whole; both and i<dk> in scope), into Bp[kk][v] or, `pack`, stored at Bw_. */
void lc_gemm_brow(struct lc_cg *g, struct lc_sb *sb, const struct lc_gemm *m, int W, int RV,
                  int pack, const char *ind);
/* The launch that packs the right operand into the scratch as NB column blocks of W * RV
 * values per row of K (sets the scratch's size). */
int lc_gen_gemm_pack(struct lc_cg *g, struct lc_kcode *c, struct lc_sb *sb,
                     const struct lc_gemm *m, int W, int RV, int64_t NB);

#endif
