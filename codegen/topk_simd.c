/* topk_simd.c: top-k's first pass on SIMD targets (PoCL): the list of a row in vectors
 * (lc_tkv_offer), W rows an item in vector lanes, and the walk of a row a vector at a time
 * whose values are tested against the list's last place (codegen/topk.c has the rest). */
#include "codegen/cg.h"

#include <stdio.h>

/* lc_tkv_offer: the list of KB (8 or 16) 32-bit keys and their indices as two vectors, for the
 * CPU's steps along rows: an insertion is a comparison of every place at once, a shift of the
 * places past the new one (a shuffle) and two selects, where the list in private memory took a
 * loop of moves (PoCL, top 16 of each row of 4096^2 float32, with offers only of keys not
 * below the last place: 16.6 -> 14.3 ms). The places past KK hold worse elements; the last
 * place (thk, thi) is lane KK - 1, taken by a shuffle (through private memory, and with long
 * indices: 8.4 ms; int indices and the shuffle: 7.2). IT is the indices' type: int where the
 * rows are shorter than INT_MAX (one vector register for 16 of them), else long. */
void lc_topk_vec_helper(struct lc_sb *sb, int VL, int largest, const char *IT)
{
    int wide = IT[0] == 'l';
    char cv[24] = "";
    if (wide)
        snprintf(cv, sizeof cv, "convert_int%d", VL);
    lc_sb_printf(sb,
        "static inline int lc_tkv_offer(uint%d *tkv, %s%d *tiv, uint *thk, %s *thi,\n"
        "                               const uint key, const %s i, const int kk)\n{\n"
        "    if (!TK_BETTER(key, i, *thk, *thi))\n        return 0;\n"
        "    const uint%d kv = (uint%d)(key);\n    const %s%d iv = (%s%d)(i);\n"
        "    const int%d b = (kv > *tkv) | ((kv == *tkv) & %s(iv %s *tiv));\n",
        VL, IT, VL, IT, IT, VL, VL, IT, VL, IT, VL, VL, cv,
        largest ? ">" : "<");
    lc_sb_printf(sb, "    const uint%d up = (uint%d)(0", VL, VL);
    for (int j = 0; j < VL - 1; j++)
        lc_sb_printf(sb, ", %d", j);
    lc_sb_printf(sb, ");\n    const int%d bp = shuffle(b, up) & (int%d)(0", VL, VL);
    for (int j = 1; j < VL; j++)
        lc_sb_printf(sb, ", -1");
    lc_sb_printf(sb, ");\n    *tkv = select(select(*tkv, kv, b), shuffle(*tkv, up), bp);\n");
    if (wide)
        lc_sb_printf(sb,
            "    *tiv = select(select(*tiv, iv, convert_long%d(b)), shuffle(*tiv, convert_ulong%d(up)),\n"
            "                  convert_long%d(bp));\n"
            "    *thi = shuffle(*tiv, (ulong%d)(KK - 1)).s0;\n",
            VL, VL, VL, VL);
    else
        lc_sb_printf(sb, "    *tiv = select(select(*tiv, iv, b), shuffle(*tiv, up), bp);\n"
                         "    *thi = shuffle(*tiv, (uint%d)(KK - 1)).s0;\n", VL);
    lc_sb_printf(sb, "    *thk = shuffle(*tkv, (uint%d)(KK - 1)).s0;\n    return 1;\n}\n\n", VL);
}

/* The keys key_ (of type KV) of the W lanes w<vexpr> (of type FV), lc_emit_key's, complemented
 * for the smallest. */
static void lc_topk_vec_key(struct lc_sb *sb, const struct lc_key *key, const char *FV,
                            const char *KV, int vexpr, int largest, const char *ind)
{
    lc_sb_printf(sb, "%sconst %s z_ = select(w%d, (%s)(0), w%d == (%s)(0));\n"
                     "%s%s key_ = as_%s(z_);\n"
                     "%skey_ = select(key_ | (%s)(%s), ~key_, (key_ & (%s)(%s)) != (%s)(0));\n"
                     "%skey_ = select(key_, (%s)(%s), isnan(w%d));\n",
                 ind, FV, vexpr, FV, vexpr, FV, ind, KV, KV, ind, KV, key->sign, KV, key->sign, KV,
                 ind, KV, key->all, vexpr);
    if (!largest)
        lc_sb_printf(sb, "%skey_ = ~key_;\n", ind);
}

