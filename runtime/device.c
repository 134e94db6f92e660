/* device.c: discovery of every OpenCL platform and device, selection by filter string.
 *
 * Devices are discovered once (pthread_once) and live until the process
 * exits; each has its own context, created at discovery. A device whose
 * context cannot be created is left out (and logged at debug level 1).
 */
#include "runtime/cl_util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static struct lc_error init_err;   /* the outcome of discovery, kept for every caller */
static struct lc_device **devices;
static size_t n_devices;
/* Devices and platforms discovery left out, and why (written once, under init_once). */
static char skipped[600];

static void note_skipped(const char *what, const char *why)
{
    size_t n = strlen(skipped);
    if (n + 8 < sizeof skipped)
        snprintf(skipped + n, sizeof skipped - n, "%s%s: %s", n ? "; " : "", what, why);
}

/* ---- discovery ------------------------------------------------------------------ */

static void platform_str(cl_platform_id p, cl_platform_info what, char *buf, size_t n)
{
    buf[0] = '\0';
    if (clGetPlatformInfo(p, what, n, buf, NULL) != CL_SUCCESS)
        buf[0] = '\0';
    buf[n - 1] = '\0';
}

/* A string property; any error (an old driver that lacks it) reads as "". */
static void device_str(cl_device_id d, cl_device_info what, char *buf, size_t n)
{
    size_t need = 0;
    buf[0] = '\0';
    if (clGetDeviceInfo(d, what, 0, NULL, &need) != CL_SUCCESS || need == 0)
        return;
    if (need <= n) {
        if (clGetDeviceInfo(d, what, n, buf, NULL) != CL_SUCCESS)
            buf[0] = '\0';
    } else {
        char *tmp = malloc(need);
        if (tmp && clGetDeviceInfo(d, what, need, tmp, NULL) == CL_SUCCESS) {
            memcpy(buf, tmp, n - 1);
            buf[n - 1] = '\0';
        }
        free(tmp);
    }
    buf[n - 1] = '\0';
    /* Trim trailing spaces some drivers leave. */
    size_t len = strlen(buf);
    while (len && isspace((unsigned char)buf[len - 1]))
        buf[--len] = '\0';
}

static uint64_t device_u64(cl_device_id d, cl_device_info what)
{
    cl_ulong v = 0;
    if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static uint32_t device_u32(cl_device_id d, cl_device_info what)
{
    cl_uint v = 0;
    if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static int lc_type_of(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU)
        return LC_DEVICE_GPU;
    if (t & CL_DEVICE_TYPE_CPU)
        return LC_DEVICE_CPU;
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return LC_DEVICE_ACCELERATOR;
    return LC_DEVICE_OTHER;
}

static const char *type_word(int type)
{
    switch (type) {
    case LC_DEVICE_CPU: return "cpu";
    case LC_DEVICE_GPU: return "gpu";
    case LC_DEVICE_ACCELERATOR: return "accelerator";
    default: return "*";
    }
}

/* Does the device match platform and type? The platform part is looked for
 * in the platform name and in the platform vendor ("pocl" is in the vendor
 * "The pocl project" of the platform "Portable Computing Language"). */
static int device_matches(const struct lc_filter *f, const struct lc_device *d)
{
    return lc_filter_match(f, d->info.platform_name, d->info.type) ||
           (f->platform[0] && lc_filter_match(f, d->platform_vendor, d->info.type));
}

/* A short lower-case word for the platform, used in filter strings. */
static void platform_token(const struct lc_device *d, char *out, size_t n)
{
    static const struct { const char *needle, *token; } known[] = {
        {"pocl", "pocl"}, {"portable computing language", "pocl"}, {"nvidia", "nvidia"},
        {"intel", "intel"}, {"advanced micro devices", "amd"}, {"amd", "amd"},
        {"rusticl", "rusticl"}, {"clover", "clover"}, {"apple", "apple"},
    };
    char hay[600];
    snprintf(hay, sizeof hay, "%s\n%s", d->info.platform_name, d->platform_vendor);
    for (char *p = hay; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strstr(hay, known[i].needle)) {
            snprintf(out, n, "%s", known[i].token);
            return;
        }
    }
    /* Otherwise the first word of the platform name, letters and digits only. */
    size_t j = 0;
    for (const char *p = d->info.platform_name; *p && j + 1 < n; p++) {
        if (isalnum((unsigned char)*p))
            out[j++] = (char)tolower((unsigned char)*p);
        else if (j)
            break;
    }
    out[j] = '\0';
    if (!j)
        snprintf(out, n, "%s", "*");
}

