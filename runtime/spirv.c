/* spirv.c: LAZYCL_BUILD and clang's routes: clang (and llvm-spirv) found once, then OpenCL C
 * -> SPIR-V (clang + llvm-spirv) or SPIR 1.2 bitcode (clang alone) in a private temporary
 * directory per build (lc_clang_compile).
 */
#include "runtime/cl_util.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static pthread_once_t build_once = PTHREAD_ONCE_INIT;
static struct lc_build_env env = {.mode = LC_BUILD_AUTO};

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

int lc_write_file(const char *path, const void *data, size_t n)
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
    static const char *const names[] = {"k.cl", "k.bc", "k.spv", "pre.h", "log"};
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

/* The major version in clang's --version line ("Debian clang version 15.0.6"), or 0. */
static int clang_major(const char *version_line)
{
    const char *v = strstr(version_line, "version ");
    int major = 0;
    return v && sscanf(v + 8, "%d", &major) == 1 ? major : 0;
}

static void build_read_env(void)
{
    const char *m = getenv("LAZYCL_BUILD");
    if (!m || !*m || strcmp(m, "auto") == 0)
        env.mode = LC_BUILD_AUTO;
    else if (strcmp(m, "source") == 0)
        env.mode = LC_BUILD_SOURCE;
    else if (strcmp(m, "spirv") == 0)
        env.mode = LC_BUILD_SPIRV;
    else if (strcmp(m, "spir") == 0)
        env.mode = LC_BUILD_SPIR;
    else
        snprintf(env.bad, sizeof env.bad, "%s", m);

    const char *c = getenv("LAZYCL_CLANG"), *s = getenv("LAZYCL_LLVM_SPIRV");
    snprintf(env.clang, sizeof env.clang, "%s", c && *c ? c : "clang-15");
    snprintf(env.spirv, sizeof env.spirv, "%s", s && *s ? s : "llvm-spirv-15");
    if (env.mode == LC_BUILD_SOURCE || env.bad[0])
        return;   /* no need to look for the tools */
    char cv[200], sv[200];
    if (tool_version(env.clang, cv, sizeof cv) != 0) {
        snprintf(env.tools_why, sizeof env.tools_why,
                 "'%.900s --version' failed (is clang-15 installed?)", env.clang);
        snprintf(env.spir_why, sizeof env.spir_why, "%s", env.tools_why);
    } else {
        env.clang_major = clang_major(cv);
        env.spir_ok = 1;
        snprintf(env.spir_id, sizeof env.spir_id, "spir:%s;route %d", cv, LC_SPIR_ROUTE_VERSION);
        if (tool_version(env.spirv, sv, sizeof sv) != 0) {
            snprintf(env.tools_why, sizeof env.tools_why,
                     "'%.900s --version' failed (is llvm-spirv-15 installed?)", env.spirv);
        } else {
            env.tools_ok = 1;
            snprintf(env.tools_id, sizeof env.tools_id, "spirv:%s;%s", cv, sv);
        }
    }
    if (!env.tools_ok)
        LC_LOG(1, "SPIR-V tools not usable, building from source: %s", env.tools_why);
}

const struct lc_build_env *lc_build_env(void)
{
    pthread_once(&build_once, build_read_env);
    return &env;
}

/* What the SPIR route's clang reads before the kernel (-include). PoCL's kernel library
 * knows some builtins only by the names PoCL's own headers give them (_builtin_renames.h):
 * for those, the SPIR name finds nothing to link, so they are called by PoCL's name here.
 * A builtin missing from this list fails the build at the link (then, under
 * LAZYCL_BUILD=auto, the kernel is built from source: LAZYCL_DEBUG=1 says so). Raise
 * LC_SPIR_ROUTE_VERSION (in the cache key) with any change here or to clang's options. */
static const char spir_prelude[] =
    "void __attribute__((overloadable)) _cl_mem_fence(cl_mem_fence_flags);\n"
    "void __attribute__((overloadable)) _cl_read_mem_fence(cl_mem_fence_flags);\n"
    "void __attribute__((overloadable)) _cl_write_mem_fence(cl_mem_fence_flags);\n"
    "#define mem_fence _cl_mem_fence\n"
    "#define read_mem_fence _cl_read_mem_fence\n"
    "#define write_mem_fence _cl_write_mem_fence\n";

