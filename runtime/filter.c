/* filter.c: device filter strings `[platform:]type[:index]` (pure: no OpenCL). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* strcasecmp and friends under -std=c11 too */
#endif
#include "runtime/runtime.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LC_FILTER_FORM "the form is [platform:]type[:index], type one of cpu, gpu, accelerator (accel), " \
                       "all, any or *; e.g. \"cpu\", \"gpu:0\", \"pocl:cpu\", \"nvidia:gpu:1\""

/* The type mask a word names, or 0 when it names none. */
static int filter_type(const char *w)
{
    static const struct { const char *name; int mask; } types[] = {
        {"cpu", LC_DEVICE_CPU},
        {"gpu", LC_DEVICE_GPU},
        {"accelerator", LC_DEVICE_ACCELERATOR},
        {"accel", LC_DEVICE_ACCELERATOR},
        {"all", LC_DEVICE_CPU | LC_DEVICE_GPU | LC_DEVICE_ACCELERATOR | LC_DEVICE_OTHER},
        {"any", LC_DEVICE_CPU | LC_DEVICE_GPU | LC_DEVICE_ACCELERATOR | LC_DEVICE_OTHER},
        {"*", LC_DEVICE_CPU | LC_DEVICE_GPU | LC_DEVICE_ACCELERATOR | LC_DEVICE_OTHER},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcasecmp(w, types[i].name) == 0)
            return types[i].mask;
    return 0;
}

/* Parse a non-negative decimal index; -1 when `w` is not one. */
static int filter_index(const char *w)
{
    if (!*w)
        return -1;
    for (const char *p = w; *p; p++)
        if (!isdigit((unsigned char)*p))
            return -1;
    errno = 0;
    long v = strtol(w, NULL, 10);
    if (errno || v > 1000000)
        return -1;
    return (int)v;
}

lc_status lc_filter_parse(const char *s, struct lc_filter *f, struct lc_error *e)
{
    memset(f, 0, sizeof *f);
    f->index = -1;
    if (!s)
        return lc_error_set(e, LC_ERR_INVALID, "empty device filter string: " LC_FILTER_FORM);

    /* Trim surrounding white space into a local copy, then split on ':'. */
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    char buf[256];
    if (n == 0)
        return lc_error_set(e, LC_ERR_INVALID, "empty device filter string: " LC_FILTER_FORM);
    if (n >= sizeof buf)
        return lc_error_set(e, LC_ERR_INVALID, "device filter string too long (%zu characters)", n);
    memcpy(buf, s, n);
    buf[n] = '\0';

    char *parts[3];
    int np = 0;
    char *p = buf;
    for (;;) {
        parts[np++] = p;
        char *c = strchr(p, ':');
        if (!c)
            break;
        if (np == 3)
            return lc_error_set(e, LC_ERR_INVALID, "bad device filter string \"%.*s\": too many ':' "
                                "parts; " LC_FILTER_FORM, (int)n, s);
        *c = '\0';
        p = c + 1;
    }
    for (int i = 0; i < np; i++)
        if (!parts[i][0])
            return lc_error_set(e, LC_ERR_INVALID, "bad device filter string \"%.*s\": empty part; "
                                LC_FILTER_FORM, (int)n, s);

    /* Which part is the type: the first part that names one, where the
     * parts before it are at most a platform. */
    int ti;
    if (np == 1) {
        ti = 0;
    } else if (np == 3) {
        ti = 1;
    } else {
        /* two parts: "platform:type" or "type:index" */
        ti = filter_type(parts[0]) && filter_index(parts[1]) >= 0 ? 0 : 1;
    }
    f->type = filter_type(parts[ti]);
    if (!f->type) {
        if (np == 1 && filter_index(parts[0]) < 0)
            return lc_error_set(e, LC_ERR_INVALID, "bad device filter string \"%.*s\": \"%s\" is not a "
                                "device type (a platform alone is not allowed); " LC_FILTER_FORM,
                                (int)n, s, parts[ti]);
        return lc_error_set(e, LC_ERR_INVALID, "bad device filter string \"%.*s\": \"%s\" is not a "
                            "device type; " LC_FILTER_FORM, (int)n, s, parts[ti]);
    }
    if (ti == 1) {
        if (strlen(parts[0]) >= sizeof f->platform)
            return lc_error_set(e, LC_ERR_INVALID, "bad device filter string: platform name too long");
        if (filter_type(parts[0]))
            return lc_error_set(e, LC_ERR_INVALID, "bad device filter string \"%.*s\": \"%s\" is a type, "
                                "not a platform; " LC_FILTER_FORM, (int)n, s, parts[0]);
        strcpy(f->platform, parts[0]);
    }
    if (ti + 1 < np) {
        f->index = filter_index(parts[ti + 1]);
        if (f->index < 0)
            return lc_error_set(e, LC_ERR_INVALID, "bad device filter string \"%.*s\": \"%s\" is not a "
                                "device index (a number >= 0); " LC_FILTER_FORM, (int)n, s,
                                parts[ti + 1]);
    }
    return LC_OK;
}

/* Case-insensitive substring test. */
static int contains_nocase(const char *hay, const char *needle)
{
    size_t nn = strlen(needle);
    if (nn == 0)
        return 1;
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, nn) == 0)
            return 1;
    return 0;
}

int lc_filter_match(const struct lc_filter *f, const char *platform_name, int type)
{
    if (!(f->type & type))
        return 0;
    if (f->platform[0] && !contains_nocase(platform_name ? platform_name : "", f->platform))
        return 0;
    return 1;
}
