/* program.c: OpenCL C -> program (from source, or SPIR-V through clang), kernel caches.
 *
 * lc_kernel_get looks in three places, in order:
 *   1. the device's memory cache: a hash table of programs keyed by the
 *      cache key, each with the kernels made from it so far;
 *   2. the disk cache (diskcache.c): a device binary, loaded with
 *      clCreateProgramWithBinary + clBuildProgram;
 *   3. a build: SPIR-V (clang-15 -cc1 ... -emit-llvm-bc, llvm-spirv-15,
 *      clCreateProgramWithIL) when the device takes SPIR-V and LAZYCL_BUILD
 *      allows it, else clCreateProgramWithSource. The binary then goes to disk.
 * The key (cachefile.c) covers the source, the options, the device, its
 * driver and the compiler route, so a route change never reuses a binary.
 *
 * Loads and builds of one device run one at a time under its build lock
 * (so a program is never built twice); lookups take only the table lock.
 */
#include "runtime/cl_util.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* diskcache.c */
cl_program lc_disk_load(struct lc_device *d, struct lc_cache_key key, const char *options);
void lc_disk_store(struct lc_device *d, struct lc_cache_key key, cl_program prog);

/* ---- the memory cache ----------------------------------------------------------- */

struct kc_entry {
    struct lc_cache_key key;
    cl_program prog;
    struct lc_kernel *kernels;
    struct kc_entry *next;
};

struct lc_kcache {
    pthread_mutex_t lock;         /* guards the table and each entry's kernel list */
    pthread_mutex_t build_lock;   /* held while loading or building a program */
    struct kc_entry **tab;
    size_t cap, n;   /* cap is a power of two */
};

lc_status lc_kcache_init(struct lc_device *d, struct lc_error *e)
{
    struct lc_kcache *c = calloc(1, sizeof *c);
    if (!c)
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    c->cap = 64;
    c->tab = calloc(c->cap, sizeof *c->tab);
    if (!c->tab) {
        free(c);
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->build_lock, NULL);
    d->kcache = c;
    return LC_OK;
}

/* Under c->lock. */
static struct kc_entry *kc_find(struct lc_kcache *c, struct lc_cache_key k)
{
    for (struct kc_entry *x = c->tab[k.lo & (c->cap - 1)]; x; x = x->next)
        if (x->key.lo == k.lo && x->key.hi == k.hi)
            return x;
    return NULL;
}

/* Under c->lock. Grows the table when it is full; a failed grow keeps the old one. */
static void kc_insert(struct lc_kcache *c, struct kc_entry *x)
{
    if (c->n >= c->cap) {
        size_t ncap = c->cap * 2;
        struct kc_entry **nt = calloc(ncap, sizeof *nt);
        if (nt) {
            for (size_t i = 0; i < c->cap; i++) {
                while (c->tab[i]) {
                    struct kc_entry *y = c->tab[i];
                    c->tab[i] = y->next;
                    y->next = nt[y->key.lo & (ncap - 1)];
                    nt[y->key.lo & (ncap - 1)] = y;
                }
            }
            free(c->tab);
            c->tab = nt;
            c->cap = ncap;
        }
    }
    size_t h = x->key.lo & (c->cap - 1);
    x->next = c->tab[h];
    c->tab[h] = x;
    c->n++;
}

/* The kernel `name` of the entry's program, made on first request. Under c->lock. */
static lc_status kc_kernel(struct lc_device *d, struct kc_entry *x, const char *name,
                           struct lc_kernel **out, struct lc_error *e)
{
    for (struct lc_kernel *k = x->kernels; k; k = k->next) {
        if (strcmp(k->name, name) == 0) {
            *out = k;
            return LC_OK;
        }
    }
    struct lc_kernel *k = calloc(1, sizeof *k);
    char *nm = strdup(name);
    if (!k || !nm) {
        free(k);
        free(nm);
        return lc_error_set(e, LC_ERR_NOMEM, "out of memory");
    }
    cl_int rc;
    k->k = clCreateKernel(x->prog, name, &rc);
    if (rc != CL_SUCCESS) {
        free(k);
        free(nm);
        if (rc == CL_INVALID_KERNEL_NAME)
            return lc_error_set(e, LC_ERR_INVALID, "the program has no kernel named '%s' (device '%s')",
                                name, d->info.name);
        return lc_cl_fail(e, rc, "clCreateKernel", d);
    }
    k->dev = d;
    k->name = nm;
    pthread_mutex_init(&k->lock, NULL);
    size_t v = 0;
    if (clGetKernelWorkGroupInfo(k->k, d->id, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof v,
                                 &v, NULL) != CL_SUCCESS || v == 0)
        v = 1;
    k->wg_multiple = v;
    v = 0;
    if (clGetKernelWorkGroupInfo(k->k, d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof v, &v, NULL) !=
            CL_SUCCESS || v == 0)
        v = d->info.max_work_group ? d->info.max_work_group : 1;
    k->max_wg = v;
    k->next = x->kernels;
    x->kernels = k;
    *out = k;
    return LC_OK;
}

