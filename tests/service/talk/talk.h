/* talk.h: what the talk suite's tests share: a seated player saying
 * something at the table through the API. */
#ifndef TESTS_SERVICE_TALK_TALK_H
#define TESTS_SERVICE_TALK_TALK_H

#include "../../support/e2e.h"

/* POSTs text from seat of t's match to seat `to` (-1: everyone), which
 * must be taken (201) and answered with the message as written; fails the
 * test otherwise. */
void talk_say(const e2e_table *t, int seat, int to, const char *text);

#endif
