/* db_params.c */
#include "store/db_params.h"

#include <stdio.h>
#include <stdlib.h>

static int next_slot(db_params *params)
{
    if (params->count >= DB_PARAMS_MAX) {
        fprintf(stderr, "%s:%d: more than %d statement parameters\n",
                __FILE__, __LINE__, DB_PARAMS_MAX);
        abort();
    }
    return params->count++;
}

void db_params_int(db_params *params, long long value)
{
    int slot = next_slot(params);
    snprintf(params->numbers[slot], sizeof params->numbers[slot], "%lld",
             value);
    params->values[slot] = params->numbers[slot];
}

void db_params_text(db_params *params, const char *text)
{
    params->values[next_slot(params)] = text;
}

char *db_params_int_array(const long long *values, int count)
{
    /* A long long is at most 20 characters, plus its comma. */
    size_t size = (size_t)(count > 0 ? count : 0) * 21 + 3;
    char *text = malloc(size);
    if (text == NULL)
        abort();
    size_t used = (size_t)snprintf(text, size, "{");
    for (int i = 0; i < count; i++)
        used += (size_t)snprintf(text + used, size - used, "%s%lld",
                                 i ? "," : "", values[i]);
    snprintf(text + used, size - used, "}");
    return text;
}
