/* engine.c: plan a graph for its device (lc_engine_prepare), then force it or explain it. */
#include "engine/engine.h"

#include "codegen/codegen.h"
#include "engine/autotune.h"
#include "engine/check.h"
#include "engine/devtarget.h"
#include "engine/plancache.h"
#include "engine/pokes.h"
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

static void lc_target_of(lc_device_t d, struct lc_target *t)
{
    lc_engine_target(d, t);   /* made once per device and kind (engine/devtarget.c) */
    /* GEMM tiles and CLBlast: as tuned for this device, or as the environment says. */
    lc_autotune_apply(d, t);
}

const char *lc_engine_schedule_kind(lc_device_t d)
{
    struct lc_target t;
    lc_target_of(d, &t);
    return lc_target_kind_name(t.kind);
}

/* ---- planning -------------------------------------------------------------------- */

/* What planning a graph gives a force and an explain alike: the fused plan and each of its
 * kernels' code, both made for `target`. */
struct lc_prepared {
    struct lc_target target;
    struct lc_plan plan;
    struct lc_kcode *codes;       /* plan.n_kernels of them (lc_xplan_codegen) */
    int retargeted;               /* tuning changed the target the caller gave */
};

static void lc_prepared_free(struct lc_prepared *p)
{
    lc_xplan_codes_free(p->codes, p->plan.n_kernels);
    p->codes = NULL;
    lc_plan_free(&p->plan);
}

/* Fuse for target t: reductions over a product's epilogue join its kernel
 * (LC_FUSE_PRODUCT_POST), scans read only by a store join the store's (LC_FUSE_SCAN_STORE)
 * and their totals too (LC_FUSE_SCAN_TOTAL), when every such kernel has a schedule on t;
 * else the plan is made again without the flag that made the kernel no schedule takes (the
 * product, the scan or its total is then written by a kernel of its own). */
static lc_status lc_engine_fuse(struct lc_node *const *outs, size_t n, unsigned flags,
                                const struct lc_target *t, struct lc_plan *plan,
                                struct lc_error *e)
{
    unsigned extra = LC_FUSE_PRODUCT_POST | LC_FUSE_SCAN_STORE | LC_FUSE_SCAN_TOTAL;
    for (;;) {
        lc_status st = lc_fuse(outs, n, flags | extra, plan, e);
        if (st != LC_OK)
            return st;
        unsigned drop = lc_codegen_unfit(plan, t);
        if (!drop)
            return LC_OK;
        lc_plan_free(plan);
        extra &= ~drop;
    }
}

/* The largest float product (batch * M * N * K) among p's kernels; 0 when none. */
static int64_t lc_gemm_work(const struct lc_prepared *p)
{
    int64_t w = 0;
    for (int k = 0; k < p->plan.n_kernels; k++)
        w = p->codes[k].gemm_work > w ? p->codes[k].gemm_work : w;
    return w;
}

/* Plan forcing `outs` on q's device for p->target (set by the caller): fuse, then generate
 * every kernel's code. The first sizeable float product on a device not tuned yet tunes the
 * device first (engine/autotune.h); where the tuned target differs, the plan is made again
 * for it, p->target becomes the tuned one and p->retargeted is set. With debug >= 3 each
 * plan made is printed. Builds and runs nothing. On failure nothing is held. */
static lc_status lc_engine_prepare(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                   unsigned flags, int debug, struct lc_prepared *p,
                                   struct lc_error *e)
{
    lc_device_t d = lc_queue_device(q);
    p->codes = NULL;
    p->retargeted = 0;
    for (;;) {
        lc_status st = lc_engine_fuse(outs, n, flags, &p->target, &p->plan, e);
        if (st != LC_OK)
            return st;
        if (debug >= 3) {
            char *desc = lc_plan_describe(&p->plan);
            if (desc)
                fprintf(stderr, "[lazycl] %s", desc);
            free(desc);
        }
        st = lc_xplan_codegen(&p->plan, &p->target, &p->codes, e);
        if (st != LC_OK) {
            lc_plan_free(&p->plan);
            return st;
        }
        if (p->retargeted || !lc_autotune_due(d, &p->target, lc_gemm_work(p)))
            return LC_OK;
        struct lc_target tuned;
        lc_autotune_run(q, &p->target);
        lc_target_of(d, &tuned);
        if (memcmp(&tuned, &p->target, sizeof tuned) == 0)
            return LC_OK;
        lc_prepared_free(p);
        p->target = tuned;
        p->retargeted = 1;
    }
}

