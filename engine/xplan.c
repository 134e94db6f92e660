/* xplan.c: executable plans: made once from a fused plan, run for every graph of its structure. */
#include "engine/xplan.h"

#include "engine/check.h"
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
        x->kernels[k].ops = p->kernels[k].n_fused;
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
            /* The kernel itself is built at its first launch (lc_xrun_kernel): on a device
             * with an in-thread companion, small work runs the companion's build alone. */
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
    size_t inthread_limit;        /* lc_device_inthread_limit of the device (0: none) */
    /* Buffers this run is done with where q is not alone, and at the end every buffer it
     * used: q holds them until the run has finished (lc_queue_hold). Until then a later
     * kernel of the run may take one of the same size (it runs after, on q). */
    lc_buffer_t *held;
    size_t n_held, cap_held;
};

/* Keep b (a reference the caller gives) for q to hold at the end. */
static lc_status lc_xrun_keep(struct lc_xrun *r, lc_buffer_t b, struct lc_error *e)
{
    if (r->n_held == r->cap_held) {
        size_t nc = r->cap_held ? 2 * r->cap_held : 16;
        lc_buffer_t *h = realloc(r->held, nc * sizeof *h);
        if (!h) {
            /* No room to keep it: wait until q is done with it. */
            lc_status st = lc_queue_finish(r->q, e);
            lc_buffer_release(b);
            return st;
        }
        r->held = h;
        r->cap_held = nc;
    }
    r->held[r->n_held++] = b;
    return LC_OK;
}

/* The run is done with b (the caller's reference): back to the pool where q is alone (the
 * next owner's work comes after on q), else kept. */
static lc_status lc_xrun_drop(struct lc_xrun *r, lc_buffer_t b, struct lc_error *e)
{
    if (lc_queue_alone(r->q)) {
        lc_buffer_release(b);
        return LC_OK;
    }
    return lc_xrun_keep(r, b, e);
}

/* A buffer of nb bytes: one this run is done with, of that size, else from the pool. */
static lc_status lc_xrun_buffer(struct lc_xrun *r, size_t nb, lc_buffer_t *out, struct lc_error *e)
{
    for (size_t i = 0; i < r->n_held; i++)
        if (lc_buffer_size(r->held[i]) == nb) {
            *out = r->held[i];
            r->held[i] = r->held[--r->n_held];
            return LC_OK;
        }
    return lc_buffer_alloc(r->x->device, nb, out, e);
}

/* Allocate the buffers kernel k writes and its scratch area (a small one goes
 * in the tail of its first output's buffer, so that a fused reduction
 * allocates one buffer only), zeroed as the code asks. */
static lc_status lc_xrun_alloc(struct lc_xrun *r, int k, lc_buffer_t *scratch, size_t *sbase,
                               struct lc_error *e)
{
    const struct lc_xplan *x = r->x;
    const struct lc_kcode *code = &x->kernels[k].code;
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
            st = lc_xrun_buffer(r, nb, &r->bufs[b], e);
        }
    if (st != LC_OK || !code->scratch_bytes)
        return st;
    if (host >= 0) {
        *scratch = r->bufs[host];
        lc_buffer_retain(*scratch);
    } else if ((st = lc_xrun_buffer(r, code->scratch_bytes, scratch, e)) != LC_OK) {
        return st;
    }
    /* A fill, not a write of host zeros: a blocking write would wait for all the work
     * before it on q. */
    return lc_queue_zero(r->q, *scratch, *sbase, code->zero_bytes, e);
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
    if (!r->inthread_limit || xk->work >= (double)r->inthread_limit) {
        /* The device's own build, made at the first launch that needs it (under the engine's
         * lock, as the plan's every use): PoCL's builds of the kernels that only ever ran
         * in-thread were most of its builds in a test run. */
        if (!xk->kerns[li] && !l->blas)
            LC_TRY(lc_kernel_get(r->x->device, xk->code.source, l->name, "-w", &xk->kerns[li], e));
        *out = xk->kerns[li];
        return LC_OK;
    }
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

/* The bytes launch l reads and writes: every buffer it is given but scratch, once. */
static double lc_xrun_bytes(const struct lc_xrun *r, const struct lc_launch *l)
{
    double bytes = 0;
    for (int a = 0; a < l->n_args; a++)
        if (r->args[a].kind == LC_ARG_BUFFER && l->args[a].kind != LC_CGARG_SCRATCH)
            bytes += (double)lc_buffer_size(r->args[a].v.buf);
    return bytes;
}

static lc_status lc_xrun_launch(struct lc_xrun *r, int k, int li, int debug, struct lc_error *e)
{
    const struct lc_xkernel *xk = &r->x->kernels[k];
    const struct lc_launch *l = &xk->code.launches[li];
    lc_kernel_t kern = NULL;
    double t0 = debug >= 2 ? lc_seconds() : 0;
    lc_status st = debug >= 2 ? lc_queue_finish(r->q, e) : LC_OK;
    if (lc_profile_active())   /* what lc.profile() shows of the launch */
        lc_profile_note(xk->ops, (uint64_t)lc_xrun_bytes(r, l));
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
        double secs = lc_seconds() - t0, bytes = lc_xrun_bytes(r, l);
        fprintf(stderr, "[lazycl] %s: %.3f ms, %.2f GB/s (%s)\n", l->name, secs * 1e3,
                secs > 0 ? bytes / secs * 1e-9 : 0.0, xk->code.schedule);
    }
    return st;
}

