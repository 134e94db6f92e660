/* engine.c: run a fused plan on a queue and realize the forced nodes. */
#include "engine/engine.h"

#include "codegen/codegen.h"
#include "engine/autotune.h"
#include "engine/plancache.h"
#include "fusion/fusion.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One force (or explain) at a time: forcing turns pending nodes into leaves,
 * and two threads forcing graphs that share nodes must not do that at once.
 * Held without the GIL; nothing under it touches Python. */
static pthread_mutex_t lc_engine_lock = PTHREAD_MUTEX_INITIALIZER;

/* LAZYCL_DEBUG=5: the graph under the outputs, one node a line. */
static void lc_dump_graph(struct lc_node *const *outs, size_t n)
{
    struct lc_error e = {0};
    size_t count;
    struct lc_node **topo = lc_graph_topo(outs, n, &count, &e);
    if (!topo)
        return;
    fprintf(stderr, "[lazycl] graph before fusion (%zu nodes):\n", count);
    for (size_t i = 0; i < count; i++) {
        char line[512];
        lc_node_describe(topo[i], line, sizeof line);
        fprintf(stderr, "[lazycl]   %s\n", line);
    }
    free(topo);
}

static void lc_engine_release_buffer(void *h)
{
    lc_buffer_release((lc_buffer_t)h);
}

struct lc_storage *lc_engine_storage(lc_buffer_t b)
{
    struct lc_storage *s = lc_storage_new(b, lc_engine_release_buffer, lc_buffer_size(b));
    if (!s)
        lc_buffer_release(b);
    return s;
}

lc_buffer_t lc_engine_buffer(const struct lc_storage *s)
{
    return (lc_buffer_t)s->handle;
}

struct lc_node *lc_engine_from_host(lc_queue_t q, int dtype, int ndim, const int64_t *shape,
                                    const void *data, struct lc_error *e)
{
    int64_t size = lc_shape_size(ndim, shape);
    size_t nbytes = (size_t)size * lc_dtype_size(dtype);
    lc_device_t d = lc_queue_device(q);
    if ((dtype == LC_FLOAT64 || dtype == LC_COMPLEX128) && !lc_device_info(d)->fp64) {
        lc_error_set(e, LC_ERR_UNSUPPORTED,
                     "%s is not supported on device '%s' (it has no fp64); use %s or "
                     "a device with double precision", lc_dtype_name(dtype),
                     lc_device_info(d)->name, dtype == LC_FLOAT64 ? "float32" : "complex64");
        return NULL;
    }
    lc_buffer_t b;
    if (lc_buffer_alloc(d, nbytes, &b, e) != LC_OK)
        return NULL;
    if (nbytes && lc_buffer_write(q, b, 0, data, nbytes, 1, e) != LC_OK) {
        lc_buffer_release(b);
        return NULL;
    }
    struct lc_storage *s = lc_engine_storage(b);
    if (!s) {
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    struct lc_node *n = lc_node_buffer(q, dtype, ndim, shape, s, 0, NULL, e);
    lc_storage_release(s);
    return n;
}

static void lc_target_of(lc_device_t d, struct lc_target *t)
{
    const struct lc_device_info *di = lc_device_info(d);
    int gpu = di->type == LC_DEVICE_GPU || di->type == LC_DEVICE_ACCELERATOR;
    int pocl = strstr(di->platform_name, "Portable Computing Language") || strstr(di->vendor, "pocl");
    lc_target_init(t, lc_target_kind_of(gpu, pocl), di->fp64, di->compute_units,
                   di->max_work_group, di->name);
    /* GEMM tiles and CLBlast: as tuned for this device, or as the environment says. */
    lc_autotune_apply(d, t);
}

/* The largest float product (batch * M * N * K) among x's kernels; 0 when none. */
static int64_t lc_gemm_work(const struct lc_xplan *x)
{
    int64_t w = 0;
    for (int k = 0; k < x->n_kernels; k++)
        w = x->kernels[k].code.gemm_work > w ? x->kernels[k].code.gemm_work : w;
    return w;
}

const char *lc_engine_schedule_kind(lc_device_t d)
{
    struct lc_target t;
    lc_target_of(d, &t);
    return t.kind == LC_TARGET_GPU ? "gpu" : t.kind == LC_TARGET_POCL ? "pocl" : "cpu";
}

static lc_status lc_engine_force_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                        unsigned flags, struct lc_error *e);

