/* test_dlpack.c: the DLPack ABI structs and lazycl's pure helpers over them (no device). */
#include "python/dlpack.h"

#include "graph/dtype.h"

#include <stddef.h>
#include <stdio.h>

#include "lc_test.h"

int main(void)
{
    /* The layout the DLPack 1.0 spec gives on LP64 (x86-64, aarch64). */
    CHECK(sizeof(DLDevice) == 8);
    CHECK(sizeof(DLDataType) == 4);
    CHECK(offsetof(DLTensor, device) == 8);
    CHECK(offsetof(DLTensor, ndim) == 16);
    CHECK(offsetof(DLTensor, dtype) == 20);
    CHECK(offsetof(DLTensor, shape) == 24);
    CHECK(offsetof(DLTensor, strides) == 32);
    CHECK(offsetof(DLTensor, byte_offset) == 40);
    CHECK(sizeof(DLTensor) == 48);
    CHECK(offsetof(DLManagedTensor, manager_ctx) == 48);
    CHECK(offsetof(DLManagedTensor, deleter) == 56);
    CHECK(sizeof(DLManagedTensor) == 64);
    CHECK(offsetof(DLManagedTensorVersioned, manager_ctx) == 8);
    CHECK(offsetof(DLManagedTensorVersioned, deleter) == 16);
    CHECK(offsetof(DLManagedTensorVersioned, flags) == 24);
    CHECK(offsetof(DLManagedTensorVersioned, dl_tensor) == 32);
    CHECK(sizeof(DLManagedTensorVersioned) == 80);
    CHECK(DLPACK_FLAG_BITMASK_READ_ONLY == 1 && DLPACK_FLAG_BITMASK_IS_COPIED == 2);

    /* dtypes both ways: every lazycl dtype round-trips, with the spec's codes. */
    for (int dt = 0; dt < LC_NDTYPES; dt++) {
        DLDataType t = lc_dl_dtype(dt);
        CHECK(t.lanes == 1 && t.bits == 8 * lc_dtype_size(dt));
        CHECK(lc_dl_lc_dtype(t) == dt);
    }
    CHECK(lc_dl_dtype(LC_BOOL).code == kDLBool);
    CHECK(lc_dl_dtype(LC_INT16).code == kDLInt);
    CHECK(lc_dl_dtype(LC_UINT64).code == kDLUInt);
    CHECK(lc_dl_dtype(LC_FLOAT32).code == kDLFloat);
    CHECK(lc_dl_lc_dtype((DLDataType){kDLFloat, 16, 1}) == -1);      /* float16 */
    CHECK(lc_dl_lc_dtype((DLDataType){kDLBfloat, 16, 1}) == -1);
    CHECK(lc_dl_lc_dtype((DLDataType){kDLComplex, 64, 1}) == LC_COMPLEX64);
    CHECK(lc_dl_lc_dtype((DLDataType){kDLComplex, 32, 1}) == -1);     /* complex32 */
    CHECK(lc_dl_lc_dtype((DLDataType){kDLFloat, 32, 4}) == -1);      /* vector lanes */
    CHECK(lc_dl_lc_dtype((DLDataType){kDLBool, 1, 1}) == -1);        /* bit-packed bool */
    CHECK(lc_dl_lc_dtype((DLDataType){kDLUInt, 8, 1}) == LC_UINT8);

    /* Extents, in elements relative to element 0. */
    int64_t lo, hi;
    int64_t s23[] = {2, 3};
    CHECK(lc_dl_extent(2, s23, NULL, &lo, &hi) == 1 && lo == 0 && hi == 6);
    int64_t st_t[] = {1, 2};                                           /* a transpose */
    CHECK(lc_dl_extent(2, s23, st_t, &lo, &hi) == 1 && lo == 0 && hi == 6);
    int64_t st_neg[] = {-3, -1};                                       /* both flipped */
    CHECK(lc_dl_extent(2, s23, st_neg, &lo, &hi) == 1 && lo == -5 && hi == 1);
    int64_t st_b[] = {0, 1};                                           /* a broadcast */
    CHECK(lc_dl_extent(2, s23, st_b, &lo, &hi) == 1 && lo == 0 && hi == 3);
    int64_t st_step[] = {6, 2};                                        /* x[::2, ::2] of 4x6 */
    CHECK(lc_dl_extent(2, s23, st_step, &lo, &hi) == 1 && lo == 0 && hi == 11);
    CHECK(lc_dl_extent(0, NULL, NULL, &lo, &hi) == 1 && lo == 0 && hi == 1);   /* 0-d */
    int64_t s0[] = {3, 0};
    CHECK(lc_dl_extent(2, s0, NULL, &lo, &hi) == 0 && lo == 0 && hi == 0);     /* empty */
    int64_t big[] = {INT64_MAX / 2, 4};
    int64_t st_big[] = {8, 1};
    CHECK(lc_dl_extent(2, big, st_big, &lo, &hi) == -1);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
