/* build.c: OpenCL programs built from source or from SPIR-V, and what a failed build reports
 * (LC_ERR_COMPILE: the first error line, then the numbered source and the log in e->detail).
 */
#include "runtime/cl_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Split options on white space into argv (no quoting). Returns the count;
 * `store` holds the copy the pointers point into. */
int lc_split_options(const char *options, char *store, size_t store_n, char **argv, int max)
{
    snprintf(store, store_n, "%s", options);
    int n = 0;
    for (char *t = strtok(store, " \t\n"); t && n < max; t = strtok(NULL, " \t\n"))
        argv[n++] = t;
    return n;
}

/* The source with line numbers, then the build log: e->detail of a build failure. */
static void set_build_detail(struct lc_error *e, const char *source, const char *what, const char *log)
{
    size_t cap = strlen(source) * 2 + strlen(log) + 4096, len = 0;
    char *t = malloc(cap);
    if (!t)
        return;
    int line = 1;
    const char *p = source;
    len += (size_t)snprintf(t + len, cap - len, "--- kernel source ---\n");
    while (*p && len + 16 < cap) {
        const char *nl = strchr(p, '\n');
        size_t ll = nl ? (size_t)(nl - p) : strlen(p);
        if (len + ll + 16 >= cap)
            break;
        len += (size_t)snprintf(t + len, cap - len, "%4d | %.*s\n", line++, (int)ll, p);
        p += ll + (nl ? 1 : 0);
    }
    snprintf(t + len, cap - len, "--- build log (%s) ---\n%s", what, log);
    lc_error_set_detail(e, t);
    free(t);
}

/* The first line of the log that says "error", for the one-line message. */
static void first_error_line(const char *log, char *out, size_t n)
{
    const char *p = strstr(log, "error");
    if (!p)
        p = log;
    while (p > log && p[-1] != '\n')
        p--;
    const char *nl = strchr(p, '\n');
    int ll = (int)(nl ? (size_t)(nl - p) : strlen(p));
    snprintf(out, n, "%.*s", ll, p);
}

lc_status lc_build_failed(struct lc_error *e, struct lc_device *d, const char *name,
                          const char *source, const char *what, const char *log)
{
    char first[400];
    first_error_line(log, first, sizeof first);
    lc_error_set(e, LC_ERR_COMPILE, "kernel '%s' failed to build for device '%s' (%s)%s%s", name,
                 d->info.name, what, first[0] ? ": " : "", first);
    set_build_detail(e, source, what, log);
    return LC_ERR_COMPILE;
}

static char *program_log(struct lc_device *d, cl_program prog)
{
    size_t n = 0;
    if (clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) != CL_SUCCESS)
        return strdup("(no build log)");
    char *log = malloc(n + 1);
    if (!log)
        return NULL;
    if (clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, n, log, NULL) != CL_SUCCESS)
        log[0] = '\0';
    log[n] = '\0';
    return log;
}

/* clBuildProgram; on failure LC_ERR_COMPILE with the log and the program released. */
static lc_status build_program(struct lc_device *d, cl_program prog, const char *opts, const char *name,
                               const char *source, const char *what, struct lc_error *e)
{
    cl_int rc = clBuildProgram(prog, 1, &d->id, opts, NULL, NULL);
    if (rc == CL_SUCCESS)
        return LC_OK;
    char *log = program_log(d, prog);
    lc_status st;
    if (rc == CL_BUILD_PROGRAM_FAILURE || rc == CL_COMPILER_NOT_AVAILABLE ||
        rc == CL_INVALID_BUILD_OPTIONS) {
        char both[64];
        snprintf(both, sizeof both, "%s, %s", what, lc_cl_strerror(rc));
        st = lc_build_failed(e, d, name, source, both, log ? log : "");
    } else {
        st = lc_cl_fail(e, rc, "clBuildProgram", d);
    }
    free(log);
    clReleaseProgram(prog);
    return st;
}

