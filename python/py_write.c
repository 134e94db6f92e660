/* py_write.c: writes into lazycl arrays: x[key] = v, x += y, np.add.at, with NumPy's aliasing.
 *
 * Nodes are immutable; a write changes the data of a realized buffer in
 * place, with one store kernel (graph/store.c) over the places written. What
 * a user observes is NumPy's because of three rules, applied under the GIL
 * (which no write releases, so nothing changes between the check and the
 * write):
 *
 * - Views see the write. Every live Array is on its queue's list. Before a
 *   write, the array written and every array whose view chain ends at the
 *   same root are made leaves of one buffer: the root is computed if it is
 *   pending, and each chain is built again over the realized root, where
 *   views fold into strided leaves (_writable).
 * - Arrays built before the write keep the old values. A pending node that
 *   reads the buffer holds a reference to one of its leaves. The write counts
 *   the references to every leaf of the buffer: those of live Arrays whose
 *   node is that leaf (views, which must see the write) and those of the
 *   store's own graph. Any other reference is a reader that needs the old
 *   data; then, for a buffer under LC_SETTLE_BYTES, the buffer is copied
 *   first (copy-on-write): the arrays that view it move to the copy, which is
 *   written, and the readers keep the original. A bigger buffer computes its
 *   pending readers first instead (a dot of two rows of a big matrix, not a
 *   copy of the matrix), and is copied only for readers no live array holds.
 *   Otherwise the write is in place and costs the places written.
 *   A buffer another library shares (DLPack: pinned for an export, or made
 *   over its memory) is never copied away from it: its readers are computed
 *   first, the write is in place, and it is finished before the call returns.
 * - A right-hand side that reads the array written is computed by the store
 *   kernel itself when each item reads only the place it writes (x += 1);
 *   elsewhere fusion computes it into a buffer first (x[1:] = x[:-1]), like
 *   NumPy's copy of an overlapping operand.
 * A RawKernel's write (py_launch.c) has no store node: lc_py_own_buffer applies the second
 * rule to the whole buffer before the kernel is enqueued.
 */
#include "lcpy.h"

#include "engine/engine.h"
#include "fusion/fusion.h"
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

void lc_py_link_array(lc_py_Array *a)
{
    lc_py_Queue *q = (lc_py_Queue *)a->queue;
    a->prev = NULL;
    a->next = q->arrays;
    if (q->arrays)
        q->arrays->prev = a;
    q->arrays = a;
}

void lc_py_unlink_array(lc_py_Array *a)
{
    if (!a->queue)
        return;
    lc_py_Queue *q = (lc_py_Queue *)a->queue;
    if (a->prev)
        a->prev->next = a->next;
    else if (q->arrays == a)
        q->arrays = a->next;
    if (a->next)
        a->next->prev = a->prev;
    a->prev = a->next = NULL;
}

static struct lc_node *lc_view_root(struct lc_node *n)
{
    while (lc_op_kind(n->op) == LC_KIND_VIEW)
        n = n->in[0];
    return n;
}

static int lc_py_force_nodes(PyObject *queue, struct lc_node **n, size_t count, unsigned flags)
{
    struct lc_error e = {0};
    if (lc_engine_force(lc_py_q(queue), n, count, flags, &e) != LC_OK) {
        lc_py_raise(&e);
        return -1;
    }
    return 0;
}

static int lc_py_force_one(PyObject *queue, struct lc_node *n, unsigned flags)
{
    return lc_py_force_nodes(queue, &n, 1, flags);
}

static void lc_py_set_node(lc_py_Array *a, struct lc_node *n)
{
    lc_node_retain(n);
    lc_node_release(a->node);
    a->node = n;
}

/* Every live array of q whose view chain ends at a leaf of storage s, made a
 * leaf of s where its views fold (a reshape no strided layout expresses
 * stays a pending copy, as in NumPy). */
