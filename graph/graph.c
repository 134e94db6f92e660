/* graph.c: nodes, reference counting, hashing, the ops table and node dumps. */
#include "graph/internal.h"
#include "graph/userfn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static const struct {
    const char *name, *enum_name, *tmpl;
    unsigned char arity, kind, rule;
} lc_ops[LC_OP_COUNT] = {
#define X(name, npname, arity, kind, rule, tmpl) \
    {npname, #name, tmpl, arity, LC_KIND_##kind, LC_RULE_##rule},
#include "graph/ops.def"
#undef X
};

const char *lc_op_name(int op) { return lc_ops[op].name; }
const char *lc_op_enum_name(int op) { return lc_ops[op].enum_name; }
int lc_op_arity(int op) { return lc_ops[op].arity; }
enum lc_kind lc_op_kind(int op) { return (enum lc_kind)lc_ops[op].kind; }
const char *lc_op_template(int op) { return lc_ops[op].tmpl; }
int lc_op_rule(int op) { return lc_ops[op].rule; }

int lc_op_is_elementwise(int op)
{
    switch (lc_op_kind(op)) {
    case LC_KIND_CAST: case LC_KIND_UNARY: case LC_KIND_BINARY: case LC_KIND_TERNARY:
    case LC_KIND_USER:
        return 1;
    default:
        return 0;
    }
}

int lc_op_is_transcendental(int op)
{
    switch (op) {
    case LC_OP_EXP: case LC_OP_EXPM1: case LC_OP_EXP2: case LC_OP_LOG: case LC_OP_LOG1P:
    case LC_OP_LOG2: case LC_OP_LOG10: case LC_OP_CBRT: case LC_OP_SIN: case LC_OP_COS:
    case LC_OP_TAN: case LC_OP_ARCSIN: case LC_OP_ARCCOS: case LC_OP_ARCTAN: case LC_OP_SINH:
    case LC_OP_COSH: case LC_OP_TANH: case LC_OP_ARCSINH: case LC_OP_ARCCOSH:
    case LC_OP_ARCTANH: case LC_OP_POW: case LC_OP_ARCTAN2: case LC_OP_HYPOT:
        return 1;
    default:
        return 0;
    }
}

union lc_scalar lc_scalar_cast(union lc_scalar v, int from, int to)
{
    union lc_scalar r;
    /* A complex value is read and written as its real part here (its
     * imaginary part is the caller's: lc_node_const_cast). */
    from = lc_dtype_real_of(from);
    to = lc_dtype_real_of(to);
    char kf = lc_dtype_kind(from), kt = lc_dtype_kind(to);
    if (kt == 'b') {
        r.i = kf == 'f' ? v.f != 0.0 : v.u != 0;
        return r;
    }
    if (kt == 'f') {
        if (kf == 'f')
            r.f = to == LC_FLOAT32 ? (double)(float)v.f : v.f;
        else if (kf == 'u')
            r.f = to == LC_FLOAT32 ? (double)(float)v.u : (double)v.u;
        else
            r.f = to == LC_FLOAT32 ? (double)(float)v.i : (double)v.i;
        return r;
    }
    /* To an integer: from float truncates (values out of range are the
     * caller's to avoid), from an integer wraps to the target width. */
    uint64_t bits;
    if (kf == 'f')
        bits = v.f < 0 ? (uint64_t)(int64_t)v.f : (uint64_t)v.f;
    else
        bits = v.u;
    switch (to) {
    case LC_INT8: r.i = (int8_t)bits; break;
    case LC_INT16: r.i = (int16_t)bits; break;
    case LC_INT32: r.i = (int32_t)bits; break;
    case LC_INT64: r.i = (int64_t)bits; break;
    case LC_UINT8: r.u = (uint8_t)bits; break;
    case LC_UINT16: r.u = (uint16_t)bits; break;
    case LC_UINT32: r.u = (uint32_t)bits; break;
    default: r.u = bits; break;
    }
    return r;
}

/* ---- storage -------------------------------------------------------------------- */

struct lc_storage *lc_storage_new(void *handle, void (*release)(void *), size_t nbytes)
{
    struct lc_storage *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    atomic_init(&s->refcount, 1);
    s->handle = handle;
    s->release = release;
    s->nbytes = nbytes;
    atomic_init(&s->aux, NULL);
    s->aux_free = NULL;
    return s;
}

void lc_storage_retain(struct lc_storage *s)
{
    atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
}

void lc_storage_release(struct lc_storage *s)
{
    if (!s)
        return;
    if (atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) == 1) {
        void *aux = atomic_load(&s->aux);
        if (aux && s->aux_free)
            s->aux_free(aux);
        if (s->release)
            s->release(s->handle);
        free(s);
    }
}

