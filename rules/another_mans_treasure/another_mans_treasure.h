/* another_mans_treasure.h: the Another Man's Treasure engine (Classic and
 * Progressive games), reached only through its rules_engine table. */
#ifndef AMT_ANOTHER_MANS_TREASURE_H
#define AMT_ANOTHER_MANS_TREASURE_H

#include "rules.h"

extern const rules_engine amt_engine;

#endif
