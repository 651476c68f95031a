/* registry.c: the engines compiled into this build. Add a line per engine. */
#include "rules.h"

#include <stddef.h>

#include "quarriors/quarriors.h"

static const rules_engine *const engines[] = {
    &qq_engine,
    NULL,
};

const rules_engine *const *rules_engines(void)
{
    return engines;
}
