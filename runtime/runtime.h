/* runtime.h: devices, queues, pooled buffers, program build + kernel cache, launches.
 *
 * The runtime knows nothing of graphs: it turns OpenCL C text into kernels
 * and runs them with arguments. It is the only layer that includes OpenCL,
 * and it does so only in its .c files: this header is OpenCL-free so that
 * engine/ and python/ can use it.
 *
 * Thread safety: every function may be called from any thread. Devices are
 * discovered once (lc_runtime_init, idempotent) and live until exit.
 */
#ifndef LC_RUNTIME_H
#define LC_RUNTIME_H

#include "lazycl.h"

#include <stdint.h>
#include <stddef.h>

typedef struct lc_device *lc_device_t;  /* lives until process exit; never freed */
typedef struct lc_queue *lc_queue_t;    /* refcounted; holds its device */
typedef struct lc_buffer *lc_buffer_t;  /* refcounted; returns to its device's pool at 0 */
typedef struct lc_kernel *lc_kernel_t;  /* owned by the device's kernel cache; never freed by users */

enum lc_device_type { LC_DEVICE_CPU = 1, LC_DEVICE_GPU = 2, LC_DEVICE_ACCELERATOR = 4, LC_DEVICE_OTHER = 8 };

struct lc_device_info {
    char name[256];
    char vendor[256];
    char platform_name[256];
    char platform_version[256];
    char driver_version[256];
    char opencl_c_version[256];
    char il_version[256];            /* CL_DEVICE_IL_VERSION, "" when none */
    int type;                        /* enum lc_device_type */
    int takes_spirv;                 /* il_version lists SPIR-V */
    int spir_llvm;                   /* PoCL with cl_khr_spir: the major version of its LLVM, which
                                        SPIR 1.2 bitcode for it must come from; 0 otherwise */
    int vec_len_hint;                /* cl_intel_vec_len_hint: a kernel can tell the driver how wide
                                        to vectorize it across work-items (1: not at all) */
    int fp64;                        /* double precision supported */
    uint32_t compute_units;
    uint64_t global_mem;
    uint64_t local_mem;
    uint64_t max_alloc;
    size_t max_work_group;
    uint32_t pref_vec_char, pref_vec_short, pref_vec_int, pref_vec_long, pref_vec_float, pref_vec_double;
    uint32_t mem_base_addr_align;    /* bits, as OpenCL reports it */
    int platform_index;              /* index of its platform in discovery order */
    int index_in_type;               /* index among devices of its type (on any platform) */
    int index;                       /* index in lc_device_get order */
};

/* ---- discovery and selection ---------------------------------------------------- */

/* Discover every platform and device through the ICD loader. Idempotent and
 * thread-safe. Finding no device at all is LC_ERR_DEVICE. */
lc_status lc_runtime_init(struct lc_error *e);
size_t lc_device_count(void);
lc_device_t lc_device_get(size_t i);
const struct lc_device_info *lc_device_info(lc_device_t d);

/* A parsed device filter string: `[platform:]type[:index]` (a platform
 * alone is not a filter); `type` is one of cpu, gpu,
 * accelerator (alias accel), all/any (alias *). Platform is a
 * case-insensitive substring of the platform name. Index >= 0, or -1 when
 * absent. Examples: "cpu", "gpu:0", "pocl:cpu", "nvidia:gpu:1", "intel:cpu". */
struct lc_filter {
    char platform[128];   /* "" when absent */
    int type;             /* mask of enum lc_device_type */
    int index;            /* -1 when absent */
};
/* Parse a filter string (pure: no OpenCL). A bad string is LC_ERR_INVALID
 * with a message saying what is wrong and what the form is. */
lc_status lc_filter_parse(const char *s, struct lc_filter *f, struct lc_error *e);
/* Does a device of this platform name and type match the filter's platform
 * (a case-insensitive substring) and type? The index is not looked at: the
 * caller counts it among the matches, in discovery order (lc_device_select). */
int lc_filter_match(const struct lc_filter *f, const char *platform_name, int type);

/* Select the device a filter string names. No match is LC_ERR_INVALID with a
 * message listing the devices that exist (as filter strings with names). */
lc_status lc_device_select(const char *filter, lc_device_t *out, struct lc_error *e);
/* The default device: LAZYCL_DEVICE when set (a bad value is an error), else
 * the first GPU, else the first CPU, else the first device. */
