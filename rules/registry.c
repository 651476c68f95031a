/* registry.c: the engines compiled into this build. Add a line per engine. */
#include "rules.h"

#include <stddef.h>

#include "adel_verplichtet/adel_verplichtet.h"
#include "antiquity_quest/antiquity_quest.h"
#include "another_mans_treasure/another_mans_treasure.h"
#include "artifact_stack/artifact_stack.h"
#include "quarriors/quarriors.h"

static const rules_engine *const engines[] = {
    &aq_engine,
    &av_engine,
    &amt_engine,
    &as_engine,
    &qq_engine,
    NULL,
};

const rules_engine *const *rules_engines(void)
{
    return engines;
}
