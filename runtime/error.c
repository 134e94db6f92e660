/* error.c: lc_error, the status-plus-message record every layer reports through. */
#include "lazycl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lc_status lc_error_set(struct lc_error *e, lc_status code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        e->code = code;
    }
    return code;
}

void lc_error_set_detail(struct lc_error *e, const char *detail)
{
    if (!e)
        return;
    free(e->detail);
    e->detail = NULL;
    if (detail) {
        size_t n = strlen(detail) + 1;
        e->detail = malloc(n);
        if (e->detail)
            memcpy(e->detail, detail, n);
    }
}

void lc_error_clear(struct lc_error *e)
{
    if (!e)
        return;
    free(e->detail);
    e->detail = NULL;
    e->code = LC_OK;
    e->msg[0] = '\0';
}

const char *lc_status_name(lc_status s)
{
    switch (s) {
    case LC_OK: return "LC_OK";
    case LC_ERR_NOMEM: return "LC_ERR_NOMEM";
    case LC_ERR_INVALID: return "LC_ERR_INVALID";
    case LC_ERR_SHAPE: return "LC_ERR_SHAPE";
    case LC_ERR_TYPE: return "LC_ERR_TYPE";
    case LC_ERR_DEVICE: return "LC_ERR_DEVICE";
    case LC_ERR_COMPILE: return "LC_ERR_COMPILE";
    case LC_ERR_PLACEMENT: return "LC_ERR_PLACEMENT";
    case LC_ERR_UNSUPPORTED: return "LC_ERR_UNSUPPORTED";
    case LC_ERR_IO: return "LC_ERR_IO";
    case LC_ERR_INDEX: return "LC_ERR_INDEX";
    case LC_ERR_AXIS: return "LC_ERR_AXIS";
    }
    return "LC_ERR_?";
}
