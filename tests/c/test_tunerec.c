/* test_tunerec.c: the GEMM autotune record (written, read back, anything else refused) and the
 * target's GEMM candidates (no device). */
#include "codegen/codegen.h"
#include "engine/tunerec.h"
#include "lc_test.h"

#include <stdlib.h>
#include <string.h>

static void sample(struct lc_tunerec *r)
{
    memset(r, 0, sizeof *r);
    strcpy(r->lazycl, "0.1.0");
    strcpy(r->device, "dev \"quoted\" \\ back\tslash");   /* escapes survive */
    strcpy(r->platform, "OpenCL 3.0 PoCL");
    strcpy(r->driver, "3.1");
    strcpy(r->schedule, "pocl");
    r->m = 768, r->n = 512, r->k = 256;
    r->n_candidates = 2;
    strcpy(r->config[0], "4 rows x 2 vectors of 8, groups of 16, panels of 256");
    strcpy(r->config[1], "6 rows x 2 vectors of 8, groups of 16, panels of 256");
    r->ms[0] = 18.5, r->ms[1] = 12.25;
    r->clblast_ms = 300.0;
    r->clblast = 0;
    strcpy(r->best, r->config[1]);
}

/* text with its first occurrence of `from` replaced by `to` (malloc'd). */
static char *edit(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        return NULL;
    char *out = malloc(strlen(text) + strlen(to) + 1);
    size_t pre = (size_t)(at - text);
    memcpy(out, text, pre);
    strcpy(out + pre, to);
    strcat(out, at + strlen(from));
    return out;
}

static int parses(const char *text)
{
    struct lc_tunerec r;
    return text && lc_tunerec_parse(text, &r) == 0;
}

static void test_round_trip(void)
{
    struct lc_tunerec a, b;
    sample(&a);
    char *text = lc_tunerec_format(&a);
    CHECK(text != NULL);
    CHECK(lc_tunerec_parse(text, &b) == 0);
    CHECK(!strcmp(a.device, b.device) && !strcmp(a.platform, b.platform) &&
          !strcmp(a.driver, b.driver) && !strcmp(a.lazycl, b.lazycl) &&
          !strcmp(a.schedule, b.schedule));
    CHECK(b.m == 768 && b.n == 512 && b.k == 256 && b.n_candidates == 2);
    CHECK(!strcmp(b.config[1], a.config[1]) && b.ms[1] == 12.25 && b.clblast_ms == 300.0);
    CHECK(b.clblast == 0 && !strcmp(b.best, a.config[1]));
    CHECK(strstr(text, "\"gflops\"") != NULL);   /* for people reading it */

    /* CLBlast chosen; CLBlast not timed. */
    a.clblast = 1;
    char *t2 = lc_tunerec_format(&a);
    CHECK(lc_tunerec_parse(t2, &b) == 0 && b.clblast == 1);
    free(t2);
    a.clblast = 0;
    a.clblast_ms = -1;
    t2 = lc_tunerec_format(&a);
    CHECK(strstr(t2, "\"clblast\": null") != NULL);
    CHECK(lc_tunerec_parse(t2, &b) == 0 && b.clblast_ms < 0 && b.clblast == 0);
    free(t2);

    /* Unknown keys are skipped; whitespace is free. */
    char *t3 = edit(text, "\"format\": 1,", "\"format\": 1, \"note\": {\"x\": [1, \"a\", null]},");
    CHECK(parses(t3));
    free(t3);

    /* Anything else is refused. */
    const char *bad[][2] = {
        {"\"format\": 1", "\"format\": 2"},                 /* another format */
        {"\"choice\": \"lazycl\"", "\"choice\": \"fast\""},  /* an unknown choice */
        {"\"best\": \"6 rows", "\"best\": \"7 rows"},        /* best not among the candidates */
        {"\"ms\": 18.5000", "\"ms\": 0"},                    /* a time not positive */
        {"\"ms\": 18.5000", "\"ms\": \"fast\""},             /* ill-typed */
        {"\"device\"", "\"dev\""},                           /* a field missing */
        {"[768, 512, 256]", "[768, 512]"},                   /* a short problem */
        {"\"clblast\": {\"ms\": 300.0000", "\"clblast\": {\"gflops\": 1"},
        {"}\n", "} trailing"},                               /* text after the object */
        {"\"lazycl\": \"0.1.0\"", "\"lazycl\": \"0.1.0"},    /* an unterminated string */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *t = edit(text, bad[i][0], bad[i][1]);
        CHECK(t != NULL);
        if (!t)
            continue;
        if (parses(t))
            fprintf(stderr, "accepted bad record %zu\n", i);
        CHECK(!parses(t));
        free(t);
    }
    /* Every truncation is refused. */
    size_t n = strlen(text);
    int accepted = 0;
    char *cut = malloc(n + 1);
    for (size_t len = 0; len + 2 < n; len++) {
        memcpy(cut, text, len);
        cut[len] = '\0';
        accepted += parses(cut);
    }
    CHECK(accepted == 0);
    free(cut);
    CHECK(!parses("") && !parses("null") && !parses("[]") && !parses("\x7f" "ELF"));
    /* CLBlast chosen but not timed. */
    a.clblast = 1;
    t2 = lc_tunerec_format(&a);
    CHECK(!parses(t2));
    free(t2);
    free(text);
}

