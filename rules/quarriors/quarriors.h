/* quarriors.h: the Quarriors engine with the Quartifacts quest rules. */
#ifndef QQ_QUARRIORS_H
#define QQ_QUARRIORS_H

#include "rules.h"

extern const rules_engine qq_engine;

#endif
