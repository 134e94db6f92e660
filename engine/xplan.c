/* xplan.c: executable plans: made once from a fused plan, run for every graph of its structure. */
#include "engine/xplan.h"

#include "engine/storage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Scratch areas up to this size live in the tail of an output's buffer. */
#define LC_SCRATCH_IN_OUTPUT_MAX ((size_t)1 << 16)

void lc_xplan_free(struct lc_xplan *x)
{
    if (!x)
        return;
    for (int k = 0; k < x->n_kernels; k++) {
        lc_kcode_free(&x->kernels[k].code);
        free(x->kernels[k].kerns);
        free(x->kernels[k].kerns_in);
    }
    free(x->kernels);
    free(x->buffers);
    free(x->inputs);
    free(x->out_buffer);
    free(x->words);
    free(x);
}

/* Point the leaf-valued scalar arguments of `code` at their leaves' places in
 * the walk (instead of the kernel's access numbers). */
static int lc_xplan_name_leaves(struct lc_kcode *code, const struct lc_kernel *k,
                                const struct lc_graph_sig *sig)
{
    for (int li = 0; li < code->n_launches; li++)
        for (int a = 0; a < code->launches[li].n_args; a++) {
            struct lc_cgarg *ca = &code->launches[li].args[a];
            if (ca->from == LC_FROM_STRUCTURE)
                continue;
            const struct lc_node *leaf = k->access[ca->access].leaf;
            long at = leaf ? lc_walk_index(&sig->walk, leaf) : -1;
            if (at < 0)
                return -1;
            ca->index = (int)at;
        }
    return 0;
}

void lc_xplan_codes_free(struct lc_kcode *codes, int n)
{
    for (int k = 0; codes && k < n; k++)
        lc_kcode_free(&codes[k]);
    free(codes);
}

lc_status lc_xplan_codegen(const struct lc_plan *p, const struct lc_target *t,
                           struct lc_kcode **codes, struct lc_error *e)
{
    *codes = calloc((size_t)(p->n_kernels ? p->n_kernels : 1), sizeof **codes);
    if (!*codes)
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    for (int k = 0; k < p->n_kernels; k++) {
        lc_status st = lc_codegen(p, k, t, &(*codes)[k], e);
        if (st != LC_OK) {
            lc_xplan_codes_free(*codes, k);
            *codes = NULL;
            return st;
        }
    }
    return LC_OK;
}

/* The work of plan kernel k (struct lc_xkernel's `work`). */
static double lc_xplan_work(const struct lc_kernel *k, const struct lc_kcode *code)
{
    double elems = 1, per = 0;
    for (int d = 0; d < k->ndim; d++)
        elems *= (double)k->shape[d];
    for (int a = 0; a < k->n_access; a++)
        if (k->access[a].kind == LC_ACCESS_INPUT || k->access[a].kind == LC_ACCESS_TEMP)
            per += (double)lc_dtype_size(k->access[a].dtype);
    for (int o = 0; o < k->n_outputs; o++)
        per += (double)lc_dtype_size(k->outputs[o].dtype);
    return elems * (per > 0 ? per : 1) + (double)(code->gemm_work > 0 ? code->gemm_work : 0);
}

