/* test_graph.c: dtype promotion, broadcasting, view folding, eager errors and long chains. */
#include "graph/graph.h"
#include "graph/userfn.h"
#include "graph/walk.h"
#include "lc_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct lc_node *weak(int dtype, unsigned flags)
{
    struct lc_error e = {0};
    union lc_scalar v;
    v.i = 0;
    if (dtype == LC_FLOAT64)
        v.f = 1.5;
    return lc_node_const(NULL, dtype, v, 0, NULL, LC_NODE_WEAK | flags, &e);
}

static void test_promotion(void)
{
    /* NumPy 2 (np.result_type of two arrays). */
    CHECK(lc_dtype_promote(LC_INT8, LC_UINT8) == LC_INT16);
    CHECK(lc_dtype_promote(LC_UINT8, LC_INT8) == LC_INT16);
    CHECK(lc_dtype_promote(LC_INT16, LC_UINT16) == LC_INT32);
    CHECK(lc_dtype_promote(LC_INT32, LC_UINT32) == LC_INT64);
    CHECK(lc_dtype_promote(LC_INT64, LC_UINT64) == LC_FLOAT64);
    CHECK(lc_dtype_promote(LC_UINT64, LC_INT8) == LC_FLOAT64);
    CHECK(lc_dtype_promote(LC_FLOAT32, LC_INT32) == LC_FLOAT64);
    CHECK(lc_dtype_promote(LC_FLOAT32, LC_INT16) == LC_FLOAT32);
    CHECK(lc_dtype_promote(LC_FLOAT32, LC_UINT8) == LC_FLOAT32);
    CHECK(lc_dtype_promote(LC_FLOAT32, LC_INT64) == LC_FLOAT64);
    CHECK(lc_dtype_promote(LC_FLOAT32, LC_FLOAT64) == LC_FLOAT64);
    CHECK(lc_dtype_promote(LC_BOOL, LC_BOOL) == LC_BOOL);
    CHECK(lc_dtype_promote(LC_BOOL, LC_INT8) == LC_INT8);
    CHECK(lc_dtype_promote(LC_BOOL, LC_UINT16) == LC_UINT16);
    CHECK(lc_dtype_promote(LC_BOOL, LC_FLOAT32) == LC_FLOAT32);
    CHECK(lc_dtype_promote(LC_UINT8, LC_INT32) == LC_INT32);
    CHECK(lc_dtype_promote(LC_UINT32, LC_INT16) == LC_INT64);
    /* Symmetric over the whole table. */
    int sym = 1;
    for (int a = 0; a < LC_NDTYPES; a++)
        for (int b = 0; b < LC_NDTYPES; b++)
            sym &= lc_dtype_promote(a, b) == lc_dtype_promote(b, a);
    CHECK(sym);

    /* Weak Python scalars (NEP 50). */
    CHECK(lc_dtype_promote_weak(LC_INT8, LC_PYSCALAR_INT) == LC_INT8);
    CHECK(lc_dtype_promote_weak(LC_UINT8, LC_PYSCALAR_INT) == LC_UINT8);
    CHECK(lc_dtype_promote_weak(LC_INT8, LC_PYSCALAR_FLOAT) == LC_FLOAT64);
    CHECK(lc_dtype_promote_weak(LC_FLOAT32, LC_PYSCALAR_FLOAT) == LC_FLOAT32);
    CHECK(lc_dtype_promote_weak(LC_FLOAT32, LC_PYSCALAR_INT) == LC_FLOAT32);
    CHECK(lc_dtype_promote_weak(LC_BOOL, LC_PYSCALAR_INT) == LC_INT64);
    CHECK(lc_dtype_promote_weak(LC_BOOL, LC_PYSCALAR_FLOAT) == LC_FLOAT64);
    CHECK(lc_dtype_promote_weak(LC_BOOL, LC_PYSCALAR_BOOL) == LC_BOOL);
    CHECK(lc_dtype_promote_weak(LC_INT16, LC_PYSCALAR_BOOL) == LC_INT16);
    CHECK(lc_dtype_of_pyscalar(LC_PYSCALAR_INT) == LC_INT64);
    CHECK(lc_dtype_of_pyscalar(LC_PYSCALAR_FLOAT) == LC_FLOAT64);

    /* Through the node builder: f32 array + Python float stays f32; i8 + Python int stays
     * i8; i8 array + u8 array is i16. */
    struct lc_error e = {0};
    int64_t sh[1] = {4};
    struct lc_node *f = leaf(LC_FLOAT32, 1, sh), *i8 = leaf(LC_INT8, 1, sh);
    struct lc_node *u8 = leaf(LC_UINT8, 1, sh);
    struct lc_node *pf = weak(LC_FLOAT64, LC_NODE_WEAK_FLOAT), *pi = weak(LC_INT64, 0);
    int cd;
    CHECK(lc_binary_result_dtype(LC_OP_ADD, f, pf, &cd, &e) == LC_FLOAT32);
    CHECK(lc_binary_result_dtype(LC_OP_ADD, i8, pi, &cd, &e) == LC_INT8);
    CHECK(lc_binary_result_dtype(LC_OP_ADD, i8, pf, &cd, &e) == LC_FLOAT64);
    CHECK(lc_binary_result_dtype(LC_OP_MUL, i8, u8, &cd, &e) == LC_INT16);
    CHECK(lc_binary_result_dtype(LC_OP_LT, f, pf, &cd, &e) == LC_BOOL);
    struct lc_node *s = lc_node_binary(LC_OP_ADD, f, pf, &e);
    CHECK(s && s->dtype == LC_FLOAT32 && s->ndim == 1 && s->shape[0] == 4);
    struct lc_node *d = lc_node_binary(LC_OP_DIV, i8, pi, &e);
    CHECK(d && d->dtype == LC_FLOAT64);
    lc_node_release(d);
    lc_node_release(s);
    lc_node_release(f);
    lc_node_release(i8);
    lc_node_release(u8);
    lc_node_release(pf);
    lc_node_release(pi);
    lc_error_clear(&e);
}

