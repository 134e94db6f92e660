/* clblast_sgemm.c: CLBlast's SGEMM (n x n, row-major, no transposes) timed on the first GPU
 * (or the device whose name contains argv[2]): the anchor lazycl's products are measured
 * against where pyclblast is not installed (the GPU machine). Prints the best of 5 runs.
 *
 *   cc -O2 scripts/clblast_sgemm.c -lclblast -lOpenCL -o /tmp/clblast_sgemm
 *   /tmp/clblast_sgemm 8192 [device-name-part]
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 4096;
    const char *want = argc > 2 ? argv[2] : NULL;
    cl_platform_id plats[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    cl_device_id dev = NULL;
    char name[256] = "";
    for (cl_uint p = 0; p < np && !dev; p++) {
        cl_device_id ds[8];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], want ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 8, ds, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && !dev; d++) {
            clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof name, name, NULL);
            if (!want || strstr(name, want))
                dev = ds[d];
        }
    }
    if (!dev) {
        fprintf(stderr, "no device\n");
        return 1;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    size_t bytes = n * n * sizeof(float);
    float *h = malloc(bytes);
    for (size_t i = 0; i < n * n; i++)
        h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    double best = 1e30;
    for (int rep = 0; rep < 6; rep++) {
        double t0 = now();
        CLBlastStatusCode s = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                                           CLBlastTransposeNo, n, n, n, 1.0f, a, 0, n, b, 0, n,
                                           0.0f, c, 0, n, &q, NULL);
        clFinish(q);
        double t = now() - t0;
        if (s != CLBlastSuccess) {
            fprintf(stderr, "CLBlastSgemm: %d\n", (int)s);
            return 1;
        }
        if (rep > 0 && t < best)
            best = t;
    }
    printf("clblast sgemm %zu on %s: %.3f ms = %.1f GFLOP/s\n", n, name, best * 1e3,
           2.0 * n * n * n / best / 1e9);
    free(h);
    return 0;
}
