/* tunerec.c: the GEMM autotune record as JSON: written, and read back strictly (tunerec.h). */
#include "engine/tunerec.h"

#include "codegen/codegen.h"
#include "runtime/runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ------------------------------------------------------------------------ */

/* s as a JSON string: quotes, backslashes and control characters escaped. */
static void lc_json_string(struct lc_sb *sb, const char *s)
{
    lc_sb_printf(sb, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            lc_sb_printf(sb, "\\%c", *p);
        else if (*p < 0x20)
            lc_sb_printf(sb, "\\u%04x", *p);
        else
            lc_sb_printf(sb, "%c", *p);
    }
    lc_sb_printf(sb, "\"");
}

static double lc_gflops(const struct lc_tunerec *r, double ms)
{
    return 2.0 * (double)r->m * (double)r->n * (double)r->k / (ms * 1e-3) * 1e-9;
}

char *lc_tunerec_format(const struct lc_tunerec *r)
{
    struct lc_sb sb = {0};
    lc_sb_printf(&sb, "{\n  \"format\": %d,\n  \"lazycl\": ", LC_TUNEREC_FORMAT);
    lc_json_string(&sb, r->lazycl);
    lc_sb_printf(&sb, ",\n  \"device\": ");
    lc_json_string(&sb, r->device);
    lc_sb_printf(&sb, ",\n  \"platform\": ");
    lc_json_string(&sb, r->platform);
    lc_sb_printf(&sb, ",\n  \"driver\": ");
    lc_json_string(&sb, r->driver);
    lc_sb_printf(&sb, ",\n  \"schedule\": ");
    lc_json_string(&sb, r->schedule);
    lc_sb_printf(&sb, ",\n  \"problem\": [%lld, %lld, %lld],\n  \"candidates\": [",
                 (long long)r->m, (long long)r->n, (long long)r->k);
    for (int i = 0; i < r->n_candidates; i++) {
        lc_sb_printf(&sb, "%s\n    {\"config\": ", i ? "," : "");
        lc_json_string(&sb, r->config[i]);
        lc_sb_printf(&sb, ", \"ms\": %.4f, \"gflops\": %.2f}", r->ms[i], lc_gflops(r, r->ms[i]));
    }
    lc_sb_printf(&sb, "\n  ],\n  \"clblast\": ");
    if (r->clblast_ms > 0)
        lc_sb_printf(&sb, "{\"ms\": %.4f, \"gflops\": %.2f}", r->clblast_ms,
                     lc_gflops(r, r->clblast_ms));
    else
        lc_sb_printf(&sb, "null");
    lc_sb_printf(&sb, ",\n  \"choice\": \"%s\",\n  \"best\": ", r->clblast ? "clblast" : "lazycl");
    lc_json_string(&sb, r->best);
    lc_sb_printf(&sb, "\n}\n");
    if (sb.oom) {
        lc_sb_free(&sb);
        return NULL;
    }
    return sb.s;
}

void lc_tunerec_file_name(const struct lc_tunerec *r, char *out, size_t n)
{
    char fmt[32], hex[33];
    snprintf(fmt, sizeof fmt, "lazycl-gemm-tune-v%d", LC_TUNEREC_FORMAT);
    struct lc_cache_key k = lc_cache_key_make(fmt, r->schedule, r->device, r->platform,
                                              r->driver, r->lazycl);
    lc_cache_key_hex(k, hex);
    snprintf(out, n, "gemm-%s.json", hex);
}

/* ---- reading: the subset of JSON written above -------------------------------------- */

struct lc_json {
    const char *p;
    int bad;
};

static void lc_json_ws(struct lc_json *j)
{
    if (j->bad)   /* p may stand anywhere after an error: read nothing more */
        return;
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
        j->p++;
}

static int lc_json_eat(struct lc_json *j, char c)
{
    lc_json_ws(j);
    if (j->bad || *j->p != c)
        return 0;
    j->p++;
    return 1;
}

/* A string into out (n bytes, NUL-terminated; too long is an error). */
static int lc_json_str(struct lc_json *j, char *out, size_t n)
{
    size_t len = 0;
    if (!lc_json_eat(j, '"'))
        return j->bad = 1, -1;
    for (;;) {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20)   /* the end of the text (never stepped over), or a control character */
            return j->bad = 1, -1;
        j->p++;
        if (c == '"')
            break;
        if (c == '\\') {
            char e = *j->p;
            if (!e)
                return j->bad = 1, -1;
            j->p++;
            if (e == 'u') {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    char h = *j->p;
                    int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                          : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                    if (d < 0)
                        return j->bad = 1, -1;
                    j->p++;
                    v = v * 16 + (unsigned)d;
                }
                if (v >= 0x80)
                    return j->bad = 1, -1;
                c = (unsigned char)v;
            } else if (e == '"' || e == '\\' || e == '/') {
                c = (unsigned char)e;
            } else {
                return j->bad = 1, -1;
            }
        }
        if (len + 1 >= n)
            return j->bad = 1, -1;
        out[len++] = (char)c;
    }
    out[len] = '\0';
    return 0;
}

static double lc_json_num(struct lc_json *j)
{
    lc_json_ws(j);
    char *end;
    double v = strtod(j->p, &end);
    if (end == j->p || !isfinite(v))
        return j->bad = 1, 0;
    j->p = end;
    return v;
}

