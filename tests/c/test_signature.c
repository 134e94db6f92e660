/* test_signature.c: graph signatures: equal structures share a plan key and words,
 * structures that differ in one thing never do, and leaf values are not structure. */
#include "graph/signature.h"
#include "lc_test.h"

#include <stdlib.h>
#include <string.h>

static const int64_t SQ[2] = {8, 8};

/* 1 when the graphs under a and b (each forced alone) have the same signature. */
static int same(struct lc_node *a, struct lc_node *b)
{
    struct lc_graph_sig sa, sb;
    struct lc_error e = {0};
    int ok = 0;
    if (lc_graph_sig_make(&a, 1, 0, &sa, &e) == LC_OK) {
        if (lc_graph_sig_make(&b, 1, 0, &sb, &e) == LC_OK) {
            ok = lc_graph_sig_equal(sa.words, sa.n_words, sb.words, sb.n_words);
            /* Equal words imply an equal key (the key is a summary of them). */
            if (ok)
                CHECK(sa.key == sb.key);
            lc_graph_sig_free(&sb);
        }
        lc_graph_sig_free(&sa);
    }
    lc_node_release(a);
    lc_node_release(b);
    return ok;
}

static struct lc_node *f32(double v)
{
    union lc_scalar s;
    s.f = v;
    return lc_node_const(NULL, LC_FLOAT32, s, 0, NULL, 0, &err);
}

static struct lc_node *slice1(struct lc_node *x, int64_t start, int64_t step, int64_t len)
{
    int64_t st[2] = {0, start}, sp[2] = {1, step}, ln[2] = {x->shape[0], len};
    struct lc_node *r = lc_node_slice(x, st, sp, ln, &err);
    lc_node_release(x);
    return r;
}

static struct lc_node *transpose(struct lc_node *x)
{
    int64_t perm[2] = {1, 0};
    struct lc_node *r = lc_node_permute(x, perm, &err);
    lc_node_release(x);
    return r;
}