/* Make `out` a leaf of buffer b (retained), guarded by `chk` when given (engine/check.h). */
static lc_status lc_realize_one(struct lc_node *out, lc_buffer_t b, struct lc_check *chk,
                                struct lc_error *e)
{
    if (out->op == LC_OP_BUFFER && out->storage && lc_engine_buffer(out->storage) == b)
        return LC_OK; /* the same output forced twice */
    lc_buffer_retain(b);
    struct lc_storage *s = chk ? lc_check_storage(b, chk) : lc_engine_storage(b);
    if (!s)
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    lc_node_realize(out, s);
    lc_storage_release(s);
    return LC_OK;
}

/* Turn each forced output into a leaf of the buffer written for it. */
static lc_status lc_xrun_realize(struct lc_xrun *r, struct lc_node *const *outs, size_t n,
                                 struct lc_check *chk, struct lc_error *e)
{
    for (size_t o = 0; o < n; o++) {
        int b = r->x->out_buffer[o];
        if (b >= 0 && r->bufs[b])
            LC_TRY(lc_realize_one(outs[o], r->bufs[b], chk, e));
    }
    return LC_OK;
}

/* Keep what realizing the outputs needs once the index check is read (lc_xheld). */
static lc_status lc_xrun_keep_outputs(struct lc_xrun *r, struct lc_node *const *outs, size_t n,
                                      struct lc_xheld *h, struct lc_error *e)
{
    lc_buffer_retain(h->err = r->err);   /* set first: the caller frees h on failure too */
    h->nodes = calloc(n ? n : 1, sizeof *h->nodes);
    h->bufs = calloc(n ? n : 1, sizeof *h->bufs);
    h->was_pending = calloc(n ? n : 1, 1);
    if (!h->nodes || !h->bufs || !h->was_pending)
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    h->n = n;
    for (size_t o = 0; o < n; o++) {
        int b = r->x->out_buffer[o];
        lc_node_retain(h->nodes[o] = outs[o]);
        h->was_pending[o] = !lc_node_is_leaf(outs[o]);
        if (b >= 0 && r->bufs[b])
            lc_buffer_retain(h->bufs[o] = r->bufs[b]);
    }
    return LC_OK;
}

lc_status lc_xheld_check(lc_queue_t q, const struct lc_xheld *h, struct lc_error *e)
{
    int32_t errv[8] = {0};
    LC_TRY(lc_buffer_read(q, h->err, 0, errv, sizeof errv, e));
    return lc_check_index_error(errv, e);
}

lc_status lc_xheld_realize(const struct lc_xheld *h, struct lc_error *e)
{
    for (size_t o = 0; o < h->n; o++) {
        /* One another force computed meanwhile stays as that force left it. */
        if (!h->bufs[o] || (h->was_pending[o] && lc_node_is_leaf(h->nodes[o])))
            continue;
        LC_TRY(lc_realize_one(h->nodes[o], h->bufs[o], NULL, e));
    }
    return LC_OK;
}

void lc_xheld_free(struct lc_xheld *h)
{
    for (size_t o = 0; o < h->n; o++) {
        lc_node_release(h->nodes[o]);
        lc_buffer_release(h->bufs[o]);
    }
    free(h->nodes);
    free(h->bufs);
    free(h->was_pending);
    lc_buffer_release(h->err);
    memset(h, 0, sizeof *h);
}

/* Where q is not alone, q holds every buffer of the run until the run has finished: the
 * temporaries done with, the error buffer, and the inputs and outputs, whose arrays may go
 * before then (another queue must not take any of them from the pool meanwhile). */
static lc_status lc_xrun_hold(struct lc_xrun *r, struct lc_error *e)
{
    lc_status st = LC_OK;
    if (!lc_queue_alone(r->q)) {
        const struct lc_xplan *x = r->x;
        struct lc_node *const *leaves = r->sig->walk.order;
        lc_buffer_t b;
        for (int i = 0; i < x->n_inputs && st == LC_OK; i++) {
            lc_buffer_retain(b = lc_engine_buffer(leaves[x->inputs[i]]->storage));
            st = lc_xrun_keep(r, b, e);
        }
        for (int i = 0; r->bufs && i < x->n_buffers && st == LC_OK; i++)
            if ((b = r->bufs[i])) {
                lc_buffer_retain(b);
                st = lc_xrun_keep(r, b, e);
            }
        if (r->err && st == LC_OK) {
            lc_buffer_retain(r->err);
            st = lc_xrun_keep(r, r->err, e);
        }
    }
    lc_status st2 = lc_queue_hold(r->q, r->held, r->n_held, e);
    r->n_held = 0;
    return st != LC_OK ? st : st2;
}

