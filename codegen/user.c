/* user.c: user elementwise functions (graph/userfn.h) in a kernel's source: their
 * definitions, one function per output a kernel asks for, and the calls.
 *
 * The user's body is placed under `#line 1 "<kernel name>"`, so that a compiler message about
 * it names the user's kernel and the line of the user's own text; the lines after it are
 * numbered as the generated source again.
 */
#include "codegen/cg.h"

#include "graph/userfn.h"

#include <stdlib.h>
#include <string.h>

void lc_user_call(struct lc_sb *sb, const struct lc_expr *x)
{
    lc_sb_printf(sb, "lc_u%016llx_%d(", (unsigned long long)x->node->p.user.fn,
                 (int)x->node->p.user.out);
    for (int j = 0; j < x->n_in; j++)
        lc_sb_printf(sb, "%sv%d", j ? ", " : "", x->in[j]);
    lc_sb_printf(sb, ")");
}

void lc_user_call_vec(struct lc_sb *sb, const struct lc_expr *x, int W)
{
    lc_sb_printf(sb, "(%s%d)(", lc_T(x->dtype), W);
    for (int l = 0; l < W; l++) {
        lc_sb_printf(sb, "%slc_u%016llx_%d(", l ? ", " : "",
                     (unsigned long long)x->node->p.user.fn, (int)x->node->p.user.out);
        for (int j = 0; j < x->n_in; j++)
            lc_sb_printf(sb, "%sw%d.s%x", j ? ", " : "", x->in[j], l);
        lc_sb_printf(sb, ")");
    }
    lc_sb_printf(sb, ")");
}

/* The line the next text appended to sb starts on (1-based). */
static int lc_next_line(const struct lc_sb *sb)
{
    int n = 1;
    for (size_t i = 0; i < sb->len; i++)
        n += sb->s[i] == '\n';
    return n;
}

static void lc_user_define(struct lc_sb *sb, const struct lc_userfn *f, int out)
{
    lc_sb_printf(sb, "static inline %s lc_u%016llx_%d(", lc_T(f->out_dtype[out]),
                 (unsigned long long)f->id, out);
    for (int i = 0; i < f->n_in; i++)
        lc_sb_printf(sb, "%s%s %s", i ? ", " : "", lc_T(f->in_dtype[i]), f->in_name[i]);
    lc_sb_printf(sb, ")\n{\n");
    for (int o = 0; o < f->n_out; o++)
        lc_sb_printf(sb, "    %s %s = 0;\n", lc_T(f->out_dtype[o]), f->out_name[o]);
    lc_sb_printf(sb, "#line 1 \"%s\"\n%s\n", f->name, f->body);
    lc_sb_printf(sb, "#line %d \"lazycl\"\n", lc_next_line(sb) + 1);
    lc_sb_printf(sb, "    return %s;\n}\n", f->out_name[out]);
}

/* Define output out[i] of function fn[i] for i < n, each (function, output) once, a
 * function's comment and preamble before its first output; a preamble once whatever number of
 * functions share it (a ReductionKernel's parts all have the kernel's). */
static void lc_user_define_all(struct lc_sb *sb, const uint64_t *fn, const int *out, int n)
{
    for (int i = 0; i < n; i++) {
        int fn_seen = 0, out_seen = 0;
        for (int j = 0; j < i; j++)
            if (fn[j] == fn[i]) {
                fn_seen = 1;
                out_seen |= out[j] == out[i];
            }
        const struct lc_userfn *f = lc_userfn_get(fn[i]);
        if (out_seen || !f)
            continue;
        if (!fn_seen) {
            lc_sb_printf(sb, "/* user kernel '%s' */\n", f->name);
            int pre_seen = 0;
            for (int j = 0; j < i && f->preamble[0] && !pre_seen; j++) {
                const struct lc_userfn *h = lc_userfn_get(fn[j]);
                pre_seen = h && !strcmp(h->preamble, f->preamble);
            }
            if (f->preamble[0] && !pre_seen) {
                lc_sb_printf(sb, "#line 1 \"%s preamble\"\n%s\n", f->name, f->preamble);
                lc_sb_printf(sb, "#line %d \"lazycl\"\n", lc_next_line(sb) + 1);
            }
        }
        lc_user_define(sb, f, out[i]);
    }
}