int main(void)
{
    /* Equal structure, other buffers and other constant values: one plan. */
    CHECK(same(B(LC_OP_MUL, leaf(LC_FLOAT32, 2, SQ), f32(1.5)),
               B(LC_OP_MUL, leaf(LC_FLOAT32, 2, SQ), f32(2.5))));
    CHECK(same(R(LC_OP_SUM, leaf(LC_FLOAT32, 2, SQ), 2, 0), R(LC_OP_SUM, leaf(LC_FLOAT32, 2, SQ), 2, 0)));

    /* One difference each. */
    CHECK(!same(R(LC_OP_SUM, leaf(LC_FLOAT32, 2, SQ), 1, 0), R(LC_OP_SUM, leaf(LC_FLOAT32, 2, SQ), 2, 0)));
    CHECK(!same(R(LC_OP_SUM, leaf(LC_FLOAT32, 2, SQ), 1, 0), R(LC_OP_RMAX, leaf(LC_FLOAT32, 2, SQ), 1, 0)));
    CHECK(!same(B(LC_OP_MUL, leaf(LC_FLOAT32, 2, SQ), f32(2)), B(LC_OP_ADD, leaf(LC_FLOAT32, 2, SQ), f32(2))));
    CHECK(!same(B(LC_OP_MUL, leaf(LC_FLOAT32, 2, SQ), f32(2)), B(LC_OP_MUL, leaf(LC_FLOAT64, 2, SQ), f32(2))));
    /* a scalar's dtype */
    union lc_scalar two = {.i = 2};
    CHECK(!same(B(LC_OP_MUL, leaf(LC_INT64, 2, SQ), lc_node_const(NULL, LC_INT32, two, 0, NULL, 0, &err)),
                B(LC_OP_MUL, leaf(LC_INT64, 2, SQ), lc_node_const(NULL, LC_INT64, two, 0, NULL, 0, &err))));
    /* a weak scalar against a strong one of the same dtype */
    CHECK(!same(B(LC_OP_MUL, leaf(LC_FLOAT32, 2, SQ), scalar(2)),
                B(LC_OP_MUL, leaf(LC_FLOAT32, 2, SQ), lc_node_const(NULL, LC_FLOAT64, (union lc_scalar){.f = 2}, 0, NULL, 0, &err))));
    /* a stride (transpose of a square), a negative stride, a view offset */
    CHECK(!same(U(LC_OP_NEG, leaf(LC_FLOAT32, 2, SQ)), U(LC_OP_NEG, transpose(leaf(LC_FLOAT32, 2, SQ)))));
    CHECK(!same(U(LC_OP_NEG, slice1(leaf(LC_FLOAT32, 2, SQ), 0, 1, 4)),
                U(LC_OP_NEG, slice1(leaf(LC_FLOAT32, 2, SQ), 7, -1, 4))));
    CHECK(!same(U(LC_OP_NEG, slice1(leaf(LC_FLOAT32, 2, SQ), 0, 1, 4)),
                U(LC_OP_NEG, slice1(leaf(LC_FLOAT32, 2, SQ), 1, 1, 4))));
    /* a broadcast: (8, 8) + (8,) against (8, 8) + (8, 8) */
    const int64_t row[1] = {8};
    CHECK(!same(B(LC_OP_ADD, leaf(LC_FLOAT32, 2, SQ), leaf(LC_FLOAT32, 1, row)),
                B(LC_OP_ADD, leaf(LC_FLOAT32, 2, SQ), leaf(LC_FLOAT32, 2, SQ))));
    /* keepdims: a reduction reshaped to (8, 1) against the plain (8,) */
    {
        const int64_t kd[2] = {8, 1};
        struct lc_node *r = R(LC_OP_SUM, leaf(LC_FLOAT32, 2, SQ), 2, 0);
        struct lc_node *k = lc_node_reshape(r, 2, kd, &err);
        lc_node_release(r);
        CHECK(!same(k, R(LC_OP_SUM, leaf(LC_FLOAT32, 2, SQ), 2, 0)));
    }
    /* pending against realized input */
    {
        struct lc_node *p = U(LC_OP_NEG, leaf(LC_FLOAT32, 2, SQ));
        struct lc_node *q = U(LC_OP_NEG, leaf(LC_FLOAT32, 2, SQ));
        struct lc_storage *s = lc_storage_new(NULL, NULL, 256);
        lc_node_realize(q, s);
        lc_storage_release(s);
        CHECK(!same(U(LC_OP_EXP, p), U(LC_OP_EXP, q)));
    }
    /* aliasing: x * y against x * x' where x' is another leaf on x's storage */
    {
        struct lc_node *x = leaf(LC_FLOAT32, 2, SQ);
        struct lc_node *x2 = lc_node_buffer(NULL, LC_FLOAT32, 2, SQ, x->storage, 0, NULL, &err);
        CHECK(!same(B(LC_OP_MUL, leaf(LC_FLOAT32, 2, SQ), leaf(LC_FLOAT32, 2, SQ)), B(LC_OP_MUL, x, x2)));
    }
    /* sharing: (x + 1) * (x + 1) built twice against one node used twice */
    {
        struct lc_node *x = leaf(LC_FLOAT32, 2, SQ);
        struct lc_node *s = B(LC_OP_ADD, ref(x), f32(1));
        struct lc_node *twice = B(LC_OP_MUL, ref(s), s);
        struct lc_node *a1 = B(LC_OP_ADD, ref(x), f32(1));
        struct lc_node *a2 = B(LC_OP_ADD, x, f32(1));
        CHECK(!same(twice, B(LC_OP_MUL, a1, a2)));
    }
    /* the outputs forced and their order; the flags */
    {
        struct lc_node *x = leaf(LC_FLOAT32, 2, SQ);
        struct lc_node *u = U(LC_OP_NEG, ref(x)), *v = U(LC_OP_EXP, x);
        struct lc_node *uv[2] = {u, v}, *vu[2] = {v, u};
        struct lc_graph_sig a, b, c;
        struct lc_error e = {0};
        CHECK(lc_graph_sig_make(uv, 2, 0, &a, &e) == LC_OK);
        CHECK(lc_graph_sig_make(vu, 2, 0, &b, &e) == LC_OK);
        CHECK(lc_graph_sig_make(uv, 2, 1, &c, &e) == LC_OK);
        CHECK(!lc_graph_sig_equal(a.words, a.n_words, b.words, b.n_words));
        CHECK(!lc_graph_sig_equal(a.words, a.n_words, c.words, c.n_words));
        CHECK(a.key != c.key);
        CHECK(a.walk.n == 3);
        lc_graph_sig_free(&a);
        lc_graph_sig_free(&b);
        lc_graph_sig_free(&c);
        lc_node_release(u);
        lc_node_release(v);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
