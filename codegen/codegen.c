/* codegen.c: the entry point: one plan kernel -> OpenCL C, through the schedule its
 * target chooses (target.c), with named kernels. */
#include "codegen/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static int lc_is_double(int dt) { return dt == LC_FLOAT64 || dt == LC_COMPLEX128; }

/* Does any value kernel k reads, computes or writes have a dtype `pred` holds for? */
static int lc_kernel_has(const struct lc_kernel *k, int (*pred)(int))
{
    for (int i = 0; i < k->n_exprs; i++)
        if (pred(k->exprs[i].dtype) || pred(k->exprs[i].cdtype))
            return 1;
    for (int o = 0; o < k->n_outputs; o++)
        if (pred(k->outputs[o].dtype))
            return 1;
    for (int a = 0; a < k->n_access; a++)
        if (pred(k->access[a].dtype))
            return 1;
    return 0;
}

void lc_kcode_free(struct lc_kcode *c)
{
    for (int i = 0; i < c->n_launches; i++)
        free(c->launches[i].args);
    free(c->launches);
    free(c->source);
    memset(c, 0, sizeof *c);
}

/* Kernel ki's collapsed index space into g (g->acc and g->ostr allocated: the caller
 * frees them, also on failure). */
static lc_status lc_cg_setup(struct lc_cg *gp, const struct lc_plan *p, int ki,
                             const struct lc_target *t, struct lc_error *e)
{
    const struct lc_kernel *k = &p->kernels[ki];
    struct lc_cg g;
    memset(&g, 0, sizeof g);
    memset(gp, 0, sizeof *gp);
    g.p = p;
    g.k = k;
    g.t = t;
    g.e = e;
    g.nd = k->ndim;
    g.lane = -1;
    g.nk = k->kind == LC_KERNEL_REDUCE ? k->nkept : k->ndim;
    memcpy(g.shape, k->shape, sizeof g.shape);
    if (lc_kernel_has(k, lc_is_double)) {
        if (!t->fp64)
            return lc_error_set(e, LC_ERR_UNSUPPORTED,
                                "float64 is not supported on device '%s' (it has no fp64); use "
                                "float32 or a device with double precision",
                                t->device_name ? t->device_name : "?");
        g.f64 = 1;
    }
    g.acc_float = t->fp64 ? "double" : "float";
    g.shifted = t->shifted_variance;
    if (t->fp64 && (k->kind == LC_KERNEL_REDUCE || lc_kernel_along_axis(k->kind)))
        g.f64 = 1;
    for (int a = 0; a < k->n_access; a++)
        if (k->access[a].kind == LC_ACCESS_IOTA && lc_dtype_is_float(k->access[a].dtype) && t->fp64)
            g.f64 = 1;
    g.acc = malloc((size_t)(k->n_access ? k->n_access : 1) * sizeof *g.acc);
    g.ostr = malloc((size_t)(k->n_outputs ? k->n_outputs : 1) * sizeof *g.ostr);
    *gp = g;
    if (!g.acc || !g.ostr)
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory generating a kernel");
    memcpy(g.acc, k->access, (size_t)k->n_access * sizeof *g.acc);
    for (int o = 0; o < k->n_outputs; o++)
        memcpy(g.ostr[o], k->outputs[o].strides, sizeof g.ostr[o]);
    lc_collapse(&g);
    *gp = g;
    return LC_OK;
}

int lc_codegen_fits(const struct lc_plan *p, int ki, const struct lc_target *t)
{
    struct lc_cg g;
    struct lc_error e;
    memset(&e, 0, sizeof e);
    int ok = lc_cg_setup(&g, p, ki, t, &e) == LC_OK && lc_schedule_for(&g) != NULL;
    free(g.acc);
    free(g.ostr);
    return ok;
}

unsigned lc_codegen_unfit(const struct lc_plan *p, const struct lc_target *t)
{
    unsigned drop = 0;
    for (int k = 0; k < p->n_kernels; k++) {
        const struct lc_kernel *kk = &p->kernels[k];
        if ((kk->post_axes || kk->store_scan >= 0) && !lc_codegen_fits(p, k, t))
            drop |= kk->post_axes ? LC_FUSE_PRODUCT_POST
                  : kk->n_outputs ? LC_FUSE_SCAN_TOTAL : LC_FUSE_SCAN_STORE;
    }
    return drop;
}

int lc_codegen_schedules(const struct lc_plan *p, int ki, const struct lc_target *t,
                         const char **names, int cap)
{
    struct lc_cg g;
    struct lc_error e;
    memset(&e, 0, sizeof e);
    int n = lc_cg_setup(&g, p, ki, t, &e) == LC_OK ? lc_schedules_taking(&g, names, cap) : 0;
    free(g.acc);
    free(g.ostr);
    return n;
}

