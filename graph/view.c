/* view.c: the view builders (reshape, permute, broadcast, slice): a view of a leaf is a new
 * strided leaf over the same storage; a view of a pending node is a node of its own. */
#include "graph/internal.h"

#include <stdio.h>
#include <string.h>

/* "(2,3)", "(4,)", "()" as NumPy prints shapes. */
const char *lc_fmt_shape(int ndim, const int64_t *shape, char *buf, size_t n)
{
    size_t o = 0;
    o += (size_t)snprintf(buf + o, n - o, "(");
    for (int i = 0; i < ndim && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%lld", i ? "," : "", (long long)shape[i]);
    if (o < n)
        snprintf(buf + o, n - o, ndim == 1 ? ",)" : ")");
    return buf;
}

static int lc_same_shape(const struct lc_node *a, int ndim, const int64_t *shape)
{
    return a->ndim == ndim && memcmp(a->shape, shape, (size_t)ndim * sizeof *shape) == 0;
}

/* A new leaf that shares `a`'s storage (or constant) with another layout. */
static struct lc_node *lc_leaf_view(const struct lc_node *a, int ndim, const int64_t *shape,
                                    int64_t offset, const int64_t *strides, struct lc_error *e)
{
    struct lc_node *n = lc_node_new(a->op, a->dtype, ndim, shape, NULL, 0, e);
    if (!n)
        return NULL;
    n->owner = a->owner;
    n->storage = a->storage;
    if (n->storage)
        lc_storage_retain(n->storage);
    n->value = a->value;
    n->step = a->step;
    n->flags = a->flags;
    n->p = a->p;                  /* RANDOM: the distribution */
    n->origin = a->origin;
    n->origin_size = a->origin_size;
    n->offset = offset;
    memcpy(n->strides, strides, (size_t)ndim * sizeof *strides);
    lc_node_seal(n);
    return n;
}

static struct lc_node *lc_view_node(int op, struct lc_node *a, int ndim, const int64_t *shape,
                                    struct lc_error *e)
{
    struct lc_node *n = lc_node_new(op, a->dtype, ndim, shape, &a, 1, e);
    return n;
}

/* NumPy's no-copy reshape of a strided layout: new strides for `nshape`, or
 * -1 when the layout cannot be seen with that shape without a copy. */
static int lc_reshape_strides(int ondim, const int64_t *oshape, const int64_t *ostrides,
                              int nndim, const int64_t *nshape, int64_t *nstrides)
{
    int64_t od[LC_MAXDIM], os[LC_MAXDIM];
    int on = 0;
    /* Sizes that differ are no reshape at all; the walk below would run off
     * both shapes. */
    if (lc_shape_size(ondim, oshape) != lc_shape_size(nndim, nshape))
        return -1;
    for (int i = 0; i < ondim; i++)
        if (oshape[i] != 1) {
            od[on] = oshape[i];
            os[on++] = ostrides[i];
        }
    if (lc_shape_size(nndim, nshape) == 0) {
        lc_shape_strides(nndim, nshape, nstrides);
        return 0;
    }
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < nndim && oi < on) {
        int64_t np = nshape[ni], op = od[oi];
        while (np != op) {
            if (np < op)
                np *= nshape[nj++];
            else
                op *= od[oj++];
        }
        for (int ok = oi; ok < oj - 1; ok++)
            if (os[ok] != od[ok + 1] * os[ok + 1])
                return -1;
        nstrides[nj - 1] = os[oj - 1];
        for (int nk = nj - 1; nk > ni; nk--)
            nstrides[nk - 1] = nstrides[nk] * nshape[nk];
        ni = nj++;
        oi = oj++;
    }
    /* Trailing ones in the new shape. */
    int64_t last = ni > 0 ? nstrides[ni - 1] : 1;
    for (int nk = ni; nk < nndim; nk++)
        nstrides[nk] = last;
    return 0;
}

