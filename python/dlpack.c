/* dlpack.c: lazycl's pure helpers over the DLPack ABI: dtypes and the extent of a strided tensor.
 *
 * No Python and no OpenCL here, so tests/c/test_dlpack.c checks them without a device;
 * py_dlpack.c does the exchange itself.
 */
#include "python/dlpack.h"

#include "graph/dtype.h"

DLDataType lc_dl_dtype(int dt)
{
    DLDataType t = {kDLInt, (uint8_t)(8 * lc_dtype_size(dt)), 1};
    if (dt == LC_BOOL)
        t.code = kDLBool;
    else if (lc_dtype_is_float(dt))
        t.code = kDLFloat;
    else if (lc_dtype_is_complex(dt))
        t.code = kDLComplex;
    else if (!lc_dtype_is_signed(dt))
        t.code = kDLUInt;
    return t;
}

int lc_dl_lc_dtype(DLDataType t)
{
    if (t.lanes != 1)
        return -1;
    switch (t.code) {
    case kDLBool:
        return t.bits == 8 ? LC_BOOL : -1;
    case kDLInt:
        return t.bits == 8 ? LC_INT8 : t.bits == 16 ? LC_INT16 : t.bits == 32 ? LC_INT32
             : t.bits == 64 ? LC_INT64 : -1;
    case kDLUInt:
        return t.bits == 8 ? LC_UINT8 : t.bits == 16 ? LC_UINT16 : t.bits == 32 ? LC_UINT32
             : t.bits == 64 ? LC_UINT64 : -1;
    case kDLFloat:
        return t.bits == 32 ? LC_FLOAT32 : t.bits == 64 ? LC_FLOAT64 : -1;
    case kDLComplex:
        return t.bits == 64 ? LC_COMPLEX64 : t.bits == 128 ? LC_COMPLEX128 : -1;
    default:
        return -1;
    }
}

int lc_dl_extent(int ndim, const int64_t *shape, const int64_t *strides, int64_t *lo, int64_t *hi)
{
    *lo = *hi = 0;
    for (int d = 0; d < ndim; d++)
        if (shape[d] == 0)
            return 0;
    int64_t l = 0, h = 0, row = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        int64_t s = strides ? strides[d] : row, span;
        if (__builtin_mul_overflow(shape[d] - 1, s, &span))
            return -1;
        if (span < 0 ? __builtin_add_overflow(l, span, &l) : __builtin_add_overflow(h, span, &h))
            return -1;
        if (!strides && __builtin_mul_overflow(row, shape[d], &row))
            return -1;
    }
    *lo = l;
    *hi = h + 1;
    return 1;
}