static void test_broadcasting(void)
{
    struct lc_error e = {0};
    int64_t a[2] = {3, 1}, b[2] = {1, 4}, out[LC_MAXDIM];
    int n = 0;
    CHECK(lc_broadcast_shapes(2, a, 2, b, &n, out, &e) == LC_OK);
    CHECK(n == 2 && out[0] == 3 && out[1] == 4);
    int64_t c[3] = {5, 1, 4}, d[1] = {4};
    CHECK(lc_broadcast_shapes(3, c, 1, d, &n, out, &e) == LC_OK);
    CHECK(n == 3 && out[0] == 5 && out[1] == 1 && out[2] == 4);
    int64_t z[2] = {0, 1}, z2[1] = {3};
    CHECK(lc_broadcast_shapes(2, z, 1, z2, &n, out, &e) == LC_OK);
    CHECK(n == 2 && out[0] == 0 && out[1] == 3);
    int64_t p[1] = {3}, q[1] = {4};
    CHECK(lc_broadcast_shapes(1, p, 1, q, &n, out, &e) != LC_OK);
    CHECK(strstr(e.msg, "operands could not be broadcast together with shapes (3,) (4,)") != NULL);
    if (!strstr(e.msg, "(3,) (4,)"))
        fprintf(stderr, "  message: %s\n", e.msg);
    lc_error_clear(&e);

    /* The node builder fails at build time, with the same message. */
    int64_t s23[2] = {2, 3}, s32[2] = {3, 2};
    struct lc_node *x = leaf(LC_FLOAT32, 2, s23), *y = leaf(LC_FLOAT32, 2, s32);
    struct lc_node *r = lc_node_binary(LC_OP_ADD, x, y, &e);
    CHECK(r == NULL);
    CHECK(e.code != LC_OK);
    CHECK(strstr(e.msg, "(2,3) (3,2)") != NULL);
    if (!strstr(e.msg, "(2,3) (3,2)"))
        fprintf(stderr, "  message: %s\n", e.msg);
    lc_error_clear(&e);
    /* Fewer dims on the left: (7,) + (4,5,7) is (4,5,7). */
    int64_t s7[1] = {7}, s457[3] = {4, 5, 7};
    struct lc_node *v7 = leaf(LC_FLOAT32, 1, s7), *v457 = leaf(LC_FLOAT32, 3, s457);
    struct lc_node *lr = lc_node_binary(LC_OP_ADD, v7, v457, &e);
    CHECK(lr && lr->ndim == 3 && lr->shape[0] == 4 && lr->shape[2] == 7);
    if (lr)
        lc_node_release(lr);
    lc_error_clear(&e);
    lc_node_release(v7);
    lc_node_release(v457);
    /* broadcast_to to an incompatible shape fails too. */
    int64_t s4[2] = {2, 4};
    CHECK(lc_node_broadcast_to(x, 2, s4, &e) == NULL && e.code != LC_OK);
    lc_error_clear(&e);
    int64_t s523[3] = {5, 2, 3};
    struct lc_node *bx = lc_node_broadcast_to(x, 3, s523, &e);
    CHECK(bx && lc_node_is_leaf(bx) && bx->strides[0] == 0 && bx->strides[1] == 3 &&
          bx->strides[2] == 1);
    lc_node_release(bx);
    lc_node_release(x);
    lc_node_release(y);
}