/* thf_ (of type FV, the value type F): the value of the list's last place, whose key is thk
 * (complemented for the smallest). A NaN (the key of a NaN, or 0 while the list is not full)
 * lets every element pass the test on values. */
static void lc_topk_thf(struct lc_sb *sb, const struct lc_key *key, const char *FV, const char *F,
                        int largest, const char *ind)
{
    lc_sb_printf(sb, "%s{\n%s    const %s t_ = %sthk;\n"
                     "%s    thf_ = (%s)(as_%s((t_ & %s) ? (t_ & ~%s) : ~t_));\n%s}\n",
                 ind, ind, key->type, largest ? "" : "~", ind, FV, F, key->sign, key->sign, ind);
}

/* Is a lane of the S-lane mask `v` (of IT, 0 or -1 each) set: its halves ORed down to 4
 * lanes (PoCL's any() tests the lanes one by one, a branch each), then cond, those 4 ORed,
 * nonzero where one is. The halves are written lane by lane: Oclgrind takes .lo and .hi
 * for uninitialized values. */
static void lc_topk_any(struct lc_sb *sb, const char *IT, int S, const char *v, const char *ind,
                        char *cond, size_t size)
{
    char prev[16];
    snprintf(prev, sizeof prev, "%s", v);
    int w = S;
    for (; w > 4; w /= 2) {
        lc_sb_printf(sb, "%sconst %s%d %s%d = ", ind, IT, w / 2, v, w / 2);
        for (int h = 0; h < 2; h++) {
            lc_sb_printf(sb, "%s(%s%d)(", h ? " | " : "", IT, w / 2);
            for (int l = 0; l < w / 2; l++)
                lc_sb_printf(sb, "%s%s.s%x", l ? ", " : "", prev, h * w / 2 + l);
            lc_sb_printf(sb, ")");
        }
        lc_sb_printf(sb, ";\n");
        snprintf(prev, sizeof prev, "%s%d", v, w / 2);
    }
    size_t n = (size_t)snprintf(cond, size, "(");
    for (int l = 0; l < w && n < size; l++)
        n += (size_t)snprintf(cond + n, size - n, "%s%s.s%x", l ? " | " : "", prev, l);
    if (n < size)
        snprintf(cond + n, size - n, ")");
}

/* The first pass with W neighbouring rows per item (rows m0 .. m0 + W - 1 differ in the
 * innermost row dim only): keys as W-lane vectors, one vector comparison with the lanes'
 * thresholds per element (>=: a superset of the elements that enter), the lanes that pass
 * inserted one by one. */