static void lc_refold(lc_py_Queue *q, const struct lc_storage *s)
{
    for (lc_py_Array *a = q->arrays; a; a = a->next) {
        if (lc_node_is_leaf(a->node))
            continue;
        struct lc_node *r = lc_view_root(a->node);
        if (r->op != LC_OP_BUFFER || r->storage != s)
            continue;
        struct lc_error e = {0};
        struct lc_node *n = lc_node_replay(a->node, r, &e);
        if (n && lc_node_is_leaf(n))
            lc_py_set_node(a, n);
        if (n)
            lc_node_release(n);
    }
}

/* A constant or an arange takes memory: its whole source is written into a
 * new buffer, and every live array viewing that source (the same origin)
 * becomes the same view of the buffer. */
static int lc_realize_source(lc_py_Queue *q, PyObject *queue, const struct lc_node *r)
{
    struct lc_error e = {0};
    int64_t n = r->origin_size;
    struct lc_node *src = r->op == LC_OP_CONST
        ? lc_node_const_complex(r->owner, r->dtype, r->value, r->step, 1, &n, 0, &e)
        : r->op == LC_OP_RANDOM
        ? lc_node_random(r->owner, r->dtype, r->p.random.dist, r->value.u, r->step.u, n, &e)
        : lc_node_iota(r->owner, r->dtype, r->value, r->step, n, &e);
    struct lc_node *c = src ? lc_node_copy(src, &e) : NULL;
    if (src)
        lc_node_release(src);
    if (!c)
        return lc_py_raise(&e), -1;
    if (lc_py_force_one(queue, c, 0) < 0) {
        lc_node_release(c);
        return -1;
    }
    uint64_t origin = r->origin;
    int op = r->op;
    for (lc_py_Array *a = q->arrays; a; a = a->next) {
        struct lc_node *l = lc_view_root(a->node);
        if (l->op != op || l->origin != origin)
            continue;
        struct lc_node *b = lc_node_buffer(l->owner, l->dtype, l->ndim, l->shape, c->storage,
                                           l->offset, l->strides, &e);
        struct lc_node *v = b && a->node != l ? lc_node_replay(a->node, b, &e) : b;
        if (v != b)
            lc_node_release(b);
        if (!v) {
            lc_node_release(c);
            return lc_py_raise(&e), -1;
        }
        lc_py_set_node(a, v);
        lc_node_release(v);
    }
    lc_node_release(c);
    return 0;
}

/* Make x a leaf of a realized buffer, with its views (see the top). */
static int lc_writable(lc_py_Array *x)
{
    lc_py_Queue *q = (lc_py_Queue *)x->queue;
    for (int round = 0; round < 3; round++) {
        struct lc_node *r = lc_view_root(x->node);
        if (lc_node_is_leaf(r) && r->op != LC_OP_BUFFER) {
            if (lc_realize_source(q, x->queue, r) < 0)
                return -1;
            continue;
        }
        if (r->op != LC_OP_BUFFER && lc_py_force_one(x->queue, r, 0) < 0)
            return -1;
        lc_refold(q, r->storage);
        if (lc_node_is_leaf(x->node))
            return 0;
        /* x is a copy of its root's data: it gets a buffer of its own. */
        if (lc_py_force_one(x->queue, x->node, 0) < 0)
            return -1;
    }
    if (lc_node_is_leaf(x->node) && x->node->op == LC_OP_BUFFER)
        return 0;
    PyErr_SetString(PyExc_RuntimeError, "internal: could not make an array writable");
    return -1;
}

int lc_py_realize(lc_py_Array *x, int *ro)
{
    struct lc_node *root = lc_view_root(x->node);
    lc_node_retain(root);
    int rc = lc_writable(x);
    /* As _writable decides: a reshape of a read-only array is read-only while
     * it folds onto its root's memory. */
    *ro = x->readonly == 1 ||
          (x->readonly && rc == 0 && lc_view_root(root)->storage == x->node->storage);
    lc_node_release(root);
    if (rc < 0)
        return -1;
    for (int d = 0; d < x->node->ndim; d++)
        if (x->node->strides[d] == 0 && x->node->shape[d] > 1)
            *ro = 1;
    return 0;
}

