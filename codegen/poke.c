/* poke.c: the kernels that write recorded single elements (engine/pokes.c).
 *
 * lc_poke_<W> writes n values of W bytes (1, 2, 4, 8, 16) into dst, one item per value:
 * record i is three 64-bit words, the element index (in W-byte elements) and the value's
 * low and high 8 bytes. The places are distinct (the recorder keeps one value per place),
 * so the items never race. */
#include "codegen/codegen.h"

#define LC_POKE(W, T, V)                                                                    \
    "__kernel void lc_poke_" #W "(__global " T " *restrict dst,\n"                           \
    "                           __global const ulong *restrict rec, const long n)\n"        \
    "{\n"                                                                                   \
    "    const long i = get_global_id(0);\n"                                                \
    "    if (i < n)\n"                                                                      \
    "        dst[rec[3 * i]] = " V ";\n"                                                    \
    "}\n"

static const char lc_poke_src[] =
    "/* lazycl: writes of recorded single elements (engine/pokes.c) */\n"
    LC_POKE(1, "uchar", "(uchar)rec[3 * i + 1]")
    LC_POKE(2, "ushort", "(ushort)rec[3 * i + 1]")
    LC_POKE(4, "uint", "(uint)rec[3 * i + 1]")
    LC_POKE(8, "ulong", "rec[3 * i + 1]")
    LC_POKE(16, "ulong2", "(ulong2)(rec[3 * i + 1], rec[3 * i + 2])");

const char *lc_codegen_poke_source(void)
{
    return lc_poke_src;
}