int lc_topk_first_vec(struct lc_cg *g, struct lc_sb *sb, const struct lc_key *key, int dt,
                             int vexpr, int W, int largest)
{
    int nr = g->nd - 1;
    const char *K = key->type, *F = lc_T(dt);
    char KV[16], FV[16];
    snprintf(KV, sizeof KV, "%s%d", K, W);
    snprintf(FV, sizeof FV, "%s%d", F, W);
    lc_sb_printf(sb, "__kernel void @K@_first(");
    if (lc_sort_params(g, NULL, sb, LC_TOPK_PARAMS) < 0)
        return -1;
    lc_sb_printf(sb, "    __global char *s = s_ + sbase;\n    const long g_ = get_global_id(0);\n"
                     "    const long MV = M / %d;\n"
                     "    const long q = g_ / MV, m0 = (g_ %% MV) * %d;\n    if (q >= P) return;\n",
                 W, W);
    lc_unravel(sb, 0, nr, "m0", "    ");
    lc_sb_printf(sb, "    %s tk[%d * KB];\n    long ti[%d * KB];\n#pragma unroll 1\n"
                     "    for (int j = 0; j < %d * KB; j++) {\n        tk[j] = 0;\n        ti[j] = TK_NONE;\n    }\n"
                     "    %s thk[%d];\n    long thi[%d];\n#pragma unroll 1\n"
                     "    for (int l = 0; l < %d; l++) {\n        thk[l] = 0;\n        thi[l] = TK_NONE;\n    }\n"
                     "    %s thv = (%s)(0);\n",
                 K, W, W, W, K, W, W, W, KV, KV);
    lc_sb_printf(sb, "    const long chunk = (n%d + P - 1) / P;\n"
                     "    const long beg = min(n%d, q * chunk), end = min(n%d, (q + 1) * chunk);\n"
                     "#pragma unroll 1\n    for (long i%d = beg; i%d < end; i%d++) {\n",
                 nr, nr, nr, nr, nr, nr);
    lc_emit_exprs_vec(g, sb, W, nr - 1, "        ");
    lc_topk_vec_key(sb, key, FV, KV, vexpr, largest, "        ");
    lc_sb_printf(sb, "        if (any(key_ >= thv)) {\n"
                     "            %s kl_[%d];\n            vstore%d(key_, 0, kl_);\n"
                     "#pragma unroll 1\n            for (int l = 0; l < %d; l++)\n"
                     "                lc_tk_offer(tk + l * KB, ti + l * KB, thk + l, thi + l, kl_[l], i%d,\n"
                     "                            kk);\n"
                     "            thv = vload%d(0, thk);\n        }\n    }\n",
                 K, W, W, W, nr, W);
    /* Each lane's list: to scratch, or (fin) to the outputs of its row. */
    lc_sb_printf(sb, "    const long lr_ = i%d;\n#pragma unroll 1\n    for (int l = 0; l < %d; l++) {\n"
                     "        const long m = m0 + l;\n"
                     "        if (!fin) {\n"
                     "            __global %s *kd = (__global %s *)(s + kdst) + (m * P + q) * KK;\n"
                     "            __global long *id = (__global long *)(s + idst) + (m * P + q) * KK;\n"
                     "#pragma unroll 1\n"
                     "            for (int j = 0; j < KK; j++) {\n"
                     "                kd[j] = tk[l * KB + j];\n                id[j] = ti[l * KB + j];\n"
                     "            }\n            continue;\n        }\n"
                     "        const long i%d = lr_ + l;\n"
                     "#pragma unroll 1\n        for (long pos_ = 0; pos_ < KK; pos_++) {\n"
                     "            const long val_ = ti[l * KB + pos_];\n",
                 nr - 1, W, K, K, nr - 1);
    lc_emit_sort_store(g, sb, "            ");
    lc_sb_printf(sb, "        }\n    }\n}\n\n");
    return 0;
}

/* An element of the walk one at a time (its key computed here), counted in ins_ if it enters. */
static void lc_topk_step_one(struct lc_cg *g, struct lc_sb *sb, const struct lc_key *key, int dt,
                             int vexpr, int largest, int VL, const char *VIT, const char *ind)
{
    int nr = g->nd - 1;
    lc_topk_elem_key(g, sb, key, dt, vexpr, largest, ind);
    if (VL)
        lc_sb_printf(sb, "%sins_ += lc_tkv_offer(&tkv, &tiv, &thk, &thiv, key_, (%s)i%d, kk);\n",
                     ind, VIT, nr);
    else
        lc_sb_printf(sb, "%sins_ += lc_tk_offer(tk, ti, &thk, &thi, key_, i%d, kk);\n", ind, nr);
}

/* thf_ from the list's last place (lc_topk_thf), moved one float past it where equal elements
 * cannot enter (strict_: see lc_topk_steps). */