/* ---- who needs the old data ----------------------------------------------------- */

struct lc_ref {
    const struct lc_node *n;
    int64_t edges, holds, extra;
    struct lc_node *twin;       /* lc_cow: the leaf's twin on the copy */
};
struct lc_refs {
    struct lc_ref *r;
    size_t n, cap;
};

static struct lc_ref *lc_ref_of(struct lc_refs *t, const struct lc_node *n)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->r[i].n == n)
            return &t->r[i];
    if (t->n == t->cap) {
        size_t nc = t->cap ? t->cap * 2 : 32;
        struct lc_ref *nr = realloc(t->r, nc * sizeof *nr);
        if (!nr)
            return NULL;
        t->r = nr;
        t->cap = nc;
    }
    t->r[t->n] = (struct lc_ref){n, 0, 0, 0, NULL};
    return &t->r[t->n++];
}

static int lc_on(const struct lc_node *n, const struct lc_storage *s)
{
    return n->op == LC_OP_BUFFER && n->storage == s;
}

/* 1 when nothing but the store's own graph and the live arrays viewing s
 * holds a leaf of s (the caller holds one reference to s itself); 0 when some
 * reader needs the old data; -1 out of memory.
 * `ours`: the arrays the caller made for this write (their nodes belong to
 * the store's graph). `store` NULL: a write with no graph (a raw kernel's). */
static int lc_exclusive(lc_py_Queue *q, const struct lc_storage *s, struct lc_node *store,
                        lc_py_Array *const *ours, int n_ours)
{
    struct lc_error e = {0};
    size_t count = 0;
    struct lc_node **topo = NULL;
    if (store && !(topo = lc_graph_topo(&store, 1, &count, &e)))
        return -1;
    struct lc_refs t = {0};
    int rc = 1;
    struct lc_ref *r = NULL;
    if (store) {
        if (!(r = lc_ref_of(&t, store)))
            goto nomem;
        r->edges = 1;
    }
    for (int i = 0; i < n_ours; i++)
        if (ours[i] && (r = lc_ref_of(&t, ours[i]->node)))
            r->extra++;
    /* Inputs first in topo: walk it backwards, consumers before inputs. */
    for (size_t i = count; i-- > 0;) {
        const struct lc_node *n = topo[i];
        if (lc_node_is_leaf(n))
            continue;
        if (!(r = lc_ref_of(&t, n)))
            goto nomem;
        if (atomic_load(&n->refcount) != r->edges + r->extra)
            continue; /* held elsewhere too: its reads are not only the store's */
        for (int j = 0; j < n->n_in; j++) {
            struct lc_ref *c = lc_ref_of(&t, n->in[j]);
            if (!c)
                goto nomem;
            c->edges++;
        }
    }
    for (lc_py_Array *a = q->arrays; a; a = a->next)
        if (lc_on(a->node, s)) {
            if (!(r = lc_ref_of(&t, a->node)))
                goto nomem;
            r->holds++;
        }
    int leaves = 0;
    for (size_t i = 0; i < t.n && rc == 1; i++) {
        if (!lc_on(t.r[i].n, s))
            continue;
        leaves++;
        if (atomic_load(&t.r[i].n->refcount) != t.r[i].edges + t.r[i].holds)
            rc = 0;
    }
    /* + 1: the caller's own reference to s. */
    if (rc == 1 && atomic_load(&((struct lc_storage *)s)->refcount) != leaves + 1)
        rc = 0;
    free(topo);
    free(t.r);
    return rc;
nomem:
    free(topo);
    free(t.r);
    PyErr_NoMemory();
    return -1;
}

/* Does the graph of n read a leaf of storage s? */
static int lc_reads(struct lc_node *n, const struct lc_storage *s)
{
    struct lc_error e = {0};
    size_t count;
    struct lc_node **topo = lc_graph_topo(&n, 1, &count, &e);
    if (!topo)
        return 1;
    int found = 0;
    for (size_t i = 0; i < count && !found; i++)
        found = lc_on(topo[i], s);
    free(topo);
    return found;
}

