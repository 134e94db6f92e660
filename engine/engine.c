/* engine.c: run a fused plan on a queue and realize the forced nodes. */
#include "engine/engine.h"

#include "codegen/codegen.h"
#include "fusion/fusion.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One force (or explain) at a time: forcing turns pending nodes into leaves,
 * and two threads forcing graphs that share nodes must not do that at once.
 * Held without the GIL; nothing under it touches Python. */
static pthread_mutex_t lc_engine_lock = PTHREAD_MUTEX_INITIALIZER;

/* Scratch areas up to this size live in the tail of an output's buffer. */
#define LC_SCRATCH_IN_OUTPUT_MAX ((size_t)1 << 16)

static double lc_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* LAZYCL_DEBUG=5: the graph under the outputs, one node a line. */
static void lc_dump_graph(struct lc_node *const *outs, size_t n)
{
    struct lc_error e = {0};
    size_t count;
    struct lc_node **topo = lc_graph_topo(outs, n, &count, &e);
    if (!topo)
        return;
    fprintf(stderr, "[lazycl] graph before fusion (%zu nodes):\n", count);
    for (size_t i = 0; i < count; i++) {
        char line[512];
        lc_node_describe(topo[i], line, sizeof line);
        fprintf(stderr, "[lazycl]   %s\n", line);
    }
    free(topo);
}

static void lc_engine_release_buffer(void *h)
{
    lc_buffer_release((lc_buffer_t)h);
}

struct lc_storage *lc_engine_storage(lc_buffer_t b)
{
    struct lc_storage *s = lc_storage_new(b, lc_engine_release_buffer, lc_buffer_size(b));
    if (!s)
        lc_buffer_release(b);
    return s;
}

lc_buffer_t lc_engine_buffer(const struct lc_storage *s)
{
    return (lc_buffer_t)s->handle;
}

struct lc_node *lc_engine_from_host(lc_queue_t q, int dtype, int ndim, const int64_t *shape,
                                    const void *data, struct lc_error *e)
{
    int64_t size = lc_shape_size(ndim, shape);
    size_t nbytes = (size_t)size * lc_dtype_size(dtype);
    lc_device_t d = lc_queue_device(q);
    if (dtype == LC_FLOAT64 && !lc_device_info(d)->fp64) {
        lc_error_set(e, LC_ERR_UNSUPPORTED,
                     "float64 is not supported on device '%s' (it has no fp64); use float32 or "
                     "a device with double precision", lc_device_info(d)->name);
        return NULL;
    }
    lc_buffer_t b;
    if (lc_buffer_alloc(d, nbytes, &b, e) != LC_OK)
        return NULL;
    if (nbytes && lc_buffer_write(q, b, 0, data, nbytes, 1, e) != LC_OK) {
        lc_buffer_release(b);
        return NULL;
    }
    struct lc_storage *s = lc_engine_storage(b);
    if (!s) {
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    struct lc_node *n = lc_node_buffer(q, dtype, ndim, shape, s, 0, NULL, e);
    lc_storage_release(s);
    return n;
}

static void lc_target_of(lc_device_t d, struct lc_target *t)
{
    const struct lc_device_info *di = lc_device_info(d);
    int gpu = di->type == LC_DEVICE_GPU || di->type == LC_DEVICE_ACCELERATOR;
    int pocl = strstr(di->platform_name, "Portable Computing Language") || strstr(di->vendor, "pocl");
    lc_target_init(t, lc_target_kind_of(gpu, pocl), di->fp64, di->compute_units,
                   di->max_work_group, di->name);
}

static int lc_scalar_arg(int dtype, union lc_scalar v, struct lc_arg *a)
{
    switch (dtype) {
    case LC_BOOL: case LC_UINT8: a->kind = LC_ARG_U8; a->v.u8 = (uint8_t)v.u; break;
    case LC_INT8: a->kind = LC_ARG_I8; a->v.i8 = (int8_t)v.i; break;
    case LC_INT16: a->kind = LC_ARG_I16; a->v.i16 = (int16_t)v.i; break;
    case LC_UINT16: a->kind = LC_ARG_U16; a->v.u16 = (uint16_t)v.u; break;
    case LC_INT32: a->kind = LC_ARG_I32; a->v.i32 = (int32_t)v.i; break;
    case LC_UINT32: a->kind = LC_ARG_U32; a->v.u32 = (uint32_t)v.u; break;
    case LC_INT64: a->kind = LC_ARG_I64; a->v.i64 = v.i; break;
    case LC_UINT64: a->kind = LC_ARG_U64; a->v.u64 = v.u; break;
    case LC_FLOAT32: a->kind = LC_ARG_F32; a->v.f32 = (float)v.f; break;
    case LC_FLOAT64: a->kind = LC_ARG_F64; a->v.f64 = v.f; break;
    default: return -1;
    }
    return 0;
}

static lc_status lc_engine_force_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                        unsigned flags, struct lc_error *e);

