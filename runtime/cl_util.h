/* cl_util.h: the runtime's internal header: OpenCL, the structs behind the handles, helpers.
 *
 * Only the .c files of runtime/ include this file. It defines what lc_device, lc_queue,
 * lc_buffer and lc_kernel are, the LC_CL_CHECK error macro, the statistics
 * counters and the debug log, and declares what runtime/'s files call of each other.
 */
#ifndef LC_CL_UTIL_H
#define LC_CL_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* POSIX (mkdtemp, posix_spawn, strdup) under -std=c11 too; include this first */
#endif

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "runtime/runtime.h"

/* ---- the structs behind the handles --------------------------------------------- */

struct lc_pool;          /* buffer.c */
struct lc_kcache;        /* kcache.c */

struct lc_device {
    struct lc_device_info info;
    cl_platform_id platform;
    cl_device_id id;
    cl_context ctx;            /* one context per device, created at discovery */
    int platform_cl_major;     /* platform's OpenCL version (queue creation API) */
    int platform_cl_minor;
    unsigned address_bits;     /* 32 or 64: picks spir or spir64 */
    char platform_vendor[256];
    char filter[160];          /* the filter string that names exactly this device */

    pthread_mutex_t lock;      /* guards queue creation */
    struct lc_queue *queue;    /* the canonical queue, NULL until first use */

    struct lc_pool *pool;      /* buffer.c: size-class free lists */
    atomic_int host_sharing;   /* hostmem.c: LC_HOST_* bits + LC_HOST_PROBED once probed */
    struct lc_kcache *kcache;  /* kcache.c: the in-memory kernel cache */

    /* inthread.c: PoCL's `basic` device beside its `pthread` device. The pthread device
     * (listed) points at it in `inthread`; it (never listed) points back in `parent`,
     * shares the parent's context and buffers, and has a kernel cache of its own. */
    struct lc_device *inthread, *parent;
    int limit_known;           /* under inthread.c's lock: inthread_limit is set */
    size_t inthread_limit;     /* launches touching fewer bytes run in-thread */

    struct lc_stage *stage;    /* staging.c: pinned slots for big transfers, or NULL */
    int stage_failed;          /* staging.c: they could not be made (both under its lock) */
};

struct lc_queue {
    atomic_long refs;
    struct lc_device *dev;
    cl_command_queue q;
    int profiling;
    uint64_t id;               /* lc_queue_id */
    /* A device with an in-thread companion has a second in-order queue on it, `qi`.
     * Transfers and small launches go there, big launches to `q`; `pending` says which
     * of the two may hold unfinished work, and a command for the other one waits for it
     * first (lc_queue_enter), so the pair behaves as one in-order queue. */
    cl_command_queue qi;       /* NULL without a companion */
    pthread_mutex_t lock;      /* with qi: guards `pending`, held from lc_queue_enter to leave */
    int pending;               /* LC_SIDE_* bits */
    /* While a profile is open (profile.c) the threaded side's commands go to `qp`, a twin of
     * `q` with profiling (unless q has it), made on the first such command: a third side of
     * the set kept in one order. From then on the queue is `mixed`: every command takes the
     * lock, also without qi. */
    cl_command_queue qp;       /* under lock; NULL until then */
    atomic_int mixed;
    /* queue.c: every live queue is on one list (lc_queues_finish); buffers the queue holds
     * until the work enqueued before them has finished (lc_queue_hold), oldest first. */
    struct lc_queue *live_prev, *live_next;
    int extra;                 /* made by lc_queue_create, not a device's canonical queue */
    pthread_mutex_t hold_lock; /* guards held */
    struct lc_hold *held;
};

/* LC_SIDE_UNLOCKED flags a side entered without the lock (a queue alone, not mixed). */
enum { LC_SIDE_THREADED = 1, LC_SIDE_INTHREAD = 2, LC_SIDE_PROFILED = 4, LC_SIDE_UNLOCKED = 8 };

struct lc_buffer {
    atomic_long refs;
    struct lc_device *dev;
    cl_mem mem;
    uint64_t id;               /* unique to this cl_mem in the process (a released handle's
                                  address may come back for another buffer) */
    size_t size;               /* bytes asked for */
    size_t cap;                /* bytes allocated (the class size, or `size` when unpooled) */
    unsigned cls;              /* size class */
    int pooled;                /* returns to the pool at refcount 0 */
    int wraps_host;            /* hostmem.c: made over host memory the caller owns (never pooled) */
    void *host_owner;          /* hostmem.c: then the on_free context that stands for its owner */
    atomic_int pins;           /* hostmem.c: live pins (exports); each holds a reference */
    void *host;                /* under the pin lock: the mapping while pinned */
    struct lc_queue *pin_q;    /* under the pin lock: the queue it was mapped on (retained) */
    struct lc_buffer *next;    /* free-list link while cached */
};