static void lc_topk_steps_thf(struct lc_sb *sb, const struct lc_key *key, const char *FV,
                              const char *F, int largest, const char *ind)
{
    lc_topk_thf(sb, key, FV, F, largest, ind);
    lc_sb_printf(sb, "%sif (strict_)\n%s    thf_ = nextafter(thf_, (%s)(%sINFINITY));\n", ind, ind,
                 FV, largest ? "" : "-");
}

/* The first pass on SIMD targets, rows read along the axis: chunks of whole steps of
 * LC_TK_VECS vectors of S, and the rest one by one. The steps test values: thf_ is the value of
 * the last place's key (NaN while the list is not full, or holds NaNs: every element passes),
 * and an element that could enter is not below it (above it, smallest) or is NaN: one
 * comparison a vector, the lanes ORed (c_). A step that passes tests its vectors again (the
 * threshold may have risen); a vector that passes has its keys computed and the lanes whose
 * key could enter offered in the walk's order.
 *
 * The walk goes forward, where an element equal to the last place enters for the largest (the
 * later of equal elements ranks first) and not for the smallest (thf_ moved one float past the
 * last place: strict_). A row that rises for the largest (or falls for the smallest), or holds
 * many equal elements for the largest, would make every element enter: past a budget of
 * insertions the item starts its chunk again from the end, where those elements cannot enter
 * (PoCL, top 16 of each row of 4096^2 zeros: 77 ms forward only, 9.3 so; random rows 7.20 ->
 * 7.30). Walking every row from the end cost 20% on random rows (7.2 -> 8.6 ms: the backward
 * reads). */
