/* sb.c: a growing string (struct lc_sb, codegen.h) that the code generator writes its OpenCL C
 * into and explain its text. */
#include "codegen/codegen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lc_sb_printf(struct lc_sb *sb, const char *fmt, ...)
{
    if (sb->oom)
        return;
    for (;;) {
        size_t room = sb->cap - sb->len;
        va_list ap;
        va_start(ap, fmt);
        int w = sb->s ? vsnprintf(sb->s + sb->len, room, fmt, ap) : -2;
        va_end(ap);
        if (w == -1) {
            sb->oom = 1;
            return;
        }
        if (w >= 0 && (size_t)w < room) {
            sb->len += (size_t)w;
            return;
        }
        size_t ncap = (sb->cap ? sb->cap * 2 : 4096) + (w > 0 ? (size_t)w : 0);
        char *ns = realloc(sb->s, ncap);
        if (!ns) {
            sb->oom = 1;
            return;
        }
        sb->s = ns;
        sb->cap = ncap;
    }
}

void lc_sb_free(struct lc_sb *sb)
{
    free(sb->s);
    memset(sb, 0, sizeof *sb);
}
