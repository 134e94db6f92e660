/* launch.c: setting a kernel's arguments and enqueueing it, under the kernel's lock. */
#include "runtime/cl_util.h"

#include <string.h>

static const char *arg_kind_name(enum lc_arg_kind k)
{
    switch (k) {
    case LC_ARG_BUFFER: return "buffer";
    case LC_ARG_I32: return "i32";
    case LC_ARG_U32: return "u32";
    case LC_ARG_I64: return "i64";
    case LC_ARG_U64: return "u64";
    case LC_ARG_F32: return "f32";
    case LC_ARG_F64: return "f64";
    case LC_ARG_LOCAL: return "local";
    case LC_ARG_I8: return "i8";
    case LC_ARG_U8: return "u8";
    case LC_ARG_I16: return "i16";
    case LC_ARG_U16: return "u16";
    case LC_ARG_C64: return "c64";
    case LC_ARG_C128: return "c128";
    }
    return "?";
}

/* Under k->lock. */
static cl_int set_arg(lc_kernel_t k, cl_uint i, const struct lc_arg *a)
{
    switch (a->kind) {
    case LC_ARG_BUFFER: {
        cl_mem m = a->v.buf ? a->v.buf->mem : NULL;
        return clSetKernelArg(k->k, i, sizeof m, &m);
    }
    case LC_ARG_I32: return clSetKernelArg(k->k, i, sizeof a->v.i32, &a->v.i32);
    case LC_ARG_U32: return clSetKernelArg(k->k, i, sizeof a->v.u32, &a->v.u32);
    case LC_ARG_I64: return clSetKernelArg(k->k, i, sizeof a->v.i64, &a->v.i64);
    case LC_ARG_U64: return clSetKernelArg(k->k, i, sizeof a->v.u64, &a->v.u64);
    case LC_ARG_F32: return clSetKernelArg(k->k, i, sizeof a->v.f32, &a->v.f32);
    case LC_ARG_F64: return clSetKernelArg(k->k, i, sizeof a->v.f64, &a->v.f64);
    case LC_ARG_LOCAL: return clSetKernelArg(k->k, i, a->v.local_bytes, NULL);
    case LC_ARG_I8: return clSetKernelArg(k->k, i, sizeof a->v.i8, &a->v.i8);
    case LC_ARG_U8: return clSetKernelArg(k->k, i, sizeof a->v.u8, &a->v.u8);
    case LC_ARG_I16: return clSetKernelArg(k->k, i, sizeof a->v.i16, &a->v.i16);
    case LC_ARG_U16: return clSetKernelArg(k->k, i, sizeof a->v.u16, &a->v.u16);
    case LC_ARG_C64: return clSetKernelArg(k->k, i, sizeof a->v.c64, a->v.c64);
    case LC_ARG_C128: return clSetKernelArg(k->k, i, sizeof a->v.c128, a->v.c128);
    }
    return CL_INVALID_ARG_VALUE;
}

static struct lc_argbits arg_bits(const struct lc_arg *a)
{
    struct lc_argbits b = {(int)a->kind, 0};
    switch (a->kind) {
    case LC_ARG_BUFFER: b.bits = a->v.buf ? a->v.buf->id : 0; break;
    case LC_ARG_LOCAL: b.bits = (uint64_t)a->v.local_bytes; break;
    case LC_ARG_I8: case LC_ARG_U8: memcpy(&b.bits, &a->v.u8, 1); break;
    case LC_ARG_I16: case LC_ARG_U16: memcpy(&b.bits, &a->v.u16, 2); break;
    case LC_ARG_I32: case LC_ARG_U32: case LC_ARG_F32: memcpy(&b.bits, &a->v.u32, 4); break;
    default: memcpy(&b.bits, &a->v.u64, 8); break;
    }
    return b;
}

/* Under k->lock: set the arguments that differ from those set last. A failed
 * set forgets what was set, so that the next launch sets every argument. */