lc_status lc_codegen(const struct lc_plan *p, int ki, const struct lc_target *t,
                     struct lc_kcode *out, struct lc_error *e)
{
    const struct lc_kernel *k = &p->kernels[ki];
    struct lc_cg g;
    memset(out, 0, sizeof *out);
    lc_status st0 = lc_cg_setup(&g, p, ki, t, e);
    if (st0 != LC_OK) {
        free(g.acc);
        free(g.ostr);
        return st0;
    }

    struct lc_sb body = {0};
    const struct lc_schedule *sched = lc_schedule_for(&g);
    int rc = sched ? sched->gen(&g, out, &body) : -1;
    const char *kind = sched ? sched->family : "?";
    /* A float product's size, by which the engine decides to autotune (engine/autotune.c). */
    if (rc == 0 && !strcmp(kind, "gemm") && lc_dtype_is_float(k->reds[0].in_dtype)) {
        out->gemm_work = 1;
        for (int d = 0; d < g.nd; d++)
            out->gemm_work *= g.shape[d];
    }
    struct lc_sb src = {0};
    if (rc == 0 && !body.oom) {
        if (g.f64)
            lc_sb_printf(&src, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
        /* No a*b+c contraction into fma: results stay NumPy's, bit for bit
         * where the operations are correctly rounded. */
        lc_sb_printf(&src, "#pragma OPENCL FP_CONTRACT OFF\n");
        if ((t->complex_source && lc_kernel_has(k, lc_dtype_is_complex)) || out->source_only)
            lc_sb_printf(&src, "%s\n", LC_SOURCE_ONLY_MARK);
        if (!strcmp(kind, "gemm"))
            lc_sb_printf(&src, "%s\n", LC_SPIR_O0_MARK);
        lc_sb_printf(&src, "/* lazycl %s kernel: %d fused op%s; %s. */\n", kind, k->n_fused,
                     k->n_fused == 1 ? "" : "s", out->schedule);
        lc_cg_helpers(&src, &g.h);
        lc_random_helpers(&g, &src);
        lc_red_helpers(&g, &src);
        lc_user_helpers(&g, &src);
        if (lc_has_checked_gather(&g))
            /* A gather's index: from the end when negative; out of range, the first
             * one is reported (the host raises IndexError) and 0 is read instead,
             * so that no read ever leaves the source. */
            lc_sb_printf(&src,
                         "static inline long lc_gidx(const long i, const long n, "
                         "__global int *err, const int axis) {\n"
                         "    const long j = i < 0 ? i + n : i;\n"
                         "    if (j >= 0 && j < n)\n"
                         "        return j;\n"
                         "    if (atomic_cmpxchg(err, 0, 1) == 0) {\n"
                         "        err[1] = axis;\n"
                         "        ((__global long *)err)[1] = i;\n"
                         "        ((__global long *)err)[2] = n;\n"
                         "    }\n"
                         "    return 0;\n}\n");
        lc_sb_printf(&src, "%s", body.s ? body.s : "");
    }
    lc_sb_free(&body);
    free(g.acc);
    free(g.ostr);
    if (rc < 0 || src.oom || !src.s) {
        lc_sb_free(&src);
        lc_kcode_free(out);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory generating a kernel");
    }
    /* Name the kernels after the hash of the source with placeholders. */
    uint64_t h = XXH3_64bits(src.s, src.len);
    char base[64];
    int dt = k->store_access >= 0 ? k->access[k->store_access].dtype
           : k->n_outputs ? k->outputs[0].dtype : k->n_reds ? k->reds[0].dtype : LC_FLOAT32;
    snprintf(base, sizeof base, "lc_%s_%s_%016llx", kind, lc_dtype_short(dt),
             (unsigned long long)h);
    struct lc_sb fin = {0};
    for (const char *s = src.s; *s;) {
        const char *q = strstr(s, "@K@");
        if (!q) {
            lc_sb_printf(&fin, "%s", s);
            break;
        }
        lc_sb_printf(&fin, "%.*s%s", (int)(q - s), s, base);
        s = q + 3;
    }
    lc_sb_free(&src);
    if (fin.oom) {
        lc_sb_free(&fin);
        lc_kcode_free(out);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory generating a kernel");
    }
    out->source = fin.s;
    for (int i = 0; i < out->n_launches; i++) {
        char suffix[8];
        memcpy(suffix, out->launches[i].name, sizeof suffix);
        suffix[sizeof suffix - 1] = '\0';
        snprintf(out->launches[i].name, sizeof out->launches[i].name, "%s%s", base, suffix);
    }
    return LC_OK;
}