static void test_views(void)
{
    struct lc_error e = {0};
    int64_t sh[3] = {2, 3, 4};
    struct lc_node *x = leaf(LC_FLOAT32, 3, sh);
    CHECK(x && lc_node_is_contiguous(x));
    /* A transpose of a buffer leaf is a leaf with permuted strides. */
    int64_t perm[3] = {2, 0, 1};
    struct lc_node *t = lc_node_permute(x, perm, &e);
    CHECK(t && lc_node_is_leaf(t) && t->op == LC_OP_BUFFER && t->storage == x->storage);
    CHECK(t->shape[0] == 4 && t->shape[1] == 2 && t->shape[2] == 3);
    CHECK(t->strides[0] == 1 && t->strides[1] == 12 && t->strides[2] == 4);
    CHECK(!lc_node_is_contiguous(t));
    /* Negative perm entries, NumPy style. */
    int64_t nperm[3] = {-1, -3, -2};
    struct lc_node *t2 = lc_node_permute(x, nperm, &e);
    CHECK(t2 && t2->hash == t->hash);
    lc_node_release(t2);
    int64_t badperm[3] = {0, 0, 1};
    CHECK(lc_node_permute(x, badperm, &e) == NULL && e.code != LC_OK);
    lc_error_clear(&e);
    /* A slice of a leaf: a leaf with an offset. */
    int64_t st[3] = {1, 2, 3}, step[3] = {1, -1, -2}, len[3] = {1, 3, 2};
    struct lc_node *sl = lc_node_slice(x, st, step, len, &e);
    CHECK(sl && lc_node_is_leaf(sl) && sl->offset == 12 + 8 + 3);
    CHECK(sl && sl->strides[1] == -4 && sl->strides[2] == -2);
    lc_node_release(sl);
    /* A reshape of a contiguous leaf is a leaf; of the transposed leaf, when no strided
     * layout can express it, it stays a RESHAPE node (a copy is needed). */
    int64_t flat[1] = {-1};
    struct lc_node *r = lc_node_reshape(x, 1, flat, &e);
    CHECK(r && lc_node_is_leaf(r) && r->shape[0] == 24);
    lc_node_release(r);
    struct lc_node *rt = lc_node_reshape(t, 1, flat, &e);
    CHECK(rt && !lc_node_is_leaf(rt) && rt->op == LC_OP_RESHAPE && rt->shape[0] == 24);
    lc_node_release(rt);
    /* A reshape that only splits a dim of the transposed leaf is expressible. */
    int64_t split[4] = {2, 2, 2, 3};
    struct lc_node *rs = lc_node_reshape(t, 4, split, &e);
    CHECK(rs && lc_node_is_leaf(rs));
    lc_node_release(rs);
    int64_t bad[2] = {5, 5};
    CHECK(lc_node_reshape(x, 2, bad, &e) == NULL);
    CHECK(strstr(e.msg, "cannot reshape array of size 24 into shape") != NULL);
    lc_error_clear(&e);
    /* A view of a pending node stays a view node. */
    struct lc_node *n = lc_node_unary(LC_OP_NEG, x, &e);
    struct lc_node *nt = lc_node_permute(n, perm, &e);
    CHECK(nt && nt->op == LC_OP_PERMUTE && !lc_node_is_leaf(nt));
    lc_node_release(nt);
    lc_node_release(n);
    lc_node_release(t);
    lc_node_release(x);
}

