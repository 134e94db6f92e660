/* test_codegen.c: OpenCL C for a few plans, compared with golden files (no device).
 *
 * LAZYCL_UPDATE_GOLDEN=1 rewrites tests/c/golden/ instead of comparing. Each generated kernel
 * is also compiled with clang-15 (OpenCL C 1.2, syntax only) when clang-15 is on the PATH. */
#include "codegen/codegen.h"
#include "graph/userfn.h"
#include "lc_test.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int update, have_clang;

/* Filled in main (lc_target_init). */
static struct lc_target CPU, GPU, GENERIC, SMALL_GPU;

/* The targets every plan is generated for (golden file <plan>_<suffix>.cl): PoCL (explicit
 * 8-wide SIMD), a GPU and a CPU without explicit SIMD. A GPU whose work-groups hold fewer
 * than 32 items takes the chunked scans instead of tiles: only the long scans run there. */
static const struct {
    const char *suffix;
    const struct lc_target *t;
    int long_scans_only;
} targets[] = {
    {"cpu", &CPU, 0}, {"gpu", &GPU, 0}, {"generic", &GENERIC, 0}, {"gpu_wg16", &SMALL_GPU, 1},
};

/* The whole text of a plan's code for a target: per kernel, its schedule, its launches'
 * names and the source. Sizes (global/local) are left out: they depend on the data. */