lc_status lc_xplan_make(const struct lc_plan *p, struct lc_kcode *codes,
                        const struct lc_graph_sig *sig, lc_device_t d, const struct lc_target *t,
                        int debug, struct lc_xplan **out, struct lc_error *e)
{
    *out = NULL;
    struct lc_xplan *x = calloc(1, sizeof *x);
    if (x)
        x->kernels = calloc((size_t)(p->n_kernels ? p->n_kernels : 1), sizeof *x->kernels);
    if (!x || !x->kernels) {
        free(x);
        lc_xplan_codes_free(codes, p->n_kernels);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    }
    /* The codes are the xplan's from here on. */
    for (int k = 0; k < p->n_kernels; k++) {
        x->kernels[k].code = codes[k];
        x->kernels[k].work = lc_xplan_work(&p->kernels[k], &codes[k]);
    }
    x->n_kernels = p->n_kernels;
    free(codes);
    x->device = d;
    x->target = *t;
    x->key = 0;
    x->buffers = calloc((size_t)(p->n_buffers ? p->n_buffers : 1), sizeof *x->buffers);
    x->inputs = calloc((size_t)(p->n_inputs ? p->n_inputs : 1), sizeof *x->inputs);
    x->out_buffer = malloc((size_t)(p->n_out ? p->n_out : 1) * sizeof *x->out_buffer);
    x->words = malloc((sig->n_words ? sig->n_words : 1) * sizeof *x->words);
    if (!x->buffers || !x->inputs || !x->out_buffer || !x->words)
        goto nomem;
    memcpy(x->words, sig->words, sig->n_words * sizeof *x->words);
    x->n_words = sig->n_words;
    x->n_buffers = p->n_buffers;
    for (int b = 0; b < p->n_buffers; b++)
        x->buffers[b] = (struct lc_xbuffer){p->buffers[b].nbytes, p->buffers[b].producer,
                                            p->buffers[b].last_use, p->buffers[b].is_output};
    x->n_out = p->n_out;
    memcpy(x->out_buffer, p->out_buffer, (size_t)p->n_out * sizeof *x->out_buffer);
    /* Each input storage, by the first leaf in the walk that holds it. */
    x->n_inputs = p->n_inputs;
    for (int i = 0; i < p->n_inputs; i++) {
        x->inputs[i] = -1;
        for (size_t j = 0; j < sig->walk.n && x->inputs[i] < 0; j++)
            if (sig->walk.order[j]->op == LC_OP_BUFFER && sig->walk.order[j]->storage == p->inputs[i])
                x->inputs[i] = (long)j;
        if (x->inputs[i] < 0) {
            lc_xplan_free(x);
            return lc_error_set(e, LC_ERR_INVALID, "internal: a plan input is no leaf of the graph");
        }
    }
    for (int k = 0; k < p->n_kernels; k++) {
        struct lc_xkernel *xk = &x->kernels[k];
        lc_status st;
        if (debug >= 4)
            fprintf(stderr, "[lazycl] kernel %d (%s):\n%s\n", k, xk->code.schedule, xk->code.source);
        if (lc_xplan_name_leaves(&xk->code, &p->kernels[k], sig) < 0) {
            lc_xplan_free(x);
            return lc_error_set(e, LC_ERR_INVALID, "internal: a kernel reads a leaf outside the graph");
        }
        xk->kerns = calloc((size_t)(xk->code.n_launches ? xk->code.n_launches : 1), sizeof *xk->kerns);
        if (!xk->kerns)
            goto nomem;
        for (int li = 0; li < xk->code.n_launches; li++) {
            const struct lc_launch *l = &xk->code.launches[li];
            st = l->blas ? LC_OK : lc_kernel_get(d, xk->code.source, l->name, "-w",
                                                 &xk->kerns[li], e);
            if (st != LC_OK) {
                lc_xplan_free(x);
                return st;
            }
            if (l->n_args > x->max_args)
                x->max_args = l->n_args;
            for (int a = 0; a < l->n_args; a++)
                x->gathers |= l->args[a].kind == LC_CGARG_ERROR;
        }
    }
    *out = x;
    return LC_OK;
nomem:
    lc_xplan_free(x);
    return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
}

/* ---- running ------------------------------------------------------------------------ */

