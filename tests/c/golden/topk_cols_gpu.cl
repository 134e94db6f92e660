/* ---- kernel 0: schedule "select: the k largest of each row chunk, merged", 2 launches: lc_select_i64_a781c845903329db_first lc_select_i64_a781c845903329db_merge */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl select kernel: 4 fused ops; select: the k largest of each row chunk, merged. */
#define KB 16   /* the lists' room: k rounded up (one kernel serves several k) */
#define KK ((int)kk)
#define TK_NONE (-1L)
#define TK_BETTER(ka, ia, kb, ib) ((ka) > (kb) || ((ka) == (kb) && (ia) > (ib)))

/* (key, i) into the sorted list (tk, ti), which it beats at its last place. */
static inline void lc_tk_push(uint *tk, long *ti, const uint key, const long i, const int kk)
{
    int j = KK - 1;
#pragma unroll 1
    while (j > 0 && TK_BETTER(key, i, tk[j - 1], ti[j - 1])) {
        tk[j] = tk[j - 1];
        ti[j] = ti[j - 1];
        j--;
    }
    tk[j] = key;
    ti[j] = i;
}

/* (key, i) offered to the list, whose last place (*thk, *thi) it must beat: 1 if it
 * entered. */
static inline int lc_tk_offer(uint *tk, long *ti, uint *thk, long *thi, const uint key,
                              const long i, const int kk)
{
    if (!TK_BETTER(key, i, *thk, *thi))
        return 0;
    lc_tk_push(tk, ti, key, i, kk);
    *thk = tk[KK - 1];
    *thi = ti[KK - 1];
    return 1;
}

__kernel void lc_select_i64_a781c845903329db_first(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const float a1_v,
    const float a2_v,
    const long n0,
    const long n1, const long os0_1,
    __global char *s_, const long sbase, const long M, const long P, const long L, const long G, const int fin, const int kk, const long ksrc, const long isrc, const long kdst, const long idst)
{
    __global char *s = s_ + sbase;
    const long g_ = get_global_id(0);
    const long q = g_ / M, m = g_ % M;
    if (m >= M || q >= P) return;
    const long i0 = m;
#define TI_NONE (-1)
#define TI_LONG(i) ((i) == TI_NONE ? TK_NONE : (long)(i))
    uint tk[KB];
    int ti[KB];
#pragma unroll
    for (int j = 0; j < KB; j++) {
        tk[j] = 0;
        ti[j] = TI_NONE;
    }
    const long chunk = (n1 + P - 1) / P;
    const long beg = min(n1, q * chunk), end = min(n1, (q + 1) * chunk);
#pragma unroll 1
    for (long i1 = beg; i1 < end; i1++) {
        const float v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
        const float v1 = a1_v; /* full */
        const float v2 = (v0 * v1); /* multiply */
        const float v3 = a2_v; /* full */
        const float v4 = (v2 - v3); /* subtract */
        const float v5 = fabs(v4); /* absolute */
        const uint b_ = as_uint(v5);
        uint key_ = (b_ & 0x80000000u) ? ~b_ : (b_ | 0x80000000u);
        if ((uint)(b_ << 1) == 0) key_ = 0x80000000u;
        if ((uint)(b_ << 1) > 0xff000000u) key_ = 0xffffffffu;
        {
            const uint ok_ = key_;
            const int oi_ = (int)(i1);
            if (TK_BETTER(ok_, oi_, tk[KB - 1], ti[KB - 1])) {
#pragma unroll
                for (int j_ = KB - 1; j_ > 0; j_--) {
                    const int up_ = TK_BETTER(ok_, oi_, tk[j_ - 1], ti[j_ - 1]);
                    const int here_ = TK_BETTER(ok_, oi_, tk[j_], ti[j_]);
                    tk[j_] = up_ ? tk[j_ - 1] : here_ ? ok_ : tk[j_];
                    ti[j_] = up_ ? ti[j_ - 1] : here_ ? oi_ : ti[j_];
                }
                if (TK_BETTER(ok_, oi_, tk[0], ti[0])) {
                    tk[0] = ok_;
                    ti[0] = oi_;
                }
            }
        }
    }
    if (!fin) {
        __global uint *kd = (__global uint *)(s + kdst) + (m * P + q) * KK;
        __global long *id = (__global long *)(s + idst) + (m * P + q) * KK;
#pragma unroll
        for (int j = 0; j < KB; j++) {
            if (j >= KK)
                break;
            kd[j] = tk[j];
            id[j] = TI_LONG(ti[j]);
        }
        return;
    }
#pragma unroll
    for (long pos_ = 0; pos_ < KB; pos_++) {
        if (pos_ >= KK)
            break;
        const long val_ = TI_LONG(ti[pos_]);
        out0[0 + i0 + pos_ * os0_1] = val_;
    }
}

__kernel void lc_select_i64_a781c845903329db_merge(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s1,
    const float a1_v,
    const float a2_v,
    const long n0,
    const long n1, const long os0_1,
    __global char *s_, const long sbase, const long M, const long P, const long L, const long G, const int fin, const int kk, const long ksrc, const long isrc, const long kdst, const long idst)
{
    __global char *s = s_ + sbase;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    if (m >= M) return;
    __global const uint *kc = (__global const uint *)(s + ksrc) + m * L;
    __global const long *ic = (__global const long *)(s + isrc) + m * L;
    uint tk[KB];
    long ti[KB];
#pragma unroll
    for (int j = 0; j < KB; j++) {
        tk[j] = 0;
        ti[j] = TK_NONE;
    }
#pragma unroll 1
    for (long b_ = q; b_ < L; b_ += 8 * P) {
        uint kb_[8];
        long ib_[8];
#pragma unroll
        for (int u_ = 0; u_ < 8; u_++) {
            const long j = b_ + u_ * P;
            kb_[u_] = j < L ? kc[j] : 0;
            ib_[u_] = j < L ? ic[j] : TK_NONE;
        }
#pragma unroll
        for (int u_ = 0; u_ < 8; u_++) {
            if (b_ + u_ * P < L) {
                {
                    const uint ok_ = kb_[u_];
                    const long oi_ = ib_[u_];
                    if (TK_BETTER(ok_, oi_, tk[KB - 1], ti[KB - 1])) {
#pragma unroll
                        for (int j_ = KB - 1; j_ > 0; j_--) {
                            const int up_ = TK_BETTER(ok_, oi_, tk[j_ - 1], ti[j_ - 1]);
                            const int here_ = TK_BETTER(ok_, oi_, tk[j_], ti[j_]);
                            tk[j_] = up_ ? tk[j_ - 1] : here_ ? ok_ : tk[j_];
                            ti[j_] = up_ ? ti[j_ - 1] : here_ ? oi_ : ti[j_];
                        }
                        if (TK_BETTER(ok_, oi_, tk[0], ti[0])) {
                            tk[0] = ok_;
                            ti[0] = oi_;
                        }
                    }
                }
            }
        }
    }
    if (!fin) {
        __global uint *kd = (__global uint *)(s + kdst) + (m * P + q) * KK;
        __global long *id = (__global long *)(s + idst) + (m * P + q) * KK;
#pragma unroll
        for (int j = 0; j < KB; j++) {
            if (j >= KK)
                break;
            kd[j] = tk[j];
            id[j] = ti[j];
        }
        return;
    }
    const long i0 = m;
#pragma unroll
    for (long pos_ = 0; pos_ < KB; pos_++) {
        if (pos_ >= KK)
            break;
        const long val_ = ti[pos_];
        out0[0 + i0 + pos_ * os0_1] = val_;
    }
}


