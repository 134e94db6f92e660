/* storage.c: runtime buffers as graph storage, leaves made from host data, reads of leaves. */
#include "engine/storage.h"

#include "engine/engine.h"
#include "engine/pokes.h"

static void lc_engine_release_buffer(void *h)
{
    lc_buffer_release((lc_buffer_t)h);
}

struct lc_storage *lc_engine_storage(lc_buffer_t b)
{
    struct lc_storage *s = lc_storage_new(b, lc_engine_release_buffer, lc_buffer_size(b));
    if (!s)
        lc_buffer_release(b);
    return s;
}

lc_buffer_t lc_engine_buffer(const struct lc_storage *s)
{
    return (lc_buffer_t)s->handle;
}

struct lc_node *lc_engine_from_host(lc_queue_t q, int dtype, int ndim, const int64_t *shape,
                                    const void *data, struct lc_error *e)
{
    int64_t size = lc_shape_size(ndim, shape);
    size_t nbytes = (size_t)size * lc_dtype_size(dtype);
    lc_device_t d = lc_queue_device(q);
    if ((dtype == LC_FLOAT64 || dtype == LC_COMPLEX128) && !lc_device_info(d)->fp64) {
        lc_error_set(e, LC_ERR_UNSUPPORTED,
                     "%s is not supported on device '%s' (it has no fp64); use %s or "
                     "a device with double precision", lc_dtype_name(dtype),
                     lc_device_info(d)->name, dtype == LC_FLOAT64 ? "float32" : "complex64");
        return NULL;
    }
    lc_buffer_t b;
    if (lc_buffer_alloc(d, nbytes, &b, e) != LC_OK)
        return NULL;
    if (nbytes && lc_buffer_write(q, b, 0, data, nbytes, 1, e) != LC_OK) {
        lc_buffer_release(b);
        return NULL;
    }
    struct lc_storage *s = lc_engine_storage(b);
    if (!s) {
        lc_error_set(e, LC_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    struct lc_node *n = lc_node_buffer(q, dtype, ndim, shape, s, 0, NULL, e);
    lc_storage_release(s);
    return n;
}

lc_status lc_engine_read(lc_queue_t q, const struct lc_node *n, void *dst, struct lc_error *e)
{
    if (n->op != LC_OP_BUFFER || !lc_node_is_contiguous(n))
        return lc_error_set(e, LC_ERR_INVALID, "internal: reading a node that is not contiguous");
    size_t nbytes = (size_t)n->size * lc_dtype_size(n->dtype);
    LC_TRY(lc_engine_ready(q, n->storage, e));
    if (!nbytes)
        return LC_OK;
    LC_TRY(lc_pokes_flush(q, n->storage, e));
    return lc_buffer_read(q, lc_engine_buffer(n->storage),
                          (size_t)n->offset * lc_dtype_size(n->dtype), dst, nbytes, e);
}
