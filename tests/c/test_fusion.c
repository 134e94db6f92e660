/* test_fusion.c: kernel counts and buffer plans from lc_fuse (no device). */
#include "fusion/fusion.h"
#include "lc_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Fuse `outs` and return the kernel count (-1 on failure); the plan stays in *p. */
static int fuse(struct lc_plan *p, struct lc_node *const *outs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!outs[i]) {
            fprintf(stderr, "  build failed: %s\n", err.msg);
            memset(p, 0, sizeof *p);
            return -1;
        }
    struct lc_error e = {0};
    if (lc_fuse(outs, n, 0, p, &e) != LC_OK) {
        fprintf(stderr, "  lc_fuse: %s\n", e.msg);
        lc_error_clear(&e);
        return -1;
    }
    return p->n_kernels;
}

static int count(struct lc_node *const *outs, size_t n)
{
    struct lc_plan p;
    int k = fuse(&p, outs, n);
    lc_plan_free(&p);
    return k;
}

static int n_temps(const struct lc_plan *p)
{
    int t = 0;
    for (int b = 0; b < p->n_buffers; b++)
        t += !p->buffers[b].is_output;
    return t;
}

static void release_all(struct lc_node **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        lc_node_release(v[i]);
}

static const int64_t S2[2] = {256, 64};
static const int64_t S1[1] = {1000};

static void test_map_map(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 1, S1);
    struct lc_node *r = U(LC_OP_SQRT, U(LC_OP_EXP, ref(x)));
    struct lc_plan p;
    CHECK(fuse(&p, &r, 1) == 1);
    CHECK(p.n_kernels == 1 && p.kernels[0].kind == LC_KERNEL_MAP);
    CHECK(p.n_buffers == 1 && p.buffers[0].is_output && p.n_inputs == 1);
    lc_plan_free(&p);
    /* A ten-op chain over two inputs with scalars is one kernel. */
    struct lc_node *y = leaf(LC_FLOAT32, 1, S1), *c = ref(x);
    for (int i = 0; i < 10; i++)
        c = i % 2 ? B(LC_OP_ADD, c, ref(y)) : B(LC_OP_MUL, c, scalar(1.5));
    CHECK(count(&c, 1) == 1);
    /* Several outputs over one index space: one kernel, one output each. */
    struct lc_node *outs[3] = {B(LC_OP_ADD, ref(x), ref(y)), B(LC_OP_MUL, ref(x), ref(y)),
                               U(LC_OP_EXP, ref(x))};
    CHECK(fuse(&p, outs, 3) == 1);
    CHECK(p.n_kernels == 1 && p.kernels[0].n_outputs == 3 && p.n_buffers == 3);
    lc_plan_free(&p);
    release_all(outs, 3);
    /* A leaf output needs no kernel. */
    CHECK(fuse(&p, &x, 1) == 0);
    CHECK(p.n_out == 1 && p.out_buffer[0] == -1);
    lc_plan_free(&p);
    lc_node_release(c);
    lc_node_release(r);
    lc_node_release(x);
    lc_node_release(y);
}

static void test_reductions(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 2, S2), *y = leaf(LC_FLOAT32, 2, S2);
    /* sum((x - y)**2): one reduce kernel, only the output buffer. */
    struct lc_node *d = B(LC_OP_SUB, ref(x), ref(y));
    struct lc_node *s = R(LC_OP_SUM, B(LC_OP_MUL, ref(d), ref(d)), 3, 0);
    struct lc_plan p;
    CHECK(fuse(&p, &s, 1) == 1);
    CHECK(p.n_kernels == 1 && p.kernels[0].kind == LC_KERNEL_REDUCE && p.kernels[0].nkept == 0);
    CHECK(p.n_buffers == 1 && p.buffers[0].size == 1 && n_temps(&p) == 0);
    lc_plan_free(&p);
    /* Epilogue: sqrt(sum(x*x)) and sum(x, axis 1) * 2 + 1 are one kernel each. */
    struct lc_node *nrm = U(LC_OP_SQRT, R(LC_OP_SUM, B(LC_OP_MUL, ref(x), ref(x)), 3, 0));
    CHECK(fuse(&p, &nrm, 1) == 1);
    CHECK(p.n_buffers == 1 && p.buffers[0].size == 1);
    lc_plan_free(&p);
    struct lc_node *epi = B(LC_OP_ADD, B(LC_OP_MUL, R(LC_OP_SUM, ref(x), 2, 0), scalar(2)),
                            scalar(1));
    CHECK(fuse(&p, &epi, 1) == 1);
    CHECK(p.n_buffers == 1 && p.buffers[0].size == 256 && p.kernels[0].n_outputs == 1);
    lc_plan_free(&p);
    /* mean and var over axis 0 are siblings: one kernel, two reductions. */
    struct lc_node *mv[2] = {R(LC_OP_MEANVAR, ref(x), 1, 1), R(LC_OP_MEANVAR, ref(x), 1, 0)};
    CHECK(fuse(&p, mv, 2) == 1);
    CHECK(p.n_kernels == 1 && p.kernels[0].n_reds == 2 && p.kernels[0].n_outputs == 2);
    lc_plan_free(&p);
    /* min/max/sum over axis 1 with mean: one kernel; over different axes: two. */
    struct lc_node *sib[3] = {R(LC_OP_RMIN, ref(x), 2, 0), R(LC_OP_RMAX, ref(x), 2, 0),
                              R(LC_OP_SUM, ref(x), 1, 0)};
    CHECK(count(sib, 2) == 1);
    CHECK(count(sib, 3) == 2);
    release_all(sib, 3);
    /* standardize: (x - mean(0)) / sqrt(var(0)): 2 kernels. */
    struct lc_node *z = B(LC_OP_DIV, B(LC_OP_SUB, ref(x), ref(mv[0])), U(LC_OP_SQRT, ref(mv[1])));
    CHECK(fuse(&p, &z, 1) == 2);
    CHECK(p.n_kernels == 2 && p.kernels[0].kind == LC_KERNEL_REDUCE &&
          p.kernels[1].kind == LC_KERNEL_MAP);
    /* mean and var go through temporaries that die in kernel 1. */
    CHECK(n_temps(&p) == 2);
    for (int b = 0; b < p.n_buffers; b++)
        if (!p.buffers[b].is_output)
            CHECK(p.buffers[b].producer == 0 && p.buffers[b].last_use == 1);
    lc_plan_free(&p);
    release_all(mv, 2);
    lc_node_release(z);
    lc_node_release(d);
    lc_node_release(s);
    lc_node_release(nrm);
    lc_node_release(epi);
    lc_node_release(x);
    lc_node_release(y);
}

