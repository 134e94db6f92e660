/* atomic.c: folding a value into memory that other items fold into too.
 *
 * One emitter for every store schedule that combines (np.add.at, bincount,
 * histograms), in global or local memory: OpenCL's own atomic where OpenCL C
 * has one for the op and dtype (integer adds, 32-bit integer min and max;
 * 64-bit ones under cl_khr_int64_base_atomics), PTX's red.add for float adds
 * on NVIDIA (red.global / red.shared; sm_60 and later for doubles), and
 * elsewhere a compare-and-swap loop on the element's bits. No OpenCL driver
 * here offers cl_ext_float_atomics' float add (Intel's CPU runtime lists the
 * extension but defines no fp32/fp64 add feature). And the read of a word that other groups
 * write by atomics (lc_emit_shared_read64: the one-pass scans' states, top-k's groups' words).
 */
#include "codegen/cg.h"

/* *ptr = *ptr <op> val by a compare-and-swap loop on the bits (4- and 8-byte dtypes). The
 * loop starts from a guess (0 bits) rather than a plain read, which would race with other
 * items' swaps: a wrong guess costs one swap, which returns the current bits to retry with. */
static void lc_fold_cas(struct lc_cg *g, struct lc_sb *sb, const char *ind, int dt, int op,
                        const char *space, const char *ptr, const char *val)
{
    const char *U = lc_dtype_size(dt) == 8 ? "ulong" : "uint";
    lc_sb_printf(sb, "%s{\n%s    volatile %s %s *p_ = (volatile %s %s *)(%s);\n", ind, ind, space,
                 U, space, U, ptr);
    lc_sb_printf(sb, "%s    union { %s u; %s t; } o_, n_;\n%s    %s e_;\n%s    o_.u = 0;\n"
                     "%s    do {\n%s        e_ = o_.u;\n%s        n_.t = ",
                 ind, U, lc_T(dt), ind, U, ind, ind, ind, ind);
    const char *ops[2] = {"o_.t", val};
    lc_cg_op(sb, &g->h, op, dt, dt, ops);
    lc_sb_printf(sb, ";\n%s        o_.u = %s(p_, e_, n_.u);\n%s    } while (o_.u != e_);\n%s}\n",
                 ind, lc_dtype_size(dt) == 8 ? "atom_cmpxchg" : "atomic_cmpxchg", ind, ind);
}

void lc_emit_atomic_fold(struct lc_cg *g, struct lc_sb *sb, const char *ind, int dt, int op,
                         const char *space, const char *ptr, const char *val)
{
    int size = lc_dtype_size(dt), isint = lc_dtype_kind(dt) == 'i' || lc_dtype_kind(dt) == 'u';
    const char *fn = NULL;
    if (isint && op == LC_OP_ADD)
        fn = size == 4 ? "atomic_add" : "atom_add";
    else if (isint && size == 4 && op == LC_OP_MINIMUM)
        fn = "atomic_min";
    else if (isint && size == 4 && op == LC_OP_MAXIMUM)
        fn = "atomic_max";
    if (fn) {
        lc_sb_printf(sb, "%s%s(%s, %s);\n", ind, fn, ptr, val);
        return;
    }
    if (op == LC_OP_ADD && (dt == LC_FLOAT32 || dt == LC_FLOAT64)) {
        /* A __local pointer converts to its address in the shared window. */
        int local = space[2] == 'l';
        lc_sb_printf(sb, "#if defined(cl_nv_pragma_unroll)\n%sasm volatile(\"red.%s.add.%s [%%0], %%1;\" :: "
                         "\"l\"(%s%s%s), \"%s\"(%s) : \"memory\");\n#else\n",
                     ind, local ? "shared" : "global", dt == LC_FLOAT32 ? "f32" : "f64",
                     local ? "(ulong)(" : "", ptr, local ? ")" : "", dt == LC_FLOAT32 ? "f" : "d",
                     val);
        lc_fold_cas(g, sb, ind, dt, op, space, ptr, val);
        lc_sb_printf(sb, "#endif\n");
        return;
    }
    lc_fold_cas(g, sb, ind, dt, op, space, ptr, val);
}

const char *lc_add_identity(int dt)
{
    return dt == LC_FLOAT32 ? "-0.0f" : dt == LC_FLOAT64 ? "-0.0" : "0";
}

void lc_emit_added(struct lc_sb *sb, int dt, const char *v)
{
    if (dt == LC_FLOAT32)
        lc_sb_printf(sb, "as_uint(%s) != 0x80000000u", v);
    else if (dt == LC_FLOAT64)
        lc_sb_printf(sb, "as_ulong(%s) != 0x8000000000000000ul", v);
    else
        lc_sb_printf(sb, "%s != 0", v);
}

/* An atomic read (OpenCL 1.2 orders plain accesses of different groups by nothing), or on
 * NVIDIA a volatile load: PTX's ld.volatile is a relaxed load at system scope from sm_70 on,
 * which sees the atomics' writes and leaves the atomic unit to them (scan_lookback.c: H100,
 * 2^28 float32 cumsum 0.91 ms against 1.07 with atom_add). */
void lc_emit_shared_read64(struct lc_sb *sb, const char *name)
{
    lc_sb_printf(sb, "#if defined(cl_nv_pragma_unroll)\n"
                     "#define %s(p) (*(p))\n"
                     "#else\n"
                     "#define %s(p) atom_add((p), (ulong)0)\n"
                     "#endif\n", name, name);
}
