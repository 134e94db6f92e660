/* diskcache.c: the on-disk kernel cache: device binaries in sharded, checksummed entry files.
 *
 * Layout: <dir>/<2 hex>/<32 hex>.bin (cachefile.c gives the format and
 * path). The directory is created mode 0700 and used only when it is ours
 * and not writable by group or others. An entry is written to a temp file in
 * its shard and renamed into place, so concurrent processes see either no
 * entry or a whole one. An entry that is not a regular file of ours, is
 * writable by others, or fails to decode or to load is deleted and rebuilt,
 * never loaded.
 */
#include "runtime/cl_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ENTRY_MAX_BYTES ((size_t)1 << 30)

/* mkdir -p with mode 0700 for the parts we create. 0 on success. */
static int make_dirs(const char *path)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p)
        return -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    if (mkdir(p, 0700) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* Is `path` a directory of ours that nobody else can write? */
static int dir_is_safe(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode)) {
        LC_LOG(1, "disk cache off: %s is not a directory", path);
        return 0;
    }
    if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
        LC_LOG(1, "disk cache off: %s is not owned by uid %d or is writable by others (mode %o)", path,
               (int)geteuid(), (unsigned)(st.st_mode & 07777));
        return 0;
    }
    return 1;
}

/* The cache directory, made and checked; 0 when the disk cache is off or unusable. */
static int cache_dir(char *out, size_t n)
{
    if (!lc_cache_dir(out, n))
        return 0;
    if (make_dirs(out) != 0) {
        LC_LOG(1, "disk cache off: cannot create %s: %s", out, strerror(errno));
        return 0;
    }
    return dir_is_safe(out);
}

/* The n bytes of open file fd (and a terminating 0 after them), malloc'd; *got: how many were
 * read (fewer when the file shrank). Closes fd. NULL when out of memory. */
static char *read_all(int fd, size_t n, size_t *got)
{
    char *buf = malloc(n + 1);
    *got = 0;
    while (buf && *got < n) {
        ssize_t r = read(fd, buf + *got, n - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        *got += (size_t)r;
    }
    close(fd);
    if (buf)
        buf[*got] = '\0';
    return buf;
}

static void discard(const char *path, const char *why)
{
    LC_LOG(1, "disk cache: discarding %s: %s", path, why);
    if (unlink(path) != 0 && errno != ENOENT)
        LC_LOG(1, "disk cache: cannot delete %s: %s", path, strerror(errno));
}

cl_program lc_disk_load(struct lc_device *d, struct lc_cache_key key, const char *options)
{
    char dir[4096], path[4200];
    if (!cache_dir(dir, sizeof dir))
        return NULL;
    lc_cache_entry_path(dir, key, path, sizeof path);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP)
            discard(path, "a symbolic link");
        return NULL;
    }
    struct stat st;
    char *blob = NULL;
    cl_program prog = NULL;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
        close(fd);
        discard(path, "not a regular file of ours, or writable by others");
        return NULL;
    }
    if ((size_t)st.st_size > ENTRY_MAX_BYTES) {
        close(fd);
        discard(path, "too large");
        return NULL;
    }
    size_t got;
    blob = read_all(fd, (size_t)st.st_size, &got);
    if (!blob)
        return NULL;

    struct lc_error e = {0};
    uint32_t kind;
    const void *payload;
    size_t pn;
    if (lc_cache_entry_decode(blob, got, key, &kind, &payload, &pn, &e) != LC_OK) {
        discard(path, e.msg);
        goto out;
    }
    if ((kind != LC_ENTRY_BINARY && kind != LC_ENTRY_SPIR) || pn == 0) {
        discard(path, "neither a device binary nor SPIR bitcode");
        goto out;
    }
    if (kind == LC_ENTRY_BINARY && !lc_cache_binary_usable(payload, pn)) {
        discard(path, "a PoCL binary without its program bitcode");
        goto out;
    }
    cl_int rc, bin_rc = CL_SUCCESS;
    const unsigned char *bin = payload;
    prog = clCreateProgramWithBinary(d->ctx, 1, &d->id, &pn, &bin, &bin_rc, &rc);
    if (rc != CL_SUCCESS || bin_rc != CL_SUCCESS) {
        char why[200];
        snprintf(why, sizeof why, "the driver refused the binary (%s)",
                 lc_cl_strerror(rc != CL_SUCCESS ? rc : bin_rc));
        if (prog)
            clReleaseProgram(prog);
        prog = NULL;
        discard(path, why);
        goto out;
    }
    rc = clBuildProgram(prog, 1, &d->id, options, NULL, NULL);
    if (rc != CL_SUCCESS) {
        char why[200];
        snprintf(why, sizeof why, "the binary did not build (%s)", lc_cl_strerror(rc));
        clReleaseProgram(prog);
        prog = NULL;
        discard(path, why);
    }
out:
    lc_error_clear(&e);
    free(blob);
    return prog;
}