static void test_softmax(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 1, S1);
    struct lc_node *m = R(LC_OP_RMAX, ref(x), 1, 0);
    struct lc_node *e = U(LC_OP_EXP, B(LC_OP_SUB, ref(x), m));
    struct lc_node *r = B(LC_OP_DIV, ref(e), R(LC_OP_SUM, ref(e), 1, 0));
    struct lc_plan p;
    /* The max and sum(exp(x - max)) share one pass (SUMEXP), then the division. */
    CHECK(fuse(&p, &r, 1) == 2);
    CHECK(p.kernels[0].n_reds == 2 && p.kernels[0].reds[1].op == LC_OP_SUMEXP);
    /* exp(x - max) is cheap: recomputed in the division, never written. */
    CHECK(n_temps(&p) == 2); /* the max and the sum */
    lc_plan_free(&p);
    lc_node_release(e);
    lc_node_release(r);
    lc_node_release(x);
}

/* Row softmax with keepdims: x - reshape(max(x, axis 1), (256, 1)). Run in a child: lc_fuse
 * has crashed on it. */
static void row_softmax_child(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 2, S2);
    int64_t kd[2] = {256, 1};
    struct lc_node *m = R(LC_OP_RMAX, ref(x), 2, 0);
    struct lc_node *mk = lc_node_reshape(m, 2, kd, &err);
    lc_node_release(m);
    struct lc_node *e = U(LC_OP_EXP, B(LC_OP_SUB, ref(x), mk));
    struct lc_node *sm = R(LC_OP_SUM, ref(e), 2, 0);
    struct lc_node *s = lc_node_reshape(sm, 2, kd, &err);
    lc_node_release(sm);
    struct lc_node *r = B(LC_OP_DIV, e, s);
    int k = count(&r, 1);
    lc_node_release(r);
    lc_node_release(x);
    _exit(k >= 1 && k <= 3 ? 0 : 3);
}

static void test_row_softmax_keepdims(void)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        row_softmax_child();
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status))
        fprintf(stderr, "  BUG: lc_fuse of x - max(x, axis=1, keepdims) died with signal %d\n",
                WTERMSIG(status));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_reshape_of_transposed_pending(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 2, S2);
    int64_t perm[2] = {1, 0}, flat[1] = {-1};
    struct lc_node *n = U(LC_OP_NEG, ref(x));
    struct lc_node *t = lc_node_permute(n, perm, &err);
    struct lc_node *rs = lc_node_reshape(t, 1, flat, &err);
    CHECK(rs && rs->op == LC_OP_RESHAPE);
    struct lc_node *r = U(LC_OP_EXP, rs);
    struct lc_plan p;
    /* The reshape of the transposed pending array needs its input written
     * contiguously first: 2 kernels, 1 temporary. */
    CHECK(fuse(&p, &r, 1) == 2);
    CHECK(n_temps(&p) == 1);
    lc_plan_free(&p);
    /* A reshape that a strided layout expresses is fused: one kernel. */
    int64_t split[3] = {64, 16, 16};
    struct lc_node *ok = U(LC_OP_EXP, lc_node_reshape(t, 3, split, &err));
    CHECK(count(&ok, 1) == 1);
    lc_node_release(ok);
    lc_node_release(t);
    lc_node_release(n);
    lc_node_release(r);
    lc_node_release(x);
}