/* OpenCL C -> SPIR-V (clang, then llvm-spirv) or, when `spir`, SPIR 1.2 bitcode (clang).
 * Both take the builtins' declarations from clang's tables (-fdeclare-opencl-builtins), not
 * by parsing opencl-c.h: most of a small kernel's build time. SPIR bitcode is optimized
 * lightly (-O1; PoCL optimizes each work-group function itself, faster from -O1 bitcode
 * than from -O0), products' kernels not at all (LC_SPIR_O0_MARK). *out is malloc'd. On
 * failure LC_ERR_COMPILE with the tools' output. */
lc_status lc_clang_compile(struct lc_device *d, const char *source, const char *name,
                           const char *options, int spir, char **out, size_t *out_n,
                           struct lc_error *e)
{
    char dir[4096], cl[4200], bc[4200], sp[4200], pre[4200], log[4200];
    make_tmpdir(dir, sizeof dir);
    if (!dir[0])
        return lc_error_set(e, LC_ERR_IO, "cannot make a temporary directory for a %s build: %s",
                            spir ? "SPIR" : "SPIR-V", strerror(errno));
    snprintf(cl, sizeof cl, "%s/k.cl", dir);
    snprintf(bc, sizeof bc, "%s/k.bc", dir);
    snprintf(sp, sizeof sp, "%s/k.spv", dir);
    snprintf(pre, sizeof pre, "%s/pre.h", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    lc_status st = LC_OK;
    if (lc_write_file(cl, source, strlen(source)) != 0 ||
        (spir && lc_write_file(pre, spir_prelude, sizeof spir_prelude - 1) != 0)) {
        st = lc_error_set(e, LC_ERR_IO, "cannot write in %s: %s", dir, strerror(errno));
        goto done;
    }
    char store[4096];
    char *argv[160];
    int n = 0;
    argv[n++] = env.clang;
    argv[n++] = "-cc1";
    argv[n++] = "-triple";
    argv[n++] = d->address_bits == 32 ? "spir-unknown-unknown" : "spir64-unknown-unknown";
    if (!strstr(options, "-cl-std="))
        argv[n++] = "-cl-std=CL1.2";
    argv[n++] = "-emit-llvm-bc";
    argv[n++] = "-finclude-default-header";
    argv[n++] = "-fdeclare-opencl-builtins";
    int opt_at = n;
    if (spir) {
        if (strstr(source, LC_SPIR_O0_MARK)) {
            argv[n++] = "-O0";
            argv[n++] = "-disable-O0-optnone";   /* PoCL's own passes must still optimize it */
        } else {
            argv[n++] = "-O1";
        }
        argv[n++] = "-Dinline=";   /* as PoCL's front end: a plain inline function is kept */
        argv[n++] = "-include";
        argv[n++] = pre;
    } else {
        argv[n++] = "-O3";
    }
    n += lc_split_options(options, store, sizeof store, argv + n, 140);
    argv[n++] = "-o";
    argv[n++] = bc;
    argv[n++] = cl;
    argv[n] = NULL;
    int rc = run_tool(argv, log);
    char *argv2[] = {env.spirv, bc, "-o", sp, NULL};
    if (rc == 0 && !spir) {
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
        snprintf(what, sizeof what, "%s: %s exited with %d", spir ? "SPIR" : "SPIR-V",
                 rc == -1 ? "a tool could not run, it" : spir ? "clang" : "clang/llvm-spirv", rc);
        st = lc_build_failed(e, d, name, source, what, text ? text : "");
        free(text);
        goto done;
    }
    *out = read_file(spir ? bc : sp, out_n);
    if (!*out)
        st = lc_error_set(e, LC_ERR_IO, "cannot read the %s that %s wrote", spir ? "bitcode" : "SPIR-V",
                          spir ? "clang" : "llvm-spirv");
done:
    remove_tmpdir(dir);
    return st;
}
