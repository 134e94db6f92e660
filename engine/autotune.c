/* autotune.c: GEMM tile sizes and CLBlast chosen by timing, once per device (autotune.h).
 *
 * The problem timed is one float32 product A @ B (M x K and K x N row-major buffers of small
 * values), built as the Python layer builds a matmul: a (M,1,K) view times a (1,N,K) view,
 * summed over K. It therefore takes the kernel a user's plain product takes, and the winner's
 * build is already in the kernel cache when the user's product runs. Each candidate of the
 * target (codegen/target.c), and CLBlast where installed, runs once to warm up (drivers that
 * build at the first launch do it then); then they are timed in rounds (lc_tune_measure), each
 * keeping its best run.
 *
 * What won goes to <cache dir>/tune/gemm-<key>.json (engine/tunerec.c), named after the
 * lazycl version, device name, platform and driver versions and target kind; later processes
 * read it instead of timing again. A record that does not parse, or is another device's, is
 * deleted and the device tuned again. The table of devices below is guarded by lc_tune_lock.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* strcasecmp under -std=c11 */
#endif
#include "engine/autotune.h"

#include "engine/storage.h"
#include "engine/tunerec.h"
#include "engine/xplan.h"
#include "fusion/fusion.h"
#include "graph/signature.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define LC_TUNE_REPS 3        /* rounds of timed runs, at most */
#define LC_TUNE_SECONDS 0.5   /* no round begins after the rounds took this long */

enum { LC_TUNE_UNKNOWN, LC_TUNE_NONE, LC_TUNE_READ, LC_TUNE_DONE, LC_TUNE_FAILED };
enum { LC_TUNE_OFF, LC_TUNE_ON, LC_TUNE_FORCE };

/* What is known of one device under one target kind. */
struct lc_tune_state {
    lc_device_t dev;
    enum lc_target_kind kind;
    int status;            /* UNKNOWN: the record not looked for yet; NONE: no usable record;
                              READ: from the record; DONE: timed in this process; FAILED */
    int cand;              /* READ, DONE: lazycl's fastest candidate */
    int clblast;           /* READ, DONE: plain products go to CLBlast */
    double best_ms, clblast_ms;
    char path[4200];       /* the record's path ("" when the disk cache is off) */
    struct lc_tune_state *next;
};

static pthread_mutex_t lc_tune_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lc_tune_state *lc_tune_states;   /* never freed: one per device and kind */

static double lc_tune_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int lc_tune_mode(void)
{
    const char *v = getenv("LAZYCL_AUTOTUNE");
    if (!v || !*v)
        return LC_TUNE_ON;
    if (!strcmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "no") ||
        !strcasecmp(v, "false"))
        return LC_TUNE_OFF;
    return !strcasecmp(v, "force") ? LC_TUNE_FORCE : LC_TUNE_ON;
}

/* LAZYCL_GEMM_CANDIDATE (a test hook): the candidate it names for t, else -1. */
static int lc_tune_forced(const struct lc_target *t)
{
    const char *v = getenv("LAZYCL_GEMM_CANDIDATE");
    char *end;
    if (!v || !*v)
        return -1;
    long i = strtol(v, &end, 10);
    return *end || i < 0 || i >= lc_target_gemm_count(t) ? -1 : (int)i;
}

static void lc_tune_identity(lc_device_t d, const struct lc_target *t, struct lc_tunerec *r)
{
    const struct lc_device_info *di = lc_device_info(d);
    memset(r, 0, sizeof *r);
    snprintf(r->lazycl, sizeof r->lazycl, "%s", LAZYCL_VERSION);
    snprintf(r->device, sizeof r->device, "%s", di->name);
    snprintf(r->platform, sizeof r->platform, "%s", di->platform_version);
    snprintf(r->driver, sizeof r->driver, "%s", di->driver_version);
    snprintf(r->schedule, sizeof r->schedule, "%s", lc_target_kind_name(t->kind));
    r->clblast_ms = -1;
}