static void test_recompute_or_materialize(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 2, S2);
    struct lc_plan p;
    /* Cheap (2 ops): recomputed by both reductions, no temporary. */
    struct lc_node *c = B(LC_OP_ADD, B(LC_OP_MUL, ref(x), scalar(2)), scalar(1));
    struct lc_node *o1[2] = {R(LC_OP_SUM, ref(c), 1, 0), R(LC_OP_SUM, ref(c), 2, 0)};
    CHECK(fuse(&p, o1, 2) == 2);
    CHECK(n_temps(&p) == 0);
    lc_plan_free(&p);
    /* Expensive (more than LC_RECOMPUTE_MAX_OPS ops): materialized once, read by both. */
    struct lc_node *big = ref(x);
    for (int i = 0; i < LC_RECOMPUTE_MAX_OPS + 1; i++)
        big = B(LC_OP_ADD, big, scalar(i));
    struct lc_node *o2[2] = {R(LC_OP_SUM, ref(big), 1, 0), R(LC_OP_SUM, ref(big), 2, 0)};
    CHECK(fuse(&p, o2, 2) == 3);
    CHECK(n_temps(&p) == 1);
    for (int b = 0; b < p.n_buffers; b++)
        if (!p.buffers[b].is_output) {
            CHECK(p.buffers[b].producer == 0);
            CHECK(p.buffers[b].last_use == 2); /* liveness: the last kernel reading it */
            CHECK(p.buffers[b].size == 256 * 64);
        }
    lc_plan_free(&p);
    /* Exactly at the limit: still recomputed. */
    struct lc_node *edge = ref(x);
    for (int i = 0; i < LC_RECOMPUTE_MAX_OPS; i++)
        edge = B(LC_OP_ADD, edge, scalar(i));
    struct lc_node *o3[2] = {R(LC_OP_SUM, ref(edge), 1, 0), R(LC_OP_SUM, ref(edge), 2, 0)};
    CHECK(fuse(&p, o3, 2) == 2);
    CHECK(n_temps(&p) == 0);
    lc_plan_free(&p);
    /* Transcendental: more than LC_RECOMPUTE_MAX_OPS / 4 ops with an exp is materialized;
     * within it, recomputed. */
    struct lc_node *tr = ref(x);
    for (int i = 0; i < LC_RECOMPUTE_MAX_OPS / 4 + 1; i++)
        tr = U(LC_OP_EXP, tr);
    struct lc_node *o4[2] = {R(LC_OP_SUM, ref(tr), 1, 0), R(LC_OP_SUM, ref(tr), 2, 0)};
    CHECK(fuse(&p, o4, 2) == 3);
    CHECK(n_temps(&p) == 1);
    lc_plan_free(&p);
    struct lc_node *tr2 = ref(x);
    for (int i = 0; i < LC_RECOMPUTE_MAX_OPS / 4; i++)
        tr2 = U(LC_OP_EXP, tr2);
    struct lc_node *o5[2] = {R(LC_OP_SUM, ref(tr2), 1, 0), R(LC_OP_SUM, ref(tr2), 2, 0)};
    CHECK(fuse(&p, o5, 2) == 2);
    CHECK(n_temps(&p) == 0);
    lc_plan_free(&p);
    release_all(o1, 2);
    release_all(o2, 2);
    release_all(o3, 2);
    release_all(o4, 2);
    release_all(o5, 2);
    lc_node_release(c);
    lc_node_release(big);
    lc_node_release(edge);
    lc_node_release(tr);
    lc_node_release(tr2);
    lc_node_release(x);
}

static void test_depth_cut_and_scan(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 1, S1);
    struct lc_node *c = ref(x);
    for (int i = 0; i < LC_KERNEL_MAX_DEPTH + 50; i++)
        c = U(i % 2 ? LC_OP_NEG : LC_OP_ABS, c);
    struct lc_plan p;
    CHECK(fuse(&p, &c, 1) == 2);
    CHECK(n_temps(&p) == 1);
    lc_plan_free(&p);
    /* cumsum(x * x): the map is the scan's prologue. */
    struct lc_node *sq = B(LC_OP_MUL, ref(x), ref(x));
    struct lc_node *sc = lc_node_scan(LC_OP_CUMSUM, sq, 0, &err);
    lc_node_release(sq);
    CHECK(sc && fuse(&p, &sc, 1) == 1);
    CHECK(p.n_kernels == 1 && p.kernels[0].kind == LC_KERNEL_SCAN && n_temps(&p) == 0);
    lc_plan_free(&p);
    /* lc_plan_describe names every kernel and buffer. */
    struct lc_node *s = R(LC_OP_SUM, U(LC_OP_EXP, ref(x)), 1, 0);
    CHECK(fuse(&p, &s, 1) == 1);
    char *d = lc_plan_describe(&p);
    CHECK(d && strstr(d, "plan: 1 kernel, 1 buffer") && strstr(d, "exp") &&
          strstr(d, "reduce over [1000]"));
    free(d);
    lc_plan_free(&p);
    lc_node_release(s);
    lc_node_release(sc);
    lc_node_release(c);
    lc_node_release(x);
}

/* The buffer plan->out_buffer[r] names, and the node that buffer holds. */
static const struct lc_node *out_node(const struct lc_plan *p, int r)
{
    int b = p->out_buffer[r];
    return b >= 0 && b < p->n_buffers ? p->buffers[b].node : NULL;
}

