/* lc_test.h: what the C tests share: CHECK counters and small graph builders (no device). */
#ifndef LC_TEST_H
#define LC_TEST_H

#include "graph/graph.h"

#include <stdio.h>

#if defined(__GNUC__)
#define LC_TEST_UNUSED __attribute__((unused))
#else
#define LC_TEST_UNUSED
#endif

/* Each test file prints "N passed, N failed" (and its xfails) at the end. */
static int passed, failed, xfailed LC_TEST_UNUSED;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (cond) {                                                                 \
            passed++;                                                               \
        } else {                                                                    \
            failed++;                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                           \
    } while (0)

/* A check that fails today because of a known lazycl bug (strict: passing is a
 * failure, so the mark is removed when the bug is fixed). */
#define CHECK_XFAIL(cond, bug)                                                       \
    do {                                                                            \
        if (cond) {                                                                 \
            failed++;                                                               \
            fprintf(stderr, "%s:%d: XPASS (remove the mark): %s\n", __FILE__, __LINE__, \
                    #cond);                                                         \
        } else {                                                                    \
            xfailed++;                                                              \
            fprintf(stderr, "%s:%d: xfail: %s (%s)\n", __FILE__, __LINE__, #cond, bug); \
        }                                                                           \
    } while (0)

/* The error the builders below report into. */
static struct lc_error err LC_TEST_UNUSED;

/* A buffer leaf over a fake storage (no device). */
static inline struct lc_node *leaf(int dtype, int ndim, const int64_t *shape)
{
    int64_t n = lc_shape_size(ndim, shape);
    struct lc_storage *s = lc_storage_new(NULL, NULL, (size_t)(n ? n : 1) * lc_dtype_size(dtype));
    struct lc_node *x = lc_node_buffer(NULL, dtype, ndim, shape, s, 0, NULL, &err);
    lc_storage_release(s);
    if (!x)
        fprintf(stderr, "leaf: %s\n", err.msg);
    return x;
}

/* A weak Python float. */
static inline struct lc_node *scalar(double v)
{
    union lc_scalar s;
    s.f = v;
    return lc_node_const(NULL, LC_FLOAT64, s, 0, NULL, LC_NODE_WEAK | LC_NODE_WEAK_FLOAT, &err);
}

/* A weak Python int. */
static inline struct lc_node *iscalar(int64_t v)
{
    union lc_scalar s;
    s.i = v;
    return lc_node_const(NULL, LC_INT64, s, 0, NULL, LC_NODE_WEAK, &err);
}

/* Builders that take ownership of their node arguments (keeps the tests short). */
static inline struct lc_node *U(int op, struct lc_node *a)
{
    struct lc_node *r = lc_node_unary(op, a, &err);
    lc_node_release(a);
    return r;
}

static inline struct lc_node *B(int op, struct lc_node *a, struct lc_node *b)
{
    struct lc_node *r = lc_node_binary(op, a, b, &err);
    lc_node_release(a);
    lc_node_release(b);
    return r;
}

static inline struct lc_node *R(int op, struct lc_node *a, uint32_t axes, int kind)
{
    struct lc_node *r = lc_node_reduce(op, a, axes, 0, kind, &err);
    lc_node_release(a);
    return r;
}

static inline struct lc_node *ref(struct lc_node *n)
{
    lc_node_retain(n);
    return n;
}

#endif