/* A pending a that reads storage s is computed now (its holders keep the
 * values of before the write). 0, or -1 with an exception set. */
static int lc_settle(lc_py_Array *a, const struct lc_storage *s)
{
    if (lc_node_is_leaf(a->node) || !lc_reads(a->node, s))
        return 0;
    return lc_py_force_one(a->queue, a->node, 0);
}

/* Copy-on-write: the live arrays viewing s move to a copy of it. *store (a
 * store node, or NULL for a write with no graph) is replaced by the store
 * rebuilt to write the copy. 0, or -1 with an exception set. */
static int lc_cow(lc_py_Array *x, struct lc_storage *s, struct lc_node **store)
{
    lc_py_Queue *q = (lc_py_Queue *)x->queue;
    struct lc_error e = {0};
    lc_buffer_t b;
    lc_buffer_t old = lc_engine_buffer(s);
    size_t nbytes = s->nbytes;
    /* A copy of data an index out of range left wrong would lose its IndexError. */
    if (lc_engine_ready(NULL, s, &e) != LC_OK || lc_pokes_flush(q->q, s, &e) != LC_OK)
        return lc_py_raise(&e), -1;
    if (lc_buffer_alloc(lc_queue_device(q->q), nbytes ? nbytes : 1, &b, &e) != LC_OK)
        return lc_py_raise(&e), -1;
    if (nbytes && lc_buffer_copy(q->q, old, 0, b, 0, nbytes, &e) != LC_OK) {
        lc_buffer_release(b);
        return lc_py_raise(&e), -1;
    }
    struct lc_storage *s2 = lc_engine_storage(b);
    if (!s2)
        return PyErr_NoMemory(), -1;
    struct lc_refs moved = {0};
    struct lc_node *result = NULL;
    const struct lc_node *dest = *store ? lc_store_dest((*store)->in[0]) : NULL;
    struct lc_node *dest2 = NULL;
    /* Each leaf of s held by an array gets one twin on s2, shared. */
    for (lc_py_Array *a = q->arrays; a; a = a->next) {
        if (!lc_on(a->node, s))
            continue;
        struct lc_ref *r = lc_ref_of(&moved, a->node);
        if (!r)
            goto nomem;
        struct lc_node *twin = r->twin;
        if (!twin) {
            const struct lc_node *o = a->node;
            twin = lc_node_buffer(o->owner, o->dtype, o->ndim, o->shape, s2, o->offset, o->strides,
                                  &e);
            if (!twin)
                goto fail;
            r->twin = twin;
        } else {
            lc_node_retain(twin);
        }
        if (a->node == dest && !dest2) {
            dest2 = twin;
            lc_node_retain(dest2);
        }
        lc_node_release(a->node);
        a->node = twin;
    }
    if (!*store)
        goto done;
    if (!dest2 && !(dest2 = lc_node_buffer(dest->owner, dest->dtype, dest->ndim, dest->shape, s2,
                                           dest->offset, dest->strides, &e)))
        goto fail;
    struct lc_node *target = lc_node_replay((*store)->in[0], dest2, &e);
    lc_node_release(dest2);
    if (!target)
        goto fail;
    result = lc_node_store(target, (*store)->in[1], (*store)->n_in > 2 ? (*store)->in[2] : NULL,
                           (*store)->p.store.combine, &e);
    lc_node_release(target);
    if (!result)
        goto fail;
    lc_node_release(*store);
    *store = result;
done:
    free(moved.r);
    lc_storage_release(s2);
    return 0;
fail:
    lc_py_raise(&e);
    goto out;
nomem:
    PyErr_NoMemory();
out:
    free(moved.r);
    lc_storage_release(s2);
    return -1;
}

/* ---- the functions ------------------------------------------------------------- */

/* A write into a buffer of at least this many bytes that pending arrays still read computes
 * those readers first, rather than copying the buffer for them. */
#define LC_SETTLE_BYTES ((size_t)64 << 10)