size_t lc_kernel_wg_multiple(lc_kernel_t k)
{
    return k->wg_multiple;
}

size_t lc_kernel_max_wg(lc_kernel_t k)
{
    return k->max_wg;
}

/* ---- LAZYCL_BUILD and the SPIR-V tools ------------------------------------------ */

static pthread_once_t build_once = PTHREAD_ONCE_INIT;
static int build_mode = LC_BUILD_AUTO;
static char build_bad[128];                /* a bad LAZYCL_BUILD value, "" when fine */
static char clang_path[1024], spirv_path[1024];
static int tools_ok;
static char tools_id[512];                  /* "spirv:<clang version>;<llvm-spirv version>" */
static char tools_why[1024];                /* why the tools are not usable */

/* Run argv[0] (looked up in PATH) with stdout and stderr to `log` (appended).
 * Returns the exit status, or -1 when it could not be started. */
static int run_tool(char *const argv[], const char *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status) == 127 ? -1 : WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Read a whole file into a NUL-terminated malloc'd buffer (NULL on failure). */
static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len < cap)
            break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (buf) {
        buf[len] = '\0';
        if (n)
            *n = len;
    }
    return buf;
}

static int write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(data, 1, n, f) == n;
    ok &= fclose(f) == 0;
    return ok ? 0 : -1;
}

/* A fresh private temp dir for one build; "" on failure. */
static void make_tmpdir(char *out, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(out, n, "%s/lazycl-build-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(out))
        out[0] = '\0';
}

static void remove_tmpdir(const char *dir)
{
    static const char *const names[] = {"k.cl", "k.bc", "k.spv", "log"};
    char p[4200];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* The first line of `tool --version` (clang prints the version on line 1;
 * llvm-spirv on line 2, after "LLVM (http://llvm.org/):"). */
static int tool_version(const char *tool, char *out, size_t n)
{
    char dir[4096], log[4200];
    make_tmpdir(dir, sizeof dir);
    if (!dir[0])
        return -1;
    snprintf(log, sizeof log, "%s/log", dir);
    char *argv[] = {(char *)tool, "--version", NULL};
    int rc = run_tool(argv, log);
    char *text = rc == 0 ? read_file(log, NULL) : NULL;
    remove_tmpdir(dir);
    if (!text)
        return -1;
    out[0] = '\0';
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        while (*line == ' ')
            line++;
        if (strstr(line, "version")) {
            snprintf(out, n, "%s", line);
            break;
        }
    }
    if (!out[0])
        snprintf(out, n, "%s", "unknown version");
    free(text);
    return 0;
}

static void build_read_env(void)
{
    const char *m = getenv("LAZYCL_BUILD");
    if (!m || !*m || strcmp(m, "auto") == 0)
        build_mode = LC_BUILD_AUTO;
    else if (strcmp(m, "source") == 0)
        build_mode = LC_BUILD_SOURCE;
    else if (strcmp(m, "spirv") == 0)
        build_mode = LC_BUILD_SPIRV;
    else
        snprintf(build_bad, sizeof build_bad, "%s", m);

    const char *c = getenv("LAZYCL_CLANG"), *s = getenv("LAZYCL_LLVM_SPIRV");
    snprintf(clang_path, sizeof clang_path, "%s", c && *c ? c : "clang-15");
    snprintf(spirv_path, sizeof spirv_path, "%s", s && *s ? s : "llvm-spirv-15");
    if (build_mode == LC_BUILD_SOURCE || build_bad[0])
        return;   /* no need to look for the tools */
    char cv[200], sv[200];
    if (tool_version(clang_path, cv, sizeof cv) != 0) {
        snprintf(tools_why, sizeof tools_why, "'%.900s --version' failed (is clang-15 installed?)", clang_path);
    } else if (tool_version(spirv_path, sv, sizeof sv) != 0) {
        snprintf(tools_why, sizeof tools_why, "'%.900s --version' failed (is llvm-spirv-15 installed?)",
                 spirv_path);
    } else {
        tools_ok = 1;
        snprintf(tools_id, sizeof tools_id, "spirv:%s;%s", cv, sv);
    }
    if (!tools_ok)
        LC_LOG(1, "SPIR-V tools not usable, building from source: %s", tools_why);
}

/* ---- building ------------------------------------------------------------------- */

/* Split options on white space into argv (no quoting). Returns the count;
 * `store` holds the copy the pointers point into. */
static int split_options(const char *options, char *store, size_t store_n, char **argv, int max)
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

static lc_status build_failed(struct lc_error *e, struct lc_device *d, const char *name,
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
        st = build_failed(e, d, name, source, both, log ? log : "");
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
 * SPIR-V only the -cl-* options other than -cl-std (-D, -I and -cl-std went
 * to clang). A binary from the disk cache is built with the same string. */
static void driver_options(const struct lc_device *d, const char *options, int spirv, char *out, size_t n)
{
    if (!spirv) {
        if (!strstr(options, "-cl-std=") && device_has_cl12(d))
            snprintf(out, n, "-cl-std=CL1.2%s%s", options[0] ? " " : "", options);
        else
            snprintf(out, n, "%s", options);
        return;
    }
    char store[4096];
    char *argv[140];
    int k = split_options(options, store, sizeof store, argv, 140);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < k && len < n; i++)
        if (strncmp(argv[i], "-cl-", 4) == 0 && strncmp(argv[i], "-cl-std=", 8) != 0)
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? " " : "", argv[i]);
}