static double lc_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int lc_scalar_arg(int dtype, union lc_scalar v, union lc_scalar im, struct lc_arg *a)
{
    switch (dtype) {
    case LC_COMPLEX64:
        a->kind = LC_ARG_C64;
        a->v.c64[0] = (float)v.f;
        a->v.c64[1] = (float)im.f;
        break;
    case LC_COMPLEX128:
        a->kind = LC_ARG_C128;
        a->v.c128[0] = v.f;
        a->v.c128[1] = im.f;
        break;
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

/* What one run holds: the buffers it writes and the arguments of a launch. */
struct lc_xrun {
    const struct lc_xplan *x;
    const struct lc_graph_sig *sig;
    lc_queue_t q;
    lc_buffer_t *bufs;
    lc_buffer_t err;              /* gathers' index errors (LC_CGARG_ERROR) */
    struct lc_arg *args;
    void *zeros;
    size_t zeros_n;
    size_t inthread_limit;        /* lc_device_inthread_limit of the device (0: none) */
};

/* Allocate the buffers kernel k writes and its scratch area (a small one goes
 * in the tail of its first output's buffer, so that a fused reduction
 * allocates one buffer only), zeroed as the code asks. */
static lc_status lc_xrun_alloc(struct lc_xrun *r, int k, lc_buffer_t *scratch, size_t *sbase,
                               struct lc_error *e)
{
    const struct lc_xplan *x = r->x;
    const struct lc_kcode *code = &x->kernels[k].code;
    lc_device_t d = x->device;
    lc_status st = LC_OK;
    int host = -1;
    *scratch = NULL;
    *sbase = 0;
    if (code->scratch_bytes && code->scratch_bytes <= LC_SCRATCH_IN_OUTPUT_MAX)
        for (int b = 0; b < x->n_buffers && host < 0; b++)
            if (x->buffers[b].producer == k && !r->bufs[b])
                host = b;
    for (int b = 0; b < x->n_buffers && st == LC_OK; b++)
        if (x->buffers[b].producer == k && !r->bufs[b]) {
            size_t nb = x->buffers[b].nbytes;
            if (b == host) {
                *sbase = (nb + 63) / 64 * 64;
                nb = *sbase + code->scratch_bytes;
            }
            st = lc_buffer_alloc(d, nb, &r->bufs[b], e);
        }
    if (st != LC_OK || !code->scratch_bytes)
        return st;
    if (host >= 0) {
        *scratch = r->bufs[host];
        lc_buffer_retain(*scratch);
    } else if ((st = lc_buffer_alloc(d, code->scratch_bytes, scratch, e)) != LC_OK) {
        return st;
    }
    if (!code->zero_bytes)
        return LC_OK;
    if (r->zeros_n < code->zero_bytes) {
        free(r->zeros);
        r->zeros = calloc(1, code->zero_bytes);
        r->zeros_n = r->zeros ? code->zero_bytes : 0;
    }
    if (!r->zeros)
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    return lc_buffer_write(r->q, *scratch, *sbase, r->zeros, code->zero_bytes, 1, e);
}

/* The runtime arguments of launch l: this run's buffers and this graph's values. */
static void lc_xrun_bind(struct lc_xrun *r, const struct lc_launch *l, lc_buffer_t scratch,
                         size_t sbase)
{
    struct lc_node *const *leaves = r->sig->walk.order;
    for (int a = 0; a < l->n_args; a++) {
        const struct lc_cgarg *ca = &l->args[a];
        struct lc_arg *arg = &r->args[a];
        memset(arg, 0, sizeof *arg);
        switch (ca->kind) {
        case LC_CGARG_INPUT:
            arg->kind = LC_ARG_BUFFER;
            arg->v.buf = lc_engine_buffer(leaves[r->x->inputs[ca->index]]->storage);
            break;
        case LC_CGARG_TEMP:
            arg->kind = LC_ARG_BUFFER;
            arg->v.buf = r->bufs[ca->index];
            break;
        case LC_CGARG_SCRATCH:
            arg->kind = LC_ARG_BUFFER;
            arg->v.buf = scratch;
            break;
        case LC_CGARG_SCALAR:
            if (ca->from == LC_FROM_STRUCTURE) {
                lc_scalar_arg(ca->dtype, ca->value, ca->value, arg);
            } else if (ca->from == LC_FROM_OFFSET) {
                /* A place in the leaf's storage: its offset now, plus the views' shift. */
                union lc_scalar v = {.i = leaves[ca->index]->offset + ca->value.i};
                lc_scalar_arg(LC_INT64, v, v, arg);
            } else {
                const struct lc_node *leaf = leaves[ca->index];
                union lc_scalar v = ca->from == LC_FROM_VALUE ? leaf->value : leaf->step;
                /* A complex constant keeps its imaginary part in `step`. */
                union lc_scalar im = {0};
                if (lc_dtype_is_complex(leaf->dtype) && lc_dtype_is_complex(ca->dtype))
                    im = leaf->step;
                /* A random leaf's key and counter are raw 64-bit words, whatever its dtype. */
                if (leaf->op != LC_OP_RANDOM)
                    v = lc_scalar_cast(v, leaf->dtype, ca->dtype);
                lc_scalar_arg(ca->dtype, v, im, arg);
            }
            break;
        case LC_CGARG_SCRATCH_BASE:
            arg->kind = LC_ARG_I64;
            arg->v.i64 = (int64_t)sbase;
            break;
        case LC_CGARG_ERROR:
            arg->kind = LC_ARG_BUFFER;
            arg->v.buf = r->err;
            break;
        }
    }
}

/* The kernel for launch li of kernel k: the in-thread companion's when the device has one
 * and the kernel's work is under the device's limit, else the device's own. */
static lc_status lc_xrun_kernel(struct lc_xrun *r, int k, int li, lc_kernel_t *out,
                                struct lc_error *e)
{
    struct lc_xkernel *xk = &r->x->kernels[k];
    const struct lc_launch *l = &xk->code.launches[li];
    *out = xk->kerns[li];
    if (!r->inthread_limit)
        return LC_OK;
    if (xk->work >= (double)r->inthread_limit)
        return LC_OK;
    if (!xk->kerns_in) {
        xk->kerns_in = calloc((size_t)xk->code.n_launches, sizeof *xk->kerns_in);
        if (!xk->kerns_in)
            return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    }
    if (!xk->kerns_in[li])
        LC_TRY(lc_kernel_get(lc_device_inthread(r->x->device), xk->code.source, l->name, "-w",
                             &xk->kerns_in[li], e));
    *out = xk->kerns_in[li];
    return LC_OK;
}

static lc_status lc_xrun_launch(struct lc_xrun *r, int k, int li, int debug, struct lc_error *e)
{
    const struct lc_xkernel *xk = &r->x->kernels[k];
    const struct lc_launch *l = &xk->code.launches[li];
    lc_kernel_t kern = NULL;
    double t0 = debug >= 2 ? lc_seconds() : 0;
    lc_status st = debug >= 2 ? lc_queue_finish(r->q, e) : LC_OK;
    if (st == LC_OK && l->blas) {
        struct lc_blas_gemm g = {
            l->args[0].dtype == LC_FLOAT64, l->blas_trans_a, l->blas_trans_b,
            (size_t)l->blas_m, (size_t)l->blas_n, (size_t)l->blas_k,
            (size_t)r->args[3].v.i64, (size_t)l->blas_lda, (size_t)r->args[4].v.i64,
            (size_t)l->blas_ldb, (size_t)l->blas_off[2], (size_t)l->blas_ldc};
        st = lc_blas_gemm(r->q, &g, r->args[0].v.buf, r->args[1].v.buf, r->args[2].v.buf, e);
    } else if (st == LC_OK && (st = lc_xrun_kernel(r, k, li, &kern, e)) == LC_OK) {
        st = lc_kernel_launch(r->q, kern, l->work_dim, l->global,
                              l->use_local ? l->local : NULL, r->args, (size_t)l->n_args, e);
    }
    if (debug >= 2 && st == LC_OK && (st = lc_queue_finish(r->q, e)) == LC_OK) {
        /* Bytes: every buffer the launch reads or writes, once. */
        double secs = lc_seconds() - t0, bytes = 0;
        for (int a = 0; a < l->n_args; a++)
            if (r->args[a].kind == LC_ARG_BUFFER && l->args[a].kind != LC_CGARG_SCRATCH)
                bytes += (double)lc_buffer_size(r->args[a].v.buf);
        fprintf(stderr, "[lazycl] %s: %.3f ms, %.2f GB/s (%s)\n", l->name, secs * 1e3,
                secs > 0 ? bytes / secs * 1e-9 : 0.0, xk->code.schedule);
    }
    return st;
}

/* Turn each forced output into a leaf of the buffer written for it. */
static lc_status lc_xrun_realize(struct lc_xrun *r, struct lc_node *const *outs, size_t n,
                                 struct lc_error *e)
{
    for (size_t o = 0; o < n; o++) {
        int b = r->x->out_buffer[o];
        if (b < 0 || !r->bufs[b])
            continue;
        if (outs[o]->op == LC_OP_BUFFER && outs[o]->storage &&
            lc_engine_buffer(outs[o]->storage) == r->bufs[b])
            continue; /* the same output forced twice */
        lc_buffer_retain(r->bufs[b]);
        struct lc_storage *s = lc_engine_storage(r->bufs[b]);
        if (!s)
            return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        lc_node_realize(outs[o], s);
        lc_storage_release(s);
    }
    return LC_OK;
}

lc_status lc_xplan_run(const struct lc_xplan *x, lc_queue_t q, const struct lc_graph_sig *sig,
                       struct lc_node *const *outs, size_t n, int debug, struct lc_error *e)
{
    struct lc_xrun r = {x, sig, q, NULL, NULL, NULL, NULL, 0, lc_device_inthread_limit(x->device)};
    r.bufs = calloc((size_t)(x->n_buffers ? x->n_buffers : 1), sizeof *r.bufs);
    r.args = malloc((size_t)(x->max_args ? x->max_args : 1) * sizeof *r.args);
    lc_status st = LC_OK;
    if (!r.bufs || !r.args)
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    int32_t errv[8] = {0};
    if (st == LC_OK && x->gathers &&
        (st = lc_buffer_alloc(x->device, sizeof errv, &r.err, e)) == LC_OK)
        st = lc_buffer_write(q, r.err, 0, errv, sizeof errv, 1, e);
    for (int k = 0; k < x->n_kernels && st == LC_OK; k++) {
        lc_buffer_t scratch;
        size_t sbase;
        st = lc_xrun_alloc(&r, k, &scratch, &sbase, e);
        for (int li = 0; li < x->kernels[k].code.n_launches && st == LC_OK; li++) {
            lc_xrun_bind(&r, &x->kernels[k].code.launches[li], scratch, sbase);
            st = lc_xrun_launch(&r, k, li, debug, e);
        }
        if (scratch)
            lc_buffer_release(scratch);
        /* Temporaries whose last reader is this kernel go back to the pool;
         * the queue is in order, so a later kernel may reuse them safely. */
        for (int b = 0; b < x->n_buffers; b++)
            if (r.bufs[b] && !x->buffers[b].is_output && x->buffers[b].last_use <= k) {
                lc_buffer_release(r.bufs[b]);
                r.bufs[b] = NULL;
            }
    }
    /* An index out of range: nothing is realized (the reads it made were of
     * element 0 instead), the error names the first one found. */
    if (st == LC_OK && r.err && (st = lc_buffer_read(q, r.err, 0, errv, sizeof errv, e)) == LC_OK &&
        errv[0]) {
        int64_t bad, size;
        memcpy(&bad, &errv[2], sizeof bad);
        memcpy(&size, &errv[4], sizeof size);
        st = lc_error_set(e, LC_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld",
                          (long long)bad, (int)errv[1], (long long)size);
    }
    if (r.err)
        lc_buffer_release(r.err);
    if (st == LC_OK)
        st = lc_xrun_realize(&r, outs, n, e);
    for (int b = 0; r.bufs && b < x->n_buffers; b++)
        if (r.bufs[b])
            lc_buffer_release(r.bufs[b]);
    free(r.bufs);
    free(r.args);
    free(r.zeros);
    return st;
}
