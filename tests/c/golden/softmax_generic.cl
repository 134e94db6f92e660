/* ---- kernel 0: schedule "reduce: one item per output", 1 launch: lc_reduce_f32_a0632085dcc4a8a9 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
/* lazycl reduce kernel: 2 fused ops; reduce: one item per output. */
__kernel void lc_reduce_f32_a0632085dcc4a8a9(
    __global float *restrict out0,
    __global float *restrict out1,
    __global const float *restrict a0, const long a0_o,
    const long n0, const long M)
{
    const long m = get_global_id(0);
    if (m >= M) return;
    float s0_a = -INFINITY;
    float s1_a = -INFINITY; double s1_b = 0;
    long r = 0;
    for (long i0 = 0; i0 < n0; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        if (v0 > s0_a || isnan(v0)) s0_a = v0;
        if (v0 > s1_a) { s1_b *= exp((double)s1_a - (double)v0); s1_a = v0; }
        if (v0 != -INFINITY) s1_b += (double)exp(v0 - s1_a);
        r++;
    }
    const float v1 = (float)s0_a; /* result of max */
    const float v2 = (float)(s1_a == -INFINITY ? (double)NAN : s1_b); /* result of sumexp */
    out0[0] = v1;
    out1[0] = v2;
}

/* ---- kernel 1: schedule "map 1-d, one item per element", 1 launch: lc_map_f32_4de01ada16acee2d */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 5 fused ops; map 1-d, one item per element. */
__kernel void lc_map_f32_4de01ada16acee2d(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    __global const float *restrict a2, const long a2_o,
    const long n0)
{
    const long i0 = get_global_id(0);
    if (i0 >= n0) return;
    const float v0 = a0[a0_o + i0]; /* buffer */
    const float v1 = a1[a1_o]; /* max */
    const float v2 = (v0 - v1); /* subtract */
    const float v3 = (exp(v2)); /* exp */
    const float v4 = a2[a2_o]; /* sumexp */
    const float v5 = ((v3 / v4)); /* true_divide */
    out0[i0] = v5;
}

