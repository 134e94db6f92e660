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

/* CLBlast's transposing copy (TransposeMatrixFast) reads far past the end of its source on
 * PoCL's CPU device: a 768x768 float32 B in NumPy's memory, with a page that faults after it,
 * crashed with 16 and 64 KiB of room before that page and ran with 256 KiB (whole tiles of rows;
 * nothing is written there and the results are right). On a CPU device, where such a read can
 * reach unmapped pages, an operand with less than LC_BLAS_ROOM_ROWS rows of allocated room after
 * it (host memory lazycl wraps has none) is first copied into a pooled buffer that has it. */
#define LC_BLAS_ROOM_ROWS 256

static lc_status lc_blas_gemm_on(lc_queue_t q, const struct lc_blas_gemm *g, lc_buffer_t a,
                                 lc_buffer_t b, lc_buffer_t c, struct lc_error *e);

static lc_status lc_blas_roomy(lc_queue_t q, lc_buffer_t x, size_t ld, size_t elem,
                               lc_buffer_t *out, struct lc_error *e)
{
    *out = x;
    if (q->dev->info.type != LC_DEVICE_CPU)
        return LC_OK;
    size_t need = x->size + (size_t)LC_BLAS_ROOM_ROWS * ld * elem;
    if (!x->wraps_host && x->cap >= need)
        return LC_OK;
    lc_buffer_t t;
    LC_TRY(lc_buffer_alloc(q->dev, need, &t, e));
    lc_status st = lc_buffer_copy(q, x, 0, t, 0, x->size, e);
    if (st != LC_OK) {
        lc_buffer_release(t);
        return st;
    }
    *out = t;
    return LC_OK;
}

lc_status lc_blas_gemm(lc_queue_t q, const struct lc_blas_gemm *g, lc_buffer_t a, lc_buffer_t b,
                       lc_buffer_t c, struct lc_error *e)
{
    if (!lc_blas_available())
        return lc_error_set(e, LC_ERR_UNSUPPORTED, "CLBlast (libclblast.so.1) is not installed");
    /* Operands with room after them (lc_blas_roomy); copies are held until the product ran. */
    const lc_buffer_t given[2] = {a, b};
    lc_buffer_t ops[2], held[2];
    const size_t ld[2] = {g->lda, g->ldb}, elem = g->f64 ? 8 : 4;
    size_t nheld = 0;
    for (int i = 0; i < 2; i++) {
        lc_status rst = lc_blas_roomy(q, given[i], ld[i], elem, &ops[i], e);
        if (rst != LC_OK) {
            for (size_t j = 0; j < nheld; j++)
                lc_buffer_release(held[j]);
            return rst;
        }
        if (ops[i] != given[i])
            held[nheld++] = ops[i];
    }
    lc_status hst = lc_blas_gemm_on(q, g, ops[0], ops[1], c, e);
    struct lc_error ignored = {0};
    lc_status hold = lc_queue_hold(q, held, nheld, hst == LC_OK ? e : &ignored);
    return hst != LC_OK ? hst : hold;
}

static lc_status lc_blas_gemm_on(lc_queue_t q, const struct lc_blas_gemm *g, lc_buffer_t a,
                                 lc_buffer_t b, lc_buffer_t c, struct lc_error *e)
{
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