struct lc_node *lc_node_reshape(struct lc_node *a, int ndim, const int64_t *shape_in,
                                struct lc_error *e)
{
    int64_t shape[LC_MAXDIM];
    int unknown = -1;
    int64_t known = 1;
    if (ndim > LC_MAXDIM || ndim < 0) {
        lc_error_set(e, LC_ERR_INVALID, "lazycl arrays have at most %d dimensions, got %d",
                     LC_MAXDIM, ndim);
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        shape[i] = shape_in[i];
        if (shape[i] == -1) {
            if (unknown >= 0) {
                lc_error_set(e, LC_ERR_INVALID, "can only specify one unknown dimension");
                return NULL;
            }
            unknown = i;
        } else if (shape[i] < 0) {
            lc_error_set(e, LC_ERR_INVALID, "negative dimensions not allowed");
            return NULL;
        } else {
            known *= shape[i];
        }
    }
    if (unknown >= 0) {
        if (known == 0 || a->size % known != 0) {
            char s[256];
            lc_error_set(e, LC_ERR_INVALID, "cannot reshape array of size %lld into shape %s",
                         (long long)a->size, lc_fmt_shape(ndim, shape_in, s, sizeof s));
            return NULL;
        }
        shape[unknown] = a->size / known;
        known *= shape[unknown];
    }
    if (known != a->size) {
        char s[256];
        lc_error_set(e, LC_ERR_INVALID, "cannot reshape array of size %lld into shape %s",
                     (long long)a->size, lc_fmt_shape(ndim, shape_in, s, sizeof s));
        return NULL;
    }
    if (lc_same_shape(a, ndim, shape)) {
        lc_node_retain(a);
        return a;
    }
    if (lc_node_is_leaf(a)) {
        int64_t strides[LC_MAXDIM];
        if (lc_reshape_strides(a->ndim, a->shape, a->strides, ndim, shape, strides) == 0)
            return lc_leaf_view(a, ndim, shape, a->offset, strides, e);
    }
    struct lc_node *n = lc_view_node(LC_OP_RESHAPE, a, ndim, shape, e);
    if (n)
        lc_node_seal(n);
    return n;
}

int lc_layout_reshape(int *ndim, int64_t *shape, int64_t *strides, int nndim,
                      const int64_t *nshape)
{
    int64_t ns[LC_MAXDIM];
    if (lc_reshape_strides(*ndim, shape, strides, nndim, nshape, ns) < 0)
        return -1;
    *ndim = nndim;
    memcpy(shape, nshape, (size_t)nndim * sizeof *nshape);
    memcpy(strides, ns, (size_t)nndim * sizeof *ns);
    return 0;
}

struct lc_node *lc_node_permute(struct lc_node *a, const int64_t *perm_in, struct lc_error *e)
{
    int nd = a->ndim;
    int8_t perm[LC_MAXDIM];
    int seen = 0, identity = 1;
    for (int i = 0; i < nd; i++) {
        int64_t p = perm_in[i];
        if (p < -nd || p >= nd) {
            lc_error_set(e, LC_ERR_AXIS, "axis %lld is out of bounds for array of dimension %d",
                         (long long)p, nd);
            return NULL;
        }
        if (p < 0)
            p += nd;
        if (seen & (1 << p)) {
            lc_error_set(e, LC_ERR_INVALID, "repeated axis in transpose");
            return NULL;
        }
        seen |= 1 << p;
        perm[i] = (int8_t)p;
        identity &= p == i;
    }
    if (identity) {
        lc_node_retain(a);
        return a;
    }
    int64_t shape[LC_MAXDIM], strides[LC_MAXDIM];
    for (int i = 0; i < nd; i++) {
        shape[i] = a->shape[perm[i]];
        strides[i] = a->strides[perm[i]];
    }
    if (lc_node_is_leaf(a))
        return lc_leaf_view(a, nd, shape, a->offset, strides, e);
    struct lc_node *n = lc_view_node(LC_OP_PERMUTE, a, nd, shape, e);
    if (!n)
        return NULL;
    memcpy(n->p.perm, perm, sizeof perm);
    lc_node_seal(n);
    return n;
}

struct lc_node *lc_node_broadcast_to(struct lc_node *a, int ndim, const int64_t *shape,
                                     struct lc_error *e)
{
    if (lc_same_shape(a, ndim, shape)) {
        lc_node_retain(a);
        return a;
    }
    int lead = ndim - a->ndim;
    int ok = lead >= 0 && ndim <= LC_MAXDIM;
    for (int i = 0; ok && i < a->ndim; i++)
        ok = a->shape[i] == shape[lead + i] || a->shape[i] == 1;
    for (int i = 0; ok && i < ndim; i++)
        ok = shape[i] >= 0;
    if (!ok) {
        char s1[256], s2[256];
        lc_error_set(e, LC_ERR_SHAPE,
                     "operands could not be broadcast together with remapped shapes "
                     "[original->remapped]: %s and requested shape %s",
                     lc_fmt_shape(a->ndim, a->shape, s1, sizeof s1),
                     lc_fmt_shape(ndim, shape, s2, sizeof s2));
        return NULL;
    }
    if (lc_node_is_leaf(a)) {
        int64_t strides[LC_MAXDIM];
        for (int i = 0; i < ndim; i++) {
            int j = i - lead;
            strides[i] = j < 0 || a->shape[j] != shape[i] ? 0 : a->strides[j];
        }
        return lc_leaf_view(a, ndim, shape, a->offset, strides, e);
    }
    struct lc_node *n = lc_view_node(LC_OP_BROADCAST, a, ndim, shape, e);
    if (n)
        lc_node_seal(n);
    return n;
}