/* The candidate of t's kind named `name`, or -1. */
static int lc_tune_candidate(const struct lc_target *t, const char *name)
{
    for (int i = 0; i < lc_target_gemm_count(t); i++) {
        struct lc_target c = *t;
        char cn[128];
        lc_target_gemm_set(&c, i);
        lc_target_gemm_name(&c, cn, sizeof cn);
        if (!strcmp(cn, name))
            return i;
    }
    return -1;
}

/* Look for the device's record (under the lock). */
static void lc_tune_load(struct lc_tune_state *s, lc_device_t d, const struct lc_target *t)
{
    struct lc_tunerec want, got;
    char name[64];
    lc_tune_identity(d, t, &want);
    lc_tunerec_file_name(&want, name, sizeof name);
    s->status = LC_TUNE_NONE;
    s->path[0] = '\0';
    char *text = lc_disk_record_read("tune", name, s->path, sizeof s->path);
    if (!text)
        return;
    int ok = lc_tunerec_parse(text, &got) == 0;
    free(text);
    int cand = ok ? lc_tune_candidate(t, got.best) : -1;
    if (!ok || cand < 0 || strcmp(got.lazycl, want.lazycl) || strcmp(got.device, want.device) ||
        strcmp(got.platform, want.platform) || strcmp(got.driver, want.driver) ||
        strcmp(got.schedule, want.schedule)) {
        lc_disk_record_discard(s->path, "not a GEMM autotune record of this device, lazycl "
                               "version and candidate set");
        return;
    }
    s->status = LC_TUNE_READ;
    s->cand = cand;
    s->clblast = got.clblast && lc_blas_available();
    s->clblast_ms = got.clblast_ms;
    s->best_ms = 0;
    for (int i = 0; i < got.n_candidates; i++)
        if (!strcmp(got.config[i], got.best))
            s->best_ms = got.ms[i];
    if (lc_debug_level() >= 1)
        fprintf(stderr, "[lazycl] gemm autotune: '%s' (%s) from %s: %s%s\n", want.device,
                want.schedule, s->path, got.best, s->clblast ? "; plain products in CLBlast" : "");
}

/* The state of (d, t's kind), its record looked for; NULL when out of memory. Under the lock. */
static struct lc_tune_state *lc_tune_find(lc_device_t d, const struct lc_target *t)
{
    struct lc_tune_state *s = lc_tune_states;
    while (s && (s->dev != d || s->kind != t->kind))
        s = s->next;
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        s->dev = d;
        s->kind = t->kind;
        s->status = LC_TUNE_UNKNOWN;
        s->next = lc_tune_states;
        lc_tune_states = s;
    }
    if (s->status == LC_TUNE_UNKNOWN)
        lc_tune_load(s, d, t);
    return s;
}

void lc_autotune_apply(lc_device_t d, struct lc_target *t)
{
    const char *gemm = getenv("LAZYCL_GEMM");
    t->gemm_blas = gemm && !strcmp(gemm, "clblast");
    int lazycl_only = gemm && !strcmp(gemm, "lazycl");
    int forced = lc_tune_forced(t);
    if (forced >= 0) {
        lc_target_gemm_set(t, forced);
        return;
    }
    if (lc_tune_mode() == LC_TUNE_OFF || !lc_target_gemm_count(t))
        return;
    pthread_mutex_lock(&lc_tune_lock);
    struct lc_tune_state *s = lc_tune_find(d, t);
    if (s && (s->status == LC_TUNE_READ || s->status == LC_TUNE_DONE)) {
        lc_target_gemm_set(t, s->cand);
        if (!t->gemm_blas && !lazycl_only && s->clblast)
            t->gemm_blas = 2;
    }
    pthread_mutex_unlock(&lc_tune_lock);
}

int lc_autotune_due(lc_device_t d, const struct lc_target *t, int64_t work)
{
    int mode = lc_tune_mode();
    if (work < LC_AUTOTUNE_MIN_WORK || mode == LC_TUNE_OFF || lc_tune_forced(t) >= 0 ||
        !lc_target_gemm_count(t))
        return 0;
    pthread_mutex_lock(&lc_tune_lock);
    struct lc_tune_state *s = lc_tune_find(d, t);
    int due = s && (s->status == LC_TUNE_NONE || (mode == LC_TUNE_FORCE && s->status == LC_TUNE_READ));
    pthread_mutex_unlock(&lc_tune_lock);
    return due;
}