lc_status lc_device_default(lc_device_t *out, struct lc_error *e);
/* A filter string that names exactly this device, e.g. "portable:cpu:0". */
void lc_device_filter_string(lc_device_t d, char *buf, size_t n);

/* ---- the in-thread companion (runtime/inthread.c) --------------------------------- */

/* The device that runs d's kernels in the calling thread, or NULL: PoCL's `basic` device
 * beside its `pthread` device, in d's context, sharing d's buffers (it is not listed among
 * the devices). A kernel got for it (lc_kernel_get) launches on d's queues, in one order
 * with d's own launches; d's transfers run in-thread already. */
lc_device_t lc_device_inthread(lc_device_t d);
/* Kernels whose work is under this many bytes (elements of their index space x the bytes
 * each reads and writes, plus a product's multiply-adds: engine/xplan.c) are best run
 * in-thread; 0 when d has none. Timed once per device and kept in the disk cache, or set
 * by LAZYCL_INTHREAD (docs/env.md). */
size_t lc_device_inthread_limit(lc_device_t d);

/* ---- queues --------------------------------------------------------------------- */

/* The device's canonical in-order queue (created on first use). Borrowed:
 * it lives as long as the device; retain it to keep your own reference. */
lc_status lc_device_queue(lc_device_t d, lc_queue_t *out, struct lc_error *e);
/* A new in-order queue, with profiling when asked. Caller owns one reference. */
lc_status lc_queue_create(lc_device_t d, int profiling, lc_queue_t *out, struct lc_error *e);
void lc_queue_retain(lc_queue_t q);
void lc_queue_release(lc_queue_t q);
lc_device_t lc_queue_device(lc_queue_t q);
int lc_queue_profiling(lc_queue_t q);
/* A number naming q in this process (1, 2, ... in the order queues were made). */
uint64_t lc_queue_id(lc_queue_t q);
/* Wait until everything enqueued on q has finished. Does not touch Python:
 * callers release the GIL around it. */
lc_status lc_queue_finish(lc_queue_t q, struct lc_error *e);
/* lc_queue_finish of every live queue of d, or of every device's when d is NULL. */
lc_status lc_queues_finish(lc_device_t d, struct lc_error *e);
/* Is q alone, so that a buffer given back to the pool once the last command using it is
 * enqueued on q cannot be reused before that command has run? True while no queue but the
 * devices' canonical ones exists (lc_queue_create first waits for the canonical queue of
 * its device, so what was given back before is no longer in use). */
int lc_queue_alone(lc_queue_t q);
/* q takes over one reference to each of bufs[0..n) and drops it once the work enqueued on
 * q so far has finished: at a later hold, finish or release of q that finds it done (one
 * marker event per call). For buffers used by queued work where q is not alone: given back
 * at once, another queue could take one while that work still reads or writes it. On
 * failure (after waiting for q) the references are dropped all the same. */
lc_status lc_queue_hold(lc_queue_t q, lc_buffer_t *bufs, size_t n, struct lc_error *e);
/* Enqueue zeroing n bytes of b from `offset` on q (asynchronous; no host memory to keep). */
lc_status lc_queue_zero(lc_queue_t q, lc_buffer_t b, size_t offset, size_t n, struct lc_error *e);

/* ---- buffers (pooled) ----------------------------------------------------------- */

/* A device buffer of at least `bytes` bytes (0 is allowed and gives a valid
 * buffer of the smallest size class), from the device's caching pool. The
 * caller owns one reference. Out of device memory is LC_ERR_NOMEM. */
lc_status lc_buffer_alloc(lc_device_t d, size_t bytes, lc_buffer_t *out, struct lc_error *e);
void lc_buffer_retain(lc_buffer_t b);
/* Drop a reference; at zero the buffer returns to its device's pool. */
void lc_buffer_release(lc_buffer_t b);
size_t lc_buffer_size(lc_buffer_t b);     /* the size asked for */

/* Host -> device. With blocking == 0 the caller keeps `src` alive and
 * unchanged until the queue has finished. */
lc_status lc_buffer_write(lc_queue_t q, lc_buffer_t b, size_t offset, const void *src, size_t n,
                          int blocking, struct lc_error *e);
