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