/* ---- timing -------------------------------------------------------------------------- */

/* The problem's graph: sum over K of A (M,1,K) * B (1,N,K), B read through its transpose. */
static struct lc_node *lc_tune_graph(lc_queue_t q, struct lc_storage *sa, struct lc_storage *sb,
                                     const struct lc_tunerec *r, struct lc_error *e)
{
    int64_t sha[3] = {r->m, 1, r->k}, sta[3] = {r->k, r->k, 1};
    int64_t shb[3] = {1, r->n, r->k}, stb[3] = {0, 1, r->n};
    struct lc_node *a = lc_node_buffer(q, LC_FLOAT32, 3, sha, sa, 0, sta, e);
    struct lc_node *b = a ? lc_node_buffer(q, LC_FLOAT32, 3, shb, sb, 0, stb, e) : NULL;
    struct lc_node *p = b ? lc_node_binary(LC_OP_MUL, a, b, e) : NULL;
    struct lc_node *s = p ? lc_node_reduce(LC_OP_SUM, p, 1u << 2, 0, 0, e) : NULL;
    if (a)
        lc_node_release(a);
    if (b)
        lc_node_release(b);
    if (p)
        lc_node_release(p);
    return s;
}

/* One run of x over a new graph of the problem, waited for: its seconds, or -1 (e says why). */
static double lc_tune_once(lc_queue_t q, struct lc_storage *sa, struct lc_storage *sb,
                           const struct lc_tunerec *r, const struct lc_xplan *x, struct lc_error *e)
{
    struct lc_node *out = lc_tune_graph(q, sa, sb, r, e);
    struct lc_graph_sig sig;
    double dt = -1;
    if (!out)
        return -1;
    if (lc_graph_sig_make(&out, 1, 0, &sig, e) != LC_OK) {
        lc_node_release(out);
        return -1;
    }
    if (lc_queue_finish(q, e) == LC_OK) {
        double t0 = lc_tune_now();
        if (lc_xplan_run(x, q, &sig, &out, 1, 0, e) == LC_OK && lc_queue_finish(q, e) == LC_OK)
            dt = lc_tune_now() - t0;
    }
    lc_graph_sig_free(&sig);
    lc_node_release(out);   /* realized: its buffer goes back to the pool */
    return dt;
}

/* The plan of the problem under target t, run once to warm up (drivers that build at the first
 * launch do it then); NULL on failure (e says why). `blas`: the plan must hand the product to
 * CLBlast, else it must run one of lazycl's GEMM kernels. */
static struct lc_xplan *lc_tune_prepare(lc_queue_t q, struct lc_storage *sa, struct lc_storage *sb,
                                        const struct lc_tunerec *r, const struct lc_target *t,
                                        int blas, struct lc_error *e)
{
    struct lc_node *out = lc_tune_graph(q, sa, sb, r, e);
    struct lc_graph_sig sig;
    struct lc_plan plan;
    struct lc_xplan *x = NULL;
    if (!out)
        return NULL;
    if (lc_graph_sig_make(&out, 1, 0, &sig, e) != LC_OK) {
        lc_node_release(out);
        return NULL;
    }
    if (lc_fuse(&out, 1, 0, &plan, e) == LC_OK) {
        struct lc_kcode *codes;
        if (lc_xplan_codegen(&plan, t, &codes, e) == LC_OK)
            lc_xplan_make(&plan, codes, &sig, lc_queue_device(q), t, 0, &x, e);
        lc_plan_free(&plan);
    }
    lc_graph_sig_free(&sig);
    lc_node_release(out);
    if (x && (x->n_kernels != 1 || !x->kernels[0].code.gemm_work ||
              x->kernels[0].code.launches[0].blas != blas)) {
        lc_error_set(e, LC_ERR_INVALID, "internal: the product timed did not take the %s schedule",
                     blas ? "CLBlast" : "GEMM");
        lc_xplan_free(x);
        x = NULL;
    }
    if (x && lc_tune_once(q, sa, sb, r, x, e) < 0) {
        lc_xplan_free(x);
        x = NULL;
    }
    return x;
}