/* Device -> host, blocking. */
lc_status lc_buffer_read(lc_queue_t q, lc_buffer_t b, size_t offset, void *dst, size_t n,
                         struct lc_error *e);
/* Device -> device on q (asynchronous, ordered on the queue). */
lc_status lc_buffer_copy(lc_queue_t q, lc_buffer_t src, size_t src_off, lc_buffer_t dst,
                         size_t dst_off, size_t n, struct lc_error *e);
/* Map for host reading (zero-copy on CPU devices where the driver allows it);
 * blocking. Unmap with lc_buffer_unmap before the buffer is used again. */
lc_status lc_buffer_map_read(lc_queue_t q, lc_buffer_t b, size_t offset, size_t n, void **ptr,
                             struct lc_error *e);
lc_status lc_buffer_unmap(lc_queue_t q, lc_buffer_t b, void *ptr, struct lc_error *e);
/* Drop every cached (unused) buffer of the pool back to the driver. */
void lc_pool_trim(lc_device_t d);

/* ---- host memory shared with a CPU device (runtime/hostmem.c; DLPack) ------------- */

/* What a device lets the host share, probed once per device (CPU devices
 * only; 0 on GPUs and accelerators):
 *   LC_HOST_MAP:  a buffer mapped for reading and writing is its storage:
 *                 the device's writes show through the mapping at once and
 *                 host writes through it reach the device's reads, while it
 *                 stays mapped;
 *   LC_HOST_WRAP: a buffer made over host memory (CL_MEM_USE_HOST_PTR) works
 *                 on that memory itself, at any element alignment.
 * The OpenCL spec leaves kernels touching a mapped region undefined and lets
 * a driver cache a host pointer's memory; the probe checks what the driver
 * does (a fill and a read through a small buffer of each kind). */
enum { LC_HOST_MAP = 1, LC_HOST_WRAP = 2 };
int lc_device_host_sharing(lc_device_t d);

/* Pin b: map it whole for host reads and writes on q (blocking: work enqueued
 * on q before is done) and keep it mapped until the last unpin. *ptr is the
 * mapping, the same for every pin. A pin holds a reference to b, so a pinned
 * buffer stays alive and out of the pool. Needs LC_HOST_MAP on b's device
 * (else LC_ERR_UNSUPPORTED). */
lc_status lc_buffer_pin(lc_queue_t q, lc_buffer_t b, void **ptr, struct lc_error *e);
/* Drop one pin (any thread, no other lock needed). The last one unmaps on the
 * pin's queue and waits for that (work enqueued on it before is done), then
 * drops the pin's reference. */
void lc_buffer_unpin(lc_buffer_t b);
/* Does the host share b's memory now: pinned, or made over host memory? */
int lc_buffer_shared(lc_buffer_t b);
/* Is b pinned now? */
int lc_buffer_pinned(lc_buffer_t b);
/* The on_free context of a buffer made over host memory (lc_buffer_wrap_host), else NULL. */
void *lc_buffer_host_owner(lc_buffer_t b);
/* A buffer of `bytes` (> 0) bytes over host memory at `ptr`, which the caller
 * keeps valid until on_free(ctx) is called: once the driver has released the
 * buffer, possibly on a driver thread (so on_free must not block nor take
 * locks a releasing thread may hold). Never pooled. Needs LC_HOST_WRAP on d
 * (else LC_ERR_UNSUPPORTED). On failure on_free is not called. */
lc_status lc_buffer_wrap_host(lc_device_t d, void *ptr, size_t bytes, void (*on_free)(void *ctx),
                              void *ctx, lc_buffer_t *out, struct lc_error *e);

/* ---- pinned host memory (runtime/staging.c) ----------------------------------------- */

/* Page-locked host memory that d's DMA engine moves at the link's speed: a buffer made with
 * CL_MEM_ALLOC_HOST_PTR, mapped. Transfers between it and d's buffers go straight to the
 * DMA engine; big transfers from or to other host memory go through pinned slots of the
 * device's (LAZYCL_STAGE=0: not). Released regions are cached (up to 4 GiB) for the next
 * alloc of their size class. Thread-safe. */
typedef struct lc_pinned *lc_pinned_t;
lc_status lc_pinned_alloc(lc_device_t d, size_t bytes, lc_pinned_t *out, void **ptr,
                          struct lc_error *e);
