/* artifact_stack.h: the Artifact Stack engine (R&R Games, 2017), for 2 to 4
 * players, behind the rules.h interface. */
#ifndef RULES_ARTIFACT_STACK_ARTIFACT_STACK_H
#define RULES_ARTIFACT_STACK_ARTIFACT_STACK_H

#include "rules.h"

extern const rules_engine as_engine;

#endif