void lc_topk_steps(struct lc_cg *g, struct lc_sb *sb, const struct lc_key *key, int dt,
                          int vexpr, int S, int largest, int VL, const char *VIT,
                          const char *VNONE)
{
    int nr = g->nd - 1;
    const char *F = lc_T(dt), *K = key->type, *IT = key->bits == 64 ? "long" : "int";
    char FV[16], KV[16];
    snprintf(FV, sizeof FV, "%s%d", F, S);
    snprintf(KV, sizeof KV, "%s%d", K, S);
    int U = LC_TK_VECS, SU = S * U;
    const char *pass = largest ? "<" : ">";
    lc_sb_printf(sb, "    const long chunk = ((n%d + P - 1) / P + %d) / %d * %d;\n"
                     "    const long beg = min(n%d, q * chunk), end = min(n%d, (q + 1) * chunk);\n"
                     "    const long nst_ = (end - beg) / %d, tail_ = beg + nst_ * %d;\n"
                     "    const long budget_ = 8L * KK + (end - beg) / 64;\n"
                     "    long ins_ = 0;\n    %s thf_;\n"
                     "#pragma unroll 1\n    for (int rev_ = 0; rev_ < 2; rev_++) {\n"
                     "    if (rev_) {\n        if (ins_ <= budget_)\n            break;\n",
                 nr, SU - 1, SU, SU, nr, nr, SU, SU, FV);
    if (VL)
        lc_sb_printf(sb, "        tkv = (uint%d)(0);\n        tiv = (%s%d)(%s);\n"
                         "        thiv = %s;\n", VL, VIT, VL, VNONE, VNONE);
    else
        lc_sb_printf(sb, "#pragma unroll 1\n        for (int j = 0; j < KK; j++) {\n"
                         "            tk[j] = 0;\n            ti[j] = TK_NONE;\n        }\n"
                         "        thi = TK_NONE;\n");
    lc_sb_printf(sb, "        thk = 0;\n    }\n    const int strict_ = %s;\n",
                 largest ? "rev_" : "!rev_");
    lc_topk_steps_thf(sb, key, FV, F, largest, "    ");
    lc_sb_printf(sb, "    if (rev_) {\n#pragma unroll 1\n"
                     "        for (long i%d = end - 1; i%d >= tail_; i%d--) {\n", nr, nr, nr);
    lc_topk_step_one(g, sb, key, dt, vexpr, largest, VL, VIT, "            ");
    lc_sb_printf(sb, "        }\n    }\n");
    lc_sb_printf(sb, "#pragma unroll 1\n    for (long s_ = 0; s_ < nst_; s_++) {\n"
                     "        if (!rev_ && ins_ > budget_)\n            break;\n"
                     "        const long b_ = rev_ ? tail_ - (s_ + 1) * %d : beg + s_ * %d;\n"
                     "        %s%d c_ = 0;\n#pragma unroll\n"
                     "        for (int u_ = 0; u_ < %d; u_++) {\n"
                     "            const long i%d = b_ + u_ * %d;\n",
                 SU, SU, IT, S, U, nr, S);
    lc_emit_exprs_vec(g, sb, S, nr, "            ");
    lc_sb_printf(sb, "            c_ |= !(w%d %s thf_);\n        }\n", vexpr, pass);
    char cond[256];
    lc_topk_any(sb, IT, S, "c_", "        ", cond, sizeof cond);
    lc_sb_printf(sb, "        if (%s != 0) {\n"
                     "#pragma unroll 1\n"
                     "            for (int uu_ = 0; uu_ < %d; uu_++) {\n"
                     "                const int u_ = rev_ ? %d - uu_ : uu_;\n"
                     "                const long i%d = b_ + u_ * %d;\n",
                 cond, U, U - 1, nr, S);
    lc_emit_exprs_vec(g, sb, S, nr, "                ");
    lc_sb_printf(sb, "                const %s%d p_ = !(w%d %s thf_);\n", IT, S, vexpr, pass);
    lc_topk_any(sb, IT, S, "p_", "                ", cond, sizeof cond);
    lc_sb_printf(sb, "                if (%s == 0)\n                    continue;\n", cond);
    lc_topk_vec_key(sb, key, FV, KV, vexpr, largest, "                ");
    /* Only the lanes whose key is not below the last place are offered (about two of a random
     * row's 16), found from a mask of their bits: PoCL, top 16 of each row of 4096^2 float32,
     * 18.0 ms offering every lane, 13.9 so. */
    lc_sb_printf(sb, "                %s kl_[%d];\n                vstore%d(key_, 0, kl_);\n"
                     "                const %s mb%d_ = select((%s)(0), (%s)(", K, S, S, KV, S, KV,
                 KV);
    for (int l = 0; l < S; l++)
        lc_sb_printf(sb, "%s%llu", l ? ", " : "", 1ull << l);
    lc_sb_printf(sb, "), key_ >= (%s)(thk));\n", KV);
    char mb[16], off[96];
    snprintf(mb, sizeof mb, "mb%d_", S);
    if (VL)
        snprintf(off, sizeof off, "lc_tkv_offer(&tkv, &tiv, &thk, &thiv, kl_[l], (%s)(i%d + l)",
                 VIT, nr);
    else
        snprintf(off, sizeof off, "lc_tk_offer(tk, ti, &thk, &thi, kl_[l], i%d + l", nr);
    lc_topk_any(sb, K, S, mb, "                ", cond, sizeof cond);
    /* The lanes in the walk's order: from the lowest set bit forward, the highest from the
     * end. */
    int hb = key->bits == 64 ? 63 : 31;
    lc_sb_printf(sb, "                %s m_ = %s;\n"
                     "#pragma unroll 1\n                while (m_ != 0) {\n"
                     "                    const int l = %d - (int)clz(rev_ ? m_ : m_ & (0 - m_));\n"
                     "                    m_ ^= (%s)1 << l;\n"
                     "                    ins_ += %s, kk);\n                }\n",
                 K, cond, hb, K, off);
    lc_topk_steps_thf(sb, key, FV, F, largest, "                ");
    lc_sb_printf(sb, "            }\n        }\n    }\n"
                     "    if (!rev_ && ins_ <= budget_) {\n#pragma unroll 1\n"
                     "        for (long i%d = tail_; i%d < end; i%d++) {\n", nr, nr, nr);
    lc_topk_step_one(g, sb, key, dt, vexpr, largest, VL, VIT, "            ");
    lc_sb_printf(sb, "        }\n    }\n    }\n");
}