/* A slice of a reshape of a leaf that is strided after all: NumPy's
 * a.reshape(-1)[k::m + 1] on a layout that cannot merge its dims (a transposed
 * or stepped leaf: the diagonal, say). The reshape alone needs a copy, but the
 * slice reads an arithmetic progression of flat indices, and when every one
 * unravels into the leaf's dims without a carry, the leaf's index is affine in
 * the slice's index: a new leaf. The check: the digits of the first element
 * plus each dim's step in digits, extrapolated to the corners of the slice,
 * stay inside the leaf's shape; in range, a digit vector is the one
 * representation of its flat index, so every element in between is right too.
 * Returns 1 with the leaf's offset and strides for the slice, or 0. */
static void lc_unravel(int64_t flat, int ndim, const int64_t *shape, int64_t *digits)
{
    for (int j = ndim - 1; j >= 0; j--) {
        digits[j] = shape[j] ? flat % shape[j] : 0;
        flat = shape[j] ? flat / shape[j] : 0;
    }
}

static int lc_slice_reshaped_leaf(const struct lc_node *a, const int64_t *start,
                                  const int64_t *step, const int64_t *len, int64_t *offset,
                                  int64_t *strides)
{
    const struct lc_node *l = a->in[0];
    int nd = a->ndim, ld = l->ndim;
    int64_t rs[LC_MAXDIM], flat0 = 0;
    int64_t d0[LC_MAXDIM], lo[LC_MAXDIM], hi[LC_MAXDIM], delta[LC_MAXDIM][LC_MAXDIM];
    lc_shape_strides(nd, a->shape, rs);
    for (int d = 0; d < nd; d++) {
        if (len[d] == 0)
            return 0;
        flat0 += start[d] * rs[d];
    }
    lc_unravel(flat0, ld, l->shape, d0);
    memcpy(lo, d0, (size_t)ld * sizeof *d0);
    memcpy(hi, d0, (size_t)ld * sizeof *d0);
    for (int d = 0; d < nd; d++) {
        int64_t next[LC_MAXDIM];
        if (len[d] < 2) {
            memset(delta[d], 0, sizeof delta[d]);
            continue;
        }
        lc_unravel(flat0 + step[d] * rs[d], ld, l->shape, next);
        for (int j = 0; j < ld; j++) {
            delta[d][j] = next[j] - d0[j];
            int64_t reach = delta[d][j] * (len[d] - 1);
            lo[j] += reach < 0 ? reach : 0;
            hi[j] += reach > 0 ? reach : 0;
        }
    }
    for (int j = 0; j < ld; j++)
        if (lo[j] < 0 || hi[j] >= l->shape[j])
            return 0;
    *offset = l->offset;
    for (int j = 0; j < ld; j++)
        *offset += d0[j] * l->strides[j];
    for (int d = 0; d < nd; d++) {
        strides[d] = 0;
        for (int j = 0; j < ld; j++)
            strides[d] += delta[d][j] * l->strides[j];
    }
    return 1;
}

struct lc_node *lc_node_slice(struct lc_node *a, const int64_t *start, const int64_t *step,
                              const int64_t *len, struct lc_error *e)
{
    int nd = a->ndim, identity = 1;
    for (int i = 0; i < nd; i++) {
        if (step[i] == 0) {
            lc_error_set(e, LC_ERR_INVALID, "slice step cannot be zero");
            return NULL;
        }
        if (len[i] < 0 || (len[i] > 0 && (start[i] < 0 || start[i] >= a->shape[i] ||
                                          start[i] + step[i] * (len[i] - 1) < 0 ||
                                          start[i] + step[i] * (len[i] - 1) >= a->shape[i]))) {
            lc_error_set(e, LC_ERR_INDEX, "slice out of range on axis %d", i);
            return NULL;
        }
        identity &= start[i] == 0 && step[i] == 1 && len[i] == a->shape[i];
    }
    if (identity) {
        lc_node_retain(a);
        return a;
    }
    if (lc_node_is_leaf(a)) {
        int64_t strides[LC_MAXDIM], offset = a->offset;
        for (int i = 0; i < nd; i++) {
            if (len[i] > 0)
                offset += start[i] * a->strides[i];
            strides[i] = a->strides[i] * step[i];
        }
        return lc_leaf_view(a, nd, len, offset, strides, e);
    }
    if (a->op == LC_OP_RESHAPE && lc_node_is_leaf(a->in[0])) {
        int64_t strides[LC_MAXDIM], offset;
        if (lc_slice_reshaped_leaf(a, start, step, len, &offset, strides))
            return lc_leaf_view(a->in[0], nd, len, offset, strides, e);
    }
    struct lc_node *n = lc_view_node(LC_OP_SLICE, a, nd, len, e);
    if (!n)
        return NULL;
    for (int i = 0; i < nd; i++) {
        n->p.slice.start[i] = len[i] > 0 ? start[i] : 0;
        n->p.slice.step[i] = step[i];
    }
    lc_node_seal(n);
    return n;
}