int lc_py_own_buffer(lc_py_Array *x)
{
    lc_py_Queue *q = (lc_py_Queue *)x->queue;
    if (!lc_on(x->node, x->node->storage)) {
        PyErr_SetString(PyExc_RuntimeError, "internal: lc_py_own_buffer needs a realized leaf");
        return -1;
    }
    struct lc_storage *s = x->node->storage;
    lc_storage_retain(s);
    int rc = -1;
    int ex = lc_exclusive(q, s, NULL, NULL, 0);
    if (ex < 0)
        goto done;
    int shared = lc_py_buffer_shared(lc_engine_buffer(s));
    if (!ex && (shared || s->nbytes >= LC_SETTLE_BYTES)) {
        /* As a store does: the readers are computed rather than the buffer copied. */
        for (lc_py_Array *a = q->arrays; a; a = a->next)
            if (lc_settle(a, s) < 0)
                goto done;
        if ((ex = lc_exclusive(q, s, NULL, NULL, 0)) < 0)
            goto done;
    }
    struct lc_node *none = NULL;
    if (!ex && lc_cow(x, s, &none) < 0)
        goto done;
    rc = ex && shared;
done:
    lc_storage_release(s);
    return rc;
}

static PyObject *py_writable(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *arg;
    const char *msg = "assignment destination is read-only";
    if (!PyArg_ParseTuple(args, "O|s:_writable", &arg, &msg))
        return NULL;
    lc_py_Array *x = lc_py_as_array(arg);
    if (!x)
        return NULL;
    if (x->readonly == 1) {
        PyErr_SetString(PyExc_ValueError, msg);
        return NULL;
    }
    struct lc_node *root = lc_view_root(x->node);
    lc_node_retain(root);
    int rc = lc_writable(x);
    /* A reshape of a read-only array that is a copy (it did not fold onto the
     * root's memory) is writable, as NumPy's copy. */
    int ro = x->readonly && rc == 0 && lc_view_root(root)->storage == x->node->storage;
    lc_node_release(root);
    if (rc < 0)
        return NULL;
    if (ro) {
        PyErr_SetString(PyExc_ValueError, msg);
        return NULL;
    }
    x->readonly = 0;
    /* A broadcast view (a stride 0 over several elements) is read-only, as in NumPy. */
    for (int d = 0; d < x->node->ndim; d++)
        if (x->node->strides[d] == 0 && x->node->shape[d] > 1) {
            PyErr_SetString(PyExc_ValueError, msg);
            return NULL;
        }
    Py_RETURN_NONE;
}

