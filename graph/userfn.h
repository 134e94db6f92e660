/* userfn.h: user elementwise functions (lazycl.ElementwiseKernel) as graph ops.
 *
 * A user function is a body of OpenCL C statements over named scalar inputs and outputs of
 * fixed dtypes (CuPy's ElementwiseKernel: 'T x, T y', 'T z', 'z = (x - y) * (x - y)'), with
 * an optional preamble of helper definitions. It is registered once and named by its id, a
 * hash of everything that defines it; a graph node of op USER computes one of its outputs
 * from its inputs, and fuses as any elementwise op does: codegen/user.c defines the function
 * (one per output it is asked for) in the kernel's source and calls it.
 *
 * The registry lives as long as the process; it is thread-safe.
 */
#ifndef LC_GRAPH_USERFN_H
#define LC_GRAPH_USERFN_H

#include "graph/graph.h"

struct lc_userfn {
    uint64_t id;
    char *name;                   /* the user's kernel name (an identifier) */
    int n_in, n_out;
    int in_dtype[LC_MAXIN], out_dtype[LC_MAXIN];
    char *in_name[LC_MAXIN], *out_name[LC_MAXIN];
    char *body;                   /* statements assigning every output */
    char *preamble;               /* helper definitions ("" when none) */
    int loops;                    /* the body or preamble has a loop (for, while, do, goto):
                                     work per element of unknown length */
};

/* Register a function (the same definition twice gives the same id); its id, or 0 with e set
 * (LC_ERR_INVALID: a name that is not an identifier or is used twice, no output, more than
 * LC_MAXIN inputs or outputs; LC_ERR_TYPE: a complex dtype). */
uint64_t lc_userfn_register(const char *name, int n_in, const int *in_dtype,
                            const char *const *in_name, int n_out, const int *out_dtype,
                            const char *const *out_name, const char *body, const char *preamble,
                            struct lc_error *e);
/* The function of this id, or NULL. */
const struct lc_userfn *lc_userfn_get(uint64_t id);

/* A node computing output `out` of function `fn` over `in` (n_in of them, as the function
 * declares): the inputs are broadcast together and cast to the declared dtypes (unsafely, as
 * a C assignment would: the caller checks NumPy's casting rules). */
struct lc_node *lc_node_user(uint64_t fn, int out, struct lc_node *const *in, int n_in,
                             struct lc_error *e);

#endif