static lc_status build_source(struct lc_device *d, const char *source, const char *name,
                              const char *options, cl_program *out, struct lc_error *e)
{
    cl_int rc;
    cl_program prog = clCreateProgramWithSource(d->ctx, 1, &source, NULL, &rc);
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clCreateProgramWithSource", d);
    char opts[4096];
    driver_options(d, options, 0, opts, sizeof opts);
    LC_TRY(build_program(d, prog, opts, name, source, "from source", e));
    *out = prog;
    return LC_OK;
}

/* OpenCL C -> SPIR-V with clang + llvm-spirv. *spv is malloc'd. On failure
 * LC_ERR_COMPILE with the tools' output as the log. */
static lc_status compile_spirv(struct lc_device *d, const char *source, const char *name,
                               const char *options, char **spv, size_t *spv_n, struct lc_error *e)
{
    char dir[4096], cl[4200], bc[4200], sp[4200], log[4200];
    make_tmpdir(dir, sizeof dir);
    if (!dir[0])
        return lc_error_set(e, LC_ERR_IO, "cannot make a temporary directory for a SPIR-V build: %s",
                            strerror(errno));
    snprintf(cl, sizeof cl, "%s/k.cl", dir);
    snprintf(bc, sizeof bc, "%s/k.bc", dir);
    snprintf(sp, sizeof sp, "%s/k.spv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    lc_status st = LC_OK;
    if (write_file(cl, source, strlen(source)) != 0) {
        st = lc_error_set(e, LC_ERR_IO, "cannot write %s: %s", cl, strerror(errno));
        goto done;
    }
    char store[4096];
    char *argv[160];
    int n = 0;
    argv[n++] = clang_path;
    argv[n++] = "-cc1";
    argv[n++] = "-triple";
    argv[n++] = d->address_bits == 32 ? "spir-unknown-unknown" : "spir64-unknown-unknown";
    if (!strstr(options, "-cl-std="))
        argv[n++] = "-cl-std=CL1.2";
    argv[n++] = "-emit-llvm-bc";
    argv[n++] = "-finclude-default-header";
    int opt_at = n;
    argv[n++] = "-O3";
    n += split_options(options, store, sizeof store, argv + n, 140);
    argv[n++] = "-o";
    argv[n++] = bc;
    argv[n++] = cl;
    argv[n] = NULL;
    int rc = run_tool(argv, log);
    if (rc == 0) {
        char *argv2[] = {spirv_path, bc, "-o", sp, NULL};
        rc = run_tool(argv2, log);
        if (rc != 0) {
            /* llvm-spirv-15 cannot translate some instructions clang's
             * optimizer makes (freeze, from index division): hand it
             * unoptimized IR instead; the driver optimizes SPIR-V itself. */
            argv[opt_at] = "-O0";
            rc = run_tool(argv, log);
            if (rc == 0)
                rc = run_tool(argv2, log);
        }
    }
    if (rc != 0) {
        char *text = read_file(log, NULL);
        char what[300];
        snprintf(what, sizeof what, "SPIR-V: %s exited with %d", rc == -1 ? "a tool could not run, it" :
                 "clang/llvm-spirv", rc);
        st = build_failed(e, d, name, source, what, text ? text : "");
        free(text);
        goto done;
    }
    *spv = read_file(sp, spv_n);
    if (!*spv)
        st = lc_error_set(e, LC_ERR_IO, "cannot read the SPIR-V that llvm-spirv wrote (%s)", sp);
done:
    remove_tmpdir(dir);
    return st;
}

static lc_status build_spirv(struct lc_device *d, const char *source, const char *name, const char *options,
                             cl_program *out, char **spv, size_t *spv_n, struct lc_error *e)
{
    LC_TRY(compile_spirv(d, source, name, options, spv, spv_n, e));
    cl_int rc;
    cl_program prog = clCreateProgramWithIL(d->ctx, *spv, *spv_n, &rc);
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clCreateProgramWithIL", d);
    char opts[4096];
    driver_options(d, options, 1, opts, sizeof opts);
    LC_TRY(build_program(d, prog, opts, name, source, "SPIR-V", e));
    *out = prog;
    return LC_OK;
}

/* Write <name>.cl (and <name>.spv) into LAZYCL_DUMP. */
static void dump_kernel(const char *name, const char *source, const char *spv, size_t spv_n)
{
    const char *dir = lc_dump_dir();
    if (!dir)
        return;
    mkdir(dir, 0755);
    char path[4600];
    if (!spv) {
        snprintf(path, sizeof path, "%s/%s.cl", dir, name);
        if (write_file(path, source, strlen(source)) != 0)
            LC_LOG(1, "cannot write %s: %s", path, strerror(errno));
    } else {
        snprintf(path, sizeof path, "%s/%s.spv", dir, name);
        if (write_file(path, spv, spv_n) != 0)
            LC_LOG(1, "cannot write %s: %s", path, strerror(errno));
    }
}

/* ---- lc_kernel_get -------------------------------------------------------------- */

/* A memory-cache lookup: 1 and *st set when the program is cached. */
static int kc_lookup(struct lc_device *d, struct lc_cache_key key, const char *name, lc_kernel_t *out,
                     lc_status *st, struct lc_error *e)
{
    struct lc_kcache *c = d->kcache;
    pthread_mutex_lock(&c->lock);
    struct kc_entry *x = kc_find(c, key);
    if (x)
        *st = kc_kernel(d, x, name, out, e);
    pthread_mutex_unlock(&c->lock);
    if (x && *st == LC_OK) {
        LC_STAT_ADD(memory_cache_hits, 1);
        LC_LOG(2, "kernel %s: memory cache hit", name);
    }
    return x != NULL;
}

/* The disk cache, else a build (then stored on disk). *spirv_failed says a
 * SPIR-V route failed, which auto mode retries from source. */
static lc_status load_or_build(struct lc_device *d, struct lc_cache_key key, const char *source,
                               const char *name, const char *options, int spirv, cl_program *out,
                               int *spirv_failed, struct lc_error *e)
{
    *spirv_failed = 0;
    dump_kernel(name, source, NULL, 0);
    unsigned long long t0 = lc_now_ns();
    char dopts[4096];
    driver_options(d, options, spirv, dopts, sizeof dopts);
    cl_program prog = lc_disk_load(d, key, dopts);
    if (prog) {
        LC_STAT_ADD(disk_cache_hits, 1);
        LC_LOG(2, "kernel %s: disk cache hit (%.1f ms)", name, (double)(lc_now_ns() - t0) / 1e6);
        *out = prog;
        return LC_OK;
    }
    lc_status st;
    if (spirv) {
        char *spv = NULL;
        size_t spv_n = 0;
        st = build_spirv(d, source, name, options, &prog, &spv, &spv_n, e);
        if (spv)
            dump_kernel(name, source, spv, spv_n);
        free(spv);
        *spirv_failed = st != LC_OK;
    } else {
        st = build_source(d, source, name, options, &prog, e);
    }
    if (st != LC_OK)
        return st;
    LC_STAT_ADD(kernels_compiled, 1);
    if (spirv)
        LC_STAT_ADD(spirv_builds, 1);
    LC_LOG(2, "kernel %s: built %s for '%s' in %.1f ms", name, spirv ? "via SPIR-V" : "from source",
           d->info.name, (double)(lc_now_ns() - t0) / 1e6);
    lc_disk_store(d, key, prog);
    *out = prog;
    return LC_OK;
}

static lc_status kernel_get(struct lc_device *d, const char *source, const char *name,
                            const char *options, int spirv, lc_kernel_t *out, struct lc_error *e)
{
    struct lc_kcache *c = d->kcache;
    struct lc_cache_key key = lc_cache_key_make(source, options, d->info.name, d->info.platform_version,
                                                d->info.driver_version, spirv ? tools_id : "source");
    lc_status st = LC_OK;
    if (kc_lookup(d, key, name, out, &st, e))
        return st;

    /* One build at a time per device: a second thread that wants the same
     * program waits here and then finds it in memory instead of building it
     * again. Memory-cache hits never take this lock. */
    pthread_mutex_lock(&c->build_lock);
    if (kc_lookup(d, key, name, out, &st, e)) {
        pthread_mutex_unlock(&c->build_lock);
        return st;
    }
    cl_program prog = NULL;
    int spirv_failed = 0;
    st = load_or_build(d, key, source, name, options, spirv, &prog, &spirv_failed, e);
    if (st == LC_OK) {
        struct kc_entry *nx = calloc(1, sizeof *nx);
        if (!nx) {
            clReleaseProgram(prog);
            st = lc_error_set(e, LC_ERR_NOMEM, "out of memory");
        } else {
            nx->key = key;
            nx->prog = prog;
            pthread_mutex_lock(&c->lock);
            kc_insert(c, nx);
            st = kc_kernel(d, nx, name, out, e);
            pthread_mutex_unlock(&c->lock);
        }
    }
    pthread_mutex_unlock(&c->build_lock);

    if (spirv_failed && build_mode == LC_BUILD_AUTO) {
        LC_LOG(1, "kernel %s: SPIR-V build failed, building from source: %s", name, e ? e->msg : "");
        lc_error_clear(e);
        st = kernel_get(d, source, name, options, 0, out, e);
        if (st == LC_OK) {
            /* Remember the fallback under the SPIR-V key too (in memory and on
             * disk), so that this process and the next never retry the failing
             * SPIR-V build of the same source. */
            struct lc_cache_key skey = lc_cache_key_make(source, options, d->info.name,
                                                         d->info.platform_version,
                                                         d->info.driver_version, "source");
            pthread_mutex_lock(&c->lock);
            struct kc_entry *src = kc_find(c, skey);
            struct kc_entry *alias = src && !kc_find(c, key) ? calloc(1, sizeof *alias) : NULL;
            if (alias) {
                clRetainProgram(src->prog);
                alias->key = key;
                alias->prog = src->prog;
                kc_insert(c, alias);
            }
            pthread_mutex_unlock(&c->lock);
            if (alias)
                lc_disk_store(d, key, alias->prog);
        }
    }
    return st;
}

lc_status lc_kernel_get(lc_device_t d, const char *source, const char *name, const char *options,
                        lc_kernel_t *out, struct lc_error *e)
{
    if (!source || !name || !name[0])
        return lc_error_set(e, LC_ERR_INVALID, "lc_kernel_get: source and kernel name are required");
    if (!options)
        options = "";
    pthread_once(&build_once, build_read_env);
    if (build_bad[0])
        return lc_error_set(e, LC_ERR_INVALID, "LAZYCL_BUILD must be auto, source or spirv, not '%s'",
                            build_bad);
    int spirv = d->info.takes_spirv && build_mode != LC_BUILD_SOURCE;
    /* A kernel may ask for the driver's own compiler (LC_SOURCE_ONLY_MARK): one that some
     * driver miscompiles, or crashes on, from SPIR-V. Under LAZYCL_BUILD=auto only. */
    if (spirv && build_mode == LC_BUILD_AUTO && strstr(source, LC_SOURCE_ONLY_MARK))
        spirv = 0;
    if (spirv && !tools_ok) {
        if (build_mode == LC_BUILD_SPIRV)
            return lc_error_set(e, LC_ERR_COMPILE, "LAZYCL_BUILD=spirv, but the SPIR-V tools are not "
                                "usable: %s", tools_why);
        spirv = 0;
    }
    return kernel_get(d, source, name, options, spirv, out, e);
}
