/* ---- kernel 0: schedule "select: the k largest of each row chunk, merged (chunks interleaved)", 5 launches: lc_select_i64_19cbad81ae8adf34_first lc_select_i64_19cbad81ae8adf34_merge lc_select_i64_19cbad81ae8adf34_merge lc_select_i64_19cbad81ae8adf34_merge lc_select_i64_19cbad81ae8adf34_merge */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl select kernel: 2 fused ops; select: the k largest of each row chunk, merged (chunks interleaved). */
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

__kernel void lc_select_i64_19cbad81ae8adf34_first(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const long L, const long G, const int fin, const int kk, const long ksrc, const long isrc, const long kdst, const long idst)
{
    __global char *s = s_ + sbase;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    __local uint thr_[65];
    const long mb_ = (long)(get_group_id(0) * get_local_size(0)) / P;
    for (int r_ = (int)get_local_id(0); r_ < 65; r_ += (int)get_local_size(0))
        thr_[r_] = 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    volatile __local uint *rthr_ = thr_ + (m - mb_);
    uint bnd_ = 0u, seen_ = 0u;
    const int live_ = !(m >= M || q >= P);
    const int lid_ = (int)get_local_id(0);
    __local uint pool_[64];
    const long gb_ = (long)(get_group_id(0) * get_local_size(0));
    /* The group's items of row m: [jlo_, jhi_). */
    const int jlo_ = (int)max(0L, m * P - gb_);
    const int jhi_ = (int)min((long)get_local_size(0), (m + 1) * P - gb_);
#define TI_NONE (-1)
#define TI_LONG(i) ((i) == TI_NONE ? TK_NONE : (long)(i))
    uint tk[KB];
    int ti[KB];
#pragma unroll
    for (int j = 0; j < KB; j++) {
        tk[j] = 0;
        ti[j] = TI_NONE;
    }
    const long st_ = (n0 + 16 * P - 1) / (16 * P);
#pragma unroll 1
    for (long s_ = 0; s_ < st_; s_++) {
      const long b_ = q + s_ * 16 * P;
      if (live_ && b_ < n0) {
        uint kb_[16];
#pragma unroll
        for (int u_ = 0; u_ < 16; u_++) {
            const long i0 = b_ + u_ * P;
            kb_[u_] = 0;
            if (i0 < n0) {
                const float v0 = a0[a0_o + i0]; /* buffer */
                const float v1 = (v0 * v0); /* multiply */
                const uint b_ = as_uint(v1);
                uint key_ = (b_ & 0x80000000u) ? ~b_ : (b_ | 0x80000000u);
                if ((uint)(b_ << 1) == 0) key_ = 0x80000000u;
                if ((uint)(b_ << 1) > 0xff000000u) key_ = 0xffffffffu;
                kb_[u_] = key_;
            }
        }
#pragma unroll
        for (int u_ = 0; u_ < 16; u_++) {
            const long i0 = b_ + u_ * P;
            if (i0 < n0) {
                {
                    const uint ok_ = kb_[u_];
                    const int oi_ = (int)(i0);
                    if ((++seen_ & 15u) == 0u)
                        bnd_ = max(bnd_, atomic_or(rthr_, 0u));
                    if (ok_ >= bnd_) {
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
                            if (ti[KB - 1] != TI_NONE && tk[KB - 1] > bnd_)
                                bnd_ = max((uint)tk[KB - 1], atomic_max(rthr_, (uint)tk[KB - 1]));
                        }
                    }
                }
            }
        }
      }
      if ((s_ & (s_ + 1)) == 0 && P >= KK) {
          pool_[lid_] = live_ ? (uint)tk[0] : 0u;
          barrier(CLK_LOCAL_MEM_FENCE);
          if (live_) {
              const uint mine_ = pool_[lid_];
              int above_ = 0;
              for (int j_ = jlo_; j_ < jhi_; j_++) {
                  const uint o_ = pool_[j_];
                  above_ += o_ > mine_ || (o_ == mine_ && j_ < lid_);
              }
              if (above_ == KK - 1 && mine_ > bnd_)
                  atomic_max(rthr_, mine_);
          }
          barrier(CLK_LOCAL_MEM_FENCE);
          if (live_)
              bnd_ = max(bnd_, atomic_or(rthr_, 0u));
      }
    }
    if (!live_) return;
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
        out0[0 + pos_] = val_;
    }
}

__kernel void lc_select_i64_19cbad81ae8adf34_merge(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const long L, const long G, const int fin, const int kk, const long ksrc, const long isrc, const long kdst, const long idst)
{
    __global char *s = s_ + sbase;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    __local uint thr_[65];
    const long mb_ = (long)(get_group_id(0) * get_local_size(0)) / P;
    for (int r_ = (int)get_local_id(0); r_ < 65; r_ += (int)get_local_size(0))
        thr_[r_] = 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (m >= M) return;
    volatile __local uint *rthr_ = thr_ + (m - mb_);
    uint bnd_ = 0u, seen_ = 0u;
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
                    if ((++seen_ & 15u) == 0u)
                        bnd_ = max(bnd_, atomic_or(rthr_, 0u));
                    if (ok_ >= bnd_) {
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
                            if (ti[KB - 1] != TK_NONE && tk[KB - 1] > bnd_)
                                bnd_ = max((uint)tk[KB - 1], atomic_max(rthr_, (uint)tk[KB - 1]));
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
#pragma unroll
    for (long pos_ = 0; pos_ < KB; pos_++) {
        if (pos_ >= KK)
            break;
        const long val_ = ti[pos_];
        out0[0 + pos_] = val_;
    }
}


