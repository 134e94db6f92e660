/* blas.c: CLBlast's GEMM, loaded at run time (dlopen of libclblast.so.1), for the plain
 * products the engine hands it instead of lazycl's own kernel (codegen/gemm.c, schedule
 * gemm_blas). CLBlast is optional: without the library lc_blas_available() is 0 and nothing
 * else here is called. The library is looked up once (pthread_once); its symbols are read-only
 * afterwards. */
#include "runtime/cl_util.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* CLBlast's C API (clblast_c.h), the few values used here. */
enum { LC_CLB_ROW_MAJOR = 101, LC_CLB_NO_TRANS = 111, LC_CLB_TRANS = 112, LC_CLB_SUCCESS = 0 };
typedef int (*lc_sgemm_fn)(int, int, int, size_t, size_t, size_t, float, cl_mem, size_t, size_t,
                           cl_mem, size_t, size_t, float, cl_mem, size_t, size_t,
                           cl_command_queue *, cl_event *);
typedef int (*lc_dgemm_fn)(int, int, int, size_t, size_t, size_t, double, cl_mem, size_t, size_t,
                           cl_mem, size_t, size_t, double, cl_mem, size_t, size_t,
                           cl_command_queue *, cl_event *);

static pthread_once_t lc_blas_once = PTHREAD_ONCE_INIT;
static lc_sgemm_fn lc_sgemm;
static lc_dgemm_fn lc_dgemm;

static void lc_blas_load(void)
{
    const char *names[] = {"libclblast.so.1", "libclblast.so"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!h)
            continue;
        lc_sgemm = (lc_sgemm_fn)dlsym(h, "CLBlastSgemm");
        lc_dgemm = (lc_dgemm_fn)dlsym(h, "CLBlastDgemm");
        if (lc_sgemm && lc_dgemm)
            return;
        lc_sgemm = NULL;
        lc_dgemm = NULL;
        dlclose(h);
    }
}

int lc_blas_available(void)
{
    pthread_once(&lc_blas_once, lc_blas_load);
    return lc_sgemm != NULL;
}

lc_status lc_blas_gemm(lc_queue_t q, const struct lc_blas_gemm *g, lc_buffer_t a, lc_buffer_t b,
                       lc_buffer_t c, struct lc_error *e)
{
    if (!lc_blas_available())
        return lc_error_set(e, LC_ERR_UNSUPPORTED, "CLBlast (libclblast.so.1) is not installed");
    int ta = g->trans_a ? LC_CLB_TRANS : LC_CLB_NO_TRANS;
    int tb = g->trans_b ? LC_CLB_TRANS : LC_CLB_NO_TRANS;
    int side;
    cl_int rc;
    cl_command_queue cq = lc_queue_enter(q, 0, &side, &rc);
    if (!cq)
        return lc_cl_fail(e, rc, "clFinish", q->dev);
    int st, ops = 0;
    uint64_t bytes = 0;
    int noted = lc_prof_take_note(&ops, &bytes);
    /* Profiled: the event of CLBlast's last kernel (it may run a few). */
    unsigned long long t0 = lc_prof_t0();
    cl_event ev = NULL;
    if (g->f64)
        st = lc_dgemm(LC_CLB_ROW_MAJOR, ta, tb, g->m, g->n, g->k, 1.0, a->mem, g->a_off, g->lda,
                      b->mem, g->b_off, g->ldb, 0.0, c->mem, g->c_off, g->ldc, &cq,
                      lc_prof_event(t0, side, &ev));
    else
        st = lc_sgemm(LC_CLB_ROW_MAJOR, ta, tb, g->m, g->n, g->k, 1.0f, a->mem, g->a_off, g->lda,
                      b->mem, g->b_off, g->ldb, 0.0f, c->mem, g->c_off, g->ldc, &cq,
                      lc_prof_event(t0, side, &ev));
    if (t0 && st == LC_CLB_SUCCESS)
        lc_prof_add(q, side, LC_PROF_KERNEL, g->f64 ? "clblast_dgemm" : "clblast_sgemm",
                    noted ? bytes : (uint64_t)(a->size + b->size + c->size), ops, t0, ev);
    else if (ev)
        clReleaseEvent(ev);
    lc_queue_leave(q, side, 0);
    LC_STAT_ADD(launches, 1);
    if (st != LC_CLB_SUCCESS)
        return lc_error_set(e, LC_ERR_DEVICE, "CLBlast %cgemm failed with status %d",
                            g->f64 ? 'D' : 'S', st);
    return LC_OK;
}