/* A forced reshape of a node written contiguously to a plan buffer takes that
 * buffer: no kernel of its own. */
static void test_reshape_takes_buffer(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 2, S2);
    struct lc_plan p;
    int64_t kd1[2] = {256, 1}, kd0[2] = {1, 64}, row[2] = {1, 256}, flat[1] = {-1};
    /* x.sum(axis=1, keepdims=True): one reduce kernel, one buffer, which the
     * reshape takes. */
    struct lc_node *s1 = R(LC_OP_SUM, ref(x), 2, 0);
    struct lc_node *k1 = lc_node_reshape(s1, 2, kd1, &err);
    CHECK(k1 && k1->op == LC_OP_RESHAPE);
    CHECK(fuse(&p, &k1, 1) == 1);
    CHECK(p.kernels[0].kind == LC_KERNEL_REDUCE && p.n_buffers == 1 && n_temps(&p) == 0);
    CHECK(p.out_buffer[0] == 0 && out_node(&p, 0) == s1);
    lc_plan_free(&p);
    /* axis 0, and the reduction forced beside its keepdims view: one buffer
     * for both. */
    struct lc_node *s0 = R(LC_OP_SUM, ref(x), 1, 0);
    struct lc_node *k0 = lc_node_reshape(s0, 2, kd0, &err);
    struct lc_node *both[2] = {k0, s0};
    CHECK(fuse(&p, both, 2) == 1);
    CHECK(p.n_buffers == 1 && p.out_buffer[0] == p.out_buffer[1] && out_node(&p, 0) == s0);
    CHECK(p.buffers[0].is_output);
    lc_plan_free(&p);
    /* A reshape of a reshape: the buffer at the bottom of the chain. */
    struct lc_node *k1r = lc_node_reshape(k1, 2, row, &err);
    CHECK(fuse(&p, &k1r, 1) == 1);
    CHECK(p.n_buffers == 1 && out_node(&p, 0) == s1);
    lc_plan_free(&p);
    /* cumsum(x, axis 1).reshape(-1): the scan's buffer. */
    struct lc_node *cs = lc_node_scan(LC_OP_CUMSUM, x, 1, &err);
    struct lc_node *csf = lc_node_reshape(cs, 1, flat, &err);
    CHECK(fuse(&p, &csf, 1) == 1);
    CHECK(p.kernels[0].kind == LC_KERNEL_SCAN && p.n_buffers == 1 && out_node(&p, 0) == cs);
    lc_plan_free(&p);
    lc_node_release(csf);
    lc_node_release(cs);
    lc_node_release(k1r);
    lc_node_release(k0);
    lc_node_release(s0);
    lc_node_release(k1);
    lc_node_release(s1);
    lc_node_release(x);
}

/* ((x + 1).T[1:, ::-2] * 2).reshape(-1): no strided layout expresses the
 * reshape, so the product is written contiguously in its own C order, which
 * is the reshape's: one kernel, and the reshape takes its buffer. */
static void test_reshape_of_pending_takes_buffer(void)
{
    int64_t sh[2] = {8, 6}, perm[2] = {1, 0}, flat[1] = {-1}, two[2] = {4, 5};
    int64_t start[2] = {1, 7}, step[2] = {1, -2}, len[2] = {5, 4};
    struct lc_node *x = leaf(LC_FLOAT32, 2, sh);
    struct lc_node *x1 = B(LC_OP_ADD, ref(x), scalar(1));
    struct lc_node *t = lc_node_permute(x1, perm, &err);
    lc_node_release(x1);
    struct lc_node *sl = lc_node_slice(t, start, step, len, &err);
    lc_node_release(t);
    struct lc_node *m = B(LC_OP_MUL, sl, scalar(2));
    struct lc_node *r = lc_node_reshape(m, 1, flat, &err);
    CHECK(r && r->op == LC_OP_RESHAPE && r->ndim == 1 && r->shape[0] == 20);
    struct lc_plan p;
    CHECK(fuse(&p, &r, 1) == 1);
    CHECK(p.n_buffers == 1 && n_temps(&p) == 0 && out_node(&p, 0) == m);
    CHECK(p.kernels[0].ndim == 2 && p.kernels[0].shape[0] == 5 && p.kernels[0].shape[1] == 4);
    char *d = lc_plan_describe(&p);
    CHECK(d && strstr(d, "plan: 1 kernel, 1 buffer") && strstr(d, "output"));
    free(d);
    lc_plan_free(&p);
    /* A reshape of that reshape: still the product's buffer. */
    struct lc_node *r2 = lc_node_reshape(r, 2, two, &err);
    CHECK(fuse(&p, &r2, 1) == 1);
    CHECK(p.n_buffers == 1 && out_node(&p, 0) == m);
    lc_plan_free(&p);
    /* The product forced beside its reshape: both outputs share its buffer. */
    struct lc_node *both[2] = {m, r};
    CHECK(fuse(&p, both, 2) == 1);
    CHECK(p.n_buffers == 1 && p.out_buffer[0] == p.out_buffer[1] && out_node(&p, 1) == m);
    lc_plan_free(&p);
    /* The product also read by a reduction: written once, kept as the
     * reshape's output, and read by the reduce kernel. */
    struct lc_node *cs[2] = {ref(r), R(LC_OP_SUM, ref(m), 1, 0)};
    CHECK(fuse(&p, cs, 2) == 2);
    CHECK(out_node(&p, 0) == m && p.buffers[p.out_buffer[0]].is_output);
    CHECK(p.buffers[p.out_buffer[0]].producer == 0 && p.buffers[p.out_buffer[0]].last_use == 1);
    CHECK(p.out_buffer[1] >= 0 && p.out_buffer[1] != p.out_buffer[0]);
    lc_plan_free(&p);
    release_all(cs, 2);
    lc_node_release(r2);
    lc_node_release(r);
    lc_node_release(m);
    lc_node_release(x);
}