/* Skip one value of any kind (unknown keys), nesting at most 8 deep. */
static void lc_json_skip(struct lc_json *j, int depth)
{
    lc_json_ws(j);
    char tmp[256];
    if (depth > 8) {
        j->bad = 1;
    } else if (*j->p == '"') {
        lc_json_str(j, tmp, sizeof tmp);
    } else if (*j->p == '{' || *j->p == '[') {
        char close = *j->p == '{' ? '}' : ']';
        j->p++;
        if (lc_json_eat(j, close))
            return;
        do {
            if (close == '}') {
                lc_json_str(j, tmp, sizeof tmp);
                if (!lc_json_eat(j, ':'))
                    j->bad = 1;
            }
            lc_json_skip(j, depth + 1);
        } while (!j->bad && lc_json_eat(j, ','));
        if (!lc_json_eat(j, close))
            j->bad = 1;
    } else if (!strncmp(j->p, "null", 4) || !strncmp(j->p, "true", 4)) {
        j->p += 4;
    } else if (!strncmp(j->p, "false", 5)) {
        j->p += 5;
    } else {
        lc_json_num(j);
    }
}

/* {"ms": x, "gflops": y, ...} or, where `config` is given, {"config": s, "ms": x, ...}. */
static double lc_json_timing(struct lc_json *j, char *config, size_t n)
{
    double ms = -1;
    int have_config = 0;
    char key[32];
    if (!lc_json_eat(j, '{'))
        return j->bad = 1, -1;
    do {
        if (lc_json_str(j, key, sizeof key) < 0 || !lc_json_eat(j, ':'))
            return j->bad = 1, -1;
        if (!strcmp(key, "ms"))
            ms = lc_json_num(j);
        else if (config && !strcmp(key, "config"))
            have_config = lc_json_str(j, config, n) == 0;
        else
            lc_json_skip(j, 1);
    } while (!j->bad && lc_json_eat(j, ','));
    if (!lc_json_eat(j, '}') || !(ms > 0) || (config && !have_config))
        j->bad = 1;
    return ms;
}

int lc_tunerec_parse(const char *text, struct lc_tunerec *r)
{
    memset(r, 0, sizeof *r);
    r->clblast_ms = -1;
    struct lc_json j = {text, 0};
    char key[32], choice[16] = "";
    int format = -1, have_problem = 0, have_clblast = 0;
    unsigned seen = 0;   /* bit per string field found */
    if (!text || !lc_json_eat(&j, '{'))
        return -1;
    do {
        if (lc_json_str(&j, key, sizeof key) < 0 || !lc_json_eat(&j, ':'))
            return -1;
        struct { const char *name; char *out; size_t n; } strs[] = {
            {"lazycl", r->lazycl, sizeof r->lazycl}, {"device", r->device, sizeof r->device},
            {"platform", r->platform, sizeof r->platform}, {"driver", r->driver, sizeof r->driver},
            {"schedule", r->schedule, sizeof r->schedule}, {"choice", choice, sizeof choice},
            {"best", r->best, sizeof r->best}};
        int s = -1;
        for (int i = 0; i < (int)(sizeof strs / sizeof *strs); i++)
            if (!strcmp(key, strs[i].name))
                s = i;
        if (s >= 0) {
            lc_json_str(&j, strs[s].out, strs[s].n);
            seen |= 1u << s;
        } else if (!strcmp(key, "format")) {
            format = (int)lc_json_num(&j);
        } else if (!strcmp(key, "problem")) {
            double v[3];
            int ok = lc_json_eat(&j, '[');
            for (int i = 0; ok && i < 3; i++) {
                v[i] = lc_json_num(&j);
                ok = !j.bad && v[i] >= 1 && v[i] < 1e9 && (i == 2 || lc_json_eat(&j, ','));
            }
            if (!ok || !lc_json_eat(&j, ']'))
                return -1;
            r->m = (int64_t)v[0];
            r->n = (int64_t)v[1];
            r->k = (int64_t)v[2];
            have_problem = 1;
        } else if (!strcmp(key, "candidates")) {
            if (!lc_json_eat(&j, '['))
                return -1;
            do {
                if (r->n_candidates == LC_TUNEREC_MAX_CANDIDATES)
                    return -1;
                int c = r->n_candidates++;
                r->ms[c] = lc_json_timing(&j, r->config[c], sizeof r->config[c]);
            } while (!j.bad && lc_json_eat(&j, ','));
            if (!lc_json_eat(&j, ']'))
                return -1;
        } else if (!strcmp(key, "clblast")) {
            lc_json_ws(&j);
            if (!strncmp(j.p, "null", 4))
                j.p += 4;
            else
                r->clblast_ms = lc_json_timing(&j, NULL, 0);
            have_clblast = 1;
        } else {
            lc_json_skip(&j, 1);
        }
        if (j.bad)
            return -1;
    } while (lc_json_eat(&j, ','));
    if (!lc_json_eat(&j, '}'))
        return -1;
    lc_json_ws(&j);
    if (*j.p || format != LC_TUNEREC_FORMAT || seen != 0x7f || !have_problem || !have_clblast ||
        r->n_candidates < 1)
        return -1;
    if (!strcmp(choice, "clblast"))
        r->clblast = 1;
    else if (strcmp(choice, "lazycl") != 0)
        return -1;
    if (r->clblast && !(r->clblast_ms > 0))
        return -1;
    for (int i = 0; i < r->n_candidates; i++)
        if (!strcmp(r->config[i], r->best))
            return 0;
    return -1;
}