static cl_int set_args(lc_kernel_t k, const struct lc_arg *args, size_t nargs, size_t *bad)
{
    if (k->n_set < nargs) {
        void *ns = realloc(k->set, nargs * sizeof *k->set);
        if (ns) {
            k->set = ns;
            for (size_t i = k->n_set; i < nargs; i++)
                k->set[i].kind = -1;
            k->n_set = nargs;
        }
    }
    for (size_t i = 0; i < nargs; i++) {
        struct lc_argbits b = arg_bits(&args[i]);
        /* A double2 does not fit the 64 bits kept: it is always set. */
        int known = i < k->n_set && args[i].kind != LC_ARG_C128;
        if (known && k->set[i].kind == b.kind && k->set[i].bits == b.bits)
            continue;
        cl_int rc = set_arg(k, (cl_uint)i, &args[i]);
        if (rc != CL_SUCCESS) {
            for (size_t j = 0; j < k->n_set; j++)
                k->set[j].kind = -1;
            *bad = i;
            return rc;
        }
        if (known)
            k->set[i] = b;
    }
    return CL_SUCCESS;
}

static void sizes_str(unsigned dim, const size_t *s, char *out, size_t n)
{
    if (!s) {
        snprintf(out, n, "auto");
        return;
    }
    size_t len = 0;
    for (unsigned i = 0; i < dim && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%zu", i ? "x" : "", s[i]);
}

/* Record a launch in the open profiles: the ops and bytes its caller noted, else 0 ops and
 * the sizes of its buffers (each once). A timed launch shares its event. */
static void launch_record(lc_queue_t q, int side, lc_kernel_t k, const struct lc_arg *args,
                          size_t nargs, unsigned long long t0, cl_event *ev, cl_event pev,
                          int noted, int ops, uint64_t bytes)
{
    if (!noted) {
        for (size_t i = 0; i < nargs; i++) {
            if (args[i].kind != LC_ARG_BUFFER || !args[i].v.buf)
                continue;
            size_t j = 0;
            while (j < i && !(args[j].kind == LC_ARG_BUFFER && args[j].v.buf == args[i].v.buf))
                j++;
            if (j == i)
                bytes += args[i].v.buf->size;
        }
    }
    if (ev && side != LC_SIDE_INTHREAD && clRetainEvent(*ev) == CL_SUCCESS)
        pev = *ev;
    lc_prof_add(q, side, LC_PROF_KERNEL, k->name, bytes, ops, t0, pev);
}

/* Check, set the arguments and enqueue; *empty says a zero-size launch did nothing. */
static lc_status launch(lc_queue_t q, lc_kernel_t k, unsigned work_dim, const size_t *global,
                        const size_t *local, const struct lc_arg *args, size_t nargs, cl_event *ev,
                        int *empty, struct lc_error *e)
{
    *empty = 0;
    /* The caller's note is for this launch alone, whether it runs or not. */
    int ops = 0;
    uint64_t nbytes = 0;
    int noted = lc_prof_take_note(&ops, &nbytes);
    if (work_dim < 1 || work_dim > 3 || !global)
        return lc_error_set(e, LC_ERR_INVALID, "kernel '%s': work_dim must be 1, 2 or 3 (got %u)", k->name,
                            work_dim);
    for (unsigned i = 0; i < work_dim; i++) {
        if (global[i] == 0) {
            *empty = 1;
            return LC_OK;
        }
    }
    /* A kernel of the queue's device runs on its threads; one built for its in-thread
     * companion runs on the companion's queue, in the calling thread. */
    int inthread = k->dev != q->dev && k->dev == q->dev->inthread;
    if (q->dev != k->dev && !inthread)
        return lc_error_set(e, LC_ERR_PLACEMENT, "kernel '%s' was built for device '%s' but launched on a "
                            "queue of '%s'", k->name, k->dev->info.name, q->dev->info.name);
    for (size_t i = 0; i < nargs; i++) {
        if (args[i].kind == LC_ARG_BUFFER && args[i].v.buf && args[i].v.buf->dev != q->dev)
            return lc_error_set(e, LC_ERR_PLACEMENT, "kernel '%s': argument %zu is a buffer on device "
                                "'%s', the queue is on '%s'", k->name, i, args[i].v.buf->dev->info.name,
                                q->dev->info.name);
    }
    int side;
    cl_int rc;
    cl_command_queue cq = lc_queue_enter(q, inthread, &side, &rc);
    if (!cq)
        return lc_cl_fail(e, rc, "clFinish", q->dev);
    pthread_mutex_lock(&k->lock);
    size_t i = 0;
    rc = set_args(k, args, nargs, &i);
    if (rc != CL_SUCCESS) {
        pthread_mutex_unlock(&k->lock);
        lc_queue_leave(q, side, 0);
        return lc_error_set(e, LC_ERR_DEVICE, "clSetKernelArg failed with %s (%d) for argument %zu (%s) "
                            "of kernel '%s' on device '%s'", lc_cl_strerror(rc), (int)rc, i,
                            arg_kind_name(args[i].kind), k->name, k->dev->info.name);
    }
    unsigned long long t0 = lc_prof_t0();
    cl_event pev = NULL;
    rc = clEnqueueNDRangeKernel(cq, k->k, work_dim, NULL, global, local, 0, NULL,
                                ev ? ev : lc_prof_event(t0, side, &pev));
    pthread_mutex_unlock(&k->lock);
    if (t0 && rc == CL_SUCCESS)
        launch_record(q, side, k, args, nargs, t0, ev, pev, noted, ops, nbytes);
    lc_queue_leave(q, side, 0);
    if (rc != CL_SUCCESS) {
        char g[80], l[80];
        sizes_str(work_dim, global, g, sizeof g);
        sizes_str(work_dim, local, l, sizeof l);
        return lc_error_set(e, LC_ERR_DEVICE, "clEnqueueNDRangeKernel failed with %s (%d) for kernel '%s' "
                            "(global %s, local %s) on device '%s'", lc_cl_strerror(rc), (int)rc, k->name,
                            g, l, k->dev->info.name);
    }
    LC_STAT_ADD(launches, 1);
    if (inthread)
        LC_STAT_ADD(launches_inthread, 1);
    if (lc_debug_level() >= 2) {
        char g[80], l[80];
        sizes_str(work_dim, global, g, sizeof g);
        sizes_str(work_dim, local, l, sizeof l);
        lc_log(2, "launch %s global %s local %s, %zu args%s", k->name, g, l, nargs,
               inthread ? ", in-thread" : "");
    }
    return LC_OK;
}

lc_status lc_kernel_launch(lc_queue_t q, lc_kernel_t k, unsigned work_dim, const size_t *global,
                           const size_t *local, const struct lc_arg *args, size_t nargs,
                           struct lc_error *e)
{
    int empty;
    return launch(q, k, work_dim, global, local, args, nargs, NULL, &empty, e);
}

lc_status lc_kernel_launch_timed(lc_queue_t q, lc_kernel_t k, unsigned work_dim,
                                 const size_t *global, const size_t *local,
                                 const struct lc_arg *args, size_t nargs, uint64_t *ns,
                                 struct lc_error *e)
{
    *ns = 0;
    if (!q->profiling)
        return lc_error_set(e, LC_ERR_INVALID, "lc_kernel_launch_timed needs a queue made with profiling");
    cl_event ev = NULL;
    int empty;
    LC_TRY(launch(q, k, work_dim, global, local, args, nargs, &ev, &empty, e));
    if (empty)
        return LC_OK;
    cl_int rc = clWaitForEvents(1, &ev);
    cl_ulong t0 = 0, t1 = 0;
    if (rc == CL_SUCCESS)
        rc = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    if (rc == CL_SUCCESS)
        rc = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    clReleaseEvent(ev);
    if (rc != CL_SUCCESS)
        return lc_cl_fail(e, rc, "clGetEventProfilingInfo", q->dev);
    *ns = t1 > t0 ? (uint64_t)(t1 - t0) : 0;
    return LC_OK;
}