/* mean and std with keepdims: the reshape between the reduction and its
 * elementwise consumer only inserts a unit dim, so the consumer is the
 * reduction's epilogue, indexed by the kept dims. */
static void test_keepdims_epilogue(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 2, S2);
    int64_t kd[2] = {256, 1};
    struct lc_plan p;
    /* mean: reshape(sum(x, 1) / 64). */
    struct lc_node *q = B(LC_OP_DIV, R(LC_OP_SUM, ref(x), 2, 0), scalar(64));
    struct lc_node *mean = lc_node_reshape(q, 2, kd, &err);
    lc_node_release(q);
    CHECK(fuse(&p, &mean, 1) == 1);
    CHECK(p.kernels[0].kind == LC_KERNEL_REDUCE && p.kernels[0].nkept == 1);
    CHECK(p.n_buffers == 1 && p.kernels[0].n_outputs == 1 && out_node(&p, 0) == mean);
    CHECK(p.kernels[0].outputs[0].strides[0] == 1);
    lc_plan_free(&p);
    /* std: sqrt(reshape(var(x, 1))). */
    struct lc_node *var = R(LC_OP_MEANVAR, ref(x), 2, 0);
    struct lc_node *sd = U(LC_OP_SQRT, lc_node_reshape(var, 2, kd, &err));
    CHECK(fuse(&p, &sd, 1) == 1);
    CHECK(p.kernels[0].kind == LC_KERNEL_REDUCE && p.n_buffers == 1 && out_node(&p, 0) == sd);
    lc_plan_free(&p);
    /* reshape(sum(x, 1)) + y, y of shape [256, 1]: y's read in the epilogue
     * steps over the kept dim. */
    struct lc_node *y = leaf(LC_FLOAT32, 2, kd);
    struct lc_node *s1 = R(LC_OP_SUM, ref(x), 2, 0);
    struct lc_node *sy = B(LC_OP_ADD, lc_node_reshape(s1, 2, kd, &err), ref(y));
    lc_node_release(s1);
    CHECK(fuse(&p, &sy, 1) == 1);
    int found = 0;
    for (int a = 0; a < p.kernels[0].n_access; a++)
        if (p.kernels[0].access[a].leaf == y) {
            found = 1;
            CHECK(p.kernels[0].access[a].epilogue && p.kernels[0].access[a].strides[0] == 1);
        }
    CHECK(found);
    lc_plan_free(&p);
    /* Through a transpose instead, the consumer stays a kernel of its own. */
    int64_t perm[2] = {1, 0}, kdt[2] = {1, 256};
    struct lc_node *vr = lc_node_reshape(var, 2, kdt, &err);
    struct lc_node *tr = U(LC_OP_SQRT, lc_node_permute(vr, perm, &err));
    lc_node_release(vr);
    CHECK(fuse(&p, &tr, 1) == 2);
    lc_plan_free(&p);
    lc_node_release(tr);
    lc_node_release(sy);
    lc_node_release(y);
    lc_node_release(sd);
    lc_node_release(var);
    lc_node_release(mean);
    lc_node_release(x);
}

/* Fuse with `flags`: the kernel count (-1 on failure); the plan stays in *p. */
static int fuse_flags(struct lc_plan *p, struct lc_node *const *outs, size_t n, unsigned flags)
{
    struct lc_error e = {0};
    if (lc_fuse(outs, n, flags, p, &e) != LC_OK) {
        fprintf(stderr, "  lc_fuse: %s\n", e.msg);
        lc_error_clear(&e);
        return -1;
    }
    return p->n_kernels;
}

/* The product x @ y of [M, K] and [K, N] leaves as lazycl builds it: sum over K of the
 * broadcast [M, 1, K] * [1, N, K]. */
static struct lc_node *product(struct lc_node *x, struct lc_node *y)
{
    int64_t a3[3] = {x->shape[0], 1, x->shape[1]}, b3[3] = {1, y->shape[1], y->shape[0]};
    int64_t perm[2] = {1, 0};
    struct lc_node *xa = lc_node_reshape(x, 3, a3, &err);
    struct lc_node *yt = lc_node_permute(y, perm, &err);
    struct lc_node *yb = lc_node_reshape(yt, 3, b3, &err);
    lc_node_release(yt);
    return R(LC_OP_SUM, B(LC_OP_MUL, xa, yb), 4, 0);
}