/* ---- nodes ---------------------------------------------------------------------- */

static atomic_uint_fast64_t lc_node_serial;

int64_t lc_shape_size(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    return n;
}

void lc_shape_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= shape[i] > 0 ? shape[i] : 1;
    }
}

struct lc_node *lc_node_new(int op, int dtype, int ndim, const int64_t *shape,
                            struct lc_node *const *in, int n_in, struct lc_error *e)
{
    if (ndim > LC_MAXDIM) {
        lc_error_set(e, LC_ERR_INVALID, "lazycl arrays have at most %d dimensions, got %d",
                     LC_MAXDIM, ndim);
        return NULL;
    }
    struct lc_node *n = calloc(1, sizeof *n);
    if (!n) {
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory building a graph node");
        return NULL;
    }
    atomic_init(&n->refcount, 1);
    n->op = (uint16_t)op;
    n->dtype = n->cdtype = (uint8_t)dtype;
    n->ndim = (uint8_t)ndim;
    if (ndim)
        memcpy(n->shape, shape, (size_t)ndim * sizeof *shape);
    n->size = lc_shape_size(ndim, shape);
    n->n_in = (uint8_t)n_in;
    for (int i = 0; i < n_in; i++) {
        n->in[i] = in[i];
        lc_node_retain(in[i]);
        n->owner = in[i]->owner;
    }
    n->serial = atomic_fetch_add_explicit(&lc_node_serial, 1, memory_order_relaxed);
    return n;
}