/* Does the device's extension string list `name`, as a whole word (cl_khr_spirv_* are not
 * cl_khr_spir)? */
static int ext_listed(const char *ext, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = ext; (p = strstr(p, name)) != NULL; p += n)
        if ((p == ext || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* PoCL takes SPIR 1.2 bitcode (cl_khr_spir) from the LLVM it was built on, which its
 * platform version names ("OpenCL 3.0 PoCL 3.1+debian  Linux, ..., LLVM 15.0.6, ..."):
 * that LLVM's major version, or 0 (not PoCL, no cl_khr_spir, no LLVM named). */
static int pocl_spir_llvm(const char *pname, const char *pversion, const char *ext)
{
    if (strcmp(pname, "Portable Computing Language") != 0 || !ext_listed(ext, "cl_khr_spir"))
        return 0;
    const char *l = strstr(pversion, "LLVM ");
    int major = 0;
    return l && sscanf(l + 5, "%d", &major) == 1 && major > 0 ? major : 0;
}

/* Read what d's OpenCL device is (no context yet). */
static void device_fill(struct lc_device *d, cl_platform_id p, int pidx, const char *pname,
                        const char *pvendor, const char *pversion, cl_device_id id)
{
    struct lc_device_info *in = &d->info;
    d->platform = p;
    d->id = id;
    snprintf(in->platform_name, sizeof in->platform_name, "%s", pname);
    snprintf(in->platform_version, sizeof in->platform_version, "%s", pversion);
    snprintf(d->platform_vendor, sizeof d->platform_vendor, "%s", pvendor);
    device_str(id, CL_DEVICE_NAME, in->name, sizeof in->name);
    device_str(id, CL_DEVICE_VENDOR, in->vendor, sizeof in->vendor);
    device_str(id, CL_DRIVER_VERSION, in->driver_version, sizeof in->driver_version);
    device_str(id, CL_DEVICE_OPENCL_C_VERSION, in->opencl_c_version, sizeof in->opencl_c_version);
    device_str(id, CL_DEVICE_IL_VERSION, in->il_version, sizeof in->il_version);
    in->takes_spirv = strstr(in->il_version, "SPIR-V") != NULL;
    cl_device_type t = 0;
    if (clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof t, &t, NULL) != CL_SUCCESS)
        t = 0;
    in->type = lc_type_of(t);
    cl_device_fp_config fp = 0;
    if (clGetDeviceInfo(id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL) != CL_SUCCESS)
        fp = 0;
    char ext[4096];
    device_str(id, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
    if (!fp)
        fp = strstr(ext, "cl_khr_fp64") != NULL;
    in->fp64 = fp != 0;
    in->spir_llvm = pocl_spir_llvm(pname, pversion, ext);
    in->vec_len_hint = ext_listed(ext, "cl_intel_vec_len_hint");
    in->compute_units = device_u32(id, CL_DEVICE_MAX_COMPUTE_UNITS);
    in->global_mem = device_u64(id, CL_DEVICE_GLOBAL_MEM_SIZE);
    in->local_mem = device_u64(id, CL_DEVICE_LOCAL_MEM_SIZE);
    in->max_alloc = device_u64(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    size_t wg = 0;
    if (clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL) != CL_SUCCESS)
        wg = 1;
    in->max_work_group = wg;
    in->pref_vec_char = device_u32(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR);
    in->pref_vec_short = device_u32(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT);
    in->pref_vec_int = device_u32(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT);
    in->pref_vec_long = device_u32(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG);
    in->pref_vec_float = device_u32(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT);
    in->pref_vec_double = device_u32(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE);
    in->mem_base_addr_align = device_u32(id, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    d->address_bits = device_u32(id, CL_DEVICE_ADDRESS_BITS);
    if (d->address_bits != 32)
        d->address_bits = 64;
    in->platform_index = pidx;
    if (sscanf(pversion, "OpenCL %d.%d", &d->platform_cl_major, &d->platform_cl_minor) != 2) {
        d->platform_cl_major = 1;
        d->platform_cl_minor = 2;
    }
}

/* The in-thread companion of d (in d's context, already made): a device record of its own
 * with a kernel cache, never listed. NULL when out of memory. */
static struct lc_device *companion_new(struct lc_device *d, cl_platform_id p, int pidx,
                                       const char *pname, const char *pvendor,
                                       const char *pversion, cl_device_id id)
{
    struct lc_device *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    device_fill(c, p, pidx, pname, pvendor, pversion, id);
    struct lc_error e = {0};
    if (lc_kcache_init(c, &e) != LC_OK) {
        lc_error_clear(&e);
        free(c);
        return NULL;
    }
    clRetainContext(d->ctx);
    c->ctx = d->ctx;
    c->pool = d->pool;   /* never allocates: buffers belong to the parent */
    c->parent = d;
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

/* `companion`: PoCL's basic device to pair with this pthread device, or NULL. */
static lc_status add_device(cl_platform_id p, int pidx, const char *pname, const char *pvendor,
                            const char *pversion, cl_device_id id, cl_device_id companion)
{
    struct lc_device *d = calloc(1, sizeof *d);
    if (!d)
        return LC_ERR_NOMEM;
    struct lc_device_info *in = &d->info;
    device_fill(d, p, pidx, pname, pvendor, pversion, id);

    cl_int rc;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
    cl_device_id both[2] = {id, companion};
    d->ctx = clCreateContext(props, companion ? 2 : 1, both, NULL, NULL, &rc);
    if (rc != CL_SUCCESS && companion) {
        LC_LOG(1, "device '%s': no context with its in-thread device (%s); it runs threaded only",
               in->name, lc_cl_strerror(rc));
        companion = NULL;
        d->ctx = clCreateContext(props, 1, &id, NULL, NULL, &rc);
    }
    if (rc != CL_SUCCESS) {
        LC_LOG(1, "skipping device '%s' (%s): clCreateContext failed with %s", in->name, pname,
               lc_cl_strerror(rc));
        char what[300], why[96];
        snprintf(what, sizeof what, "'%s' (%s)", in->name, pname);
        snprintf(why, sizeof why, "clCreateContext failed with %s", lc_cl_strerror(rc));
        note_skipped(what, why);
        free(d);
        return LC_OK;
    }
    pthread_mutex_init(&d->lock, NULL);
    struct lc_error e = {0};
    if (lc_pool_init(d, &e) != LC_OK || lc_kcache_init(d, &e) != LC_OK) {
        lc_error_clear(&e);
        clReleaseContext(d->ctx);
        free(d);
        return LC_ERR_NOMEM;
    }
    if (companion && !(d->inthread = companion_new(d, p, pidx, pname, pvendor, pversion, companion))) {
        clReleaseContext(d->ctx);
        free(d);
        return LC_ERR_NOMEM;
    }
    struct lc_device **grown = realloc(devices, (n_devices + 1) * sizeof *grown);
    if (!grown) {
        clReleaseContext(d->ctx);
        free(d);
        return LC_ERR_NOMEM;
    }
    devices = grown;
    in->index = (int)n_devices;
    devices[n_devices++] = d;
    return LC_OK;
}

/* The ocl-icd loader splits OCL_ICD_FILENAMES with strtok on the string that
 * getenv returns, which is the process environment itself: after the first
 * clGetPlatformIDs the variable holds only its first entry, and every child
 * process (subprocess, multiprocessing) loses the other drivers. Seen with
 * "libpocl.so.2:libnvidia-opencl.so.1" on the GPU machine: children saw PoCL
 * only. Discovery puts the value back. */
static void discover_platforms(void);

static void discover(void)
{
    const char *v = getenv("OCL_ICD_FILENAMES");
    char *saved = v ? strdup(v) : NULL;
    /* PoCL lists its basic device only when POCL_DEVICES names it; lazycl asks for it
     * beside pthread (inthread.c), for this process only. */
    int asked = lc_inthread_ask();
    discover_platforms();
    if (asked)
        unsetenv("POCL_DEVICES");
    if (saved) {
        const char *now = getenv("OCL_ICD_FILENAMES");
        if (!now || strcmp(now, saved) != 0) {
            LC_LOG(1, "the OpenCL ICD loader changed OCL_ICD_FILENAMES to \"%s\"; restored \"%s\"",
                   now ? now : "", saved);
            setenv("OCL_ICD_FILENAMES", saved, 1);
        }
        free(saved);
    }
}

static void discover_platforms(void)
{
    cl_uint np = 0;
    cl_int rc = clGetPlatformIDs(0, NULL, &np);
    if (rc == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (rc == CL_SUCCESS && np == 0)) {
        lc_error_set(&init_err, LC_ERR_DEVICE, "no OpenCL platform found: is an ICD registered in "
                     "/etc/OpenCL/vendors (or OCL_ICD_VENDORS)?");
        return;
    }
    if (rc != CL_SUCCESS) {
        lc_cl_fail(&init_err, rc, "clGetPlatformIDs", NULL);
        return;
    }
    cl_platform_id *plats = calloc(np, sizeof *plats);
    if (!plats) {
        lc_error_set(&init_err, LC_ERR_NOMEM, "out of memory listing OpenCL platforms");
        return;
    }
    rc = clGetPlatformIDs(np, plats, NULL);
    if (rc != CL_SUCCESS) {
        lc_cl_fail(&init_err, rc, "clGetPlatformIDs", NULL);
        free(plats);
        return;
    }
    for (cl_uint i = 0; i < np; i++) {
        char pname[256], pvendor[256], pversion[256];
        platform_str(plats[i], CL_PLATFORM_NAME, pname, sizeof pname);
        platform_str(plats[i], CL_PLATFORM_VENDOR, pvendor, sizeof pvendor);
        platform_str(plats[i], CL_PLATFORM_VERSION, pversion, sizeof pversion);
        cl_uint nd = 0;
        rc = clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        if (rc != CL_SUCCESS || nd == 0) {
            LC_LOG(1, "platform '%s' has no usable device (%s)", pname, lc_cl_strerror(rc));
            char what[300];
            snprintf(what, sizeof what, "platform '%s'", pname);
            note_skipped(what, rc != CL_SUCCESS ? lc_cl_strerror(rc) : "no devices");
            continue;
        }
        cl_device_id *ids = calloc(nd, sizeof *ids);
        if (!ids || clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, ids, NULL) != CL_SUCCESS) {
            free(ids);
            continue;
        }
        cl_device_id *pair = calloc(nd, sizeof *pair);
        if (!pair) {
            free(ids);
            continue;
        }
        lc_inthread_pairs(ids, pair, nd);
        for (cl_uint j = 0; j < nd; j++) {
            if (pair[j] == ids[j])
                continue;   /* an in-thread companion: it comes with its pthread device */
            if (add_device(plats[i], (int)i, pname, pvendor, pversion, ids[j], pair[j]) != LC_OK) {
                free(pair);
                lc_error_set(&init_err, LC_ERR_NOMEM, "out of memory setting up OpenCL devices");
                free(ids);
                free(plats);
                return;
            }
        }
        free(pair);
        free(ids);
    }
    free(plats);
    if (n_devices == 0) {
        lc_error_set(&init_err, LC_ERR_DEVICE, "no OpenCL device found (%u platform%s, none with a "
                     "usable device)", np, np == 1 ? "" : "s");
        return;
    }

    /* Ranks among devices of the same type, then the filter string of each:
     * its platform token, its type and its rank among the devices that the
     * token and type match. */
    for (size_t i = 0; i < n_devices; i++) {
        struct lc_device *d = devices[i];
        int rank = 0;
        for (size_t j = 0; j < i; j++)
            rank += devices[j]->info.type == d->info.type;
        d->info.index_in_type = rank;

        char tok[64];
        platform_token(d, tok, sizeof tok);
        struct lc_filter f;
        memset(&f, 0, sizeof f);
        f.type = d->info.type;
        f.index = -1;
        if (strcmp(tok, "*") != 0)
            snprintf(f.platform, sizeof f.platform, "%s", tok);
        rank = 0;
        for (size_t j = 0; j < i; j++)
            rank += device_matches(&f, devices[j]);
        if (f.platform[0])
            snprintf(d->filter, sizeof d->filter, "%s:%s:%d", tok, type_word(d->info.type), rank);
        else
            snprintf(d->filter, sizeof d->filter, "%s:%d", type_word(d->info.type), rank);
        if (d->inthread)
            snprintf(d->inthread->filter, sizeof d->inthread->filter, "%.140s in-thread", d->filter);
    }

    if (lc_debug_level() >= 1) {
        lc_log(1, "%zu OpenCL device%s found:", n_devices, n_devices == 1 ? "" : "s");
        for (size_t i = 0; i < n_devices; i++) {
            const struct lc_device *d = devices[i];
            lc_log(1, "  [%zu] %-16s %s (%s, %s), %u CU, %.1f GiB, max alloc %.1f GiB%s%s%s", i,
                   d->filter, d->info.name, d->info.platform_name, d->info.driver_version,
                   d->info.compute_units, (double)d->info.global_mem / (1u << 30),
                   (double)d->info.max_alloc / (1u << 30), d->info.fp64 ? ", fp64" : "",
                   d->info.takes_spirv ? ", IL: " : "", d->info.il_version);
        }
    }
}

lc_status lc_runtime_init(struct lc_error *e)
{
    pthread_once(&init_once, discover);
    if (init_err.code != LC_OK)
        return lc_error_set(e, init_err.code, "%s", init_err.msg);
    return LC_OK;
}

size_t lc_device_count(void)
{
    pthread_once(&init_once, discover);
    return n_devices;
}

lc_device_t lc_device_get(size_t i)
{
    pthread_once(&init_once, discover);
    return i < n_devices ? devices[i] : NULL;
}

const struct lc_device_info *lc_device_info(lc_device_t d)
{
    return &d->info;
}

void lc_device_filter_string(lc_device_t d, char *buf, size_t n)
{
    snprintf(buf, n, "%s", d->filter);
}

/* ---- selection ------------------------------------------------------------------ */

/* "pocl:cpu:0 (pthread-haswell-..., Portable Computing Language), ..." */
static void list_devices(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n_devices && len < n; i++) {
        int w = snprintf(buf + len, n - len, "%s%s (%s, %s)", i ? "; " : "", devices[i]->filter,
                         devices[i]->info.name, devices[i]->info.platform_name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

lc_status lc_device_select(const char *filter, lc_device_t *out, struct lc_error *e)
{
    LC_TRY(lc_runtime_init(e));
    struct lc_filter f;
    LC_TRY(lc_filter_parse(filter, &f, e));
    int seen = 0;
    for (size_t i = 0; i < n_devices; i++) {
        if (!device_matches(&f, devices[i]))
            continue;
        if (f.index < 0 || seen == f.index) {
            *out = devices[i];
            return LC_OK;
        }
        seen++;
    }
    char list[700];
    list_devices(list, sizeof list);
    if (seen > 0)
        return lc_error_set(e, LC_ERR_INVALID, "no device matches \"%s\": only %d device%s match%s "
                            "(indices start at 0); devices: %s", filter, seen, seen == 1 ? "" : "s",
                            seen == 1 ? "es" : "", list);
    return lc_error_set(e, LC_ERR_INVALID, "no device matches \"%s\"; devices: %s%s%s", filter, list,
                        skipped[0] ? "; left out: " : "", skipped);
}

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static struct lc_error default_err;
static lc_device_t default_dev;

static void pick_default(void)
{
    if (lc_runtime_init(&default_err) != LC_OK)
        return;
    const char *env = getenv("LAZYCL_DEVICE");
    if (env && *env) {
        if (lc_device_select(env, &default_dev, &default_err) != LC_OK) {
            char msg[sizeof default_err.msg];
            snprintf(msg, sizeof msg, "%s", default_err.msg);
            lc_error_set(&default_err, default_err.code, "LAZYCL_DEVICE: %s", msg);
        }
        return;
    }
    for (size_t i = 0; i < n_devices && !default_dev; i++)
        if (devices[i]->info.type == LC_DEVICE_GPU)
            default_dev = devices[i];
    for (size_t i = 0; i < n_devices && !default_dev; i++)
        if (devices[i]->info.type == LC_DEVICE_CPU)
            default_dev = devices[i];
    if (!default_dev)
        default_dev = devices[0];
}

lc_status lc_device_default(lc_device_t *out, struct lc_error *e)
{
    pthread_once(&default_once, pick_default);
    if (!default_dev)
        return lc_error_set(e, default_err.code ? default_err.code : LC_ERR_DEVICE, "%s",
                            default_err.msg[0] ? default_err.msg : "no default device");
    *out = default_dev;
    return LC_OK;
}
