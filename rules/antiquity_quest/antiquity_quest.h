/* antiquity_quest.h: the Antiquity Quest engine (rulebook
 * shared/rules/antiquity-quest.md), reached only through its rules_engine
 * table. Everything else in this folder is private to the engine. */
#ifndef RULES_ANTIQUITY_QUEST_ANTIQUITY_QUEST_H
#define RULES_ANTIQUITY_QUEST_ANTIQUITY_QUEST_H

#include "rules.h"

/* The engine table: name "antiquity_quest", 2-6 seats, or 4-8 in pairs. */
extern const rules_engine aq_engine;

#endif
