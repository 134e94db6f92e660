/* ---- kernel 0: schedule "select: the k largest of each row chunk, merged (chunks interleaved, groups' k merged by the last)", 1 launch: lc_select_i64_4b54ad07c66108db_first */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl select kernel: 2 fused ops; select: the k largest of each row chunk, merged (chunks interleaved, groups' k merged by the last). */
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

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
/* A candidate's word (0: an empty place), and its position back. */
#define TK_WORD(k, i) ((i) == TI_NONE ? 0ul : ((ulong)(k) << 32) | (ulong)(uint)((i) + 1))
#define TK_WPOS(w) ((w) == 0ul ? TK_NONE : (long)(uint)(w) - 1)
#if defined(cl_nv_pragma_unroll)
#define TK_WREAD(p) (*(p))
#else
#define TK_WREAD(p) atom_add((p), (ulong)0)
#endif

__kernel void lc_select_i64_4b54ad07c66108db_first(
    __global long *restrict out0,
    __global const float *restrict a0, const long a0_o,
    const long n0,
    __global char *s_, const long sbase, const long M, const long P, const long L, const long G, const int fin, const int kk, const long ksrc, const long isrc, const long kdst, const long idst)
{
    __global char *s = s_ + sbase;
    const long g_ = get_global_id(0);
    const long m = g_ / P, q = g_ % P;
    __local uint thr_[257];
    const long mb_ = (long)(get_group_id(0) * get_local_size(0)) / P;
    for (int r_ = (int)get_local_id(0); r_ < 257; r_ += (int)get_local_size(0))
        thr_[r_] = 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    volatile __local uint *rthr_ = thr_ + (m - mb_);
    uint bnd_ = 0u, seen_ = 0u;
    const int live_ = !(m >= M || q >= P);
    const int lid_ = (int)get_local_id(0);
    __local uint pool_[256];
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
    /* The group's k best (topk_group.c). */
    __local ulong red_[256];
    __local ulong sel_[KB];
    __local int last_;
    const int wgs_ = (int)get_local_size(0);
    ulong hw[KB];
#pragma unroll
    for (int j = 0; j < KB; j++)
        hw[j] = live_ && j < KK ? TK_WORD(tk[j], ti[j]) : 0ul;
#pragma unroll 1
    for (int r_ = 0; r_ < KK; r_++) {
        red_[lid_] = hw[0];
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 1
        for (int h_ = 1; h_ < wgs_; h_ <<= 1) {
            if ((lid_ & (2 * h_ - 1)) == 0 && lid_ + h_ < wgs_)
                red_[lid_] = max(red_[lid_], red_[lid_ + h_]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const ulong w_ = red_[0];
        if (w_ != 0ul && hw[0] == w_) {
#pragma unroll
            for (int j_ = 0; j_ < KB - 1; j_++)
                hw[j_] = hw[j_ + 1];
            hw[KB - 1] = 0ul;
        }
        if (lid_ == 0)
            sel_[r_] = w_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* Its words to the row's candidates, then the count of groups done. */
    const long GP = P / wgs_;
    volatile __global ulong *cw_ = (volatile __global ulong *)(s + kdst) + m * GP * KK;
    for (int j = lid_; j < KK; j += wgs_)
        atom_xchg(cw_ + (q / wgs_) * KK + j, sel_[j]);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid_ == 0)
        last_ = atomic_inc((volatile __global int *)s + m) == (int)(GP - 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last_)
        return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    /* The last group: the row's GP * KK candidates, 8 read at once by each item. */
#pragma unroll
    for (int j = 0; j < KB; j++)
        hw[j] = 0ul;
#pragma unroll 1
    for (long b_ = lid_; b_ < GP * KK; b_ += 8 * wgs_) {
        ulong wb_[8];
#pragma unroll
        for (int u_ = 0; u_ < 8; u_++) {
            const long j_ = b_ + u_ * wgs_;
            wb_[u_] = j_ < GP * KK ? TK_WREAD(cw_ + j_) : 0ul;
        }
#pragma unroll
        for (int u_ = 0; u_ < 8; u_++) {
            const ulong w_ = wb_[u_];
            if (w_ > hw[KB - 1]) {
#pragma unroll
                for (int j_ = KB - 1; j_ > 0; j_--)
                    hw[j_] = w_ > hw[j_ - 1] ? hw[j_ - 1] : w_ > hw[j_] ? w_ : hw[j_];
                if (w_ > hw[0])
                    hw[0] = w_;
            }
        }
    }
#pragma unroll 1
    for (int r_ = 0; r_ < KK; r_++) {
        red_[lid_] = hw[0];
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 1
        for (int h_ = 1; h_ < wgs_; h_ <<= 1) {
            if ((lid_ & (2 * h_ - 1)) == 0 && lid_ + h_ < wgs_)
                red_[lid_] = max(red_[lid_], red_[lid_ + h_]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const ulong w_ = red_[0];
        if (w_ != 0ul && hw[0] == w_) {
#pragma unroll
            for (int j_ = 0; j_ < KB - 1; j_++)
                hw[j_] = hw[j_ + 1];
            hw[KB - 1] = 0ul;
        }
        if (lid_ == 0)
            sel_[r_] = w_;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int j = lid_; j < KK; j += wgs_) {
        const long pos_ = j;
        const long val_ = TK_WPOS(sel_[j]);
        out0[0 + pos_] = val_;
    }
}


