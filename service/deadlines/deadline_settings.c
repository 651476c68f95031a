/* deadline_settings.c */
#include "deadlines/deadline_settings.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/ways.h"
#include "store/deadlines.h"

#define CACHE_SETS 256
#define HOURS_MAX 8760 /* a year */
#define VACATION_DAYS_MAX 365

static const char *const action_names[] = {
    [DEADLINE_SKIP] = "skip",
    [DEADLINE_DEFAULT_MOVE] = "default_move",
    [DEADLINE_FORFEIT] = "forfeit",
    [DEADLINE_NOTIFY_ADMINS] = "notify_admins",
};

const char *deadline_action_name(deadline_action action)
{
    return action_names[action];
}

static bool action_of(const char *name, deadline_action *out)
{
    for (int a = DEADLINE_SKIP; a <= DEADLINE_NOTIFY_ADMINS; a++) {
        if (strcmp(name, action_names[a]) == 0) {
            *out = (deadline_action)a;
            return true;
        }
    }
    return false;
}

/* Reads an integer setting in [min, max] when present. */
static bool hours(const json_t *deadline, const char *name, int min, int max,
                  int *out, apierr *err)
{
    const json_t *value = json_object_get(deadline, name);
    if (value == NULL)
        return true;
    if (!json_is_integer(value) || json_integer_value(value) < min ||
        json_integer_value(value) > max)
        return apierr_set(err, 400, "bad_deadline",
                          "deadline.%s must be a whole number from %d to %d",
                          name, min, max);
    *out = (int)json_integer_value(value);
    return true;
}

bool deadline_settings_parse(const json_t *value, deadline_settings *out,
                             apierr *err)
{
    memset(out, 0, sizeof *out);
    if (value == NULL || json_is_null(value))
        return true;
    if (!json_is_object(value))
        return apierr_set(err, 400, "bad_deadline",
                          "\"deadline\" must be an object such as "
                          "{\"turn_hours\": 72, \"action\": \"skip\"}");
    static const char *const known[] = {
        "turn_hours",  "reminder_hours",  "action",
        "grace_hours", "time_bank_hours", "vacation_days_max",
    };
    const char *key;
    const json_t *member;
    json_object_foreach((json_t *)value, key, member)
    {
        bool found = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            found = found || strcmp(key, known[i]) == 0;
        if (!found)
            return apierr_set(err, 400, "bad_deadline",
                              "the deadline has no setting called %.60s; "
                              "use turn_hours, reminder_hours, action, "
                              "grace_hours, time_bank_hours, "
                              "vacation_days_max",
                              key);
    }
    out->enabled = true;
    out->turn_hours = 0;
    out->reminder_hours = 0;
    out->action = DEADLINE_NOTIFY_ADMINS;
    out->grace_hours = 0;
    out->time_bank_hours = 0;
    out->vacation_days_max = 14;
    if (json_object_get(value, "turn_hours") == NULL)
        return apierr_set(err, 400, "bad_deadline",
                          "deadline.turn_hours is required: the hours a seat "
                          "has for each turn or decision");
    if (!hours(value, "turn_hours", 1, HOURS_MAX, &out->turn_hours, err) ||
        !hours(value, "reminder_hours", 0, HOURS_MAX, &out->reminder_hours,
               err) ||
        !hours(value, "grace_hours", 0, HOURS_MAX, &out->grace_hours, err) ||
        !hours(value, "time_bank_hours", 0, HOURS_MAX, &out->time_bank_hours,
               err) ||
        !hours(value, "vacation_days_max", 0, VACATION_DAYS_MAX,
               &out->vacation_days_max, err))
        return false;
    const json_t *action = json_object_get(value, "action");
    if (action != NULL && (!json_is_string(action) ||
                           !action_of(json_string_value(action), &out->action)))
        return apierr_set(err, 400, "bad_deadline",
                          "deadline.action must be skip, default_move, "
                          "forfeit or notify_admins");
    if (out->reminder_hours >= out->turn_hours)
        return apierr_set(err, 422, "bad_deadline",
                          "deadline.reminder_hours (%d) must be less than "
                          "turn_hours (%d): the reminder comes that many "
                          "hours before the deadline, after the turn began",
                          out->reminder_hours, out->turn_hours);
    return true;
}

json_t *deadline_settings_json(const deadline_settings *s)
{
    return json_pack("{s:i,s:i,s:s,s:i,s:i,s:i}", "turn_hours", s->turn_hours,
                     "reminder_hours", s->reminder_hours, "action",
                     deadline_action_name(s->action), "grace_hours",
                     s->grace_hours, "time_bank_hours", s->time_bank_hours,
                     "vacation_days_max", s->vacation_days_max);
}

bool deadline_settings_save(PGconn *conn, long long match_id,
                            const deadline_settings *s, apierr *err)
{
    if (!s->enabled)
        return true;
    store_deadline_options options = {
        .turn_hours = s->turn_hours,
        .reminder_hours = s->reminder_hours,
        .grace_hours = s->grace_hours,
        .time_bank_hours = s->time_bank_hours,
        .vacation_days_max = s->vacation_days_max,
    };
    snprintf(options.action, sizeof options.action, "%s",
             deadline_action_name(s->action));
    return store_deadlines_save_options(conn, match_id, &options, err);
}

/* Settings never change once a match exists, so a process keeps what it
 * read (no row included), CACHE_SETS × WAYS_PER_SET matches (core/ways.h
 * says why more than one per set). */
static ways_tag cache_tags[CACHE_SETS][WAYS_PER_SET];
static deadline_settings cache_kept[CACHE_SETS][WAYS_PER_SET];
static unsigned long long cache_clock;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned cache_set(long long match_id)
{
    return ways_set((unsigned long long)match_id, CACHE_SETS);
}

bool deadline_settings_cached(long long match_id, deadline_settings *out)
{
    unsigned set = cache_set(match_id);
    pthread_mutex_lock(&cache_lock);
    int way = ways_find(cache_tags[set], (unsigned long long)match_id,
                        &cache_clock);
    if (way >= 0)
        *out = cache_kept[set][way];
    pthread_mutex_unlock(&cache_lock);
    return way >= 0;
}

bool deadline_settings_load(PGconn *conn, long long match_id,
                            deadline_settings *out, apierr *err)
{
    if (deadline_settings_cached(match_id, out))
        return true;
    store_deadline_options options;
    bool found;
    if (!store_deadlines_load_options(conn, match_id, &options, &found, err))
        return false;
    memset(out, 0, sizeof *out);
    if (found) {
        out->enabled = true;
        out->turn_hours = options.turn_hours;
        out->reminder_hours = options.reminder_hours;
        if (!action_of(options.action, &out->action))
            out->action = DEADLINE_NOTIFY_ADMINS;
        out->grace_hours = options.grace_hours;
        out->time_bank_hours = options.time_bank_hours;
        out->vacation_days_max = options.vacation_days_max;
    }
    unsigned set = cache_set(match_id);
    pthread_mutex_lock(&cache_lock);
    int way = ways_place(cache_tags[set], (unsigned long long)match_id,
                         &cache_clock);
    cache_kept[set][way] = *out;
    pthread_mutex_unlock(&cache_lock);
    return true;
}
