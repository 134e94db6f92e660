/* devtarget.c: each device's struct lc_target, made once per device and kernel kind.
 *
 * Devices live until exit, and so do their entries: a list guarded by lc_devtarget_lock,
 * searched at each force (a few devices at most), each entry holding the device's facts
 * that pick its kind and the targets made for it so far.
 */
#include "engine/devtarget.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct lc_devtarget {
    lc_device_t dev;
    int gpu;                          /* the device's own kind */
    unsigned made;                    /* bit k: targets[k] is made */
    struct lc_target targets[3];      /* per enum lc_target_kind */
    struct lc_devtarget *next;
};

static pthread_mutex_t lc_devtarget_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lc_devtarget *lc_devtargets;   /* never freed */

static void lc_devtarget_facts(lc_device_t d, int *gpu)
{
    const struct lc_device_info *di = lc_device_info(d);
    *gpu = di->type == LC_DEVICE_GPU || di->type == LC_DEVICE_ACCELERATOR;
}

static void lc_devtarget_make(lc_device_t d, enum lc_target_kind kind, struct lc_target *t)
{
    const struct lc_device_info *di = lc_device_info(d);
    lc_target_init(t, kind, di->fp64, di->compute_units, di->max_work_group, di->name);
    t->roll_loops = kind == LC_TARGET_GPU && di->type != LC_DEVICE_GPU &&
                    di->type != LC_DEVICE_ACCELERATOR;
    if (t->simd && di->pref_vec_float >= 16)
        t->simd_random = 16;
    /* The SIMD kind's runtime changes, on CPU devices only: forced onto a GPU or Oclgrind's
     * simulator (LAZYCL_SCHEDULE=simd), it keeps the whole profile. */
    char filter[64];   /* the runtime's name for the platform: "pocl:cpu:0" */
    lc_device_filter_string(d, filter, sizeof filter);
    if (kind == LC_TARGET_SIMD && !strncmp(filter, "pocl:", 5)) {
        lc_target_for_pocl(t, lc_pocl_major(di->platform_version));
        t->simd_math_bits = (int)di->pref_vec_float * 32;   /* its native vector's bits */
    } else if (kind == LC_TARGET_SIMD && di->type == LC_DEVICE_CPU)
        lc_target_for_cpu_runtime(t, di->vec_len_hint);
}

void lc_engine_target(lc_device_t d, struct lc_target *t)
{
    pthread_mutex_lock(&lc_devtarget_lock);
    struct lc_devtarget *e = lc_devtargets;
    while (e && e->dev != d)
        e = e->next;
    if (!e && (e = calloc(1, sizeof *e)) != NULL) {
        e->dev = d;
        lc_devtarget_facts(d, &e->gpu);
        e->next = lc_devtargets;
        lc_devtargets = e;
    }
    if (!e) {   /* out of host memory: made for this call alone */
        int gpu;
        lc_devtarget_facts(d, &gpu);
        pthread_mutex_unlock(&lc_devtarget_lock);
        lc_devtarget_make(d, lc_target_kind_of(gpu), t);
        return;
    }
    enum lc_target_kind kind = lc_target_kind_of(e->gpu);
    if (!(e->made & (1u << kind))) {
        lc_devtarget_make(d, kind, &e->targets[kind]);
        e->made |= 1u << kind;
    }
    memcpy(t, &e->targets[kind], sizeof *t);   /* padding too: the plan cache hashes the bytes */
    pthread_mutex_unlock(&lc_devtarget_lock);
}
