/* dtype.c: dtype facts and NumPy 2 type promotion. */
#include "graph/dtype.h"

#include <string.h>

static const struct {
    const char *name, *cl, *tag;
    char kind;
    unsigned char size;
} lc_dtypes[LC_NDTYPES] = {
    [LC_BOOL] = {"bool", "uchar", "b1", 'b', 1},
    [LC_INT8] = {"int8", "char", "i8", 'i', 1},
    [LC_INT16] = {"int16", "short", "i16", 'i', 2},
    [LC_INT32] = {"int32", "int", "i32", 'i', 4},
    [LC_INT64] = {"int64", "long", "i64", 'i', 8},
    [LC_UINT8] = {"uint8", "uchar", "u8", 'u', 1},
    [LC_UINT16] = {"uint16", "ushort", "u16", 'u', 2},
    [LC_UINT32] = {"uint32", "uint", "u32", 'u', 4},
    [LC_UINT64] = {"uint64", "ulong", "u64", 'u', 8},
    [LC_FLOAT32] = {"float32", "float", "f32", 'f', 4},
    [LC_FLOAT64] = {"float64", "double", "f64", 'f', 8},
    [LC_COMPLEX64] = {"complex64", "float2", "c64", 'c', 8},
    [LC_COMPLEX128] = {"complex128", "double2", "c128", 'c', 16},
};

char lc_dtype_kind(int dt) { return lc_dtypes[dt].kind; }
size_t lc_dtype_size(int dt) { return lc_dtypes[dt].size; }
const char *lc_dtype_name(int dt) { return lc_dtypes[dt].name; }
const char *lc_dtype_cl(int dt) { return lc_dtypes[dt].cl; }
const char *lc_dtype_short(int dt) { return lc_dtypes[dt].tag; }
int lc_dtype_is_int(int dt) { return lc_dtypes[dt].kind == 'i' || lc_dtypes[dt].kind == 'u'; }
int lc_dtype_is_float(int dt) { return lc_dtypes[dt].kind == 'f'; }
int lc_dtype_is_complex(int dt) { return lc_dtypes[dt].kind == 'c'; }
int lc_dtype_is_inexact(int dt) { return lc_dtypes[dt].kind == 'f' || lc_dtypes[dt].kind == 'c'; }
int lc_dtype_is_signed(int dt) { return lc_dtypes[dt].kind != 'b' && lc_dtypes[dt].kind != 'u'; }

int lc_dtype_real_of(int dt)
{
    return dt == LC_COMPLEX64 ? LC_FLOAT32 : dt == LC_COMPLEX128 ? LC_FLOAT64 : dt;
}

int lc_dtype_complex_of(int dt)
{
    if (lc_dtypes[dt].kind == 'c')
        return dt;
    if (dt == LC_FLOAT32 || (lc_dtypes[dt].kind != 'f' && lc_dtypes[dt].size <= 2))
        return LC_COMPLEX64;
    return LC_COMPLEX128;
}

int lc_dtype_from_name(const char *name)
{
    for (int i = 0; i < LC_NDTYPES; i++)
        if (strcmp(name, lc_dtypes[i].name) == 0)
            return i;
    return -1;
}

static int lc_signed_of_size(size_t size)
{
    switch (size) {
    case 1: return LC_INT8;
    case 2: return LC_INT16;
    case 4: return LC_INT32;
    case 8: return LC_INT64;
    }
    return -1;
}

int lc_dtype_promote(int a, int b)
{
    if (a == b)
        return a;
    char ka = lc_dtypes[a].kind, kb = lc_dtypes[b].kind;
    size_t sa = lc_dtypes[a].size, sb = lc_dtypes[b].size;
    if (ka == 'b')
        return b;
    if (kb == 'b')
        return a;
    if (ka == 'c' || kb == 'c') {
        /* Complex of at least the other side's precision: complex64 with
         * float64 or a 32-bit integer is complex128. */
        int c = ka == 'c' ? a : b, other = ka == 'c' ? b : a;
        int co = lc_dtype_complex_of(other);
        return lc_dtypes[co].size > lc_dtypes[c].size ? co : c;
    }
    if (ka == 'f' && kb == 'f')
        return sa >= sb ? a : b;
    if (ka == 'f' || kb == 'f') {
        int f = ka == 'f' ? a : b, other = ka == 'f' ? b : a;
        /* float32 holds ints of up to 16 bits exactly; wider ones need float64. */
        if (f == LC_FLOAT32 && lc_dtypes[other].size >= 4)
            return LC_FLOAT64;
        return f;
    }
    if (ka == kb)
        return sa >= sb ? a : b;
    /* One signed, one unsigned. */
    int s = ka == 'i' ? a : b, u = ka == 'i' ? b : a;
    size_t ss = lc_dtypes[s].size, us = lc_dtypes[u].size;
    if (ss > us)
        return s;
    if (us >= 8)
        return LC_FLOAT64;
    return lc_signed_of_size(us * 2);
}

int lc_dtype_of_pyscalar(enum lc_pyscalar s)
{
    switch (s) {
    case LC_PYSCALAR_BOOL: return LC_BOOL;
    case LC_PYSCALAR_INT: return LC_INT64;
    case LC_PYSCALAR_FLOAT: return LC_FLOAT64;
    case LC_PYSCALAR_COMPLEX: break;
    }
    return LC_COMPLEX128;
}

int lc_dtype_promote_weak(int dt, enum lc_pyscalar s)
{
    char k = lc_dtypes[dt].kind;
    switch (s) {
    case LC_PYSCALAR_BOOL:
        return dt;
    case LC_PYSCALAR_INT:
        return k == 'b' ? LC_INT64 : dt;
    case LC_PYSCALAR_FLOAT:
        return k == 'f' || k == 'c' ? dt : LC_FLOAT64;
    case LC_PYSCALAR_COMPLEX:
        return k == 'c' ? dt : k == 'f' ? lc_dtype_complex_of(dt) : LC_COMPLEX128;
    }
    return dt;
}

int lc_dtype_float_of(int dt)
{
    if (lc_dtypes[dt].kind == 'f' || lc_dtypes[dt].kind == 'c')
        return dt;
    return lc_dtypes[dt].size <= 2 ? LC_FLOAT32 : LC_FLOAT64;
}
