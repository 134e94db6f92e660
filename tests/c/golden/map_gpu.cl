/* ---- kernel 0: schedule "map 1-d, four elements per item (vector loads)", 1 launch: lc_map_f32_f8f0bbf98c6db45f */
#pragma OPENCL FP_CONTRACT OFF
/* lazycl map kernel: 3 fused ops; map 1-d, four elements per item (vector loads). */
__kernel void lc_map_f32_f8f0bbf98c6db45f(
    __global float *restrict out0,
    __global const float *restrict a0, const long a0_o,
    __global const float *restrict a1, const long a1_o,
    const float a2_v,
    const long n0)
{
    const long i0 = get_global_id(0);
    if (i0 >= n0) return;
    const long base = i0 * 4;
    if (base + 4 <= n0) {
        const float4 t0 = *(__global const float4 *)(a0 + a0_o + base);
        const float4 t1 = *(__global const float4 *)(a1 + a1_o + base);
        float4 ov0;
        {
            const float v0 = t0.s0; /* buffer */
            const float v1 = (exp(v0)); /* exp */
            const float v2 = t1.s0; /* buffer */
            const float v3 = (v1 * v2); /* multiply */
            const float v4 = a2_v; /* full */
            const float v5 = (v3 + v4); /* add */
            ov0.s0 = v5;
        }
        {
            const float v0 = t0.s1; /* buffer */
            const float v1 = (exp(v0)); /* exp */
            const float v2 = t1.s1; /* buffer */
            const float v3 = (v1 * v2); /* multiply */
            const float v4 = a2_v; /* full */
            const float v5 = (v3 + v4); /* add */
            ov0.s1 = v5;
        }
        {
            const float v0 = t0.s2; /* buffer */
            const float v1 = (exp(v0)); /* exp */
            const float v2 = t1.s2; /* buffer */
            const float v3 = (v1 * v2); /* multiply */
            const float v4 = a2_v; /* full */
            const float v5 = (v3 + v4); /* add */
            ov0.s2 = v5;
        }
        {
            const float v0 = t0.s3; /* buffer */
            const float v1 = (exp(v0)); /* exp */
            const float v2 = t1.s3; /* buffer */
            const float v3 = (v1 * v2); /* multiply */
            const float v4 = a2_v; /* full */
            const float v5 = (v3 + v4); /* add */
            ov0.s3 = v5;
        }
        *(__global float4 *)(out0 + base) = ov0;
        return;
    }
    for (long i0 = base; i0 < n0; i0++) {
        const float v0 = a0[a0_o + i0]; /* buffer */
        const float v1 = (exp(v0)); /* exp */
        const float v2 = a1[a1_o + i0]; /* buffer */
        const float v3 = (v1 * v2); /* multiply */
        const float v4 = a2_v; /* full */
        const float v5 = (v3 + v4); /* add */
        out0[i0] = v5;
    }
}