void lc_node_seal(struct lc_node *n)
{
    /* One-shot XXH3 over a compact record: what the op is, its shape, only the
     * parameters its kind uses, and its inputs' hashes. `skey` hashes the same
     * record less the leaf values, with the inputs' skeys. */
    uint64_t buf[8 + 3 * LC_MAXDIM + LC_MAXIN + 4];
    size_t k = 0;
    buf[k++] = (uint64_t)n->op | (uint64_t)n->dtype << 16 | (uint64_t)n->cdtype << 24 |
               (uint64_t)n->ndim << 32 | (uint64_t)n->flags << 40;
    for (int i = 0; i < n->ndim; i++)
        buf[k++] = (uint64_t)n->shape[i];
    switch (lc_op_kind(n->op)) {
    case LC_KIND_SOURCE:
        if (n->op == LC_OP_CONST)
            break;
        if (n->op == LC_OP_RANDOM)
            buf[k++] = (uint64_t)(uint32_t)n->p.random.dist;
        /* A buffer's or arange's offset is bound at each run (LC_FROM_OFFSET): skey keeps
         * only its residue mod 16, which 4-wide aligned loads depend on; the offsets of
         * leaves sharing a storage are compared in the signature (graph/signature.c). */
        buf[k++] = n->op == LC_OP_BUFFER || n->op == LC_OP_IOTA ? (uint64_t)(n->offset & 15)
                                                                : (uint64_t)n->offset;
        for (int i = 0; i < n->ndim; i++)
            buf[k++] = (uint64_t)n->strides[i];
        break;
    case LC_KIND_VIEW:
        if (n->op == LC_OP_PERMUTE) {
            uint64_t p = 0;
            for (int i = 0; i < n->ndim; i++)
                p = p * 17 + (uint64_t)n->p.perm[i];
            buf[k++] = p;
        } else if (n->op == LC_OP_SLICE) {
            for (int i = 0; i < n->ndim; i++)
                buf[k++] = (uint64_t)n->p.slice.start[i] * 0x9E3779B97F4A7C15ULL ^
                           (uint64_t)n->p.slice.step[i];
        }
        break;
    case LC_KIND_REDUCE: case LC_KIND_SCAN:
        buf[k++] = (uint64_t)n->p.red.axes | (uint64_t)(uint32_t)n->p.red.ddof << 32;
        buf[k++] = (uint64_t)n->p.red.kind;
        if (n->op == LC_OP_USERRED) {
            buf[k++] = n->p.red.fn;
            buf[k++] = n->p.red.init;
        }
        break;
    case LC_KIND_GATHER:
        buf[k++] = (uint64_t)(uint32_t)n->p.gather.axis |
                   (uint64_t)(uint32_t)n->p.gather.report_axis << 32;
        break;
    case LC_KIND_STORE:
        buf[k++] = (uint64_t)(uint32_t)n->p.store.combine | (uint64_t)n->n_in << 32;
        break;
    case LC_KIND_USER:
        buf[k++] = n->p.user.fn;
        buf[k++] = (uint64_t)(uint32_t)n->p.user.out | (uint64_t)n->n_in << 32;
        break;
    default:
        break;
    }
    size_t common = k;
    for (int i = 0; i < n->n_in; i++)
        buf[k++] = n->in[i]->skey;
    n->skey = XXH3_64bits(buf, k * sizeof buf[0]);
    k = common;
    for (int i = 0; i < n->n_in; i++)
        buf[k++] = n->in[i]->hash;
    if (lc_op_kind(n->op) == LC_KIND_SOURCE) {
        buf[k++] = n->value.u;
        buf[k++] = n->step.u;
        buf[k++] = (uint64_t)n->offset;
    }
    n->hash = XXH3_64bits(buf, k * sizeof buf[0]);
}

void lc_node_retain(struct lc_node *n)
{
    atomic_fetch_add_explicit(&n->refcount, 1, memory_order_relaxed);
}

void lc_node_release(struct lc_node *n)
{
    /* Iterative: a chain of a million nodes must not recurse a million deep. */
    struct lc_node *small[64];
    struct lc_node **stack = small;
    size_t cap = 64, top = 0;
    if (!n)
        return;
    stack[top++] = n;
    while (top) {
        struct lc_node *x = stack[--top];
        if (atomic_fetch_sub_explicit(&x->refcount, 1, memory_order_acq_rel) != 1)
            continue;
        for (int i = 0; i < x->n_in; i++) {
            if (top == cap) {
                size_t ncap = cap * 2;
                struct lc_node **ns = malloc(ncap * sizeof *ns);
                if (!ns) {
                    /* Leak rather than crash: nothing better can be done here. */
                    continue;
                }
                memcpy(ns, stack, top * sizeof *ns);
                if (stack != small)
                    free(stack);
                stack = ns;
                cap = ncap;
            }
            stack[top++] = x->in[i];
        }
        lc_storage_release(x->storage);
        free(x);
    }
    if (stack != small)
        free(stack);
}

int lc_node_is_leaf(const struct lc_node *n)
{
    return lc_op_kind(n->op) == LC_KIND_SOURCE;
}

int lc_node_is_contiguous(const struct lc_node *n)
{
    if (n->op != LC_OP_BUFFER)
        return 0;
    if (n->size == 0)
        return 1;
    int64_t s = 1;
    for (int i = n->ndim - 1; i >= 0; i--) {
        if (n->shape[i] != 1 && n->strides[i] != s)
            return 0;
        s *= n->shape[i];
    }
    return 1;
}