static PyObject *py_store(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *xo, *to, *vo, *po, *wo = Py_None;
    int combine, value_ours;
    if (!PyArg_ParseTuple(args, "OOOOii|O:_store", &xo, &to, &vo, &po, &combine, &value_ours,
                          &wo))
        return NULL;
    lc_py_Array *x = lc_py_as_array(xo), *t = x ? lc_py_as_array(to) : NULL;
    lc_py_Array *v = t ? lc_py_as_array(vo) : NULL;
    lc_py_Array *p = NULL, *w = NULL;
    if (!v || (po != Py_None && !(p = lc_py_as_array(po))) ||
        (wo != Py_None && !(w = lc_py_as_array(wo))))
        return NULL;
    if (w && lc_py_q(w->queue) != lc_py_q(x->queue)) {
        PyErr_SetString(PyExc_RuntimeError, "internal: _store's `with` array is on another queue");
        return NULL;
    }
    if (!lc_on(x->node, x->node->storage) || lc_store_dest(t->node) == NULL ||
        lc_store_dest(t->node)->storage != x->node->storage) {
        PyErr_SetString(PyExc_RuntimeError, "internal: _store needs x writable and a target over it");
        return NULL;
    }
    struct lc_storage *s = x->node->storage;
    lc_storage_retain(s);
    PyObject *ret = NULL;
    struct lc_node *store = NULL;
    /* A right-hand side someone else may hold, that reads x: computed now,
     * so that its holder keeps the values of before the write. */
    lc_py_Array *rhs[2] = {v, p};
    for (int i = 0; i < 2; i++)
        if (!value_ours && rhs[i] && lc_settle(rhs[i], s) < 0)
            goto done;
    struct lc_error e = {0};
    store = lc_node_store(t->node, v->node, p ? p->node : NULL, combine, &e);
    if (!store) {
        lc_py_raise(&e);
        goto done;
    }
    lc_py_Array *ours[3] = {t, value_ours ? v : NULL, value_ours ? p : NULL};
    int ex = lc_exclusive((lc_py_Queue *)x->queue, s, store, ours, 3);
    if (ex < 0)
        goto done;
    int shared = lc_py_buffer_shared(lc_engine_buffer(s));
    if (!ex && (shared || s->nbytes >= LC_SETTLE_BYTES)) {
        /* Another library shares this memory (DLPack) and must see the write,
         * or the buffer is big: rather than copying the buffer, the readers
         * that need the old values are computed now (a small dot of two rows
         * of a big matrix, not the matrix; a copy remains for readers that no
         * live array holds). */
        for (lc_py_Array *a = ((lc_py_Queue *)x->queue)->arrays; a; a = a->next)
            if (a != t && (!value_ours || (a != v && a != p)) && lc_settle(a, s) < 0)
                goto done;
        if ((ex = lc_exclusive((lc_py_Queue *)x->queue, s, store, ours, 3)) < 0)
            goto done;
    }
    if (!ex && lc_cow(x, s, &store) < 0)
        goto done;
    struct lc_node *forced[2] = {store, w ? w->node : NULL};
    if (lc_py_force_nodes(x->queue, forced, w ? 2 : 1, 0) < 0)
        goto done;
    if (ex && shared) {
        /* The other library reads the memory whenever it likes: the write is
         * done before this returns. */
        struct lc_error e2 = {0};
        lc_status st;
        lc_queue_t qq = lc_py_q(x->queue);
        Py_BEGIN_ALLOW_THREADS
        st = lc_queue_finish(qq, &e2);
        Py_END_ALLOW_THREADS
        if (st != LC_OK) {
            lc_py_raise(&e2);
            goto done;
        }
    }
    ret = PyBool_FromLong(ex);
done:
    if (store)
        lc_node_release(store);
    lc_storage_release(s);
    return ret;
}

