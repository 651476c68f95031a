/* apierr.c */
#include "apierr.h"

#include <stdarg.h>
#include <stdio.h>

bool apierr_set(apierr *err, int status, const char *code, const char *fmt, ...)
{
    err->status = status;
    err->head = -1;
    err->retry_after = 0;
    snprintf(err->code, sizeof err->code, "%s", code);
    va_list args;
    va_start(args, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, args);
    va_end(args);
    return false;
}
