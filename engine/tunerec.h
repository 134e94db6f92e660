/* tunerec.h: the GEMM autotuner's record: what was timed on a device and what won (pure: no
 * OpenCL; engine/autotune.c reads and writes it through the disk cache).
 *
 * A record is a small JSON object, written by lc_tunerec_format and read back by
 * lc_tunerec_parse, which accepts exactly that shape (keys in any order, unknown keys
 * skipped) and rejects anything else: a truncated, corrupt or foreign file is never applied.
 */
#ifndef LC_ENGINE_TUNEREC_H
#define LC_ENGINE_TUNEREC_H

#include <stddef.h>
#include <stdint.h>

#define LC_TUNEREC_FORMAT 1
#define LC_TUNEREC_MAX_CANDIDATES 8

struct lc_tunerec {
    /* Whose it is: a record is applied only where all of these are the device's. */
    char lazycl[32];              /* LAZYCL_VERSION */
    char device[256], platform[256], driver[256];
    char schedule[16];            /* the target kind: "gpu", "pocl" or "cpu" */
    /* What was timed: one float32 product M x K @ K x N. */
    int64_t m, n, k;
    int n_candidates;
    char config[LC_TUNEREC_MAX_CANDIDATES][128];   /* lc_target_gemm_name of each candidate */
    double ms[LC_TUNEREC_MAX_CANDIDATES];          /* its best time, milliseconds */
    double clblast_ms;            /* CLBlast's best time; < 0: not timed (not installed, failed) */
    /* What won. */
    int clblast;                  /* plain products go to CLBlast */
    char best[128];               /* lazycl's fastest candidate (one of config[]) */
};

/* The record as JSON text (malloc'd; NULL when out of memory). */
char *lc_tunerec_format(const struct lc_tunerec *r);
/* Parse JSON text written by lc_tunerec_format into *r: 0, or -1 when it is not such a record
 * (bad syntax, a missing or ill-typed field, another format, `best` not among the candidates,
 * a time not positive). */
int lc_tunerec_parse(const char *text, struct lc_tunerec *r);
/* The record's file name for its identity fields: "gemm-<32 hex>.json", the hex an XXH3-128
 * of the format, lazycl version, device, platform, driver and schedule. */
void lc_tunerec_file_name(const struct lc_tunerec *r, char *out, size_t n);

#endif