lc_status lc_engine_force(lc_queue_t q, struct lc_node *const *outs, size_t n, unsigned flags,
                          struct lc_error *e)
{
    pthread_mutex_lock(&lc_engine_lock);
    struct lc_node **all;
    size_t n_all;
    lc_status st = lc_engine_with_kept(outs, n, &all, &n_all, e);
    if (st == LC_OK)
        st = lc_engine_force_locked(q, all ? all : outs, n_all, flags, e);
    free(all);
    pthread_mutex_unlock(&lc_engine_lock);
    return st;
}

/* Fuse for target t: reductions over a product's epilogue join its kernel
 * (LC_FUSE_PRODUCT_POST) when every such kernel has a schedule on t, else the plan is
 * made again without them (the product is then written and reduced by a kernel of its
 * own). */
static lc_status lc_engine_fuse(struct lc_node *const *outs, size_t n, unsigned flags,
                                const struct lc_target *t, struct lc_plan *plan,
                                struct lc_error *e)
{
    lc_status st = lc_fuse(outs, n, flags | LC_FUSE_PRODUCT_POST, plan, e);
    if (st != LC_OK)
        return st;
    for (int k = 0; k < plan->n_kernels; k++)
        if (plan->kernels[k].post_axes && !lc_codegen_fits(plan, k, t)) {
            lc_plan_free(plan);
            return lc_fuse(outs, n, flags, plan, e);
        }
    return LC_OK;
}

/* Plan a graph not seen before: fuse it, then generate and build its kernels. */
static lc_status lc_engine_plan(struct lc_node *const *outs, size_t n, unsigned flags,
                                const struct lc_graph_sig *sig, lc_device_t d,
                                const struct lc_target *t, int debug, struct lc_xplan **x,
                                struct lc_error *e)
{
    struct lc_plan plan;
    lc_status st = lc_engine_fuse(outs, n, flags, t, &plan, e);
    if (st != LC_OK)
        return st;
    if (debug >= 3) {
        char *desc = lc_plan_describe(&plan);
        if (desc)
            fprintf(stderr, "[lazycl] %s", desc);
        free(desc);
    }
    st = lc_xplan_make(&plan, sig, d, t, debug, x, e);
    lc_plan_free(&plan);
    return st;
}

/* Force: find the plan of this structure (or make it), run it, keep it. */
static lc_status lc_engine_force_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                        unsigned flags, struct lc_error *e)
{
    for (size_t i = 0; i < n; i++)
        if (outs[i]->owner != (void *)q)
            return lc_error_set(e, LC_ERR_PLACEMENT,
                                "an array to compute lives on another device or queue");
    /* Nothing to do when every output is a leaf already in the form asked for. */
    size_t done = 0;
    while (done < n && lc_node_is_leaf(outs[done]) &&
           (!(flags & LC_FUSE_COPY_LEAVES) ||
            (outs[done]->op == LC_OP_BUFFER && lc_node_is_contiguous(outs[done]))))
        done++;
    if (done == n)
        return LC_OK;
    int debug = lc_debug_level();
    if (debug >= 5)
        lc_dump_graph(outs, n);
    lc_device_t d = lc_queue_device(q);
    struct lc_target t;
    lc_target_of(d, &t);
    struct lc_graph_sig sig;
    lc_status st = lc_graph_sig_make(outs, n, flags, &sig, e);
    if (st != LC_OK)
        return st;
    uint64_t key = lc_plancache_key(&sig, d, &t);
    struct lc_xplan *x = lc_plancache_find(key, &sig, d, &t);
    int made = !x;
    lc_stats_count_plan(!made);
    if (made) {
        st = lc_engine_plan(outs, n, flags, &sig, d, &t, debug, &x, e);
        /* The first sizeable float product on a device not tuned yet: tune it, then plan
         * again where the tuned target differs (engine/autotune.h). */
        if (st == LC_OK && lc_autotune_due(d, &t, lc_gemm_work(x))) {
            struct lc_target t2;
            lc_autotune_run(q, &t);
            lc_target_of(d, &t2);
            if (memcmp(&t2, &t, sizeof t) != 0) {
                lc_xplan_free(x);
                x = NULL;
                t = t2;
                key = lc_plancache_key(&sig, d, &t);
                x = lc_plancache_find(key, &sig, d, &t);
                made = !x;
                if (made)
                    st = lc_engine_plan(outs, n, flags, &sig, d, &t, debug, &x, e);
            }
        }
        if (made && x)
            x->key = key;
    } else if (debug >= 3) {
        fprintf(stderr, "[lazycl] plan cache hit: %d kernel%s\n", x->n_kernels,
                x->n_kernels == 1 ? "" : "s");
    }
    if (st == LC_OK)
        st = lc_xplan_run(x, q, &sig, outs, n, debug, e);
    /* Kept even when the run failed: a plan does not depend on the data. */
    if (made && x)
        lc_plancache_add(x);
    lc_graph_sig_free(&sig);
    return st;
}

