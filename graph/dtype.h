/* dtype.h: the element types lazycl computes in, and NumPy 2 type promotion. */
#ifndef LC_DTYPE_H
#define LC_DTYPE_H

#include <stddef.h>
#include <stdint.h>

/* The order is part of the cache key of generated kernels: append only. */
enum lc_dtype {
    LC_BOOL, LC_INT8, LC_INT16, LC_INT32, LC_INT64,
    LC_UINT8, LC_UINT16, LC_UINT32, LC_UINT64,
    LC_FLOAT32, LC_FLOAT64,
    LC_COMPLEX64, LC_COMPLEX128,   /* float2 / double2: (real, imaginary) */
    LC_NDTYPES
};

/* Kinds, as NumPy's dtype.kind: 'b', 'i', 'u', 'f', 'c'. */
char lc_dtype_kind(int dt);
size_t lc_dtype_size(int dt);
const char *lc_dtype_name(int dt);      /* NumPy name: "float32" */
const char *lc_dtype_cl(int dt);        /* OpenCL C type: "float", "uchar" (bool is uchar) */
const char *lc_dtype_short(int dt);     /* short tag for kernel names: "f32", "b1" */
int lc_dtype_from_name(const char *name); /* -1 when unknown */
int lc_dtype_is_int(int dt);            /* signed or unsigned integer, not bool */
int lc_dtype_is_float(int dt);            /* real floats only */
int lc_dtype_is_complex(int dt);
int lc_dtype_is_inexact(int dt);          /* real or complex floats */
/* The real dtype of a complex one's parts (complex64: float32); others give themselves. */
int lc_dtype_real_of(int dt);
/* The complex dtype NumPy promotes `dt` to when it meets a complex number:
 * float32 and the 8/16-bit integers give complex64, the rest complex128. */
int lc_dtype_complex_of(int dt);
int lc_dtype_is_signed(int dt);         /* signed integers, floats and complex */

/* NumPy 2 promotion of two array dtypes (np.result_type of two arrays). */
int lc_dtype_promote(int a, int b);

/* Python scalar kinds for weak promotion (NEP 50). */
enum lc_pyscalar { LC_PYSCALAR_BOOL, LC_PYSCALAR_INT, LC_PYSCALAR_FLOAT, LC_PYSCALAR_COMPLEX };
/* The result dtype of `array(dt) op scalar` under NEP 50: the scalar takes
 * the array's dtype within the same kind or lower, else the default dtype
 * of its kind (int64, float64, complex128); a complex scalar makes a float
 * array's dtype complex of its precision. */
int lc_dtype_promote_weak(int dt, enum lc_pyscalar s);
/* The dtype of a Python scalar on its own: bool, int64, float64, complex128. */
int lc_dtype_of_pyscalar(enum lc_pyscalar s);

/* The float type a float-only function (exp, sqrt, ...) computes in for an
 * input dtype: floats keep theirs, bool/int8/uint8/int16/uint16 give float32
 * (NumPy gives float16 for the 8-bit ones; lazycl has no float16), wider
 * ints give float64; complex keeps its own. */
int lc_dtype_float_of(int dt);

#endif
