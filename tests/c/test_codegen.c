/* test_codegen.c: OpenCL C for a few plans, compared with golden files (no device).
 *
 * LAZYCL_UPDATE_GOLDEN=1 rewrites tests/c/golden/ instead of comparing. Each generated kernel
 * is also compiled with clang-15 (OpenCL C 1.2, syntax only) when clang-15 is on the PATH. */
#include "codegen/codegen.h"
#include "graph/userfn.h"
#include "codegen_plans.h"
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
 * names (launches = 0: left out, as the number of a selection's merges grows with the size)
 * and the source. Sizes (global/local) are left out: they depend on the data. */
static char *plan_code_of(struct lc_node *const *outs, size_t n, const struct lc_target *t,
                          int launches)
{
    struct lc_plan p;
    struct lc_error e = {0};
    /* As the engine fuses: reductions of a product's epilogue in its kernel, and scans read
     * only by a store in the store's, where a schedule takes them (engine/engine.c). */
    unsigned extra = LC_FUSE_PRODUCT_POST | LC_FUSE_SCAN_STORE | LC_FUSE_SCAN_TOTAL;
    for (;;) {
        if (lc_fuse(outs, n, extra, &p, &e) != LC_OK) {
            fprintf(stderr, "  lc_fuse: %s\n", e.msg);
            return NULL;
        }
        unsigned drop = lc_codegen_unfit(&p, t);
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
        lc_sb_printf(&sb, "/* ---- kernel %d: schedule \"%s\"", k, c.schedule);
        if (launches) {
            lc_sb_printf(&sb, ", %d launch%s:", c.n_launches, c.n_launches == 1 ? "" : "es");
            for (int l = 0; l < c.n_launches; l++)
                lc_sb_printf(&sb, " %s", c.launches[l].name);
        }
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

static char *plan_code(struct lc_node *const *outs, size_t n, const struct lc_target *t)
{
    return plan_code_of(outs, n, t, 1);
}

/* The occurrences of `what` in s (NULL: none). */
static int count_of(const char *s, const char *what)
{
    int n = 0;
    for (const char *q = s; q && (q = strstr(q, what)) != NULL; q++)
        n++;
    return n;
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

/* Plan `which` of codegen_plans.h at `scale`, fused and generated for a CPU target of `kind`
 * (2 compute units, groups of at most max_wg); its output node in *out. */
static void gen_plan(int which, int64_t scale, enum lc_target_kind kind, size_t max_wg,
                     struct lc_node **out, struct lc_plan *p, struct lc_kcode *code)
{
    struct lc_target t;
    lc_target_init(&t, kind, 1, 2, max_wg, "test cpu, groups");
    struct lc_node *outs[4] = {0};
    size_t n = build(which, scale, outs);
    struct lc_error e = {0};
    CHECK(n == 1 && outs[0] && lc_fuse(outs, n, 0, p, &e) == LC_OK);
    CHECK(lc_codegen(p, 0, &t, code, &e) == LC_OK);
    *out = outs[0];
}

/* A size of the CPU groups' ladder (8, 64, 512, 4096), or the device's limit below it. */
static int on_ladder(size_t wg, size_t max_wg)
{
    return wg == max_wg || wg == 8 || wg == 64 || wg == 512 || wg == 4096;
}

/* A CPU target's 1-d map runs in whole work-groups the device takes, of the ladder's sizes,
 * bounds checked: one group up to LC_SMALL_GROUP_MAX items; past it PoCL's SIMD maps take two
 * groups or more per compute unit, item maps the driver's groups. */
static void check_small_groups(void)
{
    /* The generic CPU target's maps of one item per element; PoCL's SIMD maps (W elements an
     * item) of 1000 elements (one group) and 8 * 1000003 (a prime number of items: groups of
     * 4096, the range rounded up), the items past the end returning before any access. */
    static const struct { enum lc_target_kind kind; int64_t scale; size_t max_wg; } cases[] = {
        {LC_TARGET_CPU, 3, 4096}, {LC_TARGET_CPU, 3, 1024}, {LC_TARGET_CPU, 1, 256},
        {LC_TARGET_CPU, 5, 4096}, {LC_TARGET_SIMD, 1, 4096}, {LC_TARGET_SIMD, 8000, 4096}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct lc_node *out;
        struct lc_plan p;
        struct lc_kcode code;
        gen_plan(0, cases[c].scale, cases[c].kind, cases[c].max_wg, &out, &p, &code);
        const struct lc_launch *l = &code.launches[0];
        size_t total = (size_t)(1000 * cases[c].scale);
        if (cases[c].kind == LC_TARGET_CPU && total > 4096) {
            /* past LC_SMALL_GROUP_MAX an item map keeps the driver's groups (codegen/map.c) */
            CHECK(strstr(code.schedule, "one item per element") != NULL);
            CHECK(!l->use_local && l->global[0] == total);
        } else {
            CHECK(l->use_local && l->global[0] % l->local[0] == 0 &&
                  on_ladder(l->local[0], cases[c].max_wg));
            CHECK(strstr(code.source, ">= n0) return;") != NULL);
            if (cases[c].kind == LC_TARGET_SIMD) {
                CHECK(strstr(code.schedule, "SIMD") != NULL && l->global[0] * 16 >= total);
            } else {
                CHECK(strstr(code.schedule, "one item per element") != NULL);
                CHECK(l->global[0] >= total && l->global[0] - total < l->local[0]);
            }
        }
        lc_kcode_free(&code);
        lc_plan_free(&p);
        lc_node_release(out);
    }
    /* A 2-d map (the generic CPU target: one item per element): the rows in groups of a size
     * of the ladder within them, the row's last group shifted back to end at the row's end,
     * the outer dim the ladder's size that covers it within 4096 items a group, two groups
     * per compute unit or more; only the outer index tested. */
    for (int64_t scale = 1; scale <= 41; scale += 40) {
        struct lc_node *out;
        struct lc_plan p;
        struct lc_kcode code;
        gen_plan(13, scale, LC_TARGET_CPU, 4096, &out, &p, &code);
        const struct lc_launch *l = &code.launches[0];
        size_t ext[2] = {(size_t)(100 * scale), (size_t)(64 * scale)}, groups = 1;
        CHECK(l->work_dim == 2 && l->use_local && l->local[0] * l->local[1] <= 4096);
        for (int d = 0; d < 2; d++) {
            CHECK(l->global[d] >= ext[d] && l->global[d] % l->local[d] == 0 &&
                  l->global[d] - ext[d] < l->local[d]);
            groups *= l->global[d] / l->local[d];
        }
        CHECK(groups >= 4 && l->local[0] <= ext[0] && l->local[0] >= 8);
        CHECK(strstr(code.source, "if (i0 >= n0) return;") != NULL &&
              strstr(code.source, "const long i1 = min((long)get_group_id(0) * "
                                  "(long)get_local_size(0), n1 - (long)get_local_size(0)) + "
                                  "(long)get_local_id(0);") != NULL);
        lc_kcode_free(&code);
        lc_plan_free(&p);
        lc_node_release(out);
    }
    /* Reductions of one item per output: a short row each, one group; long rows (a
     * matrix-vector product), groups small enough for two per compute unit. On the generic
     * CPU target (a driver vectorizing across a group's items), row sums with enough work run
     * in groups of one item (no gather of as many rows a step), the short ones in one group;
     * a row maximum keeps the ladder's groups. */
    static const int64_t rows[][2] = {{2000, 16}, {2000, 30000}, {100, 4000}, {100003, 8}};
    for (size_t c = 0; c < sizeof rows / sizeof *rows; c++)
        for (int v = 0; v < 3; v++) {
            int cpu = v > 0, op = v == 2 ? LC_OP_RMAX : LC_OP_SUM;
            struct lc_target t;
            lc_target_init(&t, cpu ? LC_TARGET_CPU : LC_TARGET_SIMD, 1, 2, 4096,
                           "test cpu, reductions");
            int64_t sh[2] = {rows[c][0], rows[c][1]};
            struct lc_node *a = leaf(LC_FLOAT32, 2, sh);
            struct lc_node *s = lc_node_reduce(op, a, 1u << 1, 0, 0, &err);
            struct lc_plan p;
            struct lc_error e = {0};
            CHECK(s && lc_fuse(&s, 1, 0, &p, &e) == LC_OK);
            struct lc_kcode code;
            CHECK(lc_codegen(&p, 0, &t, &code, &e) == LC_OK);
            const struct lc_launch *l = &code.launches[0];
            CHECK(strstr(code.schedule, "one item per output") != NULL);
            CHECK(l->use_local && l->global[0] >= (size_t)rows[c][0] &&
                  l->global[0] % l->local[0] == 0);
            size_t groups = l->global[0] / l->local[0];
            int big = rows[c][0] * rows[c][1] >= 65536;
            if (!big)
                CHECK(groups == 1);
            else if (cpu && op == LC_OP_SUM)
                CHECK(l->local[0] == 1 && l->global[0] == (size_t)rows[c][0]);
            else
                CHECK(groups >= 4 || l->local[0] == 8);
            if (cpu && !(big && op == LC_OP_SUM))
                CHECK(on_ladder(l->local[0], 4096));
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

/* PoCL's version from its platform version string, and what it changes: from PoCL 4 on a row
 * longer than one block (the sort of 40 rows of 300) takes no vector merges. */
static void check_pocl_versions(void)
{
    CHECK(lc_pocl_major("OpenCL 3.0 PoCL 5.0+debian  Linux, None+Asserts, RELOC, SPIR, "
                        "LLVM 16.0.6, SLEEF, DISTRO, POCL_DEBUG") == 5);
    CHECK(lc_pocl_major("OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, LLVM 15.0.6") == 3);
    CHECK(lc_pocl_major("OpenCL 3.0 CUDA 13.0.94") == 0 && lc_pocl_major("") == 0 &&
          lc_pocl_major(NULL) == 0);
    struct lc_target t3 = CPU, t5 = CPU;
    lc_target_for_pocl(&t3, 3);
    lc_target_for_pocl(&t5, 5);
    CHECK(t3.sort_net_max == CPU.sort_net_max && CPU.sort_net_max > 256 && t5.sort_net_max == 256);
    struct lc_node *outs[4] = {0};
    size_t n = build(35, 1, outs);
    CHECK(n == 1 && outs[0]);
    char *a = plan_code(outs, n, &t3), *b = plan_code(outs, n, &t5);
    CHECK(a && strstr(a, "a merge sort in vector registers") != NULL);
    CHECK(b && strstr(b, "sort: ") != NULL && strstr(b, "a merge sort in vector registers") == NULL);
    free(a);
    free(b);
    lc_node_release(outs[0]);
}

/* What another CPU runtime (Intel's) changes in a SIMD target: the sort of 40 rows of 300
 * takes no vector merges, A @ v one output per item, exp(x) * y + 1.5 one item per element;
 * v @ A and x @ W keep their panels, the long full sum its SIMD chunks; a column sum that
 * reads no matrix takes one item per output; a count of long rows, groups of one item. */
static void check_cpu_runtime(void)
{
    struct lc_target t = CPU;
    lc_target_for_cpu_runtime(&t, 0);
    static const struct {
        int plan;
        const char *pocl, *other;   /* in the PoCL target's code; in t's, or NULL: not there */
    } cases[] = {{35, "a merge sort in vector registers", NULL},
                 {30, "(a shared read)", NULL},
                 {31, "reduce: panels of", "reduce: panels of"},
                 {32, "all 8 rows x panels", "all 8 rows x panels"},
                 {0, "8-wide SIMD", NULL},
                 {10, "SIMD", "SIMD"}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct lc_node *outs[4] = {0};
        size_t n = build(cases[c].plan, 1, outs);
        CHECK(n >= 1 && outs[0]);
        char *a = plan_code(outs, n, &CPU), *b = plan_code(outs, n, &t);
        CHECK(a && strstr(a, cases[c].pocl) != NULL);
        CHECK(b && (cases[c].other ? strstr(b, cases[c].other) != NULL
                                   : strstr(b, cases[c].pocl) == NULL));
        free(a);
        free(b);
        for (size_t i = 0; i < n; i++)
            lc_node_release(outs[i]);
    }
    /* A runtime that takes intel_vec_len_hint keeps the network, its kernel (alone) telling
     * the driver not to widen it across items; PoCL's never says so. */
    struct lc_target th = CPU;
    lc_target_for_cpu_runtime(&th, 1);
    static const int hint_plans[] = {35, 20};
    for (int c = 0; c < 2; c++) {
        int plan = hint_plans[c];
        struct lc_node *outs[4] = {0};
        size_t n = build(plan, 1, outs);
        CHECK(n >= 1 && outs[0]);
        char *a = plan_code(outs, n, &CPU), *b = plan_code(outs, n, &th);
        int net = plan == 35;   /* plan 20: a long 1-d sort, by the radix passes */
        CHECK(a && !strstr(a, "intel_vec_len_hint"));
        CHECK(b && count_of(b, "__kernel __attribute__((intel_vec_len_hint(1))) void") == net &&
              !strstr(b, "a merge sort in vector registers") == !net &&
              count_of(b, LC_SOURCE_ONLY_MARK) == net);
        free(a);
        free(b);
        for (size_t i = 0; i < n; i++)
            lc_node_release(outs[i]);
    }
    /* A column sum that reads no matrix, sum((u[:, None] * w)^2, axis=0): SIMD on PoCL, one
     * item per output on the adjusted target; v @ A (above) keeps its panels there. */
    int64_t su[2] = {600, 1}, sw[2] = {1, 300};
    struct lc_node *p = B(LC_OP_MUL, leaf(LC_FLOAT32, 2, su), leaf(LC_FLOAT32, 2, sw));
    struct lc_node *o = R(LC_OP_SUM, B(LC_OP_MUL, ref(p), p), 1u, 0);
    CHECK(o != NULL);
    char *a = plan_code(&o, 1, &CPU), *b = plan_code(&o, 1, &t);
    CHECK(a && strstr(a, "SIMD") != NULL && strstr(a, "one item per output") == NULL);
    CHECK(b && strstr(b, "reduce: one item per output") != NULL);
    free(a);
    free(b);
    lc_node_release(o);
    /* The count of x > 0.5 in 16 long rows (a compaction's), which explicit vectors do not
     * read: one item per output, in groups of one item on the adjusted target (its driver
     * would read the 8 rows of a group's items side by side, a gather a step), of the
     * ladder on PoCL's. */
    int64_t sx[2] = {16, 1 << 16};
    struct lc_node *gt = B(LC_OP_GT, leaf(LC_FLOAT32, 2, sx), scalar(0.5));
    struct lc_node *cnt = R(LC_OP_SUM, lc_node_cast(gt, LC_INT32, &err), 1u << 1, 0);
    lc_node_release(gt);
    CHECK(cnt != NULL);
    for (int v = 0; v < 2; v++) {
        struct lc_plan pl;
        struct lc_error e = {0};
        struct lc_kcode code;
        CHECK(lc_fuse(&cnt, 1, 0, &pl, &e) == LC_OK);
        CHECK(lc_codegen(&pl, 0, v ? &t : &CPU, &code, &e) == LC_OK);
        CHECK(!strcmp(code.schedule, "reduce: one item per output"));
        CHECK(code.launches[0].use_local && (code.launches[0].local[0] == 1) == v);
        lc_kcode_free(&code);
        lc_plan_free(&pl);
    }
    lc_node_release(cnt);
}

/* Math builtins on vectors wider than the target's simd_math_bits go on halves (PoCL on AVX2:
 * its double8 sin gave garbage); at or under it, whole. Plan 0: exp of float8. */
static void check_math_halves(void)
{
    struct lc_node *outs[4] = {0};
    size_t n = build(0, 1, outs);
    CHECK(n == 1 && outs[0]);
    struct lc_target t256 = CPU, t128 = CPU;
    t256.simd_math_bits = 256;
    t128.simd_math_bits = 128;
    char *a = plan_code(outs, n, &CPU), *b = plan_code(outs, n, &t256),
         *c = plan_code(outs, n, &t128);
    CHECK(a && strstr(a, "exp(w") && !strstr(a, ".lo)"));
    CHECK(a && b && strcmp(a, b) == 0);
    CHECK(c && strstr(c, "(float8)((exp((w") && strstr(c, ").lo)), (exp((w") &&
          strstr(c, ").hi)))"));
    free(a);
    free(b);
    free(c);
    lc_node_release(outs[0]);
}

int main(void)
{
    lc_target_init(&CPU, LC_TARGET_SIMD, 1, 2, 4096, "test cpu");
    lc_target_init(&GPU, LC_TARGET_GPU, 1, 80, 1024, "test gpu");
    lc_target_init(&GENERIC, LC_TARGET_CPU, 1, 2, 4096, "test generic cpu");
    lc_target_init(&SMALL_GPU, LC_TARGET_GPU, 1, 80, 16, "test gpu, work-groups of 16");
    const char *u = getenv("LAZYCL_UPDATE_GOLDEN");
    update = u && *u && strcmp(u, "0") != 0;
    have_clang = system("command -v clang-15 >/dev/null 2>&1") == 0;
    check_small_groups();
    check_user_functions();
    check_pocl_versions();
    check_cpu_runtime();
    check_math_halves();
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
            if (!strcmp(names[w], "sort_square") || !strcmp(names[w], "argsort_rows") ||
                !strcmp(names[w], "sort_rows_net"))
                CHECK(kinds == 1u << LC_KERNEL_SORT);
            if (!strcmp(names[w], "topk_cols") || !strcmp(names[w], "topk_long"))
                CHECK(kinds == 1u << LC_KERNEL_TOPK);
            if (long_scan || !strcmp(names[w], "scan_prologue"))
                CHECK(kinds == 1u << LC_KERNEL_SCAN);
        }
        if (!strcmp(names[w], "topk_long") || !strcmp(names[w], "sort_square")) {
            /* GPU-shaped kernels for a CPU device: the list's or the tile's loops rolled,
             * nothing else. */
            struct lc_target rolled = GPU;
            rolled.roll_loops = 1;
            char *a = plan_code(outs, n, &GPU), *b = plan_code(outs, n, &rolled);
            int ua = count_of(a, "#pragma unroll\n"), ub = count_of(b, "#pragma unroll\n");
            CHECK(a && b && ub < ua && strlen(b) == strlen(a) + 2 * (size_t)(ua - ub));
            free(a);
            free(b);
        }
        if (!strcmp(names[w], "compact_total")) {
            /* The count comes from the store's pass on GPUs (the look-back's totals); CPUs'
             * store schedules take none: a reduction of its own. */
            char *a = plan_code(outs, n, &GPU), *b = plan_code(outs, n, &GENERIC);
            CHECK(count_of(a, "/* ---- kernel") == 1 && count_of(b, "/* ---- kernel") == 2);
            free(a);
            free(b);
        }
        if (!strcmp(names[w], "scatter_add_ranges") || !strcmp(names[w], "scatter_add_wide")) {
            /* GPUs: many adds into a target too big for local memory go by ranges, carrying
             * the float32 the store widens; few adds (scatter_add_wide) stay atomics. */
            int ranges = !strcmp(names[w], "scatter_add_ranges");
            char *a = plan_code(outs, n, &GPU);
            CHECK(a && !strstr(a, "scatter-add by ranges of 2048 places") == !ranges);
            CHECK(a && (!ranges || (strstr(a, "__global float *pv_") &&
                                    count_of(a, "red.shared.add.f64") == 1 &&
                                    count_of(a, "red.global.add.f64") == 1)));
            free(a);
        }
        /* The same expression at another size: identical source (sizes are arguments). */
        size_t n2 = build(w, 2, outs2);
        for (int ti = 0; ti < (int)(sizeof targets / sizeof *targets); ti++) {
            if (targets[ti].long_scans_only && !long_scan)
                continue;
            char *a = plan_code_of(outs, n, targets[ti].t, 0);
            char *b = plan_code_of(outs2, n2, targets[ti].t, 0);
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