static void test_file_name(void)
{
    struct lc_tunerec a, b;
    char na[64], nb[64];
    sample(&a);
    sample(&b);
    b.ms[0] = 99;   /* timings are not in the name */
    lc_tunerec_file_name(&a, na, sizeof na);
    lc_tunerec_file_name(&b, nb, sizeof nb);
    CHECK(!strcmp(na, nb) && strlen(na) == strlen("gemm-.json") + 32 && !strncmp(na, "gemm-", 5));
    const char *fields[] = {"schedule", "device", "driver", "platform", "lazycl"};
    for (int i = 0; i < 5; i++) {
        sample(&b);
        char *f = i == 0 ? b.schedule : i == 1 ? b.device : i == 2 ? b.driver
                : i == 3 ? b.platform : b.lazycl;
        strcat(f, "x");
        lc_tunerec_file_name(&b, nb, sizeof nb);
        if (!strcmp(na, nb))
            fprintf(stderr, "the name ignores %s\n", fields[i]);
        CHECK(strcmp(na, nb) != 0);
    }
}

/* Every kind's candidates: the first is lc_target_init's default, all are distinct and keep
 * the schedules' invariants. */
static void test_candidates(void)
{
    enum lc_target_kind kinds[] = {LC_TARGET_CPU, LC_TARGET_SIMD, LC_TARGET_GPU};
    for (int k = 0; k < 3; k++) {
        struct lc_target t0, t;
        lc_target_init(&t0, kinds[k], 1, 16, 1024, "dev");
        int n = lc_target_gemm_count(&t0);
        CHECK(n >= 3 && n <= LC_TUNEREC_MAX_CANDIDATES);
        t = t0;
        CHECK(lc_target_gemm_set(&t, 0) == 0 && !memcmp(&t, &t0, sizeof t));
        CHECK(lc_target_gemm_set(&t, n) == -1 && lc_target_gemm_set(&t, -1) == -1);
        char names[LC_TUNEREC_MAX_CANDIDATES][128];
        for (int i = 0; i < n; i++) {
            t = t0;
            CHECK(lc_target_gemm_set(&t, i) == 0);
            lc_target_gemm_name(&t, names[i], sizeof names[i]);
            for (int j = 0; j < i; j++)
                CHECK(strcmp(names[i], names[j]) != 0);
            if (kinds[k] == LC_TARGET_GPU) {
                int G = t.gemm_group;
                CHECK(t.gemm_tile_m % G == 0 && t.gemm_tile_n % G == 0);
                CHECK(t.gemm_tile_m * t.gemm_tile_k % (G * G) == 0 &&
                      t.gemm_tile_n * t.gemm_tile_k % (G * G) == 0);
            } else {
                CHECK(t.gemm_simd_rows > 0 && t.gemm_simd_vectors > 0 && t.gemm_simd_group > 0 &&
                      t.gemm_simd_kc > 0 && t.gemm_simd_kc <= 256);
            }
        }
    }
    /* A GPU too small for the tiles has nothing to tune. */
    struct lc_target small;
    lc_target_init(&small, LC_TARGET_GPU, 1, 16, 128, "dev");
    CHECK(lc_target_gemm_count(&small) == 0);
}

int main(void)
{
    test_round_trip();
    test_file_name();
    test_candidates();
    printf("test_tunerec: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
