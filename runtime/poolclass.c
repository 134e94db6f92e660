/* poolclass.c: the buffer pool's size classes (pure: no OpenCL).
 *
 * Classes 0..6 are the powers of two 64 B .. 4 KiB. Above 4 KiB every octave
 * (2^k, 2^(k+1)] is cut in four equal steps of 2^k/4, so a request never gets
 * more than 25% (in fact under 20%) more bytes than it asked for. Sizes above
 * 2^62 have no class: they map to LC_POOL_NO_CLASS, whose size is SIZE_MAX.
 */
#include "runtime/runtime.h"

#include <stdint.h>

#define POOL_SMALL_CLASSES 7u    /* 64 .. 4096 */
#define POOL_SMALL_LOG2 12u      /* 4096 */
#define POOL_MAX_LOG2 62u        /* largest octave start with a class */
#define LC_POOL_NO_CLASS (POOL_SMALL_CLASSES + (POOL_MAX_LOG2 - POOL_SMALL_LOG2 + 1u) * 4u)

/* floor(log2(x)) for x > 0. */
static unsigned ilog2(uint64_t x)
{
    return 63u - (unsigned)__builtin_clzll(x);
}

unsigned lc_pool_class(size_t bytes)
{
    if (bytes <= 64)
        return 0;
    if (bytes <= 4096)
        return ilog2((uint64_t)bytes - 1) + 1 - 6;   /* ceil(log2) - 6 */
    unsigned k = ilog2((uint64_t)bytes - 1);           /* 2^k < bytes <= 2^(k+1) */
    if (k > POOL_MAX_LOG2)
        return LC_POOL_NO_CLASS;
    uint64_t base = (uint64_t)1 << k, step = base / 4;
    unsigned q = (unsigned)(((uint64_t)bytes - base + step - 1) / step);   /* 1..4 */
    return POOL_SMALL_CLASSES + (k - POOL_SMALL_LOG2) * 4u + (q - 1);
}

size_t lc_pool_class_size(unsigned cls)
{
    if (cls < POOL_SMALL_CLASSES)
        return (size_t)64 << cls;
    if (cls >= LC_POOL_NO_CLASS)
        return SIZE_MAX;
    unsigned c = cls - POOL_SMALL_CLASSES;
    unsigned k = POOL_SMALL_LOG2 + c / 4;
    uint64_t base = (uint64_t)1 << k;
    return (size_t)(base + (uint64_t)(c % 4 + 1) * (base / 4));
}
