/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_i64_4c2b2a1d8b71843d */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 2 fused ops; reduce: one item per output. */
__kernel void lc_reduce_i64_4c2b2a1d8b71843d(
    __global long *restrict out0,
    __global int *restrict out1,
    __global const int *restrict a0, const long a0_o, const long a0_s1,
    const long n0,
    const long n1, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    const long i0 = m;
    int s0_a = 0; long s0_b = -1;
    int s1_a = INT_MIN;
    long r = 0;
    for (long i1 = 0; i1 < n1; i1++) {
        const int v0 = a0[a0_o + i0 + i1 * a0_s1]; /* buffer */
        if (s0_b < 0 || v0 > s0_a) { s0_a = v0; s0_b = r; }
        if (v0 > s1_a) s1_a = v0;
        r++;
    }
    const long v1 = s0_b; /* result of argmax */
    const int v2 = (int)s1_a; /* result of max */
    out0[i0] = v1;
    out1[i0] = v2;
}