/* A float32 leaf storage of n small values (no denormals, no NaNs to slow a CPU down). */
static struct lc_storage *lc_tune_operand(lc_queue_t q, int64_t n, struct lc_error *e)
{
    float *h = malloc((size_t)n * sizeof *h);
    lc_buffer_t b = NULL;
    struct lc_storage *s = NULL;
    if (!h) {
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    for (int64_t i = 0; i < n; i++)
        h[i] = (float)(i % 7 - 3) * 0.125f;
    if (lc_buffer_alloc(lc_queue_device(q), (size_t)n * sizeof *h, &b, e) == LC_OK) {
        if (lc_buffer_write(q, b, 0, h, (size_t)n * sizeof *h, 1, e) == LC_OK)
            s = lc_engine_storage(b);
        else
            lc_buffer_release(b);
    }
    free(h);
    return s;
}

/* The side of the square problem timed: LAZYCL_AUTOTUNE_SIZE (a test hook), else 768 on a CPU
 * device (about 30 ms a run on 2 cores) and 4096 on a GPU (a few ms on an H100). */
static int64_t lc_tune_side(lc_device_t d)
{
    const char *v = getenv("LAZYCL_AUTOTUNE_SIZE");
    char *end;
    long n = v && *v ? strtol(v, &end, 10) : 0;
    if (n >= 64 && n <= 16384 && !*end)
        return n;
    return lc_device_info(d)->type == LC_DEVICE_CPU ? 768 : 4096;
}

/* Time every candidate of t0 and CLBlast (where installed) into r; *best: lazycl's fastest
 * among r's candidates. All are built and warmed up first, then timed in rounds (one run of
 * each per round, so that a machine busy for a while slows them all alike), at most
 * LC_TUNE_REPS rounds and no more once the rounds took LC_TUNE_SECONDS; after each round any
 * entry over twice the best time so far leaves (it cannot win). */
static lc_status lc_tune_measure(lc_queue_t q, const struct lc_target *t0, struct lc_tunerec *r,
                                 int *best, struct lc_error *e)
{
    enum { N = LC_TUNEREC_MAX_CANDIDATES + 1 };
    lc_device_t d = lc_queue_device(q);
    struct lc_storage *sa = lc_tune_operand(q, r->m * r->k, e);
    struct lc_storage *sb = sa ? lc_tune_operand(q, r->k * r->n, e) : NULL;
    struct lc_xplan *x[N] = {0};
    char name[N][128];
    double secs[N];
    int n = 0, nc = lc_target_gemm_count(t0);
    if (nc > LC_TUNEREC_MAX_CANDIDATES)   /* the record holds no more (and CLBlast's entry) */
        nc = LC_TUNEREC_MAX_CANDIDATES;
    *best = -1;
    for (int i = 0; sb && i <= nc && n < N; i++) {
        int blas = i == nc;   /* CLBlast last */
        if (blas && !lc_blas_available())
            break;
        struct lc_target t = *t0;
        lc_target_gemm_set(&t, blas ? 0 : i);
        t.gemm_blas = blas ? 2 : 0;
        if (blas)
            snprintf(name[n], sizeof name[n], "CLBlast");
        else
            lc_target_gemm_name(&t, name[n], sizeof name[n]);
        struct lc_error ce = {0};
        double t1 = lc_tune_now();
        x[n] = lc_tune_prepare(q, sa, sb, r, &t, blas, &ce);
        if (lc_debug_level() >= 2)
            fprintf(stderr, "[lazycl] gemm autotune: %s: built and warmed up in %.3f s\n",
                    name[n], lc_tune_now() - t1);
        if (!x[n] && lc_debug_level() >= 1)   /* one this device cannot run: left out */
            fprintf(stderr, "[lazycl] gemm autotune: '%s' (%s) %s: %s\n", r->device,
                    r->schedule, name[n], ce.msg);
        lc_error_clear(&ce);
        secs[n] = -1;
        if (x[n])
            n++;
    }
    double start = lc_tune_now();
    for (int round = 0; round < LC_TUNE_REPS; round++) {
        double top = -1;
        for (int i = 0; i < n; i++) {
            double dt = x[i] ? lc_tune_once(q, sa, sb, r, x[i], e) : -1;
            if (x[i] && dt < 0) {
                lc_xplan_free(x[i]);
                x[i] = NULL;
                secs[i] = -1;
            }
            if (dt > 0 && (secs[i] < 0 || dt < secs[i]))
                secs[i] = dt;
            if (secs[i] > 0 && (top < 0 || secs[i] < top))
                top = secs[i];
        }
        for (int i = 0; i < n; i++)
            if (x[i] && secs[i] > 2 * top) {
                lc_xplan_free(x[i]);
                x[i] = NULL;
            }
        if (lc_tune_now() - start > LC_TUNE_SECONDS)
            break;
    }
    for (int i = 0; i < n; i++) {
        lc_xplan_free(x[i]);
        if (secs[i] <= 0)
            continue;
        if (!strcmp(name[i], "CLBlast")) {
            r->clblast_ms = secs[i] * 1e3;
            continue;
        }
        int c = r->n_candidates++;
        snprintf(r->config[c], sizeof r->config[c], "%s", name[i]);
        r->ms[c] = secs[i] * 1e3;
        if (*best < 0 || r->ms[c] < r->ms[*best]) {
            *best = c;
            snprintf(r->best, sizeof r->best, "%s", name[i]);
        }
    }
    if (sa)
        lc_storage_release(sa);
    if (sb)
        lc_storage_release(sb);
    if (*best < 0 && e->code == LC_OK)
        lc_error_set(e, LC_ERR_DEVICE, "no GEMM candidate ran on device '%s'",
                     lc_device_info(d)->name);
    return *best < 0 ? e->code : LC_OK;
}

void lc_autotune_run(lc_queue_t q, const struct lc_target *t0)
{
    lc_device_t d = lc_queue_device(q);
    struct lc_tunerec r;
    struct lc_error e = {0};
    int best;
    double start = lc_tune_now();
    lc_tune_identity(d, t0, &r);
    r.m = r.n = r.k = lc_tune_side(d);
    lc_stats_count_tuning();
    lc_status st = lc_tune_measure(q, t0, &r, &best, &e);
    /* LAZYCL_AUTOTUNE_CLBLAST=win (a test hook): CLBlast wins wherever it was timed. */
    const char *hook = getenv("LAZYCL_AUTOTUNE_CLBLAST");
    if (st == LC_OK && r.clblast_ms > 0)
        r.clblast = (hook && !strcmp(hook, "win")) || r.clblast_ms < r.ms[best];
    char *text = st == LC_OK ? lc_tunerec_format(&r) : NULL;
    char name[64];
    lc_tunerec_file_name(&r, name, sizeof name);
    pthread_mutex_lock(&lc_tune_lock);
    struct lc_tune_state *s = lc_tune_find(d, t0);
    if (s && st == LC_OK) {
        s->status = LC_TUNE_DONE;
        s->cand = lc_tune_candidate(t0, r.best);
        s->clblast = r.clblast;
        s->best_ms = r.ms[best];
        s->clblast_ms = r.clblast_ms;
        if (!text || lc_disk_record_write("tune", name, text, s->path, sizeof s->path) != 0)
            s->path[0] = '\0';
    } else if (s) {
        s->status = LC_TUNE_FAILED;
    }
    pthread_mutex_unlock(&lc_tune_lock);
    if (lc_debug_level() >= 1) {
        if (st != LC_OK) {
            fprintf(stderr, "[lazycl] gemm autotune on '%s' (%s) failed, keeping the default "
                    "tiles: %s\n", r.device, r.schedule, e.msg);
        } else {
            fprintf(stderr, "[lazycl] gemm autotune on '%s' (%s), %lld^3 float32, %.2f s:\n",
                    r.device, r.schedule, (long long)r.m, lc_tune_now() - start);
            double fl = 2.0 * (double)r.m * (double)r.n * (double)r.k * 1e-6;
            for (int i = 0; i < r.n_candidates; i++)
                fprintf(stderr, "[lazycl]   %-58s %9.3f ms %8.1f GFLOP/s%s\n", r.config[i],
                        r.ms[i], fl / r.ms[i], i == best ? "  <- lazycl's best" : "");
            if (r.clblast_ms > 0)
                fprintf(stderr, "[lazycl]   %-58s %9.3f ms %8.1f GFLOP/s\n", "CLBlast",
                        r.clblast_ms, fl / r.clblast_ms);
            fprintf(stderr, "[lazycl]   plain products: %s\n", r.clblast ? "CLBlast" : "lazycl");
        }
    }
    free(text);
    lc_error_clear(&e);
}

/* ---- explain ------------------------------------------------------------------------- */

void lc_autotune_describe(lc_device_t d, const struct lc_target *t, int blas, char *out,
                          size_t n)
{
    const char *gemm = getenv("LAZYCL_GEMM");
    char cfg[128], why[4400] = "";
    int status = LC_TUNE_UNKNOWN;
    double best_ms = 0, clblast_ms = 0;
    char path[4200] = "";
    int forced = lc_tune_forced(t), mode = lc_tune_mode();
    if (forced < 0 && mode != LC_TUNE_OFF && lc_target_gemm_count(t)) {
        pthread_mutex_lock(&lc_tune_lock);
        struct lc_tune_state *s = lc_tune_find(d, t);
        if (s) {
            status = s->status;
            best_ms = s->best_ms;
            clblast_ms = s->clblast_ms;
            snprintf(path, sizeof path, "%s", s->path[0] ? s->path : "not written: no disk cache");
        }
        pthread_mutex_unlock(&lc_tune_lock);
    }
    if (blas) {
        if (t->gemm_blas == 1)
            snprintf(out, n, "gemm engine: clblast (LAZYCL_GEMM=clblast)");
        else
            snprintf(out, n, "gemm engine: clblast (autotuned: %.3f ms on the problem timed, "
                     "lazycl's best %.3f ms; record %s)", clblast_ms, best_ms, path);
        return;
    }
    lc_target_gemm_name(t, cfg, sizeof cfg);
    if (forced >= 0)
        snprintf(why, sizeof why, "candidate %d, forced by LAZYCL_GEMM_CANDIDATE", forced);
    else if (!lc_target_gemm_count(t))
        snprintf(why, sizeof why, "the target's tiles: nothing to tune");
    else if (mode == LC_TUNE_OFF)
        snprintf(why, sizeof why, "default tiles: LAZYCL_AUTOTUNE=0");
    else if (status == LC_TUNE_READ || status == LC_TUNE_DONE)
        snprintf(why, sizeof why, "autotuned%s; record %s",
                 status == LC_TUNE_DONE ? " in this process" : "", path);
    else if (status == LC_TUNE_FAILED)
        snprintf(why, sizeof why, "default tiles: the autotune failed (LAZYCL_DEBUG=1 says why)");
    else
        snprintf(why, sizeof why, "default tiles: not tuned yet, the first float product of at "
                 "least 2^27 multiply-adds on this device tunes it");
    size_t len = strlen(why);
    if (t->gemm_blas)
        snprintf(why + len, sizeof why - len, "; CLBlast %s takes plain products only",
                 t->gemm_blas == 1 ? "(LAZYCL_GEMM=clblast)" : "(faster here)");
    else if (gemm && !strcmp(gemm, "lazycl"))
        snprintf(why + len, sizeof why - len, "; LAZYCL_GEMM=lazycl");
    snprintf(out, n, "gemm engine: lazycl, %s (%s)", cfg, why);
}
