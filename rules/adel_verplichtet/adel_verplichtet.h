/* adel_verplichtet.h: the Adel Verplichtet (Fair Means or Fouls) engine.
 * Everything else about the game stays inside rules/adel_verplichtet/. */
#ifndef RULES_ADEL_VERPLICHTET_ADEL_VERPLICHTET_H
#define RULES_ADEL_VERPLICHTET_ADEL_VERPLICHTET_H

#include "rules.h"

extern const rules_engine av_engine;

#endif