lc_status lc_engine_force(lc_queue_t q, struct lc_node *const *outs, size_t n, unsigned flags,
                          struct lc_error *e)
{
    pthread_mutex_lock(&lc_engine_lock);
    lc_status st = lc_engine_force_locked(q, outs, n, flags, e);
    pthread_mutex_unlock(&lc_engine_lock);
    return st;
}

static lc_status lc_engine_force_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                        unsigned flags, struct lc_error *e)
{
    for (size_t i = 0; i < n; i++)
        if (outs[i]->owner != (void *)q)
            return lc_error_set(e, LC_ERR_PLACEMENT,
                                "an array to compute lives on another device or queue");
    int debug = lc_debug_level();
    if (debug >= 5)
        lc_dump_graph(outs, n);
    struct lc_plan plan;
    lc_status st = lc_fuse(outs, n, flags, &plan, e);
    if (st != LC_OK)
        return st;
    if (plan.n_kernels == 0) {
        lc_plan_free(&plan);
        return LC_OK;
    }
    lc_device_t d = lc_queue_device(q);
    struct lc_target t;
    lc_target_of(d, &t);
    if (debug >= 3) {
        char *desc = lc_plan_describe(&plan);
        if (desc)
            fprintf(stderr, "[lazycl] %s", desc);
        free(desc);
    }
    lc_buffer_t *bufs = calloc((size_t)(plan.n_buffers ? plan.n_buffers : 1), sizeof *bufs);
    struct lc_arg *args = NULL;
    int cap_args = 0;
    void *zeros = NULL;
    size_t zeros_n = 0;
    if (!bufs) {
        lc_plan_free(&plan);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    }
    for (int k = 0; k < plan.n_kernels && st == LC_OK; k++) {
        struct lc_kcode code;
        st = lc_codegen(&plan, k, &t, &code, e);
        if (st != LC_OK)
            break;
        if (debug >= 4)
            fprintf(stderr, "[lazycl] kernel %d (%s):\n%s\n", k, code.schedule, code.source);
        /* The buffers this kernel writes. A small scratch area (partials of
         * split reductions and scans) goes in the tail of the first output's
         * buffer, so that a fused reduction allocates one buffer only. */
        lc_buffer_t scratch = NULL;
        size_t sbase = 0;
        int host = -1;
        if (code.scratch_bytes && code.scratch_bytes <= LC_SCRATCH_IN_OUTPUT_MAX)
            for (int b = 0; b < plan.n_buffers && host < 0; b++)
                if (plan.buffers[b].producer == k && !bufs[b])
                    host = b;
        for (int b = 0; b < plan.n_buffers && st == LC_OK; b++)
            if (plan.buffers[b].producer == k && !bufs[b]) {
                size_t nb = plan.buffers[b].nbytes;
                if (b == host) {
                    sbase = (nb + 63) / 64 * 64;
                    nb = sbase + code.scratch_bytes;
                }
                st = lc_buffer_alloc(d, nb, &bufs[b], e);
            }
        if (st == LC_OK && code.scratch_bytes) {
            if (host >= 0) {
                scratch = bufs[host];
                lc_buffer_retain(scratch);
            } else {
                st = lc_buffer_alloc(d, code.scratch_bytes, &scratch, e);
            }
            if (st == LC_OK && code.zero_bytes) {
                if (zeros_n < code.zero_bytes) {
                    free(zeros);
                    zeros = calloc(1, code.zero_bytes);
                    zeros_n = zeros ? code.zero_bytes : 0;
                }
                if (!zeros)
                    st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
                else
                    st = lc_buffer_write(q, scratch, sbase, zeros, code.zero_bytes, 1, e);
            }
        }
        for (int li = 0; li < code.n_launches && st == LC_OK; li++) {
            struct lc_launch *l = &code.launches[li];
            lc_kernel_t kern;
            st = lc_kernel_get(d, code.source, l->name, "-w", &kern, e);
            if (st != LC_OK)
                break;
            if (l->n_args > cap_args) {
                void *na = realloc(args, (size_t)l->n_args * sizeof *args);
                if (!na) {
                    st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
                    break;
                }
                args = na;
                cap_args = l->n_args;
            }
            for (int a = 0; a < l->n_args; a++) {
                const struct lc_cgarg *ca = &l->args[a];
                memset(&args[a], 0, sizeof args[a]);
                switch (ca->kind) {
                case LC_CGARG_INPUT:
                    args[a].kind = LC_ARG_BUFFER;
                    args[a].v.buf = lc_engine_buffer(plan.inputs[ca->index]);
                    break;
                case LC_CGARG_TEMP:
                    args[a].kind = LC_ARG_BUFFER;
                    args[a].v.buf = bufs[ca->index];
                    break;
                case LC_CGARG_SCRATCH:
                    args[a].kind = LC_ARG_BUFFER;
                    args[a].v.buf = scratch;
                    break;
                case LC_CGARG_SCALAR:
                    lc_scalar_arg(ca->dtype, ca->value, &args[a]);
                    break;
                case LC_CGARG_SCRATCH_BASE:
                    args[a].kind = LC_ARG_I64;
                    args[a].v.i64 = (int64_t)sbase;
                    break;
                }
            }
            double t0 = debug >= 2 ? lc_seconds() : 0;
            if (debug >= 2)
                st = lc_queue_finish(q, e);
            if (st == LC_OK)
                st = lc_kernel_launch(q, kern, l->work_dim, l->global,
                                      l->use_local ? l->local : NULL, args, (size_t)l->n_args, e);
            if (debug >= 2 && st == LC_OK && (st = lc_queue_finish(q, e)) == LC_OK) {
                /* Bytes: every buffer the launch reads or writes, once. */
                double secs = lc_seconds() - t0, bytes = 0;
                for (int a = 0; a < l->n_args; a++)
                    if (args[a].kind == LC_ARG_BUFFER && l->args[a].kind != LC_CGARG_SCRATCH)
                        bytes += (double)lc_buffer_size(args[a].v.buf);
                fprintf(stderr, "[lazycl] %s: %.3f ms, %.2f GB/s (%s)\n", l->name, secs * 1e3,
                        secs > 0 ? bytes / secs * 1e-9 : 0.0, code.schedule);
            }
        }
        if (scratch)
            lc_buffer_release(scratch);
        lc_kcode_free(&code);
        /* Temporaries whose last reader is this kernel go back to the pool;
         * the queue is in order, so a later kernel may reuse them safely. */
        for (int b = 0; b < plan.n_buffers; b++)
            if (bufs[b] && !plan.buffers[b].is_output && plan.buffers[b].last_use <= k) {
                lc_buffer_release(bufs[b]);
                bufs[b] = NULL;
            }
    }
    if (st == LC_OK) {
        for (size_t r = 0; r < n; r++) {
            int b = plan.out_buffer[r];
            if (b < 0 || !bufs[b])
                continue;
            if (outs[r]->op == LC_OP_BUFFER && outs[r]->storage &&
                lc_engine_buffer(outs[r]->storage) == bufs[b])
                continue; /* the same output forced twice */
            lc_buffer_retain(bufs[b]);
            struct lc_storage *s = lc_engine_storage(bufs[b]);
            if (!s) {
                st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
                break;
            }
            lc_node_realize(outs[r], s);
            lc_storage_release(s);
        }
    }
    for (int b = 0; b < plan.n_buffers; b++)
        if (bufs[b])
            lc_buffer_release(bufs[b]);
    free(bufs);
    free(args);
    free(zeros);
    lc_plan_free(&plan);
    return st;
}

