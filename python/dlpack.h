/* dlpack.h: the DLPack 1.0 ABI (the structs other libraries exchange tensors in) and
 * lazycl's pure helpers over it (python/dlpack.c; no Python, no OpenCL).
 *
 * Written from the DLPack specification (dmlc/dlpack, dlpack.h v1.0) rather than taken from
 * Debian: Debian 12's libdlpack-dev is DLPack 0.6, which has neither the versioned
 * tensor (DLManagedTensorVersioned, its flags) nor kDLBool. Only the layout
 * matters to the ABI; the names are the spec's, so that a reader finds them there.
 * tests/c/test_dlpack.c checks the layout against the spec's (x86-64 / LP64) offsets.
 */
#ifndef LC_DLPACK_H
#define LC_DLPACK_H

#include <stddef.h>
#include <stdint.h>

#define LC_DLPACK_MAJOR 1u
#define LC_DLPACK_MINOR 0u

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

typedef enum {
    kDLCPU = 1,
    kDLCUDA = 2,
    kDLCUDAHost = 3,
    kDLOpenCL = 4,
    kDLVulkan = 7,
    kDLMetal = 8,
    kDLVPI = 9,
    kDLROCM = 10,
    kDLROCMHost = 11,
    kDLExtDev = 12,
    kDLCUDAManaged = 13,
    kDLOneAPI = 14,
} DLDeviceType;

typedef struct {
    DLDeviceType device_type;   /* an int-sized enum */
    int32_t device_id;
} DLDevice;

typedef enum {
    kDLInt = 0,
    kDLUInt = 1,
    kDLFloat = 2,
    kDLOpaqueHandle = 3,
    kDLBfloat = 4,
    kDLComplex = 5,
    kDLBool = 6,
} DLDataTypeCode;

typedef struct {
    uint8_t code;    /* DLDataTypeCode */
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

typedef struct {
    void *data;             /* kDLCPU: a host pointer */
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;         /* ndim entries */
    int64_t *strides;       /* ndim entries, in elements; NULL: row-major contiguous */
    uint64_t byte_offset;   /* element 0 is at (char *)data + byte_offset */
} DLTensor;

/* The legacy (DLPack < 1.0) managed tensor: a capsule named "dltensor". */
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)

/* The DLPack 1.0 managed tensor: a capsule named "dltensor_versioned". */
typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* ---- helpers (python/dlpack.c) ---------------------------------------------------- */

/* The DLPack type of a lazycl dtype (bool is kDLBool of 8 bits, as NumPy and
 * PyTorch export and accept it in both capsules). */
DLDataType lc_dl_dtype(int lc_dtype);
/* The lazycl dtype of a DLPack type, or -1 (other codes, sizes, lanes != 1). */
int lc_dl_lc_dtype(DLDataType t);

/* The elements a strided tensor touches, relative to element 0: [*lo, *hi)
 * (lo <= 0 with negative strides). Strides NULL means row-major. An empty
 * tensor touches nothing: *lo = *hi = 0, and the result is 0. Returns 1 when
 * it touches something; -1 when the extent overflows int64. */
int lc_dl_extent(int ndim, const int64_t *shape, const int64_t *strides, int64_t *lo, int64_t *hi);

#endif