/* _settle(x, a): a pending a that reads x's buffer is computed now. */
static PyObject *py_settle(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *xo, *ao;
    if (!PyArg_ParseTuple(args, "OO:_settle", &xo, &ao))
        return NULL;
    lc_py_Array *x = lc_py_as_array(xo), *a = x ? lc_py_as_array(ao) : NULL;
    if (!a)
        return NULL;
    if (lc_on(x->node, x->node->storage) && lc_settle(a, x->node->storage) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* _empty(like, shape, dtype): an uninitialized buffer leaf on like's queue. */
static PyObject *py_empty(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *lo, *shape_o;
    const char *dts;
    if (!PyArg_ParseTuple(args, "OOs:_empty", &lo, &shape_o, &dts))
        return NULL;
    lc_py_Array *like = lc_py_as_array(lo);
    if (!like)
        return NULL;
    int dt = lc_dtype_from_name(dts);
    PyObject *seq = PySequence_Fast(shape_o, "shape must be a sequence");
    if (!seq || dt < 0) {
        Py_XDECREF(seq);
        if (dt < 0)
            PyErr_Format(PyExc_TypeError, "unknown dtype %s", dts);
        return NULL;
    }
    int64_t shape[LC_MAXDIM];
    Py_ssize_t nd = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < nd && i < LC_MAXDIM; i++)
        shape[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    if (PyErr_Occurred())
        return NULL;
    lc_queue_t q = lc_py_q(like->queue);
    struct lc_error e = {0};
    size_t nbytes = (size_t)lc_shape_size((int)nd, shape) * lc_dtype_size(dt);
    lc_buffer_t b;
    if (lc_buffer_alloc(lc_queue_device(q), nbytes ? nbytes : 1, &b, &e) != LC_OK)
        return lc_py_raise(&e);
    struct lc_storage *s = lc_engine_storage(b);
    if (!s)
        return PyErr_NoMemory();
    struct lc_node *n = lc_node_buffer(q, dt, (int)nd, shape, s, 0, NULL, &e);
    lc_storage_release(s);
    return n ? lc_py_wrap(n, like->queue) : lc_py_raise(&e);
}

/* _op_number(name): the graph's number of op ADD, MUL, ... (store combines). */
static PyObject *py_op_number(PyObject *Py_UNUSED(m), PyObject *name)
{
    const char *s = PyUnicode_AsUTF8(name);
    if (!s)
        return NULL;
    for (int op = 0; op < LC_OP_COUNT; op++)
        if (!strcmp(lc_op_enum_name(op), s))
            return PyLong_FromLong(op);
    PyErr_Format(PyExc_ValueError, "no op %s", s);
    return NULL;
}

static PyObject *py_copy(PyObject *Py_UNUSED(m), PyObject *arg)
{
    lc_py_Array *x = lc_py_as_array(arg);
    if (!x)
        return NULL;
    struct lc_error e = {0};
    struct lc_node *n = lc_node_copy(x->node, &e);
    return n ? lc_py_wrap(n, x->queue) : lc_py_raise(&e);
}

static PyObject *py_set_readonly(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *xo;
    int ro;
    if (!PyArg_ParseTuple(args, "Oi:_set_readonly", &xo, &ro))
        return NULL;
    lc_py_Array *x = lc_py_as_array(xo);
    if (!x)
        return NULL;
    x->readonly = ro;
    Py_RETURN_NONE;
}

static PyObject *py_readonly(PyObject *Py_UNUSED(m), PyObject *xo)
{
    lc_py_Array *x = lc_py_as_array(xo);
    return x ? PyBool_FromLong(x->readonly == 1) : NULL;
}

static PyObject *py_shares_buffer(PyObject *Py_UNUSED(m), PyObject *args)
{
    PyObject *ao, *bo;
    if (!PyArg_ParseTuple(args, "OO:_shares_buffer", &ao, &bo))
        return NULL;
    lc_py_Array *a = lc_py_as_array(ao), *b = a ? lc_py_as_array(bo) : NULL;
    if (!b)
        return NULL;
    return PyBool_FromLong(a->node->op == LC_OP_BUFFER && b->node->op == LC_OP_BUFFER &&
                           a->node->storage == b->node->storage);
}

PyMethodDef lc_py_write_functions[] = {
    {"_writable", py_writable, METH_VARARGS,
     "_writable(x, message=...): make x (and its views) leaves of one realized buffer, ready to be\n"
     "written; ValueError(message) when x is read-only."},
    {"_store", py_store, METH_VARARGS,
     "_store(x, target, value, pred, combine, value_ours, with_=None) -> in place (True) or\n"
     "copied first. `with_`, an array of x's queue, is computed in the same plan as the store\n"
     "(a compaction's count beside its store: fusion.h's LC_FUSE_SCAN_TOTAL)."},
    {"_copy", py_copy, METH_O, "_copy(x): a pending copy of x."},
    {"_settle", py_settle, METH_VARARGS, "_settle(x, a): compute a now if it reads x."},
    {"_op_number", py_op_number, METH_O, "_op_number(name): an op's number."},
    {"_empty", py_empty, METH_VARARGS, "_empty(like, shape, dtype): an uninitialized buffer."},
    {"_set_readonly", py_set_readonly, METH_VARARGS, "_set_readonly(x, flag)"},
    {"_readonly", py_readonly, METH_O,
     "_readonly(x) -> bool: read-only whatever happens (a reshape that may be a copy is decided by _writable)"},
    {"_shares_buffer", py_shares_buffer, METH_VARARGS,
     "_shares_buffer(a, b): are both realized views of one buffer? (for tests)"},
    {NULL, NULL, 0, NULL},
};