/* ---- forcing --------------------------------------------------------------------- */

/* The pending checks a force that does not wait passes on to its outputs. */
struct lc_guards {
    struct lc_check *here[8];
    struct lc_check **c;
    size_t n, cap;
};

static void lc_guards_free(struct lc_guards *g)
{
    for (size_t i = 0; i < g->n; i++)
        lc_check_release(g->c[i]);
    if (g->c != g->here)
        free(g->c);
}

/* The checks of nodes[0..n) that are leaves an out-of-range index may have left wrong
 * (engine/check.h): a failed one fails the force; a pending one is waited for, or, with
 * `defer`, kept in g for the outputs. */
static lc_status lc_guards_scan(struct lc_guards *g, struct lc_node *const *nodes, size_t n,
                                int defer, struct lc_error *e)
{
    lc_status st = LC_OK;
    for (size_t i = 0; i < n && st == LC_OK; i++) {
        const struct lc_node *l = nodes[i];
        struct lc_check *c = l->op == LC_OP_BUFFER ? lc_check_of(l->storage) : NULL;
        if (!c)
            continue;
        int known = lc_check_known(c, e);
        if (known < 0) {
            st = LC_ERR_INDEX;
        } else if (known == 0 && !defer) {
            st = lc_check_resolve(c, e);
        } else if (known == 0) {
            size_t j = 0;
            while (j < g->n && g->c[j] != c)
                j++;
            if (j == g->n) {
                if (g->n == g->cap) {
                    size_t nc = g->cap * 2;
                    struct lc_check **a = malloc(nc * sizeof *a);
                    if (!a) {
                        lc_check_release(c);
                        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
                    }
                    memcpy(a, g->c, g->n * sizeof *a);
                    if (g->c != g->here)
                        free(g->c);
                    g->c = a;
                    g->cap = nc;
                }
                g->c[g->n++] = c;
                continue;   /* the reference is g's */
            }
        }
        lc_check_release(c);
    }
    return st;
}

/* Force: find the plan of this structure (or make it), run it, keep it. */
static lc_status lc_engine_force_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                        unsigned flags, struct lc_guards *guards,
                                        struct lc_xheld *held, struct lc_error *e)
{
    int defer = (flags & LC_FORCE_DEFER) != 0;
    flags &= ~LC_FORCE_DEFER;
    for (size_t i = 0; i < n; i++)
        if (outs[i]->owner != (void *)q)
            return lc_error_set(e, LC_ERR_PLACEMENT,
                                "an array to compute lives on another device or queue");
    /* Recorded element writes into a forced leaf are applied: compute() means written. */
    for (size_t i = 0; i < n; i++)
        if (outs[i]->op == LC_OP_BUFFER && outs[i]->storage)
            LC_TRY(lc_pokes_flush(q, outs[i]->storage, e));
    /* Nothing to do when every output is a leaf already in the form asked for. */
    size_t done = 0;
    while (done < n && lc_node_is_leaf(outs[done]) &&
           (!(flags & LC_FUSE_COPY_LEAVES) ||
            (outs[done]->op == LC_OP_BUFFER && lc_node_is_contiguous(outs[done]))))
        done++;
    if (done == n)   /* computed already: unless an index out of range left one wrong */
        return lc_guards_scan(guards, outs, n, 1, e);
    int debug = lc_debug_level();
    if (debug >= 5)
        lc_dump_graph(outs, n);
    lc_device_t d = lc_queue_device(q);
    struct lc_prepared p;
    lc_target_of(d, &p.target);
    struct lc_graph_sig sig;
    lc_status st = lc_graph_sig_make(outs, n, flags, &sig, e);
    if (st != LC_OK)
        return st;
    /* The intermediates to keep (engine/keep.c), found in the signature's walk; with some,
     * the signature is of the outputs and them. */
    struct lc_node **all = NULL;
    size_t n_all = n;
    if ((st = lc_engine_kept_in(&sig.walk, outs, n, &all, &n_all, e)) != LC_OK) {
        lc_graph_sig_free(&sig);
        return st;
    }
    if (all) {
        lc_graph_sig_free(&sig);
        if ((st = lc_graph_sig_make(all, n_all, flags, &sig, e)) != LC_OK) {
            free(all);
            return st;
        }
        outs = all;
        n = n_all;
    }
    /* Element writes recorded against a storage the graph reads go first (engine/pokes.h). */
    for (size_t i = 0; i < sig.walk.n && st == LC_OK; i++) {
        const struct lc_node *l = sig.walk.order[i];
        if (l->op == LC_OP_BUFFER && l->storage && atomic_load(&l->storage->aux))
            st = lc_pokes_flush(q, l->storage, e);
    }
    if (st == LC_OK)
        st = lc_guards_scan(guards, sig.walk.order, sig.walk.n, defer, e);
    if (st != LC_OK) {
        lc_graph_sig_free(&sig);
        free(all);
        return st;
    }
    uint64_t key = lc_plancache_key(&sig, d, &p.target);
    struct lc_xplan *x = lc_plancache_find(key, &sig, d, &p.target);
    int made = !x;
    lc_stats_count_plan(!made);
    if (made) {
        st = lc_engine_prepare(q, outs, n, flags, debug, &p, e);
        if (st == LC_OK && p.retargeted) {
            /* The plan of the tuned target may be kept already. */
            key = lc_plancache_key(&sig, d, &p.target);
            x = lc_plancache_find(key, &sig, d, &p.target);
            made = !x;
            if (!made)
                lc_prepared_free(&p);
        }
        if (st == LC_OK && made) {
            st = lc_xplan_make(&p.plan, p.codes, &sig, d, &p.target, debug, &x, e);
            lc_plan_free(&p.plan);
            if (x)
                x->key = key;
        }
    } else if (debug >= 3) {
        fprintf(stderr, "[lazycl] plan cache hit: %d kernel%s\n", x->n_kernels,
                x->n_kernels == 1 ? "" : "s");
    }
    if (st == LC_OK && defer) {
        struct lc_xdefer df = {guards->c, guards->n};
        st = lc_xplan_run_deferred(x, q, &sig, outs, n, debug, &df, e);
    } else if (st == LC_OK) {
        st = lc_xplan_run_split(x, q, &sig, outs, n, debug, held, e);
    }
    /* Kept even when the run failed: a plan does not depend on the data. */
    if (made && x)
        lc_plancache_add(x);
    lc_graph_sig_free(&sig);
    free(all);
    return st;
}