void lc_disk_store(struct lc_device *d, struct lc_cache_key key, cl_program prog)
{
    char dir[4096];
    if (!cache_dir(dir, sizeof dir))
        return;
    /* A program made from source or SPIR-V belongs to every device of the context (a device
     * and its in-thread companion share one): the binary is d's entry among them. */
    cl_uint nd = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof nd, &nd, NULL) != CL_SUCCESS || nd == 0 ||
        nd > 8)
        return;
    cl_device_id ids[8];
    size_t sizes[8] = {0};
    unsigned char *bins[8] = {0};
    cl_uint at = nd;
    if (clGetProgramInfo(prog, CL_PROGRAM_DEVICES, nd * sizeof *ids, ids, NULL) == CL_SUCCESS)
        for (cl_uint i = 0; i < nd && at == nd; i++)
            if (ids[i] == d->id)
                at = i;
    /* PoCL 3.1 lists the sizes (and binaries) of the devices built for only: one entry. */
    size_t got = 0;
    if (at < nd &&
        clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, nd * sizeof *sizes, sizes, &got) == CL_SUCCESS) {
        if (got / sizeof *sizes == 1)
            at = 0;
        else if (got / sizeof *sizes != nd)
            at = nd;
    } else {
        at = nd;
    }
    size_t n_bins = got / sizeof *sizes;
    if (at == nd || sizes[at] == 0) {
        LC_LOG(2, "disk cache: device '%s' gives no program binary; not cached", d->info.name);
        return;
    }
    size_t bn = sizes[at];
    unsigned char *bin = malloc(bn);
    if (!bin)
        return;
    bins[at] = bin;   /* the others stay NULL: not copied */
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, n_bins * sizeof *bins, bins, NULL) != CL_SUCCESS) {
        free(bin);
        return;
    }
    if (!lc_cache_binary_usable(bin, bn)) {
        LC_LOG(1, "disk cache: device '%s' gave a PoCL binary without its program bitcode; "
               "not cached", d->info.name);
        free(bin);
        return;
    }
    lc_disk_store_bytes(key, LC_ENTRY_BINARY, bin, bn);
    free(bin);
}

void lc_disk_store_bytes(struct lc_cache_key key, int kind, const void *bytes, size_t bn)
{
    char dir[4096], path[4200], shard[4200], tmp[4300];
    if (!cache_dir(dir, sizeof dir))
        return;
    size_t n = 0;
    void *blob = lc_cache_entry_encode(key, (uint32_t)kind, bytes, bn, &n);
    if (!blob)
        return;
    lc_cache_entry_path(dir, key, path, sizeof path);
    snprintf(shard, sizeof shard, "%s", path);
    *strrchr(shard, '/') = '\0';
    if (mkdir(shard, 0700) != 0 && errno != EEXIST) {
        LC_LOG(1, "disk cache: cannot create %s: %s", shard, strerror(errno));
        free(blob);
        return;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);   /* mode 0600 */
    if (fd < 0) {
        LC_LOG(1, "disk cache: cannot create a temp file in %s: %s", shard, strerror(errno));
        free(blob);
        return;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, (char *)blob + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int ok = done == n;
    ok &= close(fd) == 0;
    free(blob);
    if (!ok || rename(tmp, path) != 0) {
        LC_LOG(1, "disk cache: cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return;
    }
    LC_LOG(2, "disk cache: stored %s (%zu bytes)", path, n);
}

/* ---- small text records (the GEMM autotuner's, engine/autotune.c) ------------------- */

#define RECORD_MAX_BYTES ((size_t)1 << 16)

/* <dir>/<sub>/<name>, the subdirectory made; 0 when the disk cache is off or unusable. */
static int record_path(const char *sub, const char *name, char *path, size_t n)
{
    char dir[4096], subdir[4200];
    if (!cache_dir(dir, sizeof dir))
        return 0;
    if (snprintf(subdir, sizeof subdir, "%s/%s", dir, sub) >= (int)sizeof subdir)
        return 0;
    if (mkdir(subdir, 0700) != 0 && errno != EEXIST) {
        LC_LOG(1, "disk cache: cannot create %s: %s", subdir, strerror(errno));
        return 0;
    }
    return snprintf(path, n, "%s/%s", subdir, name) < (int)n;
}

char *lc_disk_record_read(const char *sub, const char *name, char *path, size_t path_n)
{
    if (!record_path(sub, name, path, path_n))
        return NULL;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP)
            discard(path, "a symbolic link");
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & (S_IWGRP | S_IWOTH)) || (size_t)st.st_size > RECORD_MAX_BYTES) {
        close(fd);
        discard(path, "not a regular file of ours, writable by others, or too large");
        return NULL;
    }
    size_t got;
    return read_all(fd, (size_t)st.st_size, &got);
}

int lc_disk_record_write(const char *sub, const char *name, const char *text, char *path,
                         size_t path_n)
{
    char tmp[4400];
    if (!record_path(sub, name, path, path_n))
        return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);   /* mode 0600 */
    if (fd < 0) {
        LC_LOG(1, "disk cache: cannot create a temp file for %s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = strlen(text), done = 0;
    while (done < n) {
        ssize_t w = write(fd, text + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int ok = done == n;
    ok &= close(fd) == 0;
    if (!ok || rename(tmp, path) != 0) {
        LC_LOG(1, "disk cache: cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    LC_LOG(2, "disk cache: stored %s (%zu bytes)", path, n);
    return 0;
}

void lc_disk_record_discard(const char *path, const char *why)
{
    discard(path, why);
}