static void test_reduce_build(void)
{
    struct lc_error e = {0};
    int64_t sh[3] = {2, 3, 4};
    struct lc_node *x = leaf(LC_FLOAT32, 3, sh);
    struct lc_node *r = lc_node_reduce(LC_OP_SUM, x, 1u << 1, 0, 0, &e);
    CHECK(r && r->ndim == 2 && r->shape[0] == 2 && r->shape[1] == 4 && r->dtype == LC_FLOAT32);
    lc_node_release(r);
    r = lc_node_reduce(LC_OP_ARGMAX, x, 7, 0, 0, &e);
    CHECK(r && r->ndim == 0 && r->dtype == LC_INT64);
    lc_node_release(r);
    r = lc_node_reduce(LC_OP_SUM, x, 1u << 3, 0, 0, &e);
    CHECK(r == NULL && e.code != LC_OK);
    lc_error_clear(&e);
    /* min of an empty axis fails when built, with NumPy's message. */
    int64_t z[2] = {0, 3};
    struct lc_node *ze = leaf(LC_FLOAT32, 2, z);
    r = lc_node_reduce(LC_OP_RMIN, ze, 1u, 0, 0, &e);
    CHECK(r == NULL && strstr(e.msg, "zero-size array to reduction operation minimum") != NULL);
    lc_error_clear(&e);
    r = lc_node_reduce(LC_OP_RMIN, ze, 2u, 0, 0, &e);
    CHECK(r && r->size == 0);
    lc_node_release(r);
    struct lc_node *sc = lc_node_scan(LC_OP_CUMSUM, x, 2, &e);
    CHECK(sc && sc->ndim == 3 && sc->shape[2] == 4);
    lc_node_release(sc);
    CHECK(lc_node_scan(LC_OP_CUMSUM, x, 3, &e) == NULL);
    lc_error_clear(&e);
    lc_node_release(ze);
    lc_node_release(x);
}

/* User reductions (lazycl.ReductionKernel): the combining and identity functions are checked
 * when built, are part of the node's hash and structural key, and an empty reduction without
 * an identity fails at once, as NumPy's. */
