/* whole_writes.c: an LD_PRELOAD shim for `make oclgrind` that turns each partial
 * clEnqueueWriteBuffer into a write of the whole buffer.
 *
 * Oclgrind 21.10's --uninitialized plugin (Uninitialized::hostMemoryStore) answers a host
 * write of n bytes by replacing the buffer's whole shadow with a fresh one of n bytes, so a
 * write at an offset, or of part of a buffer, leaves the rest of the buffer "uninitialized"
 * (and the bytes it wrote too, when the offset is not 0): every later kernel read there is a
 * false finding. lazycl writes parts of buffers by design (a kernel's zeroed scratch in the
 * tail of its output; an upload into a pooled buffer larger than the array).
 *
 * Contract: the shim reads the whole buffer, lays the written bytes over it and writes it
 * back whole, blocking; the buffer's contents afterwards are exactly what the partial write
 * gives. The cost is that bytes of such a buffer never written by anyone count as written.
 * Loaded before Oclgrind's runtime (LD_PRELOAD="this.so liboclgrind-rt.so"); the call it
 * forwards to is the next clEnqueueWriteBuffer in the search order, Oclgrind's. Built and
 * used by tests/oclgrind/run.py only; lazycl never includes or links it.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef cl_int (*lc_write_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,
                              cl_uint, const cl_event *, cl_event *);

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buf,
                                                     cl_bool blocking, size_t offset,
                                                     size_t n, const void *src, cl_uint n_wait,
                                                     const cl_event *wait, cl_event *event)
{
    static lc_write_fn next;
    if (!next)
        next = (lc_write_fn)dlsym(RTLD_NEXT, "clEnqueueWriteBuffer");
    if (!next)
        return CL_INVALID_OPERATION;
    size_t size = 0;
    cl_int rc = clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (rc != CL_SUCCESS || (offset == 0 && n == size) || n == 0 || offset + n > size)
        return next(q, buf, blocking, offset, n, src, n_wait, wait, event);
    unsigned char *all = malloc(size);
    if (!all)
        return CL_OUT_OF_HOST_MEMORY;
    rc = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, size, all, n_wait, wait, NULL);
    if (rc == CL_SUCCESS) {
        memcpy(all + offset, src, n);
        rc = next(q, buf, CL_TRUE, 0, size, all, 0, NULL, event);
    }
    free(all);
    return rc;
}