void lc_pinned_free(lc_pinned_t p);
/* Give the cached pinned regions back to the driver. */
void lc_pinned_trim(void);
/* Turn staging of big pageable transfers on or off (benchmarks: the pageable figures). */
void lc_stage_enable(int on);
/* Write (write = 1) or read b's [offset, offset + n) from or into `host` through the device's
 * pinned slots, on q (lc_buffer_write and lc_buffer_read call it for big pageable transfers
 * to a GPU; any device takes it, for tests). *done = 0 when the slots could not be made
 * (then transfer it as it is). A read is done on return; a write's last DMAs may still run
 * (host may be freed). */
lc_status lc_stage_transfer(lc_queue_t q, lc_buffer_t b, size_t offset, void *host, size_t n,
                            int write, int *done, struct lc_error *e);

/* Pool size classes (pure; runtime/poolclass.c): sizes below 4 KiB round up to
 * a power of two (min 64 bytes); above, to a quarter-power-of-two step (so
 * waste stays under 25%). lc_pool_class returns the class index, and
 * lc_pool_class_size the bytes of that class. */
unsigned lc_pool_class(size_t bytes);
size_t lc_pool_class_size(unsigned cls);

/* ---- programs and kernels ------------------------------------------------------- */

enum lc_build_mode { LC_BUILD_AUTO = 0, LC_BUILD_SOURCE, LC_BUILD_SPIRV, LC_BUILD_SPIR };

/* Get the kernel `name` of the OpenCL C program `source` built for device d
 * with `options`. Looks in the memory cache, then the disk cache, then
 * builds (SPIR-V through clang-15 + llvm-spirv-15 when the device takes IL,
 * SPIR 1.2 bitcode from clang-15 for PoCL built on LLVM 15, as LAZYCL_BUILD
 * allows; else from source). The kernel is owned by the
 * device's cache. A build failure is LC_ERR_COMPILE with the source and the
 * build log in e->detail. */
lc_status lc_kernel_get(lc_device_t d, const char *source, const char *name, const char *options,
                        lc_kernel_t *out, struct lc_error *e);

enum lc_arg_kind { LC_ARG_BUFFER, LC_ARG_I32, LC_ARG_U32, LC_ARG_I64, LC_ARG_U64, LC_ARG_F32,
                   LC_ARG_F64, LC_ARG_LOCAL, LC_ARG_I8, LC_ARG_U8, LC_ARG_I16, LC_ARG_U16,
                   LC_ARG_C64, LC_ARG_C128 };   /* float2, double2: (real, imaginary) */
struct lc_arg {
    enum lc_arg_kind kind;
    union {
        lc_buffer_t buf;
        int8_t i8; uint8_t u8; int16_t i16; uint16_t u16;
        int32_t i32; uint32_t u32; int64_t i64; uint64_t u64;
        float f32; double f64;
        float c64[2]; double c128[2];
        size_t local_bytes;   /* LC_ARG_LOCAL: bytes of __local memory */
    } v;
};

/* Set the arguments and enqueue an NDRange (asynchronous). `local` may be
 * NULL. A launch with any global size 0 does nothing and succeeds. The
 * kernel's argument setting and enqueue are done under the kernel's lock, so
 * one kernel may be launched from several threads. Counts a launch. */
lc_status lc_kernel_launch(lc_queue_t q, lc_kernel_t k, unsigned work_dim, const size_t *global,
                           const size_t *local, const struct lc_arg *args, size_t nargs,
                           struct lc_error *e);
/* As lc_kernel_launch, then wait and return the kernel's device time in
 * nanoseconds (needs a profiling queue, else LC_ERR_INVALID). */
lc_status lc_kernel_launch_timed(lc_queue_t q, lc_kernel_t k, unsigned work_dim,
                                 const size_t *global, const size_t *local,
                                 const struct lc_arg *args, size_t nargs, uint64_t *ns,
                                 struct lc_error *e);
/* ---- CLBlast (runtime/blas.c; optional, loaded at run time) ----------------------- */

