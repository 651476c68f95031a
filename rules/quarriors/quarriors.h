/* quarriors.h: the Quarriors engine with the Quartifacts quest rules. */
#ifndef RULES_QUARRIORS_QUARRIORS_H
#define RULES_QUARRIORS_QUARRIORS_H

#include "rules.h"

extern const rules_engine qq_engine;

#endif
