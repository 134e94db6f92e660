/* ---- kernel 0: schedule "sort: one item per row, a merge sort in vector registers (rows with -0.0 or an unusual NaN: LSD radix, 8-bit digits)", 1 launch: lc_sort_f32_66226af141e1dc28_row */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl sort kernel: 2 fused ops; sort: one item per row, a merge sort in vector registers (rows with -0.0 or an unusual NaN: LSD radix, 8-bit digits). */
static void lc_sort_f32_66226af141e1dc28_net_block(__global uint *a)
{
    uint16 v0 = vload16(0, a), v1 = vload16(1, a), v2 = vload16(2, a), v3 = vload16(3, a), v4 = vload16(4, a), v5 = vload16(5, a), v6 = vload16(6, a), v7 = vload16(7, a), v8 = vload16(8, a), v9 = vload16(9, a), v10 = vload16(10, a), v11 = vload16(11, a), v12 = vload16(12, a), v13 = vload16(13, a), v14 = vload16(14, a), v15 = vload16(15, a);
    { const uint16 t_ = min(v0, v1); v1 = max(v0, v1); v0 = t_; }
    { const uint16 t_ = min(v2, v3); v3 = max(v2, v3); v2 = t_; }
    { const uint16 t_ = min(v4, v5); v5 = max(v4, v5); v4 = t_; }
    { const uint16 t_ = min(v6, v7); v7 = max(v6, v7); v6 = t_; }
    { const uint16 t_ = min(v8, v9); v9 = max(v8, v9); v8 = t_; }
    { const uint16 t_ = min(v10, v11); v11 = max(v10, v11); v10 = t_; }
    { const uint16 t_ = min(v12, v13); v13 = max(v12, v13); v12 = t_; }
    { const uint16 t_ = min(v14, v15); v15 = max(v14, v15); v14 = t_; }
    { const uint16 t_ = min(v0, v3); v3 = max(v0, v3); v0 = t_; }
    { const uint16 t_ = min(v1, v2); v2 = max(v1, v2); v1 = t_; }
    { const uint16 t_ = min(v4, v7); v7 = max(v4, v7); v4 = t_; }
    { const uint16 t_ = min(v5, v6); v6 = max(v5, v6); v5 = t_; }
    { const uint16 t_ = min(v8, v11); v11 = max(v8, v11); v8 = t_; }
    { const uint16 t_ = min(v9, v10); v10 = max(v9, v10); v9 = t_; }
    { const uint16 t_ = min(v12, v15); v15 = max(v12, v15); v12 = t_; }
    { const uint16 t_ = min(v13, v14); v14 = max(v13, v14); v13 = t_; }
    { const uint16 t_ = min(v0, v1); v1 = max(v0, v1); v0 = t_; }
    { const uint16 t_ = min(v2, v3); v3 = max(v2, v3); v2 = t_; }
    { const uint16 t_ = min(v4, v5); v5 = max(v4, v5); v4 = t_; }
    { const uint16 t_ = min(v6, v7); v7 = max(v6, v7); v6 = t_; }
    { const uint16 t_ = min(v8, v9); v9 = max(v8, v9); v8 = t_; }
    { const uint16 t_ = min(v10, v11); v11 = max(v10, v11); v10 = t_; }
    { const uint16 t_ = min(v12, v13); v13 = max(v12, v13); v12 = t_; }
    { const uint16 t_ = min(v14, v15); v15 = max(v14, v15); v14 = t_; }
    { const uint16 t_ = min(v0, v7); v7 = max(v0, v7); v0 = t_; }
    { const uint16 t_ = min(v1, v6); v6 = max(v1, v6); v1 = t_; }
    { const uint16 t_ = min(v2, v5); v5 = max(v2, v5); v2 = t_; }
    { const uint16 t_ = min(v3, v4); v4 = max(v3, v4); v3 = t_; }
    { const uint16 t_ = min(v8, v15); v15 = max(v8, v15); v8 = t_; }
    { const uint16 t_ = min(v9, v14); v14 = max(v9, v14); v9 = t_; }
    { const uint16 t_ = min(v10, v13); v13 = max(v10, v13); v10 = t_; }
    { const uint16 t_ = min(v11, v12); v12 = max(v11, v12); v11 = t_; }
    { const uint16 t_ = min(v0, v2); v2 = max(v0, v2); v0 = t_; }
    { const uint16 t_ = min(v1, v3); v3 = max(v1, v3); v1 = t_; }
    { const uint16 t_ = min(v4, v6); v6 = max(v4, v6); v4 = t_; }
    { const uint16 t_ = min(v5, v7); v7 = max(v5, v7); v5 = t_; }
    { const uint16 t_ = min(v8, v10); v10 = max(v8, v10); v8 = t_; }
    { const uint16 t_ = min(v9, v11); v11 = max(v9, v11); v9 = t_; }
    { const uint16 t_ = min(v12, v14); v14 = max(v12, v14); v12 = t_; }
    { const uint16 t_ = min(v13, v15); v15 = max(v13, v15); v13 = t_; }
    { const uint16 t_ = min(v0, v1); v1 = max(v0, v1); v0 = t_; }
    { const uint16 t_ = min(v2, v3); v3 = max(v2, v3); v2 = t_; }
    { const uint16 t_ = min(v4, v5); v5 = max(v4, v5); v4 = t_; }
    { const uint16 t_ = min(v6, v7); v7 = max(v6, v7); v6 = t_; }
    { const uint16 t_ = min(v8, v9); v9 = max(v8, v9); v8 = t_; }
    { const uint16 t_ = min(v10, v11); v11 = max(v10, v11); v10 = t_; }
    { const uint16 t_ = min(v12, v13); v13 = max(v12, v13); v12 = t_; }
    { const uint16 t_ = min(v14, v15); v15 = max(v14, v15); v14 = t_; }
    { const uint16 t_ = min(v0, v15); v15 = max(v0, v15); v0 = t_; }
    { const uint16 t_ = min(v1, v14); v14 = max(v1, v14); v1 = t_; }
    { const uint16 t_ = min(v2, v13); v13 = max(v2, v13); v2 = t_; }
    { const uint16 t_ = min(v3, v12); v12 = max(v3, v12); v3 = t_; }
    { const uint16 t_ = min(v4, v11); v11 = max(v4, v11); v4 = t_; }
    { const uint16 t_ = min(v5, v10); v10 = max(v5, v10); v5 = t_; }
    { const uint16 t_ = min(v6, v9); v9 = max(v6, v9); v6 = t_; }
    { const uint16 t_ = min(v7, v8); v8 = max(v7, v8); v7 = t_; }
    { const uint16 t_ = min(v0, v4); v4 = max(v0, v4); v0 = t_; }
    { const uint16 t_ = min(v1, v5); v5 = max(v1, v5); v1 = t_; }
    { const uint16 t_ = min(v2, v6); v6 = max(v2, v6); v2 = t_; }
    { const uint16 t_ = min(v3, v7); v7 = max(v3, v7); v3 = t_; }
    { const uint16 t_ = min(v8, v12); v12 = max(v8, v12); v8 = t_; }
    { const uint16 t_ = min(v9, v13); v13 = max(v9, v13); v9 = t_; }
    { const uint16 t_ = min(v10, v14); v14 = max(v10, v14); v10 = t_; }
    { const uint16 t_ = min(v11, v15); v15 = max(v11, v15); v11 = t_; }
    { const uint16 t_ = min(v0, v2); v2 = max(v0, v2); v0 = t_; }
    { const uint16 t_ = min(v1, v3); v3 = max(v1, v3); v1 = t_; }
    { const uint16 t_ = min(v4, v6); v6 = max(v4, v6); v4 = t_; }
    { const uint16 t_ = min(v5, v7); v7 = max(v5, v7); v5 = t_; }
    { const uint16 t_ = min(v8, v10); v10 = max(v8, v10); v8 = t_; }
    { const uint16 t_ = min(v9, v11); v11 = max(v9, v11); v9 = t_; }
    { const uint16 t_ = min(v12, v14); v14 = max(v12, v14); v12 = t_; }
    { const uint16 t_ = min(v13, v15); v15 = max(v13, v15); v13 = t_; }
    { const uint16 t_ = min(v0, v1); v1 = max(v0, v1); v0 = t_; }
    { const uint16 t_ = min(v2, v3); v3 = max(v2, v3); v2 = t_; }
    { const uint16 t_ = min(v4, v5); v5 = max(v4, v5); v4 = t_; }
    { const uint16 t_ = min(v6, v7); v7 = max(v6, v7); v6 = t_; }
    { const uint16 t_ = min(v8, v9); v9 = max(v8, v9); v8 = t_; }
    { const uint16 t_ = min(v10, v11); v11 = max(v10, v11); v10 = t_; }
    { const uint16 t_ = min(v12, v13); v13 = max(v12, v13); v12 = t_; }
    { const uint16 t_ = min(v14, v15); v15 = max(v14, v15); v14 = t_; }
    { const uint16 p_ = shuffle(v15, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v0 = select(n_, x_, u_);
      v15 = shuffle(select(x_, n_, u_), (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14)); }
    { const uint16 p_ = shuffle(v14, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v1 = select(n_, x_, u_);
      v14 = shuffle(select(x_, n_, u_), (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14)); }
    { const uint16 p_ = shuffle(v13, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v2 = select(n_, x_, u_);
      v13 = shuffle(select(x_, n_, u_), (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14)); }
    { const uint16 p_ = shuffle(v12, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v3 = select(n_, x_, u_);
      v12 = shuffle(select(x_, n_, u_), (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14)); }
    { const uint16 p_ = shuffle(v11, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v4 = select(n_, x_, u_);
      v11 = shuffle(select(x_, n_, u_), (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14)); }
    { const uint16 p_ = shuffle(v10, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v5 = select(n_, x_, u_);
      v10 = shuffle(select(x_, n_, u_), (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14)); }
    { const uint16 p_ = shuffle(v9, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v6 = select(n_, x_, u_);
      v9 = shuffle(select(x_, n_, u_), (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14)); }
    { const uint16 p_ = shuffle(v8, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v7 = select(n_, x_, u_);
      v8 = shuffle(select(x_, n_, u_), (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14)); }
    { const uint16 t_ = min(v0, v8); v8 = max(v0, v8); v0 = t_; }
    { const uint16 t_ = min(v1, v9); v9 = max(v1, v9); v1 = t_; }
    { const uint16 t_ = min(v2, v10); v10 = max(v2, v10); v2 = t_; }
    { const uint16 t_ = min(v3, v11); v11 = max(v3, v11); v3 = t_; }
    { const uint16 t_ = min(v4, v12); v12 = max(v4, v12); v4 = t_; }
    { const uint16 t_ = min(v5, v13); v13 = max(v5, v13); v5 = t_; }
    { const uint16 t_ = min(v6, v14); v14 = max(v6, v14); v6 = t_; }
    { const uint16 t_ = min(v7, v15); v15 = max(v7, v15); v7 = t_; }
    { const uint16 t_ = min(v0, v4); v4 = max(v0, v4); v0 = t_; }
    { const uint16 t_ = min(v1, v5); v5 = max(v1, v5); v1 = t_; }
    { const uint16 t_ = min(v2, v6); v6 = max(v2, v6); v2 = t_; }
    { const uint16 t_ = min(v3, v7); v7 = max(v3, v7); v3 = t_; }
    { const uint16 t_ = min(v8, v12); v12 = max(v8, v12); v8 = t_; }
    { const uint16 t_ = min(v9, v13); v13 = max(v9, v13); v9 = t_; }
    { const uint16 t_ = min(v10, v14); v14 = max(v10, v14); v10 = t_; }
    { const uint16 t_ = min(v11, v15); v15 = max(v11, v15); v11 = t_; }
    { const uint16 t_ = min(v0, v2); v2 = max(v0, v2); v0 = t_; }
    { const uint16 t_ = min(v1, v3); v3 = max(v1, v3); v1 = t_; }
    { const uint16 t_ = min(v4, v6); v6 = max(v4, v6); v4 = t_; }
    { const uint16 t_ = min(v5, v7); v7 = max(v5, v7); v5 = t_; }
    { const uint16 t_ = min(v8, v10); v10 = max(v8, v10); v8 = t_; }
    { const uint16 t_ = min(v9, v11); v11 = max(v9, v11); v9 = t_; }
    { const uint16 t_ = min(v12, v14); v14 = max(v12, v14); v12 = t_; }
    { const uint16 t_ = min(v13, v15); v15 = max(v13, v15); v13 = t_; }
    { const uint16 t_ = min(v0, v1); v1 = max(v0, v1); v0 = t_; }
    { const uint16 t_ = min(v2, v3); v3 = max(v2, v3); v2 = t_; }
    { const uint16 t_ = min(v4, v5); v5 = max(v4, v5); v4 = t_; }
    { const uint16 t_ = min(v6, v7); v7 = max(v6, v7); v6 = t_; }
    { const uint16 t_ = min(v8, v9); v9 = max(v8, v9); v8 = t_; }
    { const uint16 t_ = min(v10, v11); v11 = max(v10, v11); v10 = t_; }
    { const uint16 t_ = min(v12, v13); v13 = max(v12, v13); v12 = t_; }
    { const uint16 t_ = min(v14, v15); v15 = max(v14, v15); v14 = t_; }
    { const uint16 p_ = shuffle(v15, (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v0 = select(n_, x_, u_);
      v15 = shuffle(select(x_, n_, u_), (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12)); }
    { const uint16 p_ = shuffle(v14, (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v1 = select(n_, x_, u_);
      v14 = shuffle(select(x_, n_, u_), (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12)); }
    { const uint16 p_ = shuffle(v13, (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v2 = select(n_, x_, u_);
      v13 = shuffle(select(x_, n_, u_), (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12)); }
    { const uint16 p_ = shuffle(v12, (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v3 = select(n_, x_, u_);
      v12 = shuffle(select(x_, n_, u_), (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12)); }
    { const uint16 p_ = shuffle(v11, (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v4 = select(n_, x_, u_);
      v11 = shuffle(select(x_, n_, u_), (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12)); }
    { const uint16 p_ = shuffle(v10, (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v5 = select(n_, x_, u_);
      v10 = shuffle(select(x_, n_, u_), (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12)); }
    { const uint16 p_ = shuffle(v9, (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v6 = select(n_, x_, u_);
      v9 = shuffle(select(x_, n_, u_), (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12)); }
    { const uint16 p_ = shuffle(v8, (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v7 = select(n_, x_, u_);
      v8 = shuffle(select(x_, n_, u_), (uint16)(3,2,1,0,7,6,5,4,11,10,9,8,15,14,13,12)); }
    { const uint16 p_ = shuffle(v0, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v0 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v1, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v1 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v2, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v2 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v3, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v3 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v4, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v4 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v5, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v5 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v6, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v6 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v7, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v7 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v8, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v8, p_), x_ = max(v8, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v8 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v9, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v9, p_), x_ = max(v9, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v9 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v10, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v10, p_), x_ = max(v10, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v10 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v11, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v11, p_), x_ = max(v11, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v11 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v12, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v12, p_), x_ = max(v12, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v12 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v13, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v13, p_), x_ = max(v13, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v13 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v14, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v14, p_), x_ = max(v14, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v14 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v15, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v15, p_), x_ = max(v15, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v15 = select(n_, x_, u_); }
    { const uint16 t_ = min(v0, v8); v8 = max(v0, v8); v0 = t_; }
    { const uint16 t_ = min(v1, v9); v9 = max(v1, v9); v1 = t_; }
    { const uint16 t_ = min(v2, v10); v10 = max(v2, v10); v2 = t_; }
    { const uint16 t_ = min(v3, v11); v11 = max(v3, v11); v3 = t_; }
    { const uint16 t_ = min(v4, v12); v12 = max(v4, v12); v4 = t_; }
    { const uint16 t_ = min(v5, v13); v13 = max(v5, v13); v5 = t_; }
    { const uint16 t_ = min(v6, v14); v14 = max(v6, v14); v6 = t_; }
    { const uint16 t_ = min(v7, v15); v15 = max(v7, v15); v7 = t_; }
    { const uint16 t_ = min(v0, v4); v4 = max(v0, v4); v0 = t_; }
    { const uint16 t_ = min(v1, v5); v5 = max(v1, v5); v1 = t_; }
    { const uint16 t_ = min(v2, v6); v6 = max(v2, v6); v2 = t_; }
    { const uint16 t_ = min(v3, v7); v7 = max(v3, v7); v3 = t_; }
    { const uint16 t_ = min(v8, v12); v12 = max(v8, v12); v8 = t_; }
    { const uint16 t_ = min(v9, v13); v13 = max(v9, v13); v9 = t_; }
    { const uint16 t_ = min(v10, v14); v14 = max(v10, v14); v10 = t_; }
    { const uint16 t_ = min(v11, v15); v15 = max(v11, v15); v11 = t_; }
    { const uint16 t_ = min(v0, v2); v2 = max(v0, v2); v0 = t_; }
    { const uint16 t_ = min(v1, v3); v3 = max(v1, v3); v1 = t_; }
    { const uint16 t_ = min(v4, v6); v6 = max(v4, v6); v4 = t_; }
    { const uint16 t_ = min(v5, v7); v7 = max(v5, v7); v5 = t_; }
    { const uint16 t_ = min(v8, v10); v10 = max(v8, v10); v8 = t_; }
    { const uint16 t_ = min(v9, v11); v11 = max(v9, v11); v9 = t_; }
    { const uint16 t_ = min(v12, v14); v14 = max(v12, v14); v12 = t_; }
    { const uint16 t_ = min(v13, v15); v15 = max(v13, v15); v13 = t_; }
    { const uint16 t_ = min(v0, v1); v1 = max(v0, v1); v0 = t_; }
    { const uint16 t_ = min(v2, v3); v3 = max(v2, v3); v2 = t_; }
    { const uint16 t_ = min(v4, v5); v5 = max(v4, v5); v4 = t_; }
    { const uint16 t_ = min(v6, v7); v7 = max(v6, v7); v6 = t_; }
    { const uint16 t_ = min(v8, v9); v9 = max(v8, v9); v8 = t_; }
    { const uint16 t_ = min(v10, v11); v11 = max(v10, v11); v10 = t_; }
    { const uint16 t_ = min(v12, v13); v13 = max(v12, v13); v12 = t_; }
    { const uint16 t_ = min(v14, v15); v15 = max(v14, v15); v14 = t_; }
    { const uint16 p_ = shuffle(v15, (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v0 = select(n_, x_, u_);
      v15 = shuffle(select(x_, n_, u_), (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8)); }
    { const uint16 p_ = shuffle(v14, (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v1 = select(n_, x_, u_);
      v14 = shuffle(select(x_, n_, u_), (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8)); }
    { const uint16 p_ = shuffle(v13, (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v2 = select(n_, x_, u_);
      v13 = shuffle(select(x_, n_, u_), (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8)); }
    { const uint16 p_ = shuffle(v12, (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v3 = select(n_, x_, u_);
      v12 = shuffle(select(x_, n_, u_), (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8)); }
    { const uint16 p_ = shuffle(v11, (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v4 = select(n_, x_, u_);
      v11 = shuffle(select(x_, n_, u_), (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8)); }
    { const uint16 p_ = shuffle(v10, (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v5 = select(n_, x_, u_);
      v10 = shuffle(select(x_, n_, u_), (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8)); }
    { const uint16 p_ = shuffle(v9, (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v6 = select(n_, x_, u_);
      v9 = shuffle(select(x_, n_, u_), (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8)); }
    { const uint16 p_ = shuffle(v8, (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v7 = select(n_, x_, u_);
      v8 = shuffle(select(x_, n_, u_), (uint16)(7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8)); }
    { const uint16 p_ = shuffle(v0, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v0 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v1, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v1 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v2, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v2 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v3, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v3 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v4, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v4 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v5, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v5 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v6, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v6 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v7, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v7 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v8, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v8, p_), x_ = max(v8, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v8 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v9, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v9, p_), x_ = max(v9, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v9 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v10, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v10, p_), x_ = max(v10, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v10 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v11, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v11, p_), x_ = max(v11, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v11 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v12, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v12, p_), x_ = max(v12, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v12 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v13, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v13, p_), x_ = max(v13, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v13 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v14, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v14, p_), x_ = max(v14, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v14 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v15, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v15, p_), x_ = max(v15, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v15 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v0, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v0 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v1, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v1 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v2, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v2 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v3, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v3 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v4, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v4 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v5, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v5 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v6, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v6 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v7, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v7 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v8, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v8, p_), x_ = max(v8, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v8 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v9, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v9, p_), x_ = max(v9, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v9 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v10, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v10, p_), x_ = max(v10, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v10 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v11, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v11, p_), x_ = max(v11, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v11 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v12, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v12, p_), x_ = max(v12, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v12 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v13, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v13, p_), x_ = max(v13, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v13 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v14, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v14, p_), x_ = max(v14, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v14 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v15, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v15, p_), x_ = max(v15, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v15 = select(n_, x_, u_); }
    { const uint16 t_ = min(v0, v8); v8 = max(v0, v8); v0 = t_; }
    { const uint16 t_ = min(v1, v9); v9 = max(v1, v9); v1 = t_; }
    { const uint16 t_ = min(v2, v10); v10 = max(v2, v10); v2 = t_; }
    { const uint16 t_ = min(v3, v11); v11 = max(v3, v11); v3 = t_; }
    { const uint16 t_ = min(v4, v12); v12 = max(v4, v12); v4 = t_; }
    { const uint16 t_ = min(v5, v13); v13 = max(v5, v13); v5 = t_; }
    { const uint16 t_ = min(v6, v14); v14 = max(v6, v14); v6 = t_; }
    { const uint16 t_ = min(v7, v15); v15 = max(v7, v15); v7 = t_; }
    { const uint16 t_ = min(v0, v4); v4 = max(v0, v4); v0 = t_; }
    { const uint16 t_ = min(v1, v5); v5 = max(v1, v5); v1 = t_; }
    { const uint16 t_ = min(v2, v6); v6 = max(v2, v6); v2 = t_; }
    { const uint16 t_ = min(v3, v7); v7 = max(v3, v7); v3 = t_; }
    { const uint16 t_ = min(v8, v12); v12 = max(v8, v12); v8 = t_; }
    { const uint16 t_ = min(v9, v13); v13 = max(v9, v13); v9 = t_; }
    { const uint16 t_ = min(v10, v14); v14 = max(v10, v14); v10 = t_; }
    { const uint16 t_ = min(v11, v15); v15 = max(v11, v15); v11 = t_; }
    { const uint16 t_ = min(v0, v2); v2 = max(v0, v2); v0 = t_; }
    { const uint16 t_ = min(v1, v3); v3 = max(v1, v3); v1 = t_; }
    { const uint16 t_ = min(v4, v6); v6 = max(v4, v6); v4 = t_; }
    { const uint16 t_ = min(v5, v7); v7 = max(v5, v7); v5 = t_; }
    { const uint16 t_ = min(v8, v10); v10 = max(v8, v10); v8 = t_; }
    { const uint16 t_ = min(v9, v11); v11 = max(v9, v11); v9 = t_; }
    { const uint16 t_ = min(v12, v14); v14 = max(v12, v14); v12 = t_; }
    { const uint16 t_ = min(v13, v15); v15 = max(v13, v15); v13 = t_; }
    { const uint16 t_ = min(v0, v1); v1 = max(v0, v1); v0 = t_; }
    { const uint16 t_ = min(v2, v3); v3 = max(v2, v3); v2 = t_; }
    { const uint16 t_ = min(v4, v5); v5 = max(v4, v5); v4 = t_; }
    { const uint16 t_ = min(v6, v7); v7 = max(v6, v7); v6 = t_; }
    { const uint16 t_ = min(v8, v9); v9 = max(v8, v9); v8 = t_; }
    { const uint16 t_ = min(v10, v11); v11 = max(v10, v11); v10 = t_; }
    { const uint16 t_ = min(v12, v13); v13 = max(v12, v13); v12 = t_; }
    { const uint16 t_ = min(v14, v15); v15 = max(v14, v15); v14 = t_; }
    { const uint16 p_ = shuffle(v15, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,0,0,0,0,0,0,0,-1,-1,-1,-1,-1,-1,-1,-1);
      v0 = select(n_, x_, u_);
      v15 = shuffle(select(x_, n_, u_), (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)); }
    { const uint16 p_ = shuffle(v14, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,0,0,0,0,0,0,0,-1,-1,-1,-1,-1,-1,-1,-1);
      v1 = select(n_, x_, u_);
      v14 = shuffle(select(x_, n_, u_), (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)); }
    { const uint16 p_ = shuffle(v13, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,0,0,0,0,0,0,0,-1,-1,-1,-1,-1,-1,-1,-1);
      v2 = select(n_, x_, u_);
      v13 = shuffle(select(x_, n_, u_), (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)); }
    { const uint16 p_ = shuffle(v12, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,0,0,0,0,0,0,0,-1,-1,-1,-1,-1,-1,-1,-1);
      v3 = select(n_, x_, u_);
      v12 = shuffle(select(x_, n_, u_), (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)); }
    { const uint16 p_ = shuffle(v11, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,0,0,0,0,0,0,0,-1,-1,-1,-1,-1,-1,-1,-1);
      v4 = select(n_, x_, u_);
      v11 = shuffle(select(x_, n_, u_), (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)); }
    { const uint16 p_ = shuffle(v10, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,0,0,0,0,0,0,0,-1,-1,-1,-1,-1,-1,-1,-1);
      v5 = select(n_, x_, u_);
      v10 = shuffle(select(x_, n_, u_), (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)); }
    { const uint16 p_ = shuffle(v9, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,0,0,0,0,0,0,0,-1,-1,-1,-1,-1,-1,-1,-1);
      v6 = select(n_, x_, u_);
      v9 = shuffle(select(x_, n_, u_), (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)); }
    { const uint16 p_ = shuffle(v8, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,0,0,0,0,0,0,0,-1,-1,-1,-1,-1,-1,-1,-1);
      v7 = select(n_, x_, u_);
      v8 = shuffle(select(x_, n_, u_), (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0)); }
    { const uint16 p_ = shuffle(v0, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v0 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v1, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v1 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v2, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v2 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v3, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v3 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v4, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v4 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v5, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v5 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v6, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v6 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v7, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v7 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v8, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v8, p_), x_ = max(v8, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v8 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v9, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v9, p_), x_ = max(v9, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v9 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v10, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v10, p_), x_ = max(v10, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v10 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v11, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v11, p_), x_ = max(v11, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v11 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v12, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v12, p_), x_ = max(v12, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v12 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v13, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v13, p_), x_ = max(v13, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v13 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v14, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v14, p_), x_ = max(v14, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v14 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v15, (uint16)(4,5,6,7,0,1,2,3,12,13,14,15,8,9,10,11));
      const uint16 n_ = min(v15, p_), x_ = max(v15, p_);
      const uint16 u_ = (uint16)(0,0,0,0,-1,-1,-1,-1,0,0,0,0,-1,-1,-1,-1);
      v15 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v0, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v0 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v1, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v1 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v2, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v2 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v3, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v3 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v4, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v4 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v5, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v5 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v6, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v6 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v7, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v7 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v8, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v8, p_), x_ = max(v8, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v8 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v9, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v9, p_), x_ = max(v9, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v9 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v10, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v10, p_), x_ = max(v10, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v10 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v11, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v11, p_), x_ = max(v11, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v11 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v12, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v12, p_), x_ = max(v12, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v12 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v13, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v13, p_), x_ = max(v13, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v13 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v14, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v14, p_), x_ = max(v14, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v14 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v15, (uint16)(2,3,0,1,6,7,4,5,10,11,8,9,14,15,12,13));
      const uint16 n_ = min(v15, p_), x_ = max(v15, p_);
      const uint16 u_ = (uint16)(0,0,-1,-1,0,0,-1,-1,0,0,-1,-1,0,0,-1,-1);
      v15 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v0, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v0, p_), x_ = max(v0, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v0 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v1, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v1, p_), x_ = max(v1, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v1 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v2, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v2, p_), x_ = max(v2, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v2 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v3, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v3, p_), x_ = max(v3, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v3 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v4, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v4, p_), x_ = max(v4, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v4 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v5, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v5, p_), x_ = max(v5, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v5 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v6, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v6, p_), x_ = max(v6, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v6 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v7, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v7, p_), x_ = max(v7, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v7 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v8, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v8, p_), x_ = max(v8, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v8 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v9, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v9, p_), x_ = max(v9, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v9 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v10, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v10, p_), x_ = max(v10, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v10 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v11, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v11, p_), x_ = max(v11, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v11 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v12, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v12, p_), x_ = max(v12, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v12 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v13, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v13, p_), x_ = max(v13, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v13 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v14, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v14, p_), x_ = max(v14, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v14 = select(n_, x_, u_); }
    { const uint16 p_ = shuffle(v15, (uint16)(1,0,3,2,5,4,7,6,9,8,11,10,13,12,15,14));
      const uint16 n_ = min(v15, p_), x_ = max(v15, p_);
      const uint16 u_ = (uint16)(0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1,0,-1);
      v15 = select(n_, x_, u_); }
    { const uint16 t_ = min(v0, v8); v8 = max(v0, v8); v0 = t_; }
    { const uint16 t_ = min(v1, v9); v9 = max(v1, v9); v1 = t_; }
    { const uint16 t_ = min(v2, v10); v10 = max(v2, v10); v2 = t_; }
    { const uint16 t_ = min(v3, v11); v11 = max(v3, v11); v3 = t_; }
    { const uint16 t_ = min(v4, v12); v12 = max(v4, v12); v4 = t_; }
    { const uint16 t_ = min(v5, v13); v13 = max(v5, v13); v5 = t_; }
    { const uint16 t_ = min(v6, v14); v14 = max(v6, v14); v6 = t_; }
    { const uint16 t_ = min(v7, v15); v15 = max(v7, v15); v7 = t_; }
    { const uint16 t_ = min(v0, v4); v4 = max(v0, v4); v0 = t_; }
    { const uint16 t_ = min(v1, v5); v5 = max(v1, v5); v1 = t_; }
    { const uint16 t_ = min(v2, v6); v6 = max(v2, v6); v2 = t_; }
    { const uint16 t_ = min(v3, v7); v7 = max(v3, v7); v3 = t_; }
    { const uint16 t_ = min(v8, v12); v12 = max(v8, v12); v8 = t_; }
    { const uint16 t_ = min(v9, v13); v13 = max(v9, v13); v9 = t_; }
    { const uint16 t_ = min(v10, v14); v14 = max(v10, v14); v10 = t_; }
    { const uint16 t_ = min(v11, v15); v15 = max(v11, v15); v11 = t_; }
    { const uint16 t_ = min(v0, v2); v2 = max(v0, v2); v0 = t_; }
    { const uint16 t_ = min(v1, v3); v3 = max(v1, v3); v1 = t_; }
    { const uint16 t_ = min(v4, v6); v6 = max(v4, v6); v4 = t_; }
    { const uint16 t_ = min(v5, v7); v7 = max(v5, v7); v5 = t_; }
    { const uint16 t_ = min(v8, v10); v10 = max(v8, v10); v8 = t_; }
    { const uint16 t_ = min(v9, v11); v11 = max(v9, v11); v9 = t_; }
    { const uint16 t_ = min(v12, v14); v14 = max(v12, v14); v12 = t_; }
    { const uint16 t_ = min(v13, v15); v15 = max(v13, v15); v13 = t_; }
    { const uint16 t_ = min(v0, v1); v1 = max(v0, v1); v0 = t_; }
    { const uint16 t_ = min(v2, v3); v3 = max(v2, v3); v2 = t_; }
    { const uint16 t_ = min(v4, v5); v5 = max(v4, v5); v4 = t_; }
    { const uint16 t_ = min(v6, v7); v7 = max(v6, v7); v6 = t_; }
    { const uint16 t_ = min(v8, v9); v9 = max(v8, v9); v8 = t_; }
    { const uint16 t_ = min(v10, v11); v11 = max(v10, v11); v10 = t_; }
    { const uint16 t_ = min(v12, v13); v13 = max(v12, v13); v12 = t_; }
    { const uint16 t_ = min(v14, v15); v15 = max(v14, v15); v14 = t_; }
    { const uint16 a_ = v0, b_ = v1;
      v0 = shuffle2(a_, b_, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30));
      v1 = shuffle2(a_, b_, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
    }
    { const uint16 a_ = v2, b_ = v3;
      v2 = shuffle2(a_, b_, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30));
      v3 = shuffle2(a_, b_, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
    }
    { const uint16 a_ = v4, b_ = v5;
      v4 = shuffle2(a_, b_, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30));
      v5 = shuffle2(a_, b_, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
    }
    { const uint16 a_ = v6, b_ = v7;
      v6 = shuffle2(a_, b_, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30));
      v7 = shuffle2(a_, b_, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
    }
    { const uint16 a_ = v8, b_ = v9;
      v8 = shuffle2(a_, b_, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30));
      v9 = shuffle2(a_, b_, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
    }
    { const uint16 a_ = v10, b_ = v11;
      v10 = shuffle2(a_, b_, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30));
      v11 = shuffle2(a_, b_, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
    }
    { const uint16 a_ = v12, b_ = v13;
      v12 = shuffle2(a_, b_, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30));
      v13 = shuffle2(a_, b_, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
    }
    { const uint16 a_ = v14, b_ = v15;
      v14 = shuffle2(a_, b_, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30));
      v15 = shuffle2(a_, b_, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
    }
    { const uint16 a_ = v0, b_ = v2;
      v0 = shuffle2(a_, b_, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29));
      v2 = shuffle2(a_, b_, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
    }
    { const uint16 a_ = v1, b_ = v3;
      v1 = shuffle2(a_, b_, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29));
      v3 = shuffle2(a_, b_, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
    }
    { const uint16 a_ = v4, b_ = v6;
      v4 = shuffle2(a_, b_, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29));
      v6 = shuffle2(a_, b_, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
    }
    { const uint16 a_ = v5, b_ = v7;
      v5 = shuffle2(a_, b_, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29));
      v7 = shuffle2(a_, b_, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
    }
    { const uint16 a_ = v8, b_ = v10;
      v8 = shuffle2(a_, b_, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29));
      v10 = shuffle2(a_, b_, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
    }
    { const uint16 a_ = v9, b_ = v11;
      v9 = shuffle2(a_, b_, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29));
      v11 = shuffle2(a_, b_, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
    }
    { const uint16 a_ = v12, b_ = v14;
      v12 = shuffle2(a_, b_, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29));
      v14 = shuffle2(a_, b_, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
    }
    { const uint16 a_ = v13, b_ = v15;
      v13 = shuffle2(a_, b_, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29));
      v15 = shuffle2(a_, b_, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
    }
    { const uint16 a_ = v0, b_ = v4;
      v0 = shuffle2(a_, b_, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27));
      v4 = shuffle2(a_, b_, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
    }
    { const uint16 a_ = v1, b_ = v5;
      v1 = shuffle2(a_, b_, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27));
      v5 = shuffle2(a_, b_, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
    }
    { const uint16 a_ = v2, b_ = v6;
      v2 = shuffle2(a_, b_, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27));
      v6 = shuffle2(a_, b_, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
    }
    { const uint16 a_ = v3, b_ = v7;
      v3 = shuffle2(a_, b_, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27));
      v7 = shuffle2(a_, b_, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
    }
    { const uint16 a_ = v8, b_ = v12;
      v8 = shuffle2(a_, b_, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27));
      v12 = shuffle2(a_, b_, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
    }
    { const uint16 a_ = v9, b_ = v13;
      v9 = shuffle2(a_, b_, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27));
      v13 = shuffle2(a_, b_, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
    }
    { const uint16 a_ = v10, b_ = v14;
      v10 = shuffle2(a_, b_, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27));
      v14 = shuffle2(a_, b_, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
    }
    { const uint16 a_ = v11, b_ = v15;
      v11 = shuffle2(a_, b_, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27));
      v15 = shuffle2(a_, b_, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
    }
    { const uint16 a_ = v0, b_ = v8;
      v0 = shuffle2(a_, b_, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23));
      v8 = shuffle2(a_, b_, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
    }
    { const uint16 a_ = v1, b_ = v9;
      v1 = shuffle2(a_, b_, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23));
      v9 = shuffle2(a_, b_, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
    }
    { const uint16 a_ = v2, b_ = v10;
      v2 = shuffle2(a_, b_, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23));
      v10 = shuffle2(a_, b_, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
    }
    { const uint16 a_ = v3, b_ = v11;
      v3 = shuffle2(a_, b_, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23));
      v11 = shuffle2(a_, b_, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
    }
    { const uint16 a_ = v4, b_ = v12;
      v4 = shuffle2(a_, b_, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23));
      v12 = shuffle2(a_, b_, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
    }
    { const uint16 a_ = v5, b_ = v13;
      v5 = shuffle2(a_, b_, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23));
      v13 = shuffle2(a_, b_, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
    }
    { const uint16 a_ = v6, b_ = v14;
      v6 = shuffle2(a_, b_, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23));
      v14 = shuffle2(a_, b_, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
    }
    { const uint16 a_ = v7, b_ = v15;
      v7 = shuffle2(a_, b_, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23));
      v15 = shuffle2(a_, b_, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
    }
    vstore16(v0, 0, a + 0);
    vstore16(v1, 0, a + 16);
    vstore16(v2, 0, a + 32);
    vstore16(v3, 0, a + 48);
    vstore16(v4, 0, a + 64);
    vstore16(v5, 0, a + 80);
    vstore16(v6, 0, a + 96);
    vstore16(v7, 0, a + 112);
    vstore16(v8, 0, a + 128);
    vstore16(v9, 0, a + 144);
    vstore16(v10, 0, a + 160);
    vstore16(v11, 0, a + 176);
    vstore16(v12, 0, a + 192);
    vstore16(v13, 0, a + 208);
    vstore16(v14, 0, a + 224);
    vstore16(v15, 0, a + 240);
}

static __global uint *lc_sort_f32_66226af141e1dc28_net_sort(__global uint *a, __global uint *b, const long np)
{
#pragma unroll 1
    for (long i = 0; i < np; i += 256)
        lc_sort_f32_66226af141e1dc28_net_block(a + i);
    __global uint *src = a, *dst = b;
#pragma unroll 1
    for (long w = 256; w < np; w *= 2) {
#pragma unroll 1
        for (long s0 = 0; s0 < np; s0 += 2 * w) {
            __global uint *A = src + s0, *B = src + s0 + w, *D = dst + s0;
            const long na = min(w, np - s0), nb = min(w, np - s0 - na);
            if (nb == 0) {
#pragma unroll 1
                for (long i = 0; i < na; i += 16)
                    vstore16(vload16(0, A + i), 0, D + i);
                continue;
            }
            /* from the front, the lowest keys, and from the back, the highest:
               two merges of half the output each in one loop, each holding one
               run's first (last) keys to begin with */
            uint16 lo, hi = vload16(0, B), bl = vload16(0, A + na - 16), bh;
            long ia = 0, ib = 16, ja = na - 16, jb = nb;
            __global uint *E = D + na + nb;
#pragma unroll 1
            for (long t = (na + nb) / 16; t > 0; t -= 2) {
                E -= 16;
                /* (no branch: the heads read in range whatever) */
                const int ta = (ib >= nb) | ((ia < na) & (A[min(ia, na - 1)] <= B[min(ib, nb - 1)]));
                const int tb = (jb <= 0) | ((ja > 0) & (A[max(ja - 1, 0L)] > B[max(jb - 1, 0L)]));
                lo = vload16(0, ta ? A + ia : B + ib);
                bh = vload16(0, tb ? A + ja - 16 : B + jb - 16);
                ia += ta ? 16 : 0;
                ib += ta ? 0 : 16;
                ja -= tb ? 16 : 0;
                jb -= tb ? 0 : 16;
                hi = shuffle(hi, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
                { const uint16 t_ = min(lo, hi); hi = max(lo, hi); lo = t_; }
                { const uint16 x_ = shuffle2(lo, hi, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23)), y_ = shuffle2(lo, hi, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
                  lo = min(x_, y_); hi = max(x_, y_); }
                { const uint16 x_ = shuffle2(lo, hi, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27)), y_ = shuffle2(lo, hi, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
                  lo = min(x_, y_); hi = max(x_, y_); }
                { const uint16 x_ = shuffle2(lo, hi, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29)), y_ = shuffle2(lo, hi, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
                  lo = min(x_, y_); hi = max(x_, y_); }
                { const uint16 x_ = shuffle2(lo, hi, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30)), y_ = shuffle2(lo, hi, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
                  lo = min(x_, y_); hi = max(x_, y_); }
                { const uint16 x_ = shuffle2(lo, hi, (uint16)(0,16,1,17,2,18,3,19,4,20,5,21,6,22,7,23));
                  hi = shuffle2(lo, hi, (uint16)(8,24,9,25,10,26,11,27,12,28,13,29,14,30,15,31));
                  lo = x_; }
                bh = shuffle(bh, (uint16)(15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0));
                { const uint16 t_ = min(bl, bh); bh = max(bl, bh); bl = t_; }
                { const uint16 x_ = shuffle2(bl, bh, (uint16)(0,1,2,3,4,5,6,7,16,17,18,19,20,21,22,23)), y_ = shuffle2(bl, bh, (uint16)(8,9,10,11,12,13,14,15,24,25,26,27,28,29,30,31));
                  bl = min(x_, y_); bh = max(x_, y_); }
                { const uint16 x_ = shuffle2(bl, bh, (uint16)(0,1,2,3,16,17,18,19,8,9,10,11,24,25,26,27)), y_ = shuffle2(bl, bh, (uint16)(4,5,6,7,20,21,22,23,12,13,14,15,28,29,30,31));
                  bl = min(x_, y_); bh = max(x_, y_); }
                { const uint16 x_ = shuffle2(bl, bh, (uint16)(0,1,16,17,4,5,20,21,8,9,24,25,12,13,28,29)), y_ = shuffle2(bl, bh, (uint16)(2,3,18,19,6,7,22,23,10,11,26,27,14,15,30,31));
                  bl = min(x_, y_); bh = max(x_, y_); }
                { const uint16 x_ = shuffle2(bl, bh, (uint16)(0,16,2,18,4,20,6,22,8,24,10,26,12,28,14,30)), y_ = shuffle2(bl, bh, (uint16)(1,17,3,19,5,21,7,23,9,25,11,27,13,29,15,31));
                  bl = min(x_, y_); bh = max(x_, y_); }
                { const uint16 x_ = shuffle2(bl, bh, (uint16)(0,16,1,17,2,18,3,19,4,20,5,21,6,22,7,23));
                  bh = shuffle2(bl, bh, (uint16)(8,24,9,25,10,26,11,27,12,28,13,29,14,30,15,31));
                  bl = x_; }
                vstore16(lo, 0, D);
                vstore16(bh, 0, E);
                D += 16;
            }
        }
        __global uint *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

__kernel void lc_sort_f32_66226af141e1dc28_row(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o, const long a0_s0,
    const float a1_v,
    const long n0,
    const long n1, const long os0_0,
    __global char *s_, const long sbase, const long M, const long P, const long vs)
{
    __global char *s = s_ + sbase;
    const long it_ = get_global_id(0);
    if (it_ >= P) return;
#pragma unroll 1
    for (long m = it_; m < M; m += P) {
    const long i0 = m;
    const long N = n1, NP = (N + 255) / 256 * 256;
    __global uint *ka = (__global uint *)s + it_ * 2 * NP, *kb = ka + NP;
    __global uint *va = (__global uint *)(s + vs) + it_ * 2 * N, *vb = va + N;
    int vid = 1, pay_ = 0;
    uint h[4][256];
    uint k0 = 0;
    long i1 = 0;
#pragma unroll 1
    for (; i1 + 16 <= N; i1 += 16) {
        const float16 w0 = vload16(0, a0 + (a0_o + i0 * a0_s0 + i1)); /* buffer */
        const float16 w1 = (float16)(a1_v); /* full */
        const float16 w2 = (w0 * w1); /* multiply */
        const uint16 b_ = as_uint16(w2);
        uint16 key_ = select(b_ | 0x80000000u, ~b_, as_int16(b_) < 0);
        key_ = select(key_, (uint16)(0x80000000u), (b_ << 1) == (uint16)(0));
        key_ = select(key_, (uint16)(0xffffffffu), (b_ << 1) > (uint16)(0xff000000u));
        pay_ |= any((b_ == (uint16)(0x80000000u)) | (((b_ << 1) > (uint16)(0xff000000u)) & (b_ != (uint16)(0x7fc00000u))));
        vstore16(key_, 0, ka + i1);
    }
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (; i1 < N; i1++) {
        const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
        const float v1 = a1_v; /* full */
        const float v2 = (v0 * v1); /* multiply */
        const uint b_ = as_uint(v2);
        uint key_ = (b_ & 0x80000000u) ? ~b_ : (b_ | 0x80000000u);
        if ((uint)(b_ << 1) == 0) key_ = 0x80000000u;
        if ((uint)(b_ << 1) > 0xff000000u) key_ = 0xffffffffu;
        {
            const uint w_ = as_uint(v2);
            pay_ |= select(0u, 1u, (w_ == 0x80000000u) | (((uint)(w_ << 1) > 0xff000000u) & (w_ != 0x7fc00000u)));
        }
        ka[i1] = key_;
    }
    __global uint *ksrc = ka, *kdst = kb;
    __global uint *vsrc = va, *vdst = vb;
    if (!pay_)
    {
#pragma unroll 1
        for (long i = N; i < NP; i++)
            ka[i] = 0xffffffffu;
        ksrc = lc_sort_f32_66226af141e1dc28_net_sort(ka, kb, NP);
        long pos_ = 0;
        __global float *od_ = out0 + i0 * os0_0;
#pragma unroll 1
        for (; pos_ + 16 <= N; pos_ += 16) {
            const uint16 k_ = vload16(0, ksrc + pos_);
            const uint16 w_ = k_;
            const float16 val_ = as_float16(select(select(~w_, w_ ^ 0x80000000u, as_int16(w_) < 0), (uint16)(0x7fc00000u), k_ == (uint16)(0xffffffffu)));
            vstore16(val_, 0, od_ + pos_);
        }
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
        for (; pos_ < N; pos_++) {
            const uint key_ = ksrc[pos_];
            const uint w_ = key_;
            const float val_ = as_float(key_ == 0xffffffffu ? 0x7fc00000u : (w_ & 0x80000000u) ? (w_ ^ 0x80000000u) : ~w_);
            out0[0 + i0 * os0_0 + pos_] = val_;
        }
        continue;
    }
#pragma unroll 1
    for (int d = 0; d < 4; d++)
#pragma unroll 1
        for (int r = 0; r < 256; r++)
            h[d][r] = 0;
    k0 = ka[0];
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
    for (long j = 0; j < N; j++) {
        const uint key_ = ka[j];
        h[0][(key_ >> 0) & 255]++;
        h[1][(key_ >> 8) & 255]++;
        h[2][(key_ >> 16) & 255]++;
        h[3][(key_ >> 24) & 255]++;
    }
#pragma unroll 1
    for (int d = 0; d < 4; d++) {
        const int sh = d * 8;
        __private uint *o = h[d];
        if (o[(k0 >> sh) & 255] == (uint)N)
            continue;
        uint acc = 0;
#pragma unroll 1
        for (int r = 0; r < 256; r++) {
            const uint x = o[r];
            o[r] = acc;
            acc += x;
        }
        if (pay_) {
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
            for (long j = 0; j < N; j++) {
                const uint key_ = ksrc[j];
                const uint p = o[(key_ >> sh) & 255]++;
                kdst[p] = key_;
                vdst[p] = vid ? (uint)j : vsrc[j];
            }
            __global uint *u = vsrc;
            vsrc = vdst;
            vdst = u;
            vid = 0;
        } else {
#pragma clang loop vectorize(disable) interleave(disable)
#pragma unroll 1
            for (long j = 0; j < N; j++) {
                const uint key_ = ksrc[j];
                const uint p = o[(key_ >> sh) & 255]++;
                kdst[p] = key_;
            }
        }
        __global uint *t = ksrc;
        ksrc = kdst;
        kdst = t;
    }
#pragma unroll 1
    for (long pos_ = 0; pos_ < N; pos_++) {
        const uint key_ = ksrc[pos_];
        float val_;
        if (pay_ && (key_ == 0xffffffffu || key_ == (0x80000000u))) {
            const long i1 = vid ? pos_ : (long)vsrc[pos_];
            const float v0 = a0[a0_o + i0 * a0_s0 + i1]; /* buffer */
            const float v1 = a1_v; /* full */
            const float v2 = (v0 * v1); /* multiply */
            val_ = v2;
        } else {
            const uint w_ = key_;
            val_ = as_float(key_ == 0xffffffffu ? 0x7fc00000u : (w_ & 0x80000000u) ? (w_ ^ 0x80000000u) : ~w_);
        }
        out0[0 + i0 * os0_0 + pos_] = val_;
    }
    }
}


