/* artifact_stack.h: the Artifact Stack engine (R&R Games, 2017), for 2 to 4
 * players, behind the rules.h interface. */
#ifndef ARTIFACT_STACK_H
#define ARTIFACT_STACK_H

#include "rules.h"

extern const rules_engine as_engine;

#endif