static void test_user_build(void)
{
    struct lc_error e = {0};
    int f32[3] = {LC_FLOAT32, LC_FLOAT32, LC_INT64}, c64[1] = {LC_COMPLEX64};
    const char *xy[3] = {"x", "y", "k"}, *zw[2] = {"z", "w"}, *dup[2] = {"x", "x"};
    uint64_t f = lc_userfn_register("sq", 2, f32, xy, 2, f32, zw, "z = x - y; w = x + y;", "", &e);
    CHECK(f != 0 && lc_userfn_get(f) && lc_userfn_get(f)->n_in == 2);
    /* the same definition, the same id; another body, another id */
    CHECK(lc_userfn_register("sq", 2, f32, xy, 2, f32, zw, "z = x - y; w = x + y;", "", &e) == f);
    uint64_t g = lc_userfn_register("sq", 2, f32, xy, 2, f32, zw, "z = y - x; w = x + y;", "", &e);
    CHECK(g != 0 && g != f);
    /* a loop keyword as a token, in the body or the preamble, marks the function */
    CHECK(!lc_userfn_get(f)->loops);
    const char *loopy[] = {"for (int i = 0; i < 3; i++) z += x;", "while (z < x) z += y;",
                           "do { z += 1; } while (z < x);"};
    for (int i = 0; i < 3; i++) {
        uint64_t l = lc_userfn_register("lp", 2, f32, xy, 1, f32, zw, loopy[i], "", &e);
        CHECK(l && lc_userfn_get(l)->loops);
    }
    uint64_t lp = lc_userfn_register("lp", 2, f32, xy, 1, f32, zw, "z = h(x);",
                                     "float h(float v) { while (v > 1) v /= 2; return v; }", &e);
    CHECK(lp && lc_userfn_get(lp)->loops);
    uint64_t nl = lc_userfn_register("nl", 2, f32, xy, 1, f32, zw,
                                     "float format = x, fore = y, done = 1; z = format + fore;",
                                     "", &e);
    CHECK(nl && !lc_userfn_get(nl)->loops);
    /* refused: a name that is no identifier, a parameter twice, a complex one, no output,
     * more than LC_MAXIN parameters */
    CHECK(!lc_userfn_register("not a name", 2, f32, xy, 1, f32, zw, "z = x;", "", &e) &&
          e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    CHECK(!lc_userfn_register("d", 2, f32, dup, 1, f32, zw, "z = x;", "", &e) &&
          strstr(e.msg, "declared twice"));
    lc_error_clear(&e);
    CHECK(!lc_userfn_register("c", 1, c64, xy, 1, f32, zw, "z = 0;", "", &e) && e.code == LC_ERR_TYPE);
    lc_error_clear(&e);
    CHECK(!lc_userfn_register("o", 1, f32, xy, 0, f32, zw, "", "", &e) && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    CHECK(!lc_userfn_register("m", 8, f32, xy, 1, f32, zw, "", "", &e) && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    /* nodes: inputs broadcast and cast to the declared dtypes; one node per output */
    int64_t sa[2] = {3, 1}, sb[1] = {4};
    struct lc_node *a = leaf(LC_INT32, 2, sa), *b = leaf(LC_FLOAT32, 1, sb);
    struct lc_node *in[2] = {a, b};
    struct lc_node *z = lc_node_user(f, 0, in, 2, &e), *w = lc_node_user(f, 1, in, 2, &e);
    struct lc_node *z2 = lc_node_user(f, 0, in, 2, &e), *zg = lc_node_user(g, 0, in, 2, &e);
    CHECK(z && w && z2 && zg && z->op == LC_OP_USER && z->dtype == LC_FLOAT32 && z->ndim == 2 &&
          z->shape[0] == 3 && z->shape[1] == 4 && z->n_in == 2 && z->in[0]->dtype == LC_FLOAT32);
    CHECK(z->hash == z2->hash && z->hash != w->hash && z->hash != zg->hash && z->skey != zg->skey);
    char buf[128];
    lc_node_describe(w, buf, sizeof buf);
    CHECK(strstr(buf, "user:sq.w f32[3,4]") != NULL);
    CHECK(!lc_node_user(f, 2, in, 2, &e) && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    CHECK(!lc_node_user(f, 0, in, 1, &e) && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    int64_t sc[1] = {5};
    struct lc_node *c = leaf(LC_FLOAT32, 1, sc), *bad[2] = {b, c};   /* (4,) with (5,) */
    CHECK(!lc_node_user(f, 0, bad, 2, &e) && e.code == LC_ERR_SHAPE);
    lc_error_clear(&e);
    lc_node_release(z);
    lc_node_release(w);
    lc_node_release(z2);
    lc_node_release(zg);
    lc_node_release(a);
    lc_node_release(b);
    lc_node_release(c);
}

static void test_user_reduce_build(void)
{
    struct lc_error e = {0};
    int f32[2] = {LC_FLOAT32, LC_FLOAT32}, f64[2] = {LC_FLOAT64, LC_FLOAT64};
    const char *ab[2] = {"a", "b"}, *r1[1] = {"r"}, *i1[1] = {"i"};
    uint64_t add = lc_userfn_register("uadd", 2, f32, ab, 1, f32, r1, "r = a + b;", "", &e);
    uint64_t mul = lc_userfn_register("umul", 2, f32, ab, 1, f32, r1, "r = a * b;", "", &e);
    uint64_t zero = lc_userfn_register("uzero", 0, NULL, NULL, 1, f32, i1, "i = 0;", "", &e);
    uint64_t zero64 = lc_userfn_register("uzero", 0, NULL, NULL, 1, f64, i1, "i = 0;", "", &e);
    CHECK(add && mul && zero && zero64 && add != mul);
    int64_t sh[2] = {3, 4};
    struct lc_node *x = leaf(LC_INT32, 2, sh);
    struct lc_node *r = lc_node_user_reduce(add, zero, x, 1u << 1, &e);
    CHECK(r && r->op == LC_OP_USERRED && r->dtype == LC_FLOAT32 && r->ndim == 1 &&
          r->shape[0] == 3 && r->in[0]->op == LC_OP_CAST && r->p.red.fn == add);
    struct lc_node *r2 = lc_node_user_reduce(add, zero, x, 1u << 1, &e);
    struct lc_node *r3 = lc_node_user_reduce(mul, zero, x, 1u << 1, &e);
    struct lc_node *r4 = lc_node_user_reduce(add, 0, x, 1u << 1, &e);
    CHECK(r2 && r3 && r4 && r->hash == r2->hash && r->skey == r2->skey);
    CHECK(r->hash != r3->hash && r->skey != r3->skey && r->skey != r4->skey);
    char buf[128];
    lc_node_describe(r, buf, sizeof buf);
    CHECK(strstr(buf, "user_reduce:uadd f32[3]") != NULL);
    lc_node_release(r);
    lc_node_release(r2);
    lc_node_release(r3);
    lc_node_release(r4);
    /* an identity of another dtype, a combining function of one input, USERRED through
     * lc_node_reduce: refused */
    CHECK(lc_node_user_reduce(add, zero64, x, 1u, &e) == NULL && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    CHECK(lc_node_user_reduce(zero, 0, x, 1u, &e) == NULL && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    CHECK(lc_node_reduce(LC_OP_USERRED, x, 1u, 0, 0, &e) == NULL && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    CHECK(lc_node_user_reduce(add, zero, x, 1u << 2, &e) == NULL && e.code == LC_ERR_AXIS);
    lc_error_clear(&e);
    int64_t z[2] = {0, 3};
    struct lc_node *ze = leaf(LC_FLOAT32, 2, z);
    CHECK(lc_node_user_reduce(add, 0, ze, 1u, &e) == NULL &&
          strstr(e.msg, "zero-size array to reduction operation uadd which has no identity"));
    lc_error_clear(&e);
    r = lc_node_user_reduce(add, zero, ze, 1u, &e);
    CHECK(r && r->size == 3);
    lc_node_release(r);
    lc_node_release(ze);
    lc_node_release(x);
}

static void test_hash(void)
{
    struct lc_error e = {0};
    int64_t sh[1] = {8};
    struct lc_node *x = leaf(LC_FLOAT32, 1, sh), *y = leaf(LC_FLOAT32, 1, sh);
    struct lc_node *a = lc_node_unary(LC_OP_EXP, x, &e), *b = lc_node_unary(LC_OP_EXP, x, &e);
    struct lc_node *c = lc_node_unary(LC_OP_LOG, x, &e);
    CHECK(a->hash == b->hash);
    CHECK(a->hash != c->hash);
    lc_node_release(a);
    lc_node_release(b);
    lc_node_release(c);
    lc_node_release(x);
    lc_node_release(y);
}

/* A chain of n nodes over a new leaf (returned in *leaf_out), or NULL. */
static struct lc_node *chain(int n, struct lc_node **leaf_out)
{
    int64_t sh[1] = {16};
    struct lc_node *x = leaf(LC_FLOAT32, 1, sh), *cur = x;
    *leaf_out = x;
    lc_node_retain(cur);
    for (int i = 0; i < n && cur; i++) {
        struct lc_node *nx = lc_node_unary(i & 1 ? LC_OP_NEG : LC_OP_ABS, cur, &err);
        lc_node_release(cur);
        cur = nx;
    }
    return cur;
}

/* The walk's work for 10x the nodes is at most 11x (linear, with slack for the
 * index's load at the two sizes), and within a constant per node and edge: a
 * lookup probes O(1) slots, growth by doubling moves each entry O(1) times. These
 * are counts, not times, so a loaded machine cannot fail them; an index that
 * degrades with size does (one grown only when 15/16 full: 13x, 19.5 probes a
 * node). */
static void check_walk_linear(const struct lc_walk *big, const struct lc_walk *small)
{
    const struct lc_walk_stats *b = &big->stats, *s = &small->stats;
    printf("walk of %zu nodes: %zu edges, %zu probes, %zu moved, %zu allocs; "
           "of %zu nodes: %zu edges, %zu probes, %zu moved, %zu allocs\n",
           big->n, b->edges, b->probes, b->moved, b->allocs,
           small->n, s->edges, s->probes, s->moved, s->allocs);
    CHECK(b->probes + b->moved <= 11 * (s->probes + s->moved));
    CHECK(b->probes <= 4 * (big->n + b->edges) && s->probes <= 4 * (small->n + s->edges));
    CHECK(b->moved <= 2 * big->n && s->moved <= 2 * small->n);
    CHECK(b->allocs <= s->allocs + 3 * 4);   /* logarithmic: 3 arrays, 4 doublings more */
}

/* A chain of a million nodes: built, walked and released without recursion, with
 * the walk's work linear in the nodes. */
static void test_long_chain(void)
{
    const int N = 1000000;
    struct lc_node *x, *y;
    struct lc_node *cur = chain(N, &x);
    CHECK(cur != NULL);
    struct lc_walk big = {0}, small = {0};
    CHECK(cur && lc_graph_walk(&cur, 1, &big, &err) == LC_OK);
    CHECK(big.n == (size_t)N + 1 && big.stats.edges == (size_t)N + 1);
    CHECK(big.n && big.order[0] == x && big.order[big.n - 1] == cur);
    int order = 1;
    for (size_t i = 1; i < big.n; i++)
        order &= big.order[i]->in[0] == big.order[i - 1];
    CHECK(order);
    CHECK(big.n && lc_walk_index(&big, cur) == (long)big.n - 1 && lc_walk_index(&big, x) == 0);
    lc_node_release(cur);   /* the walk's pointers are borrowed: read its counts only */
    lc_node_release(x);

    struct lc_node *c2 = chain(N / 10, &y);
    CHECK(c2 && lc_graph_walk(&c2, 1, &small, &err) == LC_OK);
    CHECK(small.n == (size_t)N / 10 + 1 && small.stats.edges == (size_t)N / 10 + 1);
    size_t n = 0;
    struct lc_node **topo = lc_graph_topo(&c2, 1, &n, &err);
    CHECK(topo && n == small.n && !memcmp(topo, small.order, n * sizeof *topo));
    free(topo);
    lc_node_release(c2);
    lc_node_release(y);
    check_walk_linear(&big, &small);
    lc_walk_free(&big);
    lc_walk_free(&small);
}

/* A ladder, x[i+1] = x[i] + x[i-1]: every node is an input twice, so a walk
 * that did not remember what it has seen would take 2^n steps. It takes one
 * lookup per edge, and the same linear work as a chain. */
static void test_shared_ladder(void)
{
    const int N = 100000;
    struct lc_walk big = {0}, small = {0};
    for (int k = 0; k < 2; k++) {
        int n = k ? N / 10 : N;
        int64_t sh[1] = {16};
        struct lc_node *x = leaf(LC_FLOAT32, 1, sh), *p = ref(x), *q = ref(x);
        for (int i = 0; i < n && q; i++) {
            struct lc_node *nx = lc_node_binary(LC_OP_ADD, q, p, &err);
            lc_node_release(p);
            p = q;
            q = nx;
        }
        struct lc_walk *w = k ? &small : &big;
        CHECK(q && lc_graph_walk(&q, 1, w, &err) == LC_OK);
        CHECK(w->n == (size_t)n + 1 && w->stats.edges == 2 * (size_t)n + 1);
        CHECK(w->n && w->order[0] == x && w->order[w->n - 1] == q);
        lc_node_release(p);
        lc_node_release(q);
        lc_node_release(x);
    }
    check_walk_linear(&big, &small);
    lc_walk_free(&big);
    lc_walk_free(&small);
}

/* sum(exp(x - max(x))) over the max's axes builds one SUMEXP over x (the
 * pass that computes the max computes it too); near misses stay sums. */
static void test_sumexp_rewrite(void)
{
    int64_t sh[2] = {3, 5}, kd[2] = {3, 1};
    struct lc_node *x = leaf(LC_FLOAT32, 2, sh), *y = leaf(LC_FLOAT32, 2, sh);
    /* axis None */
    struct lc_node *s = R(LC_OP_SUM, U(LC_OP_EXP, B(LC_OP_SUB, ref(x), R(LC_OP_RMAX, ref(x), 3, 0))), 3, 0);
    CHECK(s && s->op == LC_OP_SUMEXP && s->in[0] == x && s->p.red.axes == 3 && s->dtype == LC_FLOAT32);
    lc_node_release(s);
    /* axis 1, keepdims */
    struct lc_node *mx = R(LC_OP_RMAX, ref(x), 2, 0);
    struct lc_node *m = lc_node_reshape(mx, 2, kd, &err);   /* the view holds its own reference */
    lc_node_release(mx);
    s = R(LC_OP_SUM, U(LC_OP_EXP, B(LC_OP_SUB, ref(x), m)), 2, 0);
    CHECK(s && s->op == LC_OP_SUMEXP && s->p.red.axes == 2);
    lc_node_release(s);
    /* axis 0 without keepdims: broadcasting lines the kept dim up */
    s = R(LC_OP_SUM, U(LC_OP_EXP, B(LC_OP_SUB, ref(x), R(LC_OP_RMAX, ref(x), 1, 0))), 1, 0);
    CHECK(s && s->op == LC_OP_SUMEXP && s->p.red.axes == 1);
    lc_node_release(s);
    /* near misses */
    s = R(LC_OP_SUM, U(LC_OP_EXP, B(LC_OP_SUB, ref(x), R(LC_OP_RMAX, ref(y), 3, 0))), 3, 0);
    CHECK(s && s->op == LC_OP_SUM);                         /* max of another array */
    lc_node_release(s);
    mx = R(LC_OP_RMAX, ref(x), 2, 0);
    m = lc_node_reshape(mx, 2, kd, &err);
    lc_node_release(mx);
    s = R(LC_OP_SUM, U(LC_OP_EXP, B(LC_OP_SUB, ref(x), m)), 3, 0);
    CHECK(s && s->op == LC_OP_SUM);                         /* summed over other axes */
    lc_node_release(s);
    s = R(LC_OP_SUM, U(LC_OP_EXP, B(LC_OP_SUB, R(LC_OP_RMAX, ref(x), 3, 0), ref(x))), 3, 0);
    CHECK(s && s->op == LC_OP_SUM);                         /* exp(max - x) */
    lc_node_release(s);
    s = R(LC_OP_SUM, U(LC_OP_EXP, B(LC_OP_SUB, ref(x), R(LC_OP_RMIN, ref(x), 3, 0))), 3, 0);
    CHECK(s && s->op == LC_OP_SUM);                         /* min, not max */
    lc_node_release(s);
    lc_node_release(x);
    lc_node_release(y);
}

/* The diagonal of a transposed leaf, a.reshape(-1)[k::m + 1]: the reshape alone needs a
 * copy, the slice of it is a strided leaf (stride = the two strides' sum). A slice that
 * crosses a row is not, and stays a SLICE of the RESHAPE node. */
static void test_diagonal_fold(void)
{
    struct lc_error e = {0};
    int64_t sh[2] = {3, 4}, perm[2] = {1, 0}, flat[1] = {-1};
    struct lc_node *x = leaf(LC_FLOAT32, 2, sh);
    struct lc_node *t = lc_node_permute(x, perm, &e); /* (4, 3), strides (1, 4) */
    struct lc_node *r = lc_node_reshape(t, 1, flat, &e);
    CHECK(r && r->op == LC_OP_RESHAPE);
    int64_t st[1] = {1}, step[1] = {4}, len[1] = {2}; /* t[0, 1], t[1, 2] */
    struct lc_node *d = lc_node_slice(r, st, step, len, &e);
    CHECK(d && lc_node_is_leaf(d) && d->storage == x->storage);
    CHECK(d && d->offset == 4 && d->strides[0] == 5 && d->shape[0] == 2);
    lc_node_release(d);
    int64_t len3[1] = {3}; /* t[0, 1], t[1, 2], then t[3, 0]: the third wraps a row */
    struct lc_node *c = lc_node_slice(r, st, step, len3, &e);
    CHECK(c && c->op == LC_OP_SLICE && c->in[0] == r);
    lc_node_release(c);
    lc_node_release(r);
    lc_node_release(t);
    lc_node_release(x);
}

int main(void)
{
    test_promotion();
    test_broadcasting();
    test_views();
    test_reduce_build();
    test_user_build();
    test_user_reduce_build();
    test_sumexp_rewrite();
    test_hash();
    test_long_chain();
    test_shared_ladder();
    test_diagonal_fold();
    printf("%d passed, %d failed, %d xfailed\n", passed, failed, xfailed);
    return failed != 0;
}