/* An argument as clSetKernelArg sees it: its kind and the bytes passed (a
 * buffer's id, see struct lc_buffer; a local argument's size). */
struct lc_argbits {
    int kind;
    uint64_t bits;
};

struct lc_kernel {
    struct lc_device *dev;
    cl_kernel k;
    pthread_mutex_t lock;      /* serialises clSetKernelArg + enqueue */
    struct lc_argbits *set;    /* under lock: the arguments set last (a launch sets only
                                  the ones that differ) */
    size_t n_set;
    char *name;
    struct lc_kernel *next;    /* the program's list of kernels */
};

/* ---- errors --------------------------------------------------------------------- */

/* "CL_INVALID_VALUE" etc., or "CL error -N" for codes we do not know. */
const char *lc_cl_strerror(cl_int rc);

/* Record a failed OpenCL call: which call, which code, which device. */
lc_status lc_cl_fail(struct lc_error *e, cl_int rc, const char *call, const struct lc_device *d);

/* Evaluate an OpenCL call; on failure record it and return LC_ERR_DEVICE
 * from the enclosing function. `dev` may be NULL. */
#define LC_CL_CHECK(e, dev, call)                                                     \
    do {                                                                              \
        cl_int rc_ = (call);                                                          \
        if (rc_ != CL_SUCCESS)                                                        \
            return lc_cl_fail((e), rc_, #call, (dev));                                \
    } while (0)

/* Is this an out-of-memory code (allocation failure, resources, host memory)? */
int lc_cl_is_oom(cl_int rc);

/* ---- statistics (stats.c) ------------------------------------------------------- */

struct lc_stats_atomic {
    atomic_ullong kernels_compiled, memory_cache_hits, disk_cache_hits, launches;
    atomic_ullong buffers_allocated, pool_hits, bytes_in_use, bytes_cached, peak_bytes;
    atomic_ullong bytes_to_device, bytes_from_device, spirv_builds, spir_builds, plan_hits, plan_misses,
        gemm_tunings, launches_inthread;
};
extern struct lc_stats_atomic lc_stats_g;

#define LC_STAT_ADD(field, n) atomic_fetch_add_explicit(&lc_stats_g.field, (n), memory_order_relaxed)
#define LC_STAT_SUB(field, n) atomic_fetch_sub_explicit(&lc_stats_g.field, (n), memory_order_relaxed)
/* Add to bytes_in_use and keep peak_bytes up to date. */
void lc_stats_in_use_add(unsigned long long n);

/* ---- debug (debug.c) ------------------------------------------------------------ */

/* Print a line to stderr prefixed "lazycl: " when lc_debug_level() >= level. */
void lc_log(int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
#define LC_LOG(level, ...) do { if (lc_debug_level() >= (level)) lc_log((level), __VA_ARGS__); } while (0)

/* A switch of the environment, on unless `name` is "0": read once into *cache (-1 before;
 * a setter may store 0 or 1 there). */
int lc_env_on(atomic_int *cache, const char *name);

/* Monotonic time in nanoseconds. */
unsigned long long lc_now_ns(void);

/* ---- internal cross-file helpers ------------------------------------------------ */

/* buffer.c: give a new buffer record its unique id. */
void lc_buffer_init_id(struct lc_buffer *b);
/* buffer.c: set up the device's pool (at discovery). */
lc_status lc_pool_init(struct lc_device *d, struct lc_error *e);
/* hostmem.c: a buffer of cap bytes over host memory of lazycl's own in 2 MiB pages
 * (LC_HOST_WRAP devices, cap >= LC_HUGE_MIN, LAZYCL_HUGE_PAGES not 0); else NULL. */
#define LC_HUGE_MIN ((size_t)4 << 20)
cl_mem lc_huge_buffer(struct lc_device *d, size_t cap);

/* ---- in-thread companions (inthread.c) ------------------------------------------ */

/* Before discovery: when LAZYCL_INTHREAD allows it and POCL_DEVICES is unset, set it to
 * "pthread basic" (PoCL reads it once, at its first use). 1 when it was set (discovery
 * unsets it after, so that child processes see what the user set). */
int lc_inthread_ask(void);
/* Pair a platform's devices: pair[j] is the in-thread companion of ids[j] (NULL: none),
 * and ids[j] itself when ids[j] is some device's companion (so it is not listed alone).
 * PoCL's "basic-<cpu>" pairs with "pthread-<cpu>" (PoCL 5: "cpu-minimal-<cpu>" with
 * "cpu-<cpu>"). */
void lc_inthread_pairs(const cl_device_id *ids, cl_device_id *pair, cl_uint n);

/* ---- queues (queue.c) --------------------------------------------------------- */

/* Pick the queue for a command: in-thread when `inthread` and q has an in-thread queue,
 * else the threaded one. With a pair, take q's lock and first wait for the other side if
 * it may hold unfinished work (a queue alone takes no lock, until it is mixed). While a
 * profile is open, the threaded side is the profiling twin (LC_SIDE_PROFILED), waited for in
 * the same way. *side says which was picked (an LC_SIDE_*, with LC_SIDE_UNLOCKED when no lock
 * was taken). NULL (and the lock not held, *rc the failure) when that wait failed. */
cl_command_queue lc_queue_enter(struct lc_queue *q, int inthread, int *side, cl_int *rc);
/* Release q's lock after enqueueing on `side`; `done` says the command was blocking, so
 * that everything enqueued on that side has finished. */
void lc_queue_leave(struct lc_queue *q, int side, int done);

/* ---- profiles (profile.c) ------------------------------------------------------- */

extern atomic_int lc_prof_open_g;   /* open profiles */
/* Before enqueueing a command (after lc_queue_enter): the host time while a profile is open,
 * else 0 (one relaxed atomic load). */
static inline unsigned long long lc_prof_t0(void)
{
    return atomic_load_explicit(&lc_prof_open_g, memory_order_relaxed) ? lc_now_ns() : 0;
}
/* The event a command on `side` asks for when t0 != 0: a threaded side's, timed by the device;
 * none in-thread, where the command runs inside its enqueue call and the host times it. */
static inline cl_event *lc_prof_event(unsigned long long t0, int side, cl_event *ev)
{
    return t0 && side != LC_SIDE_INTHREAD ? ev : NULL;
}
/* After a command's enqueue succeeded (t0 != 0): record it; the record owns `ev` (may be
 * NULL). */
void lc_prof_add(struct lc_queue *q, int side, int kind, const char *name, uint64_t bytes, int ops,
                 unsigned long long t0, cl_event ev);
/* This thread's note (lc_profile_note), taken once: 1 when there was one. */
int lc_prof_take_note(int *ops, uint64_t *bytes);

/* ---- the kernel caches (kcache.c, diskcache.c) ---------------------------------- */

/* Set up the device's memory cache (at discovery). */
lc_status lc_kcache_init(struct lc_device *d, struct lc_error *e);
/* Look up `key` in d's memory cache: 1 when the program is there (then *st says whether its
 * kernel `name` was made into *out), else 0. Counts and logs a hit. */
int lc_kcache_lookup(struct lc_device *d, struct lc_cache_key key, const char *name,
                     lc_kernel_t *out, lc_status *st, struct lc_error *e);
/* Held while loading or building a program for d (one at a time per device). */
void lc_kcache_build_lock(struct lc_device *d);
void lc_kcache_build_unlock(struct lc_device *d);
/* Keep `prog` under `key` (the cache owns it from now on, or releases it at once on failure)
 * and make its kernel `name` into *out. */
lc_status lc_kcache_add(struct lc_device *d, struct lc_cache_key key, cl_program prog,
                        const char *name, lc_kernel_t *out, struct lc_error *e);
/* Keep the program cached under `of` under `key` too, unless `key` is there already: the
 * program (owned by the cache), or NULL when nothing was added. */
cl_program lc_kcache_alias(struct lc_device *d, struct lc_cache_key key, struct lc_cache_key of);
/* The device binary cached on disk under `key`, built with the driver options `options`;
 * NULL when there is no usable one (or the disk cache is off). */
cl_program lc_disk_load(struct lc_device *d, struct lc_cache_key key, const char *options);
/* Write prog's binary to the disk cache under `key`; a failure is only logged. */
void lc_disk_store(struct lc_device *d, struct lc_cache_key key, cl_program prog);
/* Write `bytes` as an entry of `kind` (enum lc_entry_kind) under `key`; a failure is only
 * logged. lc_disk_load builds a SPIR entry as the binary it is (clCreateProgramWithBinary). */
void lc_disk_store_bytes(struct lc_cache_key key, int kind, const void *bytes, size_t n);

/* ---- building programs (spirv.c, build.c) --------------------------------------- */

/* The compiler identity of a build from source in the cache key (docs/cache.md). */
#define LC_COMPILER_SOURCE "source"

/* LAZYCL_BUILD and the tools, as found once per process. */
struct lc_build_env {
    int mode;                    /* enum lc_build_mode */
    char bad[128];               /* a bad LAZYCL_BUILD value, "" when fine */
    char clang[1024], spirv[1024];   /* LAZYCL_CLANG, LAZYCL_LLVM_SPIRV, else their defaults */
    int tools_ok;                /* both tools answer --version (the SPIR-V route) */
    char tools_id[512];          /* "spirv:<clang version>;<llvm-spirv version>" */
    char tools_why[1024];        /* why the SPIR-V tools are not usable */
    int spir_ok;                 /* clang answers --version (the SPIR route) */
    int clang_major;             /* its major version, 0 when unknown */
    char spir_id[512];           /* "spir:<clang version>;route <LC_SPIR_ROUTE_VERSION>" */
    char spir_why[1024];         /* why clang is not usable */
};
/* The SPIR route's version in the cache key: raise it when its prelude or clang options change. */
#define LC_SPIR_ROUTE_VERSION 1
/* Read the environment and look for the tools on the first call (thread-safe). */
const struct lc_build_env *lc_build_env(void);
/* OpenCL C -> SPIR-V with clang + llvm-spirv, or SPIR 1.2 bitcode with clang when `spir`.
 * *out is malloc'd. On failure LC_ERR_COMPILE with the tools' output as the log. */
lc_status lc_clang_compile(struct lc_device *d, const char *source, const char *name,
                           const char *options, int spir, char **out, size_t *out_n,
                           struct lc_error *e);
/* Write n bytes to a new file at `path`: 0, or -1 (errno says why). */
int lc_write_file(const char *path, const void *data, size_t n);

/* Split options on white space into argv (no quoting), at most `max`. Returns the count;
 * `store` holds the copy the pointers point into. */
int lc_split_options(const char *options, char *store, size_t store_n, char **argv, int max);
/* A failed build of kernel `name`: LC_ERR_COMPILE, with the numbered source and `log` in
 * e->detail; `what` names the route. */
lc_status lc_build_failed(struct lc_error *e, struct lc_device *d, const char *name,
                          const char *source, const char *what, const char *log);
/* How a program reaches the driver: its OpenCL C, SPIR-V (clCreateProgramWithIL) or SPIR 1.2
 * bitcode (clCreateProgramWithBinary, "-x spir"). */
enum lc_route { LC_ROUTE_SOURCE = 0, LC_ROUTE_SPIRV, LC_ROUTE_SPIR };
/* The options the driver gets on that route. */
void lc_build_driver_options(const struct lc_device *d, const char *options, int route, char *out,
                             size_t n);
/* Build `source` with the driver's compiler; on success *out is a built program. */
lc_status lc_build_source(struct lc_device *d, const char *source, const char *name,
                          const char *options, cl_program *out, struct lc_error *e);
/* Build `source` through clang: SPIR-V or SPIR bitcode (route). *bits (malloc'd, the caller
 * frees it) keeps what clang made, also when the driver then fails on it. */
lc_status lc_build_clang(struct lc_device *d, const char *source, const char *name,
                         const char *options, int route, cl_program *out, char **bits,
                         size_t *bits_n, struct lc_error *e);
/* Write <name>.cl, or with bits <name>.spv (SPIR-V) or <name>.bc (SPIR), into LAZYCL_DUMP
 * (when set). */
void lc_build_dump(const char *name, const char *source, int route, const char *bits,
                   size_t bits_n);

/* ---- staged transfers (staging.c) ------------------------------------------------- */

struct lc_stage;
/* Should a transfer of n bytes between host memory `host` and d go through pinned staging?
 * (big, d computes in memory of its own, host is not pinned already, LAZYCL_STAGE not 0) */
int lc_stage_wanted(lc_device_t d, const void *host, size_t n);

#endif