void lc_user_helpers(struct lc_cg *g, struct lc_sb *sb)
{
    const struct lc_kernel *k = g->k;
    int n = 0;
    for (int i = 0; i < k->n_exprs; i++)
        n += k->exprs[i].op == LC_OP_USER;
    for (int s = 0; s < k->n_reds; s++)
        n += k->reds[s].op == LC_OP_USERRED ? 2 : 0;
    if (!n)
        return;
    uint64_t *fn = malloc((size_t)n * sizeof *fn);
    int *out = malloc((size_t)n * sizeof *out);
    if (!fn || !out) {
        free(fn);
        free(out);
        sb->oom = 1;
        return;
    }
    n = 0;
    for (int i = 0; i < k->n_exprs; i++)
        if (k->exprs[i].op == LC_OP_USER) {
            fn[n] = k->exprs[i].node->p.user.fn;
            out[n++] = k->exprs[i].node->p.user.out;
        }
    /* User reductions (redstate.c): the combining function and the identity. */
    for (int s = 0; s < k->n_reds; s++)
        if (k->reds[s].op == LC_OP_USERRED) {
            fn[n] = k->reds[s].node->p.red.fn;
            out[n++] = 0;
            if (k->reds[s].node->p.red.init) {
                fn[n] = k->reds[s].node->p.red.init;
                out[n++] = 0;
            }
        }
    lc_user_define_all(sb, fn, out, n);
    free(fn);
    free(out);
}

char *lc_user_check_source(uint64_t fn)
{
    return lc_user_check_sources(&fn, 1);
}

char *lc_user_check_sources(const uint64_t *fns, int n)
{
    const struct lc_userfn *fs[LC_USER_CHECK_MAX];
    uint64_t ids[LC_USER_CHECK_MAX * LC_MAXIN];
    int outs[LC_USER_CHECK_MAX * LC_MAXIN], m = 0, f64 = 0;
    if (n < 1 || n > LC_USER_CHECK_MAX)
        return NULL;
    for (int j = 0; j < n; j++) {
        const struct lc_userfn *f = fs[j] = lc_userfn_get(fns[j]);
        if (!f)
            return NULL;
        for (int i = 0; i < f->n_in; i++)
            f64 |= f->in_dtype[i] == LC_FLOAT64;
        for (int o = 0; o < f->n_out; o++) {
            f64 |= f->out_dtype[o] == LC_FLOAT64;
            ids[m] = f->id;
            outs[m++] = o;
        }
    }
    struct lc_sb sb = {0};
    if (f64)
        lc_sb_printf(&sb, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    lc_sb_printf(&sb, "#pragma OPENCL FP_CONTRACT OFF\n/* user kernel '%s', built alone: its "
                 "compile errors */\n", fs[0]->name);
    lc_user_define_all(&sb, ids, outs, m);
    lc_sb_printf(&sb, "__kernel void lc_ucheck(");
    for (int j = 0; j < n; j++) {
        const struct lc_userfn *f = fs[j];
        for (int o = 0; o < f->n_out; o++)
            lc_sb_printf(&sb, "%s__global %s *o%d_%d", j || o ? ", " : "", lc_T(f->out_dtype[o]),
                         j, o);
        for (int i = 0; i < f->n_in; i++)
            lc_sb_printf(&sb, ", __global const %s *p%d_%d", lc_T(f->in_dtype[i]), j, i);
    }
    lc_sb_printf(&sb, ")\n{\n");
    for (int j = 0; j < n; j++) {
        const struct lc_userfn *f = fs[j];
        for (int o = 0; o < f->n_out; o++) {
            lc_sb_printf(&sb, "    o%d_%d[0] = lc_u%016llx_%d(", j, o, (unsigned long long)f->id, o);
            for (int i = 0; i < f->n_in; i++)
                lc_sb_printf(&sb, "%sp%d_%d[0]", i ? ", " : "", j, i);
            lc_sb_printf(&sb, ");\n");
        }
    }
    lc_sb_printf(&sb, "}\n");
    if (sb.oom) {
        lc_sb_free(&sb);
        return NULL;
    }
    return sb.s;
}