void lc_node_realize(struct lc_node *n, struct lc_storage *storage)
{
    struct lc_node *in[LC_MAXIN];
    int n_in = n->n_in;
    memcpy(in, n->in, sizeof in);
    lc_storage_retain(storage);
    lc_storage_release(n->storage);
    n->storage = storage;
    n->op = LC_OP_BUFFER;
    n->cdtype = n->dtype;
    n->offset = 0;
    lc_shape_strides(n->ndim, n->shape, n->strides);
    memset(&n->p, 0, sizeof n->p);
    n->n_in = 0;
    memset(n->in, 0, sizeof n->in);
    /* A plan sees it as the buffer it now is; `hash` stays. */
    uint64_t hash = n->hash;
    lc_node_seal(n);
    n->hash = hash;
    for (int i = 0; i < n_in; i++)
        lc_node_release(in[i]);
}

/* ---- sources -------------------------------------------------------------------- */

static int lc_check_shape(int ndim, const int64_t *shape, struct lc_error *e)
{
    if (ndim < 0 || ndim > LC_MAXDIM) {
        lc_error_set(e, LC_ERR_INVALID, "lazycl arrays have at most %d dimensions, got %d",
                     LC_MAXDIM, ndim);
        return -1;
    }
    for (int i = 0; i < ndim; i++)
        if (shape[i] < 0) {
            lc_error_set(e, LC_ERR_INVALID, "negative dimensions are not allowed");
            return -1;
        }
    return 0;
}