/* Does the device's OpenCL C version reach 1.2? ("OpenCL C 1.2 PoCL", "OpenCL C 3.0") */
static int device_has_cl12(const struct lc_device *d)
{
    int maj = 0, min = 0;
    if (sscanf(d->info.opencl_c_version, "OpenCL C %d.%d", &maj, &min) != 2)
        return 0;
    return maj > 1 || (maj == 1 && min >= 2);
}

/* The options the driver gets: from source, the options (with -cl-std=CL1.2
 * added when the device has OpenCL C 1.2 and they choose none); from
 * SPIR-V or SPIR only the -cl-* options other than -cl-std (-D, -I and -cl-std went
 * to clang), after "-x spir -spir-std=1.2" for SPIR. A binary from the disk cache is
 * built with the same string. */
void lc_build_driver_options(const struct lc_device *d, const char *options, int route, char *out,
                             size_t n)
{
    if (route == LC_ROUTE_SOURCE) {
        if (!strstr(options, "-cl-std=") && device_has_cl12(d))
            snprintf(out, n, "-cl-std=CL1.2%s%s", options[0] ? " " : "", options);
        else
            snprintf(out, n, "%s", options);
        return;
    }
    char store[4096];
    char *argv[140];
    int k = lc_split_options(options, store, sizeof store, argv, 140);
    size_t len = (size_t)snprintf(out, n, "%s", route == LC_ROUTE_SPIR ? "-x spir -spir-std=1.2" : "");
    for (int i = 0; i < k && len < n; i++)
        if (strncmp(argv[i], "-cl-", 4) == 0 && strncmp(argv[i], "-cl-std=", 8) != 0)
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? " " : "", argv[i]);
}

lc_status lc_build_source(struct lc_device *d, const char *source, const char *name,
                          const char *options, cl_program *out, struct lc_error *e)
{
    cl_int rc;
    cl_program prog = clCreateProgramWithSource(d->ctx, 1, &source, NULL, &rc);
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clCreateProgramWithSource", d);
    char opts[4096];
    lc_build_driver_options(d, options, LC_ROUTE_SOURCE, opts, sizeof opts);
    LC_TRY(build_program(d, prog, opts, name, source, "from source", e));
    *out = prog;
    return LC_OK;
}

lc_status lc_build_clang(struct lc_device *d, const char *source, const char *name,
                         const char *options, int route, cl_program *out, char **bits,
                         size_t *bits_n, struct lc_error *e)
{
    int spir = route == LC_ROUTE_SPIR;
    LC_TRY(lc_clang_compile(d, source, name, options, spir, bits, bits_n, e));
    cl_int rc;
    cl_program prog;
    if (spir) {
        const unsigned char *b = (const unsigned char *)*bits;
        cl_int status;
        prog = clCreateProgramWithBinary(d->ctx, 1, &d->id, bits_n, &b, &status, &rc);
    } else {
        prog = clCreateProgramWithIL(d->ctx, *bits, *bits_n, &rc);
    }
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, spir ? "clCreateProgramWithBinary (SPIR)" : "clCreateProgramWithIL", d);
    char opts[4096];
    lc_build_driver_options(d, options, route, opts, sizeof opts);
    LC_TRY(build_program(d, prog, opts, name, source, spir ? "SPIR" : "SPIR-V", e));
    *out = prog;
    return LC_OK;
}

/* Write <name>.cl, <name>.spv or <name>.bc into LAZYCL_DUMP. */
void lc_build_dump(const char *name, const char *source, int route, const char *bits,
                   size_t bits_n)
{
    const char *dir = lc_dump_dir();
    if (!dir)
        return;
    mkdir(dir, 0755);
    char path[4600];
    const char *ext = !bits ? "cl" : route == LC_ROUTE_SPIR ? "bc" : "spv";
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    int bad = bits ? lc_write_file(path, bits, bits_n) : lc_write_file(path, source, strlen(source));
    if (bad != 0)
        LC_LOG(1, "cannot write %s: %s", path, strerror(errno));
}