static lc_status lc_xplan_go(const struct lc_xplan *x, lc_queue_t q, const struct lc_graph_sig *sig,
                             struct lc_node *const *outs, size_t n, int debug,
                             const struct lc_xdefer *defer, struct lc_xheld *held,
                             struct lc_error *e)
{
    struct lc_xrun r = {x, sig, q, NULL, NULL, NULL, lc_device_inthread_limit(x->device), NULL, 0, 0};
    r.bufs = calloc((size_t)(x->n_buffers ? x->n_buffers : 1), sizeof *r.bufs);
    r.args = malloc((size_t)(x->max_args ? x->max_args : 1) * sizeof *r.args);
    lc_status st = LC_OK;
    if (!r.bufs || !r.args)
        st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    int32_t errv[8] = {0};
    if (st == LC_OK && x->gathers &&
        (st = lc_xrun_buffer(&r, sizeof errv, &r.err, e)) == LC_OK)
        st = lc_queue_zero(q, r.err, 0, sizeof errv, e);
    for (int k = 0; k < x->n_kernels && st == LC_OK; k++) {
        lc_buffer_t scratch;
        size_t sbase;
        st = lc_xrun_alloc(&r, k, &scratch, &sbase, e);
        for (int li = 0; li < x->kernels[k].code.n_launches && st == LC_OK; li++) {
            lc_xrun_bind(&r, &x->kernels[k].code.launches[li], scratch, sbase);
            st = lc_xrun_launch(&r, k, li, debug, e);
        }
        if (scratch) {
            /* A scratch area of its own is done with; one in an output's tail goes with it. */
            int in_output = 0;
            for (int b = 0; b < x->n_buffers && !in_output; b++)
                in_output = r.bufs[b] == scratch;
            if (in_output)
                lc_buffer_release(scratch);
            else if (lc_xrun_drop(&r, scratch, e) != LC_OK && st == LC_OK)
                st = e->code;
        }
        /* Temporaries whose last reader is this kernel are done with; the queue is in
         * order, so a later kernel may reuse them safely. */
        for (int b = 0; b < x->n_buffers; b++)
            if (r.bufs[b] && !x->buffers[b].is_output && x->buffers[b].last_use <= k) {
                if (lc_xrun_drop(&r, r.bufs[b], e) != LC_OK && st == LC_OK)
                    st = e->code;
                r.bufs[b] = NULL;
            }
    }
    /* Held before the outputs are realized: that may free the inputs' leaves. */
    lc_status sth = lc_xrun_hold(&r, e);
    if (st == LC_OK)
        st = sth;
    struct lc_check *chk = NULL;
    int realize = 1;
    if (st == LC_OK && defer && (r.err || defer->n_parents)) {
        /* Not waited for: a check pending on q, guarding the outputs. */
        if (!(chk = lc_check_new(q, r.err, defer->parents, defer->n_parents)))
            st = lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
    } else if (st == LC_OK && r.err && held) {
        /* The caller reads the check, then realizes (lc_xheld). */
        st = lc_xrun_keep_outputs(&r, outs, n, held, e);
        realize = 0;
    } else if (st == LC_OK && r.err && (st = lc_buffer_read(q, r.err, 0, errv, sizeof errv, e)) == LC_OK) {
        /* An index out of range: nothing is realized (the reads it made were of
         * element 0 instead), the error names the first one found. */
        st = lc_check_index_error(errv, e);
    }
    if (r.err)
        lc_buffer_release(r.err);
    if (st == LC_OK && realize)
        st = lc_xrun_realize(&r, outs, n, chk, e);
    lc_check_release(chk);
    for (int b = 0; r.bufs && b < x->n_buffers; b++)
        if (r.bufs[b])
            lc_buffer_release(r.bufs[b]);
    for (size_t i = 0; i < r.n_held; i++)
        lc_buffer_release(r.held[i]);
    free(r.held);
    free(r.bufs);
    free(r.args);
    return st;
}

lc_status lc_xplan_run(const struct lc_xplan *x, lc_queue_t q, const struct lc_graph_sig *sig,
                       struct lc_node *const *outs, size_t n, int debug, struct lc_error *e)
{
    return lc_xplan_go(x, q, sig, outs, n, debug, NULL, NULL, e);
}

lc_status lc_xplan_run_split(const struct lc_xplan *x, lc_queue_t q, const struct lc_graph_sig *sig,
                             struct lc_node *const *outs, size_t n, int debug,
                             struct lc_xheld *held, struct lc_error *e)
{
    return lc_xplan_go(x, q, sig, outs, n, debug, NULL, held, e);
}

lc_status lc_xplan_run_deferred(const struct lc_xplan *x, lc_queue_t q,
                                const struct lc_graph_sig *sig, struct lc_node *const *outs,
                                size_t n, int debug, const struct lc_xdefer *defer,
                                struct lc_error *e)
{
    return lc_xplan_go(x, q, sig, outs, n, debug, defer, NULL, e);
}