/* One row-major GEMM, C = op(A) @ op(B), offsets and leading dims in elements. */
struct lc_blas_gemm {
    int f64;                  /* double (DGEMM) or float (SGEMM) */
    int trans_a, trans_b;     /* A is stored as its transpose (k x m), B as its (n x k) */
    size_t m, n, k;
    size_t a_off, lda, b_off, ldb, c_off, ldc;
};
/* Is libclblast.so.1 there (looked up once)? */
int lc_blas_available(void);
/* Enqueue CLBlast's GEMM on q (counts a launch). */
lc_status lc_blas_gemm(lc_queue_t q, const struct lc_blas_gemm *g, lc_buffer_t a, lc_buffer_t b,
                       lc_buffer_t c, struct lc_error *e);

/* ---- small text records in the disk cache (runtime/diskcache.c) --------------------- */

/* The text of record <cache dir>/<sub>/<name> (malloc'd, NUL-terminated), its path in `path`;
 * NULL when there is none, the disk cache is off, or the file is not a regular file of ours,
 * is writable by others or is over 64 KiB (then it is deleted). The caller checks the text. */
char *lc_disk_record_read(const char *sub, const char *name, char *path, size_t path_n);
/* Write record <sub>/<name> (a temp file renamed into place); its path in `path`. 0 on success,
 * -1 (logged at LAZYCL_DEBUG=1) when the disk cache is off or the write failed. */
int lc_disk_record_write(const char *sub, const char *name, const char *text, char *path,
                         size_t path_n);
/* Delete a record found unusable, saying why at LAZYCL_DEBUG=1. */
void lc_disk_record_discard(const char *path, const char *why);

/* ---- cache key and file format (pure; runtime/cachefile.c) ----------------------- */

#define LC_CACHE_FORMAT_VERSION 1u

struct lc_cache_key { uint64_t lo, hi; };  /* XXH3-128 */

/* The key of a build: XXH3-128 over every field, each length-prefixed so
 * that ("ab","c") and ("a","bc") differ. Debug and dump settings are not
 * inputs. `compiler` names the compiler path ("source" or the clang +
 * llvm-spirv versions). */
struct lc_cache_key lc_cache_key_make(const char *source, const char *options,
                                      const char *device_name, const char *platform_version,
                                      const char *driver_version, const char *compiler);
/* "0123...ef" (32 hex digits + NUL). */
void lc_cache_key_hex(struct lc_cache_key k, char out[33]);

/* What an entry holds: a device binary (CL_PROGRAM_BINARIES), SPIR-V (reserved: never
 * written), or the SPIR 1.2 bitcode clang made for PoCL, whose own cache (POCL_CACHE_DIR)
 * keeps the kernels compiled from it: asking PoCL for a device binary would make it compile
 * every kernel's generic work-group function a second time (docs/cache.md). */
enum lc_entry_kind { LC_ENTRY_BINARY = 0, LC_ENTRY_SPIRV = 1, LC_ENTRY_SPIR = 2 };
/* An entry file: header {magic "LZCLCACH", u32 format version, u32 kind
 * (enum lc_entry_kind), key (16 bytes), u64 payload size, u64
 * XXH3-64 checksum of the first 40 header bytes followed by the payload},
 * then the payload. All little-endian.
 * lc_cache_entry_encode returns a malloc'd blob of *n bytes.
 * lc_cache_entry_decode checks magic, version, key, size and checksum and
 * returns LC_ERR_IO (with why) for any mismatch; on success *payload points
 * into `blob` and *payload_n is its size. */
void *lc_cache_entry_encode(struct lc_cache_key k, uint32_t kind, const void *payload,
                            size_t payload_n, size_t *n);
lc_status lc_cache_entry_decode(const void *blob, size_t n, struct lc_cache_key k,
                                uint32_t *kind, const void **payload, size_t *payload_n,
                                struct lc_error *e);
/* The path of an entry: <dir>/<first 2 hex digits>/<32 hex digits>.bin */
void lc_cache_entry_path(const char *dir, struct lc_cache_key k, char *out, size_t n);
/* 0 for a device binary known to be unusable though its driver gave it: a
 * PoCL binary ("poclbin") without its program bitcode, which PoCL 3.1 once
 * returned under concurrent builds and then aborts the process on loading
 * (an assertion in pocl_binary.c). Such a binary is neither stored nor loaded. */
int lc_cache_binary_usable(const void *bin, size_t n);
/* The cache directory: LAZYCL_CACHE_DIR, else $XDG_CACHE_HOME/lazycl, else
 * $HOME/.cache/lazycl. Returns 0 when the disk cache is off (LAZYCL_CACHE=0). */