struct lc_node *lc_node_buffer(void *owner, int dtype, int ndim, const int64_t *shape,
                               struct lc_storage *storage, int64_t offset,
                               const int64_t *strides, struct lc_error *e)
{
    if (lc_check_shape(ndim, shape, e) < 0)
        return NULL;
    struct lc_node *n = lc_node_new(LC_OP_BUFFER, dtype, ndim, shape, NULL, 0, e);
    if (!n)
        return NULL;
    n->owner = owner;
    n->storage = storage;
    lc_storage_retain(storage);
    n->offset = offset;
    if (strides)
        memcpy(n->strides, strides, (size_t)ndim * sizeof *strides);
    else
        lc_shape_strides(ndim, shape, n->strides);
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_const(void *owner, int dtype, union lc_scalar v, int ndim,
                              const int64_t *shape, unsigned flags, struct lc_error *e)
{
    union lc_scalar im = {0};
    return lc_node_const_complex(owner, dtype, v, im, ndim, shape, flags, e);
}

struct lc_node *lc_node_const_cast(const struct lc_node *c, int dtype, int ndim,
                                   const int64_t *shape, unsigned flags, struct lc_error *e)
{
    union lc_scalar re = lc_scalar_cast(c->value, c->dtype, dtype), im = {0};
    if (lc_dtype_is_complex(c->dtype)) {
        if (lc_dtype_is_complex(dtype))
            im.f = dtype == LC_COMPLEX64 ? (double)(float)c->step.f : c->step.f;
        else if (dtype == LC_BOOL)
            re.i = c->value.f != 0.0 || c->step.f != 0.0;
    }
    return lc_node_const_complex(c->owner, dtype, re, im, ndim, shape, flags, e);
}

struct lc_node *lc_node_const_complex(void *owner, int dtype, union lc_scalar v,
                                      union lc_scalar im, int ndim, const int64_t *shape,
                                      unsigned flags, struct lc_error *e)
{
    if (lc_check_shape(ndim, shape, e) < 0)
        return NULL;
    struct lc_node *n = lc_node_new(LC_OP_CONST, dtype, ndim, shape, NULL, 0, e);
    if (!n)
        return NULL;
    n->owner = owner;
    n->value = v;
    if (lc_dtype_is_complex(dtype))
        n->step = im;
    n->flags = (uint16_t)flags;
    lc_shape_strides(ndim, shape, n->strides);
    n->origin = n->serial;
    n->origin_size = n->size;
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_iota(void *owner, int dtype, union lc_scalar start, union lc_scalar step,
                             int64_t count, struct lc_error *e)
{
    if (count < 0) {
        lc_error_set(e, LC_ERR_INVALID, "negative dimensions are not allowed");
        return NULL;
    }
    struct lc_node *n = lc_node_new(LC_OP_IOTA, dtype, 1, &count, NULL, 0, e);
    if (!n)
        return NULL;
    n->owner = owner;
    n->value = start;
    n->step = step;
    n->strides[0] = 1;
    n->origin = n->serial;
    n->origin_size = count;
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_random(void *owner, int dtype, int dist, uint64_t key, uint64_t offset,
                               int64_t count, struct lc_error *e)
{
    int fl = dtype == LC_FLOAT32 || dtype == LC_FLOAT64;
    int ok = dist == LC_RANDOM_BITS ? dtype == LC_UINT32 || dtype == LC_UINT64
           : (dist == LC_RANDOM_UNIFORM || dist == LC_RANDOM_NORMAL) && fl;
    if (!ok) {
        lc_error_set(e, LC_ERR_INVALID, "random: no distribution %d of dtype %s", dist,
                     lc_dtype_name(dtype));
        return NULL;
    }
    union lc_scalar k = {.u = key}, c = {.u = offset};
    union lc_scalar zero = {0};
    struct lc_node *n = lc_node_iota(owner, dtype, zero, zero, count, e);
    if (!n)
        return NULL;
    /* Sealed again below as a RANDOM leaf (an arange's layout, its own values). */
    n->op = LC_OP_RANDOM;
    n->value = k;
    n->step = c;
    n->p.random.dist = dist;
    lc_node_seal(n);
    return n;
}

/* ---- dumps ---------------------------------------------------------------------- */

void lc_node_describe(const struct lc_node *n, char *buf, size_t len)
{
    char shape[256];
    size_t o = 0;
    shape[0] = '\0';
    for (int i = 0; i < n->ndim && o < sizeof shape; i++)
        o += (size_t)snprintf(shape + o, sizeof shape - o, "%s%lld", i ? "," : "",
                              (long long)n->shape[i]);
    char op[96];
    const struct lc_userfn *f = n->op == LC_OP_USER ? lc_userfn_get(n->p.user.fn) : NULL;
    if (f)
        snprintf(op, sizeof op, "user:%s%s%s", f->name, f->n_out > 1 ? "." : "",
                 f->n_out > 1 ? f->out_name[n->p.user.out] : "");
    else if (n->op == LC_OP_USERRED && (f = lc_userfn_get(n->p.red.fn)) != NULL)
        snprintf(op, sizeof op, "user_reduce:%s", f->name);
    else
        snprintf(op, sizeof op, "%s", lc_op_name(n->op));
    int w = snprintf(buf, len, "%%%llu = %s %s[%s]", (unsigned long long)n->serial, op,
                     lc_dtype_short(n->dtype), shape);
    if (w < 0 || (size_t)w >= len)
        return;
    size_t used = (size_t)w;
    if (n->op == LC_OP_CONST) {
        if (lc_dtype_is_complex(n->dtype))
            snprintf(buf + used, len - used, " value=%g%+gj", n->value.f, n->step.f);
        else if (lc_dtype_is_float(n->dtype))
            snprintf(buf + used, len - used, " value=%g", n->value.f);
        else if (lc_dtype_kind(n->dtype) == 'u')
            snprintf(buf + used, len - used, " value=%llu", (unsigned long long)n->value.u);
        else
            snprintf(buf + used, len - used, " value=%lld", (long long)n->value.i);
        return;
    }
    for (int i = 0; i < n->n_in && used < len; i++) {
        w = snprintf(buf + used, len - used, "%s%%%llu", i ? ", " : " (",
                     (unsigned long long)n->in[i]->serial);
        if (w < 0)
            return;
        used += (size_t)w;
    }
    if (n->n_in && used < len)
        snprintf(buf + used, len - used, ")");
}