/* Reductions over a product's epilogue join its kernel (LC_FUSE_PRODUCT_POST): one kernel,
 * no buffer for the product; not when the product or a value between is read elsewhere,
 * nor through a transpose, nor without the flag. */
static void test_product_post(void)
{
    int64_t sx[2] = {96, 80}, sy[2] = {80, 72};
    struct lc_node *x = leaf(LC_FLOAT32, 2, sx), *y = leaf(LC_FLOAT32, 2, sy);
    struct lc_plan p;
    /* sqrt(sum(relu(x @ y)**2, axis=0)) */
    struct lc_node *r = B(LC_OP_MAXIMUM, product(x, y), scalar(0.0));
    struct lc_node *nrm = U(LC_OP_SQRT, R(LC_OP_SUM, B(LC_OP_MUL, ref(r), ref(r)), 1, 0));
    CHECK(fuse_flags(&p, &nrm, 1, LC_FUSE_PRODUCT_POST) == 1);
    CHECK(p.n_kernels == 1 && p.kernels[0].post_axes == 1 && p.kernels[0].n_reds == 2 &&
          p.kernels[0].reds[1].post && p.n_buffers == 1 && p.buffers[0].size == 72);
    lc_plan_free(&p);
    CHECK(fuse_flags(&p, &nrm, 1, 0) == 2);
    CHECK(p.n_buffers == 2 && p.buffers[0].size == 96 * 72);
    lc_plan_free(&p);
    /* The epilogue forced as well: the product's values are written, the reduction reads them. */
    struct lc_node *both[2] = {nrm, r};
    CHECK(fuse_flags(&p, both, 2, LC_FUSE_PRODUCT_POST) == 2);
    CHECK(!p.kernels[0].post_axes);
    lc_plan_free(&p);
    lc_node_release(nrm);
    /* Row maxima, and both axes at once (a sum of everything). */
    struct lc_node *mx = R(LC_OP_RMAX, ref(r), 2, 0);
    CHECK(fuse_flags(&p, &mx, 1, LC_FUSE_PRODUCT_POST) == 1);
    CHECK(p.kernels[0].post_axes == 2 && p.buffers[0].size == 96);
    lc_plan_free(&p);
    lc_node_release(mx);
    struct lc_node *all = R(LC_OP_SUM, ref(r), 3, 0);
    CHECK(fuse_flags(&p, &all, 1, LC_FUSE_PRODUCT_POST) == 1);
    CHECK(p.kernels[0].post_axes == 3 && p.buffers[0].size == 1);
    lc_plan_free(&p);
    lc_node_release(all);
    /* Through a transpose (a view other than a reshape): two kernels. */
    int64_t perm[2] = {1, 0};
    struct lc_node *rt = lc_node_permute(r, perm, &err);
    struct lc_node *st = R(LC_OP_SUM, rt, 1, 0);
    CHECK(fuse_flags(&p, &st, 1, LC_FUSE_PRODUCT_POST) == 2);
    lc_plan_free(&p);
    lc_node_release(st);
    lc_node_release(r);
    lc_node_release(x);
    lc_node_release(y);
}

/* A node read whole by one kernel and by slices or gathers of a small part of it is
 * recomputed where they read, not written (a product read by its top k and by one column);
 * read whole twice, it is written once. And argtopk: a scan-shaped kernel over its input,
 * the key computed inside it, the result k along the axis. */