lc_status lc_engine_force(lc_queue_t q, struct lc_node *const *outs, size_t n, unsigned flags,
                          struct lc_error *e)
{
    struct lc_guards g = {.n = 0, .cap = 8};
    g.c = g.here;
    struct lc_xheld held = {0};
    pthread_mutex_lock(&lc_engine_lock);
    lc_status st = lc_engine_force_locked(q, outs, n, flags, &g, &held, e);
    pthread_mutex_unlock(&lc_engine_lock);
    lc_guards_free(&g);
    if (held.err) {
        /* A plan that gathers, waited for: its index check is read without the lock (other
         * threads plan and enqueue meanwhile), then the outputs are realized, or nothing. */
        if (st == LC_OK)
            st = lc_xheld_check(q, &held, e);
        if (st == LC_OK) {
            pthread_mutex_lock(&lc_engine_lock);
            st = lc_xheld_realize(&held, e);
            pthread_mutex_unlock(&lc_engine_lock);
        }
        lc_xheld_free(&held);
    }
    return st;
}

/* ---- explaining ------------------------------------------------------------------ */

/* The plan, then each kernel's name, launches, GEMM engine and source. */
static char *lc_engine_explain_locked(lc_queue_t q, struct lc_node *const *outs, size_t n,
                                      struct lc_error *e)
{
    struct lc_prepared p;
    lc_device_t d = lc_queue_device(q);
    lc_target_of(d, &p.target);
    if (lc_engine_prepare(q, outs, n, 0, 0, &p, e) != LC_OK)
        return NULL;
    struct lc_sb sb = {0};
    char *desc = lc_plan_describe(&p.plan);
    lc_sb_printf(&sb, "%s", desc ? desc : "");
    free(desc);
    for (int k = 0; k < p.plan.n_kernels; k++) {
        const struct lc_kcode *code = &p.codes[k];
        lc_sb_printf(&sb, "\n--- kernel %d: %s (%d launch%s)\n", k, code->launches[0].name,
                     code->n_launches, code->n_launches == 1 ? "" : "es");
        if (!strncmp(code->schedule, "gemm", 4)) {
            char line[4600];
            lc_autotune_describe(d, &p.target, code->launches[0].blas, line, sizeof line);
            lc_sb_printf(&sb, "--- %s\n", line);
        }
        lc_sb_printf(&sb, "%s", code->source);
    }
    lc_prepared_free(&p);
    if (sb.oom) {
        lc_sb_free(&sb);
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    if (!sb.s)
        lc_sb_printf(&sb, "%s", "");
    return sb.s;
}

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
