/* json_bodies_reach.h: body checks that sit behind a database call in their
 * use case, made callable for the json_bodies fuzz target. */
#ifndef TESTS_FUZZ_JSON_BODIES_REACH_H
#define TESTS_FUZZ_JSON_BODIES_REACH_H

#include <jansson.h>
#include <stdbool.h>

#include "core/apierr.h"

/* invitations_create's check of "email" and "name" (its fields_ok), which
 * it runs only after loading the match. */
bool json_bodies_invitation_fields(const json_t *body, apierr *err);

#endif
