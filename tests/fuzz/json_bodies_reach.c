/* json_bodies_reach.c: the body checks json_bodies.c cannot reach through a
 * public function, because the use case asks the database first. Includes
 * the module's .c to call its statics, as unit tests may (STYLE.md). */
#include "play/invitations.c"

#include "json_bodies_reach.h"

bool json_bodies_invitation_fields(const json_t *body, apierr *err)
{
    const json_t *name = json_object_get(body, "name");
    char normal[NAMES_MAX_BYTES];
    return fields_ok(json_string_value(json_object_get(body, "email")), name,
                     normal, err);
}
