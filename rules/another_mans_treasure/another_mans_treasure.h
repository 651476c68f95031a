/* another_mans_treasure.h: the Another Man's Treasure engine (Classic and
 * Progressive games), reached only through its rules_engine table. */
#ifndef RULES_ANOTHER_MANS_TREASURE_ANOTHER_MANS_TREASURE_H
#define RULES_ANOTHER_MANS_TREASURE_ANOTHER_MANS_TREASURE_H

#include "rules.h"

extern const rules_engine amt_engine;

#endif