static void test_sparse_consumers_and_topk(void)
{
    struct lc_node *x = leaf(LC_FLOAT32, 2, S2);
    struct lc_node *big = ref(x);
    for (int i = 0; i < LC_RECOMPUTE_MAX_OPS + 1; i++)
        big = B(LC_OP_ADD, big, scalar(i));
    struct lc_error e = {0};
    struct lc_node *top = lc_node_topk(big, 0, 10, 1, &e);
    CHECK(top && top->dtype == LC_INT64 && top->shape[0] == 10 && top->shape[1] == 64);
    int64_t st[2] = {0, 3}, step[2] = {1, 1}, shp[2] = {256, 1};
    struct lc_node *col = lc_node_slice(big, st, step, shp, &e);
    CHECK(col != NULL);
    struct lc_plan p;
    struct lc_node *o1[2] = {ref(top), R(LC_OP_SUM, col, 3, 0)};
    CHECK(fuse(&p, o1, 2) == 2);
    CHECK(n_temps(&p) == 0);                 /* big is computed inside both kernels */
    CHECK(p.n_kernels == 2 && p.kernels[0].kind == LC_KERNEL_TOPK);   /* a kind of its own */
    lc_plan_free(&p);
    struct lc_node *o2[2] = {ref(top), R(LC_OP_SUM, ref(big), 3, 0)};
    CHECK(fuse(&p, o2, 2) == 3);             /* read whole twice: written once */
    CHECK(n_temps(&p) == 1);
    lc_plan_free(&p);
    /* k out of range, a complex input: errors, no node */
    CHECK(lc_node_topk(x, 0, 0, 1, &e) == NULL && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    CHECK(lc_node_topk(x, 0, 257, 1, &e) == NULL && e.code == LC_ERR_INVALID);
    lc_error_clear(&e);
    CHECK(lc_node_topk(x, 2, 1, 1, &e) == NULL && e.code == LC_ERR_AXIS);
    lc_error_clear(&e);
    release_all(o1, 2);
    release_all(o2, 2);
    lc_node_release(top);
    lc_node_release(big);
    lc_node_release(x);
}

/* A scan that only a store reads, at the places it writes, joins the store's kernel
 * (LC_FUSE_SCAN_STORE): one kernel, never written; without the flag, or when something else
 * reads the scan, or reads it elsewhere, the scan is a kernel of its own. */
static void test_scan_in_store(void)
{
    int64_t s2[2] = {8, 500};
    struct lc_plan p;
    /* o[:] = cumsum(x, 1) + 1 */
    struct lc_node *x = leaf(LC_FLOAT32, 2, s2), *o = leaf(LC_FLOAT32, 2, s2);
    struct lc_node *cs = lc_node_scan(LC_OP_CUMSUM, x, 1, &err);
    struct lc_node *v = B(LC_OP_ADD, ref(cs), scalar(1.0));
    struct lc_node *st = lc_node_store(o, v, NULL, 0, &err);
    CHECK(fuse_flags(&p, &st, 1, LC_FUSE_SCAN_STORE) == 1);
    CHECK(p.n_kernels == 1 && p.kernels[0].store_scan >= 0 &&
          p.kernels[0].scan_op == LC_OP_CUMSUM && p.n_buffers == 0);
    lc_plan_free(&p);
    CHECK(fuse_flags(&p, &st, 1, 0) == 2);
    lc_plan_free(&p);
    /* Its totals (LC_FUSE_SCAN_TOTAL): an int32 row sum of the scan's input, forced and read
     * by nothing, is the store's output; a float sum (another association), a sum read by
     * another node, or a sum over the other dim is a kernel of its own. */
    {
        struct lc_node *xi = lc_node_cast(x, LC_INT32, &err), *oi = leaf(LC_INT32, 2, s2);
        struct lc_node *csi = lc_node_scan(LC_OP_CUMSUM, xi, 1, &err);
        struct lc_node *sti = lc_node_store(oi, csi, NULL, 0, &err);
        struct lc_node *tot = lc_node_reduce(LC_OP_SUM, xi, 2u, 0, 0, &err);
        struct lc_node *tot0 = lc_node_reduce(LC_OP_SUM, xi, 1u, 0, 0, &err);
        struct lc_node *ftot = lc_node_reduce(LC_OP_SUM, x, 2u, 0, 0, &err);
        struct lc_node *used = B(LC_OP_ADD, ref(tot), iscalar(1));
        struct lc_node *o2[2] = {sti, tot}, *o3[2] = {sti, ftot}, *o4[2] = {sti, tot0};
        struct lc_node *o5[3] = {sti, tot, used};
        const unsigned both_flags = LC_FUSE_SCAN_STORE | LC_FUSE_SCAN_TOTAL;
        CHECK(fuse_flags(&p, o2, 2, both_flags) == 1);
        CHECK(p.kernels[0].store_scan >= 0 && p.kernels[0].n_outputs == 1 &&
              p.kernels[0].outputs[0].expr == p.kernels[0].store_scan && p.n_buffers == 1 &&
              p.buffers[0].size == 8 && p.buffers[0].producer == 0 && p.out_buffer[1] == 0);
        lc_plan_free(&p);
        CHECK(fuse_flags(&p, o2, 2, LC_FUSE_SCAN_STORE) == 2);
        lc_plan_free(&p);
        CHECK(fuse_flags(&p, o3, 2, both_flags) == 2);
        lc_plan_free(&p);
        CHECK(fuse_flags(&p, o4, 2, both_flags) == 2);
        lc_plan_free(&p);
        CHECK(fuse_flags(&p, o5, 3, both_flags) == 2);   /* tot + 1: the sum's epilogue */
        for (int k = 0; k < p.n_kernels; k++)
            CHECK(p.kernels[k].kind != LC_KERNEL_STORE || !p.kernels[k].n_outputs);
        lc_plan_free(&p);
        release_all(o5, 3);
        lc_node_release(tot0);
        lc_node_release(ftot);
        lc_node_release(csi);
        lc_node_release(xi);
        lc_node_release(oi);
    }
    /* The scan also forced: written by a kernel of its own. */
    struct lc_node *both[2] = {st, cs};
    CHECK(fuse_flags(&p, both, 2, LC_FUSE_SCAN_STORE) == 2);
    lc_plan_free(&p);
    lc_node_release(st);
    lc_node_release(v);
    /* Read at another place (reversed along the row): written first. */
    int64_t st0[2] = {0, 499}, step[2] = {1, -1}, len[2] = {8, 500};
    struct lc_node *rev = lc_node_slice(cs, st0, step, len, &err);
    st = lc_node_store(o, rev, NULL, 0, &err);
    CHECK(fuse_flags(&p, &st, 1, LC_FUSE_SCAN_STORE) == 2);
    lc_plan_free(&p);
    lc_node_release(st);
    lc_node_release(rev);
    /* A scan along the first dim is not the rows the store walks: written first. */
    struct lc_node *cs0 = lc_node_scan(LC_OP_CUMSUM, x, 0, &err);
    st = lc_node_store(o, cs0, NULL, 0, &err);
    CHECK(fuse_flags(&p, &st, 1, LC_FUSE_SCAN_STORE) == 2);
    lc_plan_free(&p);
    lc_node_release(st);
    lc_node_release(cs0);
    /* A compaction's slots: the scan read through the index of the gather written, in row
     * order, into a 1-d result: one kernel. */
    int64_t sn[2] = {1000, 1}, sc[2] = {8, 1}, s1[1] = {1000};
    struct lc_node *out = leaf(LC_FLOAT32, 1, s1), *first = leaf(LC_INT64, 2, sc);
    struct lc_node *m = B(LC_OP_GT, ref(x), scalar(0.5));
    struct lc_node *one = lc_node_cast(m, LC_INT64, &err);
    struct lc_node *run = lc_node_scan(LC_OP_CUMSUM, one, 1, &err);
    struct lc_node *pos = B(LC_OP_ADD, first, B(LC_OP_SUB, run, ref(one)));
    struct lc_node *slots = lc_node_reshape(out, 2, sn, &err);
    struct lc_node *g = lc_node_gather(slots, pos, 0, LC_GATHER_CLAMPED, &err);
    st = lc_node_store(g, x, NULL, LC_STORE_IN_ORDER, &err);
    CHECK(fuse_flags(&p, &st, 1, LC_FUSE_SCAN_STORE) == 1);
    CHECK(p.n_kernels == 1 && p.kernels[0].store_scan >= 0 && p.kernels[0].store_ordered &&
          !p.kernels[0].store_combine);
    lc_plan_free(&p);
    lc_node_release(st);
    /* An unclamped gather is only the target of a store in row order with a predicate. */
    struct lc_node *gb = lc_node_gather(slots, pos, 0, LC_GATHER_BOUNDED, &err);
    CHECK(gb != NULL);
    CHECK(!lc_node_store(gb, x, NULL, LC_STORE_IN_ORDER, &err) && err.code == LC_ERR_INVALID);
    lc_error_clear(&err);
    CHECK(!lc_node_store(gb, x, m, 0, &err) && err.code == LC_ERR_INVALID);
    lc_error_clear(&err);
    CHECK(!lc_node_gather(slots, pos, 0, LC_GATHER_BOUNDED - 1, &err));
    lc_error_clear(&err);
    st = lc_node_store(gb, x, m, LC_STORE_IN_ORDER, &err);
    CHECK(st != NULL);
    lc_node_release(st);
    lc_node_release(gb);
    lc_node_release(g);
    lc_node_release(slots);
    lc_node_release(pos);
    lc_node_release(one);
    lc_node_release(m);
    lc_node_release(out);
    lc_node_release(cs);
    lc_node_release(o);
    lc_node_release(x);
}

/* A reduction's epilogue read through a broadcast into a bigger consumer (x - x.sum(0) / n,
 * (x - m) / sqrt(x.var(0))) is computed per output in the reduction's kernel, not at every
 * element of the consumer; one read through no broadcast (or a small one) stays inlined. */
static void test_broadcast_epilogue(void)
{
    int64_t s2[2] = {64, 100};
    struct lc_plan p;
    struct lc_node *x = leaf(LC_FLOAT32, 2, s2);
    struct lc_node *m = B(LC_OP_DIV, R(LC_OP_SUM, ref(x), 1, 0), scalar(64.0));
    struct lc_node *sd = U(LC_OP_SQRT, R(LC_OP_MEANVAR, ref(x), 1, 0));
    struct lc_node *z = B(LC_OP_DIV, B(LC_OP_SUB, ref(x), ref(m)), ref(sd));
    CHECK(fuse(&p, &z, 1) == 2);
    int divs = 0, sqrts = 0;
    for (int i = 0; i < p.kernels[0].n_exprs; i++) {
        divs += p.kernels[0].exprs[i].op == LC_OP_DIV;
        sqrts += p.kernels[0].exprs[i].op == LC_OP_SQRT;
    }
    CHECK(p.kernels[0].kind == LC_KERNEL_REDUCE && divs == 1 && sqrts == 1);
    CHECK(p.kernels[1].kind == LC_KERNEL_MAP && p.n_buffers == 3);
    lc_plan_free(&p);
    /* Forced alone (no broadcast): the same one kernel as before. */
    CHECK(fuse(&p, &m, 1) == 1);
    lc_plan_free(&p);
    lc_node_release(z);
    lc_node_release(sd);
    lc_node_release(m);
    lc_node_release(x);
}

int main(void)
{
    test_map_map();
    test_reductions();
    test_softmax();
    test_row_softmax_keepdims();
    test_reshape_of_transposed_pending();
    test_recompute_or_materialize();
    test_depth_cut_and_scan();
    test_reshape_takes_buffer();
    test_reshape_of_pending_takes_buffer();
    test_keepdims_epilogue();
    test_product_post();
    test_sparse_consumers_and_topk();
    test_scan_in_store();
    test_broadcast_epilogue();
    printf("%d passed, %d failed, %d xfailed\n", passed, failed, xfailed);
    return failed != 0;
}