lc_status lc_engine_read(lc_queue_t q, const struct lc_node *n, void *dst, struct lc_error *e)
{
    if (n->op != LC_OP_BUFFER || !lc_node_is_contiguous(n))
        return lc_error_set(e, LC_ERR_INVALID, "internal: reading a node that is not contiguous");
    size_t nbytes = (size_t)n->size * lc_dtype_size(n->dtype);
    if (!nbytes)
        return LC_OK;
    return lc_buffer_read(q, lc_engine_buffer(n->storage),
                          (size_t)n->offset * lc_dtype_size(n->dtype), dst, nbytes, e);
}

static char *lc_engine_explain_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                      struct lc_error *e);

char *lc_engine_explain(lc_queue_t q, struct lc_node *const *outs, size_t n, struct lc_error *e)
{
    pthread_mutex_lock(&lc_engine_lock);
    char *s = lc_engine_explain_locked(q, outs, n, e);
    pthread_mutex_unlock(&lc_engine_lock);
    return s;
}

static char *lc_engine_explain_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                      struct lc_error *e)
{
    struct lc_plan plan;
    if (lc_fuse(outs, n, 0, &plan, e) != LC_OK)
        return NULL;
    struct lc_target t;
    lc_target_of(lc_queue_device(q), &t);
    struct lc_sb sb = {0};
    char *desc = lc_plan_describe(&plan);
    lc_sb_printf(&sb, "%s", desc ? desc : "");
    free(desc);
    for (int k = 0; k < plan.n_kernels; k++) {
        struct lc_kcode code;
        if (lc_codegen(&plan, k, &t, &code, e) != LC_OK) {
            lc_sb_free(&sb);
            lc_plan_free(&plan);
            return NULL;
        }
        lc_sb_printf(&sb, "\n--- kernel %d: %s (%d launch%s)\n%s", k, code.launches[0].name,
                     code.n_launches, code.n_launches == 1 ? "" : "es", code.source);
        lc_kcode_free(&code);
    }
    lc_plan_free(&plan);
    if (sb.oom) {
        lc_sb_free(&sb);
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    if (!sb.s)
        lc_sb_printf(&sb, "%s", "");
    return sb.s;
}