lc_status lc_engine_read(lc_queue_t q, const struct lc_node *n, void *dst, struct lc_error *e)
{
    if (n->op != LC_OP_BUFFER || !lc_node_is_contiguous(n))
        return lc_error_set(e, LC_ERR_INVALID, "internal: reading a node that is not contiguous");
    size_t nbytes = (size_t)n->size * lc_dtype_size(n->dtype);
    if (!nbytes)
        return LC_OK;
    return lc_buffer_read(q, lc_engine_buffer(n->storage),
                          (size_t)n->offset * lc_dtype_size(n->dtype), dst, nbytes, e);
}

static char *lc_engine_explain_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                      struct lc_error *e);

char *lc_engine_explain(lc_queue_t q, struct lc_node *const *outs, size_t n, struct lc_error *e)
{
    pthread_mutex_lock(&lc_engine_lock);
    struct lc_node **all;
    size_t n_all;
    char *s = NULL;
    if (lc_engine_with_kept(outs, n, &all, &n_all, e) == LC_OK)
        s = lc_engine_explain_locked(q, all ? all : outs, n_all, e);
    free(all);
    pthread_mutex_unlock(&lc_engine_lock);
    return s;
}

static char *lc_engine_explain_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                      struct lc_error *e)
{
    struct lc_plan plan;
    struct lc_target t;
    lc_device_t d = lc_queue_device(q);
    lc_target_of(d, &t);
    if (lc_engine_fuse(outs, n, 0, &t, &plan, e) != LC_OK)
        return NULL;
    struct lc_sb sb = {0};
    char *desc = lc_plan_describe(&plan);
    lc_sb_printf(&sb, "%s", desc ? desc : "");
    for (int k = 0; k < plan.n_kernels; k++) {
        struct lc_kcode code;
        if (lc_codegen(&plan, k, &t, &code, e) != LC_OK) {
            free(desc);
            lc_sb_free(&sb);
            lc_plan_free(&plan);
            return NULL;
        }
        /* Say what forcing would run: a sizeable product tunes its device first, as there. */
        if (lc_autotune_due(d, &t, code.gemm_work)) {
            lc_kcode_free(&code);
            lc_autotune_run(q, &t);
            lc_target_of(d, &t);
            lc_sb_free(&sb);
            memset(&sb, 0, sizeof sb);
            lc_sb_printf(&sb, "%s", desc ? desc : "");
            k = -1;
            continue;
        }
        lc_sb_printf(&sb, "\n--- kernel %d: %s (%d launch%s)\n", k, code.launches[0].name,
                     code.n_launches, code.n_launches == 1 ? "" : "es");
        if (!strncmp(code.schedule, "gemm", 4)) {
            char line[4600];
            lc_autotune_describe(d, &t, code.launches[0].blas, line, sizeof line);
            lc_sb_printf(&sb, "--- %s\n", line);
        }
        lc_sb_printf(&sb, "%s", code.source);
        lc_kcode_free(&code);
    }
    free(desc);
    lc_plan_free(&plan);
    if (sb.oom) {
        lc_sb_free(&sb);
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    if (!sb.s)
        lc_sb_printf(&sb, "%s", "");
    return sb.s;
}
