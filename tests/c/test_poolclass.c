/* test_poolclass.c: the buffer pool's size classes (no device needed). */
#include "runtime/runtime.h"

#include <stdint.h>
#include <stdio.h>

#include "lc_test.h"

/* Count a whole loop as one check, reporting the first failure only. */
#define CHECK_ALL(cond, fmt, ...)                                                   \
    do {                                                                            \
        if (!(cond)) {                                                              \
            if (ok)                                                                 \
                fprintf(stderr, "%s:%d: " fmt "\n", __FILE__, __LINE__, __VA_ARGS__); \
            ok = 0;                                                                 \
        }                                                                           \
    } while (0)

int main(void)
{
    /* Tiny sizes: 0 and 1 get the smallest class of 64 bytes. */
    CHECK(lc_pool_class(0) == 0);
    CHECK(lc_pool_class(1) == 0);
    CHECK(lc_pool_class(64) == 0);
    CHECK(lc_pool_class_size(0) == 64);
    CHECK(lc_pool_class(65) == 1);
    CHECK(lc_pool_class_size(1) == 128);
    CHECK(lc_pool_class_size(lc_pool_class(4096)) == 4096);
    CHECK(lc_pool_class_size(lc_pool_class(4097)) == 5120);
    CHECK(lc_pool_class_size(lc_pool_class(8192)) == 8192);
    CHECK(lc_pool_class_size(lc_pool_class(8193)) == 10240);
    CHECK(lc_pool_class_size(lc_pool_class((size_t)1 << 26)) == (size_t)1 << 26);

    /* Below 4 KiB: powers of two. */
    int ok = 1;
    for (size_t b = 1; b <= 4096; b++) {
        size_t c = lc_pool_class_size(lc_pool_class(b));
        CHECK_ALL(c >= b && c >= 64 && (c & (c - 1)) == 0 && (c == 64 || c / 2 < b),
                  "size %zu -> class size %zu", b, c);
    }
    CHECK(ok);

    /* Every size fits its class, the class before it is too small, classes
     * are monotone in size, and above 4 KiB the waste stays under 25%. */
    ok = 1;
    size_t sizes[] = {4097, 5000, 5120, 5121, 6143, 6144, 7000, 8191, 8192, 8193, 12345, 65535, 65536,
                      65537, 1000000, 16777216, 16777217, 67108863, 123456789, (size_t)1 << 40,
                      ((size_t)1 << 40) + 1, ((size_t)1 << 62) - 1, (size_t)1 << 62};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t b = sizes[i];
        unsigned cls = lc_pool_class(b);
        size_t c = lc_pool_class_size(cls);
        CHECK_ALL(c >= b, "size %zu -> class size %zu too small", b, c);
        CHECK_ALL(cls == 0 || lc_pool_class_size(cls - 1) < b, "size %zu: class %u not the smallest", b, cls);
        CHECK_ALL((double)(c - b) / (double)c < 0.25, "size %zu -> %zu wastes >= 25%%", b, c);
    }
    for (size_t b = 4097; b < 1u << 20; b += 37) {
        size_t c = lc_pool_class_size(lc_pool_class(b));
        CHECK_ALL(c >= b && (double)(c - b) / (double)c < 0.25, "size %zu -> %zu", b, c);
    }
    CHECK(ok);

    ok = 1;
    unsigned last = lc_pool_class((size_t)1 << 62);
    for (unsigned cls = 1; cls <= last; cls++) {
        CHECK_ALL(lc_pool_class_size(cls) > lc_pool_class_size(cls - 1), "class %u not above %u", cls, cls - 1);
        CHECK_ALL(lc_pool_class(lc_pool_class_size(cls)) == cls, "class %u does not round-trip", cls);
    }
    CHECK(ok);

    /* Monotone over a sweep of sizes. */
    ok = 1;
    unsigned prev = 0;
    for (size_t b = 1; b < ((size_t)1 << 40); b = b + b / 7 + 1) {
        unsigned cls = lc_pool_class(b);
        CHECK_ALL(cls >= prev, "size %zu: class %u below %u", b, cls, prev);
        prev = cls;
    }
    CHECK(ok);

    /* Beyond the last class: no class, size SIZE_MAX. */
    CHECK(lc_pool_class_size(lc_pool_class(SIZE_MAX)) == SIZE_MAX);
    CHECK(lc_pool_class(SIZE_MAX) > last);

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
