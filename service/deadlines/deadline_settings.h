/* deadline_settings.h: a match's deadline options, given at creation
 * beside the engine's options:
 *   "deadline": {"turn_hours": 72, "reminder_hours": 12,
 *                "action": "skip"|"default_move"|"forfeit"|"notify_admins",
 *                "grace_hours": 0, "time_bank_hours": 0,
 *                "vacation_days_max": 14}
 * No "deadline" (or null): the match has no deadlines. They never change
 * after creation, so a process may cache them. */
#ifndef SERVICE_DEADLINES_DEADLINE_SETTINGS_H
#define SERVICE_DEADLINES_DEADLINE_SETTINGS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

typedef enum deadline_action {
    DEADLINE_SKIP,
    DEADLINE_DEFAULT_MOVE,
    DEADLINE_FORFEIT,
    DEADLINE_NOTIFY_ADMINS,
} deadline_action;

typedef struct deadline_settings {
    bool enabled;
    int turn_hours;
    int reminder_hours; /* 0: no reminder */
    deadline_action action;
    int grace_hours;
    int time_bank_hours;
    int vacation_days_max;
} deadline_settings;

/* Reads the "deadline" member of a create request (value may be NULL).
 * Unknown keys and wrong types are 400 "bad_deadline"; values that do not
 * make sense together are 422 "bad_deadline"; the sentence names the
 * setting. */
bool deadline_settings_parse(const json_t *value, deadline_settings *out,
                             apierr *err);

/* The settings as in a create request, every key present (new
 * reference). */
json_t *deadline_settings_json(const deadline_settings *settings);

/* "skip", "default_move", "forfeit", "notify_admins". */
const char *deadline_action_name(deadline_action action);

/* Stores the settings of a new match (inside the caller's transaction);
 * does nothing when they are not enabled. */
bool deadline_settings_save(PGconn *conn, long long match_id,
                            const deadline_settings *settings, apierr *err);

/* The settings of a match (enabled false when it has none); cached. */
bool deadline_settings_load(PGconn *conn, long long match_id,
                            deadline_settings *out, apierr *err);

/* The cached settings of a match, when this process has read them: what
 * deadline_settings_load would answer, without a connection. */
bool deadline_settings_cached(long long match_id, deadline_settings *out);

#endif