int lc_cache_dir(char *out, size_t n);

/* ---- profiles (runtime/profile.c) ------------------------------------------------ */

/* While a profile is open, every launch and transfer enqueued on any queue, from any thread,
 * is recorded; closing it waits for them and gives their times. Closed, recording costs one
 * atomic load per command. */
enum lc_prof_kind { LC_PROF_KERNEL, LC_PROF_H2D, LC_PROF_D2H, LC_PROF_COPY, LC_PROF_FILL,
                    LC_PROF_MAP, LC_PROF_UNMAP };
struct lc_prof_record {
    char name[128];          /* the kernel's name, or the kind's ("h2d", ...) */
    int kind;                /* enum lc_prof_kind */
    uint64_t queue;          /* lc_queue_id */
    lc_device_t device;      /* the queue's device (also for launches run in-thread) */
    int inthread;            /* ran on the device's in-thread companion (host-timed) */
    uint64_t bytes;          /* bytes the command reads and writes */
    int ops;                 /* graph ops fused into the kernel (lc_profile_note); else 0 */
    double start_ms, end_ms; /* since the profile opened; one time line per device */
};
/* "kernel", "h2d", "d2h", "copy", "fill", "map", "unmap". */
const char *lc_prof_kind_name(int kind);
struct lc_profile_mark {
    uint64_t from;           /* the first record that is the profile's */
    unsigned long long t0_ns;   /* the host time it opened (lc_now_ns's clock) */
};
/* Open a profile: records from now on are (also) its own. */
void lc_profile_begin(struct lc_profile_mark *m);
/* Close the profile of m, also on failure: wait for its commands (flushing their queues),
 * read their times, and return its records in start order in *out (malloc'd, the caller
 * frees it; NULL when none). Does not touch Python: callers release the GIL around it. */
lc_status lc_profile_end(const struct lc_profile_mark *m, struct lc_prof_record **out, size_t *n,
                         struct lc_error *e);
/* Is some profile open? */
int lc_profile_active(void);
/* Say what this thread's next kernel launch is: the graph ops fused into it and the bytes it
 * reads and writes (else 0 ops and its buffer arguments' sizes are recorded). */
void lc_profile_note(int ops, uint64_t bytes);

/* ---- statistics ------------------------------------------------------------------ */

struct lc_stats {
    uint64_t kernels_compiled;     /* programs built (source or SPIR-V) in this process */
    uint64_t memory_cache_hits;
    uint64_t disk_cache_hits;
    uint64_t launches;
    uint64_t buffers_allocated;    /* new driver allocations */
    uint64_t pool_hits;            /* allocations served from the pool */
    uint64_t bytes_in_use;         /* over all devices, bytes of live buffers (class sizes) */
    uint64_t bytes_cached;         /* bytes sitting unused in pools */
    uint64_t peak_bytes;           /* peak of bytes_in_use since the last reset */
    uint64_t bytes_to_device;
    uint64_t bytes_from_device;
    uint64_t spirv_builds;         /* of kernels_compiled, those built through SPIR-V */
    uint64_t spir_builds;          /* of kernels_compiled, those built from SPIR 1.2 bitcode */
    uint64_t plan_hits;            /* forces that reused a cached plan (engine/plancache.c) */
    uint64_t plan_misses;          /* forces that fused and generated code */
    uint64_t gemm_tunings;         /* GEMM autotunes run (engine/autotune.c) */
    uint64_t launches_inthread;    /* of launches, those run in the calling thread (inthread.c) */
};
void lc_stats_get(struct lc_stats *out);
/* Zero the counters; bytes_in_use and bytes_cached are levels and stay;
 * peak_bytes restarts at bytes_in_use. */
void lc_stats_reset(void);
/* Count one force: `hit` when it reused a cached plan. */
void lc_stats_count_plan(int hit);
/* Count one GEMM autotune (engine/autotune.c). */
void lc_stats_count_tuning(void);

/* ---- debugging ------------------------------------------------------------------- */

/* LAZYCL_DEBUG level (0 when unset), read once. */
int lc_debug_level(void);
/* LAZYCL_DUMP directory or NULL. */
const char *lc_dump_dir(void);

#endif
