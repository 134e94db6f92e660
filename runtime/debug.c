/* debug.c: LAZYCL_DEBUG and LAZYCL_DUMP, read once; on/off switches of the environment; the
 * debug log; a monotonic clock. */
#include "runtime/cl_util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_once_t debug_once = PTHREAD_ONCE_INIT;
static int debug_level;
static char dump_dir[4096];
static int have_dump;

static void debug_read_env(void)
{
    const char *s = getenv("LAZYCL_DEBUG");
    if (s && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        debug_level = (*end == '\0' && v >= 0) ? (v > 100 ? 100 : (int)v) : 1;
    }
    s = getenv("LAZYCL_DUMP");
    if (s && *s && strlen(s) < sizeof dump_dir) {
        strcpy(dump_dir, s);
        have_dump = 1;
    }
}

int lc_debug_level(void)
{
    pthread_once(&debug_once, debug_read_env);
    return debug_level;
}

const char *lc_dump_dir(void)
{
    pthread_once(&debug_once, debug_read_env);
    return have_dump ? dump_dir : NULL;
}

int lc_env_on(atomic_int *cache, const char *name)
{
    int v = atomic_load(cache);
    if (v < 0) {
        const char *s = getenv(name);
        v = !(s && !strcmp(s, "0"));
        atomic_store(cache, v);
    }
    return v;
}

void lc_log(int level, const char *fmt, ...)
{
    if (lc_debug_level() < level)
        return;
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* One fprintf per line so that lines from several threads do not interleave. */
    fprintf(stderr, "lazycl: %s\n", line);
}

unsigned long long lc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