static char *plan_code(struct lc_node *const *outs, size_t n, const struct lc_target *t)
{
    struct lc_plan p;
    struct lc_error e = {0};
    /* As the engine fuses: reductions of a product's epilogue in its kernel, and scans read
     * only by a store in the store's, where a schedule takes them (engine/engine.c). */
    unsigned extra = LC_FUSE_PRODUCT_POST | LC_FUSE_SCAN_STORE;
    for (;;) {
        if (lc_fuse(outs, n, extra, &p, &e) != LC_OK) {
            fprintf(stderr, "  lc_fuse: %s\n", e.msg);
            return NULL;
        }
        unsigned drop = 0;
        for (int k = 0; k < p.n_kernels; k++) {
            const struct lc_kernel *kk = &p.kernels[k];
            if ((kk->post_axes || kk->store_scan >= 0) && !lc_codegen_fits(&p, k, t))
                drop |= kk->post_axes ? LC_FUSE_PRODUCT_POST : LC_FUSE_SCAN_STORE;
        }
        if (!drop)
            break;
        lc_plan_free(&p);
        extra &= ~drop;
    }
    struct lc_sb sb = {0};
    for (int k = 0; k < p.n_kernels; k++) {
        struct lc_kcode c;
        if (lc_codegen(&p, k, t, &c, &e) != LC_OK) {
            fprintf(stderr, "  lc_codegen: %s\n", e.msg);
            lc_error_clear(&e);
            lc_sb_free(&sb);
            lc_plan_free(&p);
            return NULL;
        }
        lc_sb_printf(&sb, "/* ---- kernel %d: schedule \"%s\", %d launch%s:", k, c.schedule,
                     c.n_launches, c.n_launches == 1 ? "" : "es");
        for (int l = 0; l < c.n_launches; l++)
            lc_sb_printf(&sb, " %s", c.launches[l].name);
        lc_sb_printf(&sb, " */\n%s\n", c.source);
        lc_kcode_free(&c);
    }
    lc_plan_free(&p);
    if (sb.oom) {
        lc_sb_free(&sb);
        return NULL;
    }
    return sb.s;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* Print the first differing lines of two texts. */
static void show_diff(const char *want, const char *got)
{
    int line = 1, shown = 0;
    while (*want || *got) {
        const char *we = strchr(want, '\n'), *ge = strchr(got, '\n');
        size_t wl = we ? (size_t)(we - want) : strlen(want), gl = ge ? (size_t)(ge - got) : strlen(got);
        if (wl != gl || memcmp(want, got, wl) != 0) {
            fprintf(stderr, "  line %d:\n  - %.*s\n  + %.*s\n", line, (int)wl, want, (int)gl, got);
            if (++shown == 10) {
                fprintf(stderr, "  ...\n");
                return;
            }
        }
        want = we ? we + 1 : want + wl;
        got = ge ? ge + 1 : got + gl;
        line++;
    }
}

/* ---- loops that update a table at data-dependent places -------------------------------- */

/* The lines of a text, split in place (the text is modified); their count. */
static int split_lines(char *text, char **lines, int max)
{
    int n = 0;
    for (char *p = text; *p && n < max;) {
        lines[n++] = p;
        char *e = strchr(p, '\n');
        if (!e)
            break;
        *e = '\0';
        p = e + 1;
    }
    return n;
}

static int indent_of(const char *l)
{
    int i = 0;
    while (l[i] == ' ')
        i++;
    return i;
}

/* Does `text` use identifier `id` (n characters) as a whole word? */
static int mentions(const char *text, const char *id, size_t n)
{
    for (const char *p = text; (p = strstr(p, id)) != NULL; p++) {
        int before = p > text && (p[-1] == '_' || isalnum((unsigned char)p[-1]));
        int after = p[n] == '_' || isalnum((unsigned char)p[n]);
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* Does index text `idx` use a variable assigned in lines [from, to): a value read or computed
 * in the loop body, not a loop counter or a parameter? */
static int data_dependent(char **lines, int from, int to, const char *idx)
{
    for (int i = from + 1; i < to; i++) {
        const char *l = lines[i], *e = strstr(l, " = ");
        if (!e)
            continue;
        const char *b = e;
        while (b > l && (b[-1] == '_' || isalnum((unsigned char)b[-1])))
            b--;
        size_t n = (size_t)(e - b);
        char id[64];
        if (n == 0 || n >= sizeof id)
            continue;   /* a store through a subscript (x[i] = ...) assigns no variable */
        memcpy(id, b, n);
        id[n] = '\0';
        if (mentions(idx, id, n))
            return 1;
    }
    return 0;
}

/* Every loop that updates a table at a place computed in its body (h[key_ >> s & 255]++,
 * p_[q_ - lo] = p_[q_ - lo] + v) carries LC_LOOP_SCALAR: without it LLVM may vectorize the
 * updates into gathers and scatters that lose counts (cg.h). Checked on the text, so a
 * kernel that drops the hint fails here on any machine, not only on an AVX-512 CPU. */
static void check_scalar_loops(const char *name, const char *code)
{
    char *text = strdup(code);
    static char *lines[20000];
    int n = text ? split_lines(text, lines, 20000) : 0;
    for (int i = 0; i < n; i++) {
        const char *l = lines[i] + indent_of(lines[i]);
        const char *inc = strstr(l, "]++"), *eq = strstr(l, "] = ");
        const char *end = inc ? inc + 1 : eq ? eq + 1 : NULL;   /* past the updated element */
        const char *open = end ? strchr(l, '[') : NULL;
        if (!open || open > end)
            continue;
        char idx[256], elem[256];
        size_t m = (size_t)(end - open), e = (size_t)(end - l);
        if (m >= sizeof idx || e >= sizeof elem)
            continue;
        memcpy(idx, open, m);
        idx[m] = '\0';
        memcpy(elem, l, e);
        elem[e] = '\0';
        if (!inc && !strstr(eq + 4, elem))
            continue;   /* a plain store, not an update of the element it reads */
        /* The innermost enclosing loop: the nearest `for (` above with less indentation. */
        int ind = indent_of(lines[i]), f = i - 1;
        while (f >= 0 && !(indent_of(lines[f]) < ind &&
                           strncmp(lines[f] + indent_of(lines[f]), "for (", 5) == 0))
            f--;
        if (f < 0 || !data_dependent(lines, f, i, idx))
            continue;
        int hinted = 0;
        for (int k = f - 1; k >= 0 && k >= f - 2; k--)
            hinted |= strstr(lines[k], "vectorize(disable)") != NULL;
        if (!hinted)
            fprintf(stderr, "  %s: line %d updates a table at a data-dependent place in a loop "
                    "without LC_LOOP_SCALAR:\n    %s\n", name, i + 1, l);
        CHECK(hinted);
    }
    free(text);
}

/* Syntax-check every kernel of `code` with clang-15. */
static void clang_check(const char *name, const char *code)
{
    if (!have_clang)
        return;
    char path[256], cmd[512];
    snprintf(path, sizeof path, "build/test_codegen_%s.cl", name);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(path, sizeof path, "/tmp/test_codegen_%s.cl", name);
        f = fopen(path, "w");
    }
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(code, f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "clang-15 -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only %s",
             path);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "  %s: clang-15 rejects the generated source (%s)\n", name, path);
    CHECK(rc == 0);
    if (rc == 0)
        remove(path);
}

static void golden(const char *name, struct lc_node *const *outs, size_t n,
                   const struct lc_target *t)
{
    char *code = plan_code(outs, n, t);
    CHECK(code != NULL);
    if (!code)
        return;
    char path[256];
    snprintf(path, sizeof path, "tests/c/golden/%s.cl", name);
    if (update) {
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (f) {
            fputs(code, f);
            fclose(f);
            printf("wrote %s\n", path);
        }
    } else {
        char *want = read_file(path);
        if (!want)
            fprintf(stderr, "  %s missing: run with LAZYCL_UPDATE_GOLDEN=1\n", path);
        CHECK(want != NULL);
        if (want && strcmp(want, code) != 0) {
            fprintf(stderr, "  %s differs from the generated code:\n", path);
            show_diff(want, code);
        }
        CHECK(want && strcmp(want, code) == 0);
        free(want);
    }
    check_scalar_loops(name, code);
    clang_check(name, code);
    free(code);
}

/* Does a schedule of this name (as in codegen/target.c's LC_SCHEDULES) serve kernels of
 * this kind? */
static int serves(enum lc_kernel_kind kind, const char *sched)
{
    switch (kind) {
    case LC_KERNEL_MAP: return !strncmp(sched, "map_", 4);
    case LC_KERNEL_REDUCE: return !strncmp(sched, "reduce_", 7) || !strncmp(sched, "gemm_", 5);
    case LC_KERNEL_SCAN: return !strncmp(sched, "scan_", 5);
    case LC_KERNEL_STORE: return !strncmp(sched, "store_", 6);
    case LC_KERNEL_SORT: return !strncmp(sched, "sort_", 5);
    case LC_KERNEL_TOPK: return !strncmp(sched, "topk_", 5);
    }
    return 0;
}

/* Sorts, top-k selections and scans are kernels of kinds of their own, and each schedule
 * serves one kind: every schedule that would take a kernel of the plan, wherever it stands
 * in the schedule table, is one of its kind's, so no order of that table sends a sort to
 * the scan schedules (scan_chunks takes every scan). Returns the kinds of the plan's
 * kernels, a bit each. */
static unsigned check_routing(const char *name, struct lc_node *const *outs, size_t n,
                              const struct lc_target *t)
{
    struct lc_plan p;
    struct lc_error e = {0};
    unsigned kinds = 0;
    CHECK(lc_fuse(outs, n, LC_FUSE_PRODUCT_POST | LC_FUSE_SCAN_STORE, &p, &e) == LC_OK);
    if (e.code)
        return 0;
    for (int k = 0; k < p.n_kernels; k++) {
        const struct lc_kernel *kk = &p.kernels[k];
        const char *taking[32];
        int m = lc_codegen_schedules(&p, k, t, taking, 32);
        kinds |= 1u << kk->kind;
        /* A kernel with post-reductions or a store's scan may have none: the engine fuses
         * again without. */
        CHECK(m >= 1 || kk->post_axes || kk->store_scan >= 0);
        for (int j = 0; j < m && j < 32; j++) {
            int ok = serves(kk->kind, taking[j]);
            CHECK(ok);
            if (!ok)
                fprintf(stderr, "  %s: kernel %d (kind %d) reaches schedule %s\n", name, k,
                        (int)kk->kind, taking[j]);
        }
    }
    lc_plan_free(&p);
    return kinds;
}

/* relu(x @ y + bias) as the Python layer builds a matmul: x (M x K) as (M, 1, K) times y's
 * transpose as (1, N, K), summed over K (axis 2). x is borrowed; y and bias are taken. */
static struct lc_node *relu_matmul(struct lc_node *x, struct lc_node *y, struct lc_node *bias,
                                   int64_t M, int64_t K, int64_t N)
{
    int64_t perm[2] = {1, 0}, a3[3] = {M, 1, K}, b3[3] = {1, N, K};
    struct lc_node *xa = lc_node_reshape(x, 3, a3, &err);
    struct lc_node *yt = lc_node_permute(y, perm, &err);
    struct lc_node *yb = lc_node_reshape(yt, 3, b3, &err);
    struct lc_node *p = R(LC_OP_SUM, B(LC_OP_MUL, xa, yb), 4, 0);
    lc_node_release(yt);
    lc_node_release(y);
    return B(LC_OP_MAXIMUM, B(LC_OP_ADD, p, bias), scalar(0.0));
}

/* The plans, built at a size; `which` picks one. */
static size_t build(int which, int64_t scale, struct lc_node **outs)
{
    int64_t s1[1] = {1000 * scale}, s2[2] = {64 * scale, 100 * scale};
    struct lc_node *x, *y;
    switch (which) {
    case 0: /* map: exp(x) * y + 1.5 over f32 */
        x = leaf(LC_FLOAT32, 1, s1);
        y = leaf(LC_FLOAT32, 1, s1);
        outs[0] = B(LC_OP_ADD, B(LC_OP_MUL, U(LC_OP_EXP, x), y), scalar(1.5));
        return 1;
    case 1: /* full reduction: sum((x - y)**2) */
        x = leaf(LC_FLOAT32, 1, s1);
        y = leaf(LC_FLOAT32, 1, s1);
        {
            struct lc_node *d = B(LC_OP_SUB, x, y);
            outs[0] = R(LC_OP_SUM, B(LC_OP_MUL, ref(d), ref(d)), 1, 0);
            lc_node_release(d);
        }
        return 1;
    case 2: /* row reduction, mean and var siblings with a sqrt epilogue (std) */
        x = leaf(LC_FLOAT64, 2, s2);
        outs[0] = R(LC_OP_MEANVAR, ref(x), 2, 1);
        outs[1] = U(LC_OP_SQRT, R(LC_OP_MEANVAR, x, 2, 0));
        return 2;
    case 3: /* column reduction of an int32 array: argmax over axis 0 and max */
        x = leaf(LC_INT32, 2, s2);
        outs[0] = R(LC_OP_ARGMAX, ref(x), 1, 0);
        outs[1] = R(LC_OP_RMAX, x, 1, 0);
        return 2;
    case 4: /* scan with a prologue: cumsum(x * x) over the last axis of a 2-d array */
        x = leaf(LC_FLOAT32, 2, s2);
        {
            struct lc_node *sq = B(LC_OP_MUL, ref(x), ref(x));
            outs[0] = lc_node_scan(LC_OP_CUMSUM, sq, 1, &err);
            lc_node_release(sq);
        }
        lc_node_release(x);
        return 1;
    case 5: /* column mean and std of a tall f32 matrix (PoCL: column blocks x row chunks) */
        {
            int64_t s3[2] = {300 * scale, 64 * scale};
            x = leaf(LC_FLOAT32, 2, s3);
            outs[0] = R(LC_OP_MEANVAR, ref(x), 1, 1);
            outs[1] = U(LC_OP_SQRT, R(LC_OP_MEANVAR, x, 1, 0));
        }
        return 2;
    case 6: /* softmax: the max and sumexp in one pass, then the map */
        x = leaf(LC_FLOAT32, 1, s1);
        {
            struct lc_node *e = U(LC_OP_EXP, B(LC_OP_SUB, ref(x), R(LC_OP_RMAX, ref(x), 1, 0)));
            struct lc_node *sum = R(LC_OP_SUM, ref(e), 1, 0);
            outs[0] = B(LC_OP_DIV, e, sum);
        }
        lc_node_release(x);
        return 1;
    case 7: /* a long 1-d scan (GPU: tiles per work-group, three launches, warps scanning by
               shuffles on NVIDIA; work-groups under 32 items: chunks) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            outs[0] = lc_node_scan(LC_OP_CUMSUM, x, 0, &err);
            lc_node_release(x);
        }
        return 1;
    case 8: /* a transposed, negatively strided view of a leaf, with where and a cast */
        x = leaf(LC_FLOAT32, 2, s2);
        {
            int64_t perm[2] = {1, 0}, st[2] = {0, 100 * scale - 1}, step[2] = {1, -1},
                    len[2] = {64 * scale, 100 * scale};
            struct lc_node *v = lc_node_slice(x, st, step, len, &err);
            struct lc_node *t = lc_node_permute(v, perm, &err);
            lc_node_release(v);
            struct lc_node *c = B(LC_OP_GT, ref(t), scalar(0));
            struct lc_node *z = scalar(0);
            struct lc_node *w = lc_node_where(c, t, z, &err);
            outs[0] = lc_node_cast(w, LC_INT32, &err);
            lc_node_release(w);
            lc_node_release(z);
            lc_node_release(c);
            lc_node_release(t);
        }
        lc_node_release(x);
        return 1;
    case 9: /* column sum of a short matrix (PoCL: SIMD across outputs, one item per 8) */
        {
            int64_t s3[2] = {100 * scale, 64 * scale};
            x = leaf(LC_FLOAT32, 2, s3);
            outs[0] = R(LC_OP_SUM, x, 1, 0);
        }
        return 1;
    case 10: /* a long full sum (CPUs: split over items, SIMD chunks) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            outs[0] = R(LC_OP_SUM, x, 1, 0);
        }
        return 1;
    case 11: /* a long int32 argmax (split, scalar chunks) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_INT32, 1, s4);
            outs[0] = R(LC_OP_ARGMAX, x, 1, 0);
        }
        return 1;
    case 12: /* sums of many short rows (GPU: one item per output) */
        {
            int64_t s3[2] = {1000 * scale, 10};
            x = leaf(LC_FLOAT32, 2, s3);
            outs[0] = R(LC_OP_SUM, x, 2, 0);
        }
        return 1;
    case 13: /* a 2-d map with a broadcast row (GPU: four elements of a row per item) */
        x = leaf(LC_FLOAT32, 2, s2);
        {
            int64_t s3[1] = {100 * scale};
            y = leaf(LC_FLOAT32, 1, s3);
            outs[0] = B(LC_OP_MUL, U(LC_OP_EXP, x), y);
        }
        return 1;
    case 14: /* a 1-d map over a strided view (no vector loads, no SIMD) */
        {
            int64_t s4[1] = {2000 * scale}, st[1] = {0}, step[1] = {2}, len[1] = {1000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            struct lc_node *v = lc_node_slice(x, st, step, len, &err);
            lc_node_release(x);
            outs[0] = B(LC_OP_ADD, B(LC_OP_MUL, v, scalar(2.0)), scalar(1.0));
        }
        return 1;
    case 15: /* a map over a 4-d transposed view (unravelled index) */
        {
            int64_t s4[4] = {2, 3, 4, 5 * scale}, perm[4] = {3, 2, 1, 0};
            x = leaf(LC_FLOAT32, 4, s4);
            struct lc_node *t = lc_node_permute(x, perm, &err);
            lc_node_release(x);
            outs[0] = B(LC_OP_ADD, t, scalar(1.0));
        }
        return 1;
    case 16: /* a long 1-d cummax (PoCL: chunks without SIMD; GPUs: one pass, a look-back: a float
                maximum does not depend on the association) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            outs[0] = lc_node_scan(LC_OP_CUMMAX, x, 0, &err);
            lc_node_release(x);
        }
        return 1;
    case 17: /* row sums of 2 * x[idx] (a gather along axis 0 in the reduction's prologue) */
        {
            int64_t si[1] = {32 * scale}, si2[2] = {32 * scale, 1}, so[2] = {32 * scale, 100 * scale};
            x = leaf(LC_FLOAT32, 2, s2);
            struct lc_node *i = leaf(LC_INT32, 1, si);
            struct lc_node *i2 = lc_node_reshape(i, 2, si2, &err);
            struct lc_node *ib = lc_node_broadcast_to(i2, 2, so, &err);
            struct lc_node *g = lc_node_gather(x, ib, 0, 0, &err);
            outs[0] = R(LC_OP_SUM, B(LC_OP_MUL, g, scalar(2.0)), 2, 0);
            lc_node_release(x);
            lc_node_release(i);
            lc_node_release(i2);
            lc_node_release(ib);
        }
        return 1;
    case 18: /* np.add.at(t, idx, 2 * x) into 16 float64 bins (CPUs: private copies, summed) */
        {
            int64_t sb[1] = {16 * scale};
            struct lc_node *t = leaf(LC_FLOAT64, 1, sb);
            struct lc_node *i = leaf(LC_INT64, 1, s1);
            x = leaf(LC_FLOAT64, 1, s1);
            struct lc_node *g = lc_node_gather(t, i, 0, 0, &err);
            struct lc_node *v = B(LC_OP_MUL, x, scalar(2.0));
            outs[0] = g && v ? lc_node_store(g, v, NULL, LC_OP_ADD, &err) : NULL;
            lc_node_release(t);
            lc_node_release(i);
            lc_node_release(g);
            lc_node_release(v);
        }
        return 1;
    case 19: /* bincount-like: adds into 65536 float64 bins, more than the elements (atomics) */
        {
            int64_t sb[1] = {65536 * scale};
            struct lc_node *t = leaf(LC_FLOAT64, 1, sb);
            struct lc_node *i = leaf(LC_INT64, 1, s1);
            x = leaf(LC_FLOAT32, 1, s1);
            struct lc_node *g = lc_node_gather(t, i, 0, 0, &err);
            struct lc_node *v = lc_node_cast(x, LC_FLOAT64, &err);
            outs[0] = g && v ? lc_node_store(g, v, NULL, LC_OP_ADD, &err) : NULL;
            lc_node_release(t);
            lc_node_release(i);
            lc_node_release(g);
            lc_node_release(v);
            lc_node_release(x);
        }
        return 1;
    case 20: /* sort(x * x), long 1-d (GPUs: tiles, passes of count, scan, move) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            struct lc_node *sq = B(LC_OP_MUL, ref(x), ref(x));
            outs[0] = lc_node_sort(LC_OP_SORT, sq, 0, 0, &err);
            lc_node_release(sq);
            lc_node_release(x);
        }
        return 1;
    case 21: /* argsort of short int16 rows, descending (GPUs: each row in one tile) */
        {
            int64_t s4[2] = {32 * scale, 100 * scale};
            x = leaf(LC_INT16, 2, s4);
            outs[0] = lc_node_sort(LC_OP_ARGSORT, x, 1, 1, &err);
            lc_node_release(x);
        }
        return 1;
    case 22: /* relu((x * 2) @ y + bias): a product with an operand's producer and an epilogue
                (GPUs: tiles in local memory; PoCL: rows x vectors over panels; generic CPUs:
                the reduction) */
        {
            int64_t sa[2] = {96 * scale, 80 * scale}, sy[2] = {80 * scale, 72 * scale};
            int64_t sbias[1] = {72 * scale};
            x = leaf(LC_FLOAT32, 2, sa);
            y = leaf(LC_FLOAT32, 2, sy);
            struct lc_node *xs = B(LC_OP_MUL, x, scalar(2.0));
            outs[0] = relu_matmul(xs, y, leaf(LC_FLOAT32, 1, sbias), 96 * scale, 80 * scale,
                                  72 * scale);
            lc_node_release(xs);
        }
        return 1;
    case 23: /* a long softmax (CPUs: split sums of exp with blocked maxima) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            struct lc_node *e = U(LC_OP_EXP, B(LC_OP_SUB, ref(x), R(LC_OP_RMAX, ref(x), 1, 0)));
            struct lc_node *sum = R(LC_OP_SUM, ref(e), 1, 0);
            outs[0] = B(LC_OP_DIV, e, sum);
            lc_node_release(x);
        }
        return 1;
    case 24: /* argtopk(|x * 2 - 1|, 10, axis 0): the 10 largest of each column, the key
                computed inside (PoCL: 8 columns per item in SIMD lanes; GPUs: neighbouring
                items on neighbouring columns, chunks merged; generic CPUs: one item a column) */
        {
            int64_t s4[2] = {3000 * scale, 32 * scale};
            x = leaf(LC_FLOAT32, 2, s4);
            struct lc_node *key = U(LC_OP_ABS, B(LC_OP_SUB, B(LC_OP_MUL, x, scalar(2.0)),
                                               scalar(1.0)));
            outs[0] = lc_node_topk(key, 0, 10, 1, &err);
            lc_node_release(key);
        }
        return 1;
    case 26: /* x[x > 0.5] over 16 chunks of x (CPUs' compaction, python/lazycl/_write.py):
                a store in row order whose slot is each chunk's first plus the running count
                before it (a scan computed in the store), every element written at the current
                slot up to the chunk's last kept one; the slots are clamped, not checked */
        {
            int64_t c = 1000 * scale, sx[1] = {16 * c}, sr[2] = {16, c}, sc[2] = {16, 1},
                    no = 7000 * scale, so[1] = {no}, sn[2] = {no, 1};
            x = leaf(LC_FLOAT32, 1, sx);
            struct lc_node *out = leaf(LC_FLOAT32, 1, so);
            struct lc_node *first = leaf(LC_INT64, 2, sc), *cnt = leaf(LC_INT64, 2, sc);
            struct lc_node *xr = lc_node_reshape(x, 2, sr, &err);
            struct lc_node *m = B(LC_OP_GT, ref(xr), scalar(0.5));
            struct lc_node *one = lc_node_cast(m, LC_INT64, &err);
            struct lc_node *run = lc_node_scan(LC_OP_CUMSUM, one, 1, &err);
            struct lc_node *before = B(LC_OP_SUB, run, ref(one));
            struct lc_node *slots = lc_node_reshape(out, 2, sn, &err);
            struct lc_node *pos = B(LC_OP_ADD, first, ref(before));
            struct lc_node *g = lc_node_gather(slots, pos, 0, -1, &err);
            struct lc_node *pred = B(LC_OP_LT, before, cnt);
            outs[0] = g && pred ? lc_node_store(g, xr, pred, LC_STORE_IN_ORDER, &err) : NULL;
            lc_node_release(g);
            lc_node_release(pos);
            lc_node_release(pred);
            lc_node_release(slots);
            lc_node_release(one);
            lc_node_release(m);
            lc_node_release(xr);
            lc_node_release(out);
            lc_node_release(x);
        }
        return 1;
    case 27: /* o[:] = cumsum(x * 2) as float64, long 1-d: the scan in the store (CPUs: chunks,
                three launches; GPUs: none takes a float scan, the scan is written first) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            struct lc_node *o = leaf(LC_FLOAT64, 1, s4);
            struct lc_node *x2 = B(LC_OP_MUL, x, scalar(2.0));
            struct lc_node *cs = lc_node_scan(LC_OP_CUMSUM, x2, 0, &err);
            struct lc_node *v = cs ? lc_node_cast(cs, LC_FLOAT64, &err) : NULL;
            outs[0] = v ? lc_node_store(o, v, NULL, 0, &err) : NULL;
            lc_node_release(x2);
            lc_node_release(cs);
            lc_node_release(v);
            lc_node_release(o);
        }
        return 1;
    case 28: /* o[:] = cumsum(x, axis 1) + 1 over many rows: the scan in the store, a row per
                item */
        x = leaf(LC_FLOAT32, 2, s2);
        {
            struct lc_node *o = leaf(LC_FLOAT32, 2, s2);
            struct lc_node *cs = lc_node_scan(LC_OP_CUMSUM, x, 1, &err);
            struct lc_node *v = cs ? B(LC_OP_ADD, cs, scalar(1.0)) : NULL;
            outs[0] = v ? lc_node_store(o, v, NULL, 0, &err) : NULL;
            lc_node_release(v);
            lc_node_release(o);
            lc_node_release(x);
        }
        return 1;
    case 29: /* column sum beside column std of a tall f32 matrix (PoCL: the sum from the
                variance's shifted sums, no accumulator of its own) */
        {
            int64_t s3[2] = {300 * scale, 64 * scale};
            x = leaf(LC_FLOAT32, 2, s3);
            outs[0] = R(LC_OP_SUM, ref(x), 1, 0);
            outs[1] = U(LC_OP_SQRT, R(LC_OP_MEANVAR, x, 1, 0));
        }
        return 2;
    case 30: /* relu(A @ v + bias), a product's sum (kind 1) of 200 rows (PoCL: 8 rows per
                item sharing v's loads, float32 accumulators; GPUs: a row per group) */
        {
            int64_t sa[2] = {200 * scale, 3000 * scale}, sv[2] = {1, 3000 * scale};
            int64_t sbias[1] = {200 * scale};
            x = leaf(LC_FLOAT32, 2, sa);
            struct lc_node *v = leaf(LC_FLOAT32, 2, sv);
            struct lc_node *bias = leaf(LC_FLOAT32, 1, sbias);
            struct lc_node *p = R(LC_OP_SUM, B(LC_OP_MUL, x, v), 1u << 1, 1);
            outs[0] = B(LC_OP_MAXIMUM, B(LC_OP_ADD, p, bias), scalar(0.0));
        }
        return 1;
    case 31: /* v @ A * 2, a product's sum (kind 1) along 600 rows (PoCL: panels of columns
                x chunks of rows, 4 rows a step, then a combining launch) */
        {
            int64_t sa[2] = {600 * scale, 300 * scale}, sv[2] = {600 * scale, 1};
            x = leaf(LC_FLOAT32, 2, sa);
            struct lc_node *v = leaf(LC_FLOAT32, 2, sv);
            struct lc_node *p = R(LC_OP_SUM, B(LC_OP_MUL, v, x), 1u, 1);
            outs[0] = B(LC_OP_MUL, p, scalar(2.0));
        }
        return 1;
    case 32: /* relu(x @ W + bias) of 8 rows (GPUs: gemm_skinny, 4 columns of W per item
                with 16-byte loads, K in slices, a combining launch with the epilogue; the
                rows stay 8 at every scale: the schedule takes at most 16) */
        {
            int64_t sa[2] = {8, 300 * scale}, sy[2] = {300 * scale, 100 * scale};
            int64_t sbias[1] = {100 * scale};
            x = leaf(LC_FLOAT32, 2, sa);
            y = leaf(LC_FLOAT32, 2, sy);
            outs[0] = relu_matmul(x, y, leaf(LC_FLOAT32, 1, sbias), 8, 300 * scale, 100 * scale);
            lc_node_release(x);
        }
        return 1;
    case 33: /* a long 1-d cumsum of complex128 (GPU: its accumulator is wider than a tree
                node's word: tiles, three launches) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_COMPLEX128, 1, s4);
            outs[0] = lc_node_scan(LC_OP_CUMSUM, x, 0, &err);
            lc_node_release(x);
        }
        return 1;
    case 34: /* x[x > 0.5] in one store (GPUs' compaction, python/lazycl/_write.py): each kept
                element written at its running count less one, an int32 scan computed in the
                store (GPUs: tiles in one pass, a decoupled look-back; CPUs: chunks); the slots
                are clamped, not checked */
        {
            int64_t sx[1] = {20000 * scale}, so[1] = {7000 * scale};
            x = leaf(LC_FLOAT32, 1, sx);
            struct lc_node *out = leaf(LC_FLOAT32, 1, so);
            struct lc_node *m = B(LC_OP_GT, ref(x), scalar(0.5));
            struct lc_node *one = lc_node_cast(m, LC_INT32, &err);
            struct lc_node *run = lc_node_scan(LC_OP_CUMSUM, one, 0, &err);
            struct lc_node *slot = B(LC_OP_SUB, run, iscalar(1));
            struct lc_node *g = lc_node_gather(out, slot, 0, -1, &err);
            outs[0] = g ? lc_node_store(g, x, m, 0, &err) : NULL;
            lc_node_release(g);
            lc_node_release(slot);
            lc_node_release(one);
            lc_node_release(m);
            lc_node_release(out);
            lc_node_release(x);
        }
        return 1;
    default: /* sqrt(sum(relu(x @ y + bias)**2, axis=0)): the column norms of a product's
                epilogue as its post-reduction (GPUs, PoCL and generic CPUs: per-block partials
                and a combining launch; the product is never written) */
        {
            int64_t sa[2] = {96 * scale, 80 * scale}, sy[2] = {80 * scale, 72 * scale};
            int64_t sbias[1] = {72 * scale};
            x = leaf(LC_FLOAT32, 2, sa);
            y = leaf(LC_FLOAT32, 2, sy);
            struct lc_node *r = relu_matmul(x, y, leaf(LC_FLOAT32, 1, sbias), 96 * scale,
                                            80 * scale, 72 * scale);
            outs[0] = U(LC_OP_SQRT, R(LC_OP_SUM, B(LC_OP_MUL, ref(r), r), 1, 0));
            lc_node_release(x);
        }
        return 1;
    }
}

static const char *names[] = {"map", "sum_sqdiff", "row_meanstd", "col_argmax", "scan_prologue",
                              "col_meanstd", "softmax", "long_scan", "view_where_cast", "col_sum_short",
                              "long_sum", "long_argmax", "row_sum_short", "map_rows",
                              "map_strided", "map_4d", "long_cummax", "gather_rowsum",
                              "scatter_add", "scatter_add_wide", "sort_square", "argsort_rows",
                              "gemm_relu", "long_softmax", "topk_cols", "gemm_colnorm",
                              "compact_rows", "scan_store_long", "scan_store_rows",
                              "col_sum_std", "gemv_rows", "gemv_cols", "gemm_skinny",
                              "long_scan_c128", "compact_one_pass"};

/* A CPU target's small 1-d map of one item per element (the generic CPU target: PoCL's
 * takes explicit SIMD) runs in whole work-groups the device takes, bounds checked; past
 * LC_SMALL_GROUP_MAX items the driver picks the groups. */
static void check_small_groups(void)
{
    static const struct { int64_t scale; size_t max_wg; } cases[] = {
        {3, 4096}, {3, 1024}, {1, 256}, {5, 4096}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct lc_target t;
        lc_target_init(&t, LC_TARGET_CPU, 1, 2, cases[c].max_wg, "test cpu, small groups");
        struct lc_node *outs[4] = {0};
        size_t n = build(0, cases[c].scale, outs);
        struct lc_plan p;
        struct lc_error e = {0};
        CHECK(n == 1 && outs[0] && lc_fuse(outs, n, 0, &p, &e) == LC_OK);
        struct lc_kcode code;
        CHECK(lc_codegen(&p, 0, &t, &code, &e) == LC_OK);
        const struct lc_launch *l = &code.launches[0];
        CHECK(strstr(code.schedule, "one item per element") != NULL);
        size_t total = (size_t)(1000 * cases[c].scale);
        if (total <= 4096) {   /* LC_SMALL_GROUP_MAX, codegen/cg.h */
            CHECK(l->use_local && l->local[0] <= cases[c].max_wg && l->global[0] >= total &&
                  l->global[0] % l->local[0] == 0);
            CHECK(strstr(code.source, "if (i0 >= n0) return;") != NULL);
        } else {
            CHECK(!l->use_local && l->global[0] == total);
        }
        lc_kcode_free(&code);
        lc_plan_free(&p);
        lc_node_release(outs[0]);
    }
    /* Reductions of one item per output: a short row each, one group; long rows (a
     * matrix-vector product), groups small enough for two per compute unit. */
    static const int64_t rows[][2] = {{2000, 16}, {2000, 30000}, {100, 4000}};
    for (size_t c = 0; c < sizeof rows / sizeof *rows; c++) {
        struct lc_target t;
        lc_target_init(&t, LC_TARGET_POCL, 1, 2, 4096, "test cpu, reductions");
        int64_t sh[2] = {rows[c][0], rows[c][1]};
        struct lc_node *a = leaf(LC_FLOAT32, 2, sh);
        struct lc_node *s = lc_node_reduce(LC_OP_SUM, a, 1u << 1, 0, 0, &err);
        struct lc_plan p;
        struct lc_error e = {0};
        CHECK(s && lc_fuse(&s, 1, 0, &p, &e) == LC_OK);
        struct lc_kcode code;
        CHECK(lc_codegen(&p, 0, &t, &code, &e) == LC_OK);
        const struct lc_launch *l = &code.launches[0];
        CHECK(strstr(code.schedule, "one item per output") != NULL);
        CHECK(l->use_local && l->global[0] >= (size_t)rows[c][0] && l->global[0] % l->local[0] == 0);
        size_t groups = l->global[0] / l->local[0];
        if (rows[c][0] * rows[c][1] < 65536)
            CHECK(groups == 1);
        else
            CHECK(groups >= 4 || l->local[0] == 8);
        lc_kcode_free(&code);
        lc_plan_free(&p);
        lc_node_release(s);
        lc_node_release(a);
    }
}

/* A user function (graph/userfn.h) inside a fused map and a reduction: defined once per output
 * it is asked for, under #line naming the user's kernel, called from the kernel; the source
 * compiles (clang-15, where present). */
static void check_user_functions(void)
{
    struct lc_error e = {0};
    int dts[2] = {LC_FLOAT32, LC_FLOAT32};
    const char *xy[2] = {"x", "y"}, *zw[2] = {"z", "w"};
    uint64_t f = lc_userfn_register("sqdiff", 2, dts, xy, 2, dts, zw,
                                    "z = (x - y) * (x - y);\nw = x + y;",
                                    "#define LC_UNUSED_MACRO 1", &e);
    CHECK(f != 0);
    int64_t sh[1] = {1000};
    struct lc_node *a = leaf(LC_FLOAT32, 1, sh), *b = leaf(LC_FLOAT32, 1, sh);
    struct lc_node *in[2] = {a, b};
    struct lc_node *z = lc_node_user(f, 0, in, 2, &e), *w = lc_node_user(f, 1, in, 2, &e);
    struct lc_node *zw2 = z && w ? lc_node_binary(LC_OP_ADD, z, w, &e) : NULL;
    struct lc_node *s = zw2 ? lc_node_reduce(LC_OP_SUM, zw2, 1u, 0, 0, &e) : NULL;
    CHECK(s != NULL);
    const struct lc_target *ts[2] = {&CPU, &GPU};
    for (int t = 0; s && t < 2; t++) {
        char *code = plan_code(&s, 1, ts[t]);
        CHECK(code != NULL);
        if (!code)
            continue;
        char def0[64], def1[64];
        snprintf(def0, sizeof def0, "lc_u%016llx_0(float x, float y)", (unsigned long long)f);
        snprintf(def1, sizeof def1, "lc_u%016llx_1(float x, float y)", (unsigned long long)f);
        CHECK(strstr(code, def0) && strstr(code, def1));
        CHECK(strstr(code, "#line 1 \"sqdiff\"") && strstr(code, "#line 1 \"sqdiff preamble\""));
        /* the preamble once, though both outputs are called */
        const char *p1 = strstr(code, "LC_UNUSED_MACRO");
        CHECK(p1 && !strstr(p1 + 1, "LC_UNUSED_MACRO"));
        clang_check(t ? "user_gpu" : "user_cpu", code);
        free(code);
    }
    lc_node_release(s);
    lc_node_release(zw2);
    lc_node_release(z);
    lc_node_release(w);
    /* A GPU map of 1-d contiguous runs takes four elements per item, unless it calls a user
     * function with a loop: then one per element (codegen/map.c). */
    uint64_t lp = lc_userfn_register("escape", 2, dts, xy, 1, dts, zw,
                                     "z = 0; while (z < x && z < 100) z += y;", "", &e);
    for (int loop = 0; loop < 2; loop++) {
        struct lc_node *u = lc_node_user(loop ? lp : f, 0, in, 2, &e);
        CHECK(u != NULL);
        char *code = u ? plan_code(&u, 1, &GPU) : NULL;
        CHECK(code && (strstr(code, "four elements per item") != NULL) == !loop);
        CHECK(code && (strstr(code, "one item per element") != NULL) == loop);
        free(code);
        lc_node_release(u);
    }
    /* A GPU map of a random source's quads takes four of them per item, a grid apart, and an
     * unaligned quad's values come from a rolled loop (codegen/map.c, random.c). */
    struct lc_node *rn = lc_node_random(NULL, LC_FLOAT32, LC_RANDOM_NORMAL, 7, 0, 1000, &e);
    struct lc_node *rc = rn ? lc_node_copy(rn, &e) : NULL;
    CHECK(rc != NULL);
    char *rcode = rc ? plan_code(&rc, 1, &GPU) : NULL;
    CHECK(rcode && strstr(rcode, "4 x four elements per item, a grid apart"));
    CHECK(rcode && strstr(rcode, "lc_rnd_normal_f32_each4(ulong key, ulong n)"));
    CHECK(rcode && strstr(rcode, "#pragma unroll 1"));
    free(rcode);
    lc_node_release(rc);
    lc_node_release(rn);
    lc_node_release(a);
    lc_node_release(b);
}

int main(void)
{
    lc_target_init(&CPU, LC_TARGET_POCL, 1, 2, 4096, "test cpu");
    lc_target_init(&GPU, LC_TARGET_GPU, 1, 80, 1024, "test gpu");
    lc_target_init(&GENERIC, LC_TARGET_CPU, 1, 2, 4096, "test generic cpu");
    lc_target_init(&SMALL_GPU, LC_TARGET_GPU, 1, 80, 16, "test gpu, work-groups of 16");
    const char *u = getenv("LAZYCL_UPDATE_GOLDEN");
    update = u && *u && strcmp(u, "0") != 0;
    have_clang = system("command -v clang-15 >/dev/null 2>&1") == 0;
    check_small_groups();
    check_user_functions();
    if (!have_clang)
        printf("note: clang-15 not found, generated kernels are not compiled\n");
    for (int w = 0; w < (int)(sizeof names / sizeof *names); w++) {
        struct lc_node *outs[4] = {0}, *outs2[4] = {0};
        size_t n = build(w, 1, outs);
        int ok = 1;
        for (size_t i = 0; i < n; i++)
            ok &= outs[i] != NULL;
        CHECK(ok);
        if (!ok) {
            fprintf(stderr, "  %s: build failed: %s\n", names[w], err.msg);
            continue;
        }
        int long_scan = !strcmp(names[w], "long_scan") || !strcmp(names[w], "long_cummax");
        for (int ti = 0; ti < (int)(sizeof targets / sizeof *targets); ti++) {
            if (targets[ti].long_scans_only && !long_scan)
                continue;
            char name[64];
            snprintf(name, sizeof name, "%s_%s", names[w], targets[ti].suffix);
            golden(name, outs, n, targets[ti].t);
            unsigned kinds = check_routing(name, outs, n, targets[ti].t);
            if (!strcmp(names[w], "sort_square") || !strcmp(names[w], "argsort_rows"))
                CHECK(kinds == 1u << LC_KERNEL_SORT);
            if (!strcmp(names[w], "topk_cols"))
                CHECK(kinds == 1u << LC_KERNEL_TOPK);
            if (long_scan || !strcmp(names[w], "scan_prologue"))
                CHECK(kinds == 1u << LC_KERNEL_SCAN);
        }
        /* The same expression at another size: identical source (sizes are arguments). */
        size_t n2 = build(w, 2, outs2);
        for (int ti = 0; ti < (int)(sizeof targets / sizeof *targets); ti++) {
            if (targets[ti].long_scans_only && !long_scan)
                continue;
            char *a = plan_code(outs, n, targets[ti].t), *b = plan_code(outs2, n2, targets[ti].t);
            CHECK(a && b && strcmp(a, b) == 0);
            if (a && b && strcmp(a, b) != 0) {
                fprintf(stderr, "  %s_%s: the source changes with the size:\n", names[w],
                        targets[ti].suffix);
                show_diff(a, b);
            }
            free(a);
            free(b);
        }
        for (size_t i = 0; i < n; i++)
            lc_node_release(outs[i]);
        for (size_t i = 0; i < n2; i++)
            lc_node_release(outs2[i]);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
