/* mail_lobby.c: see mail_lobby.h. */
#include "mailin/mail_lobby.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "play/lobby.h"
#include "play/matches.h"
#include "rules.h"
#include "store/store.h"

static bool is_join(char *const *words, int count)
{
    return count >= 1 && strcasecmp(words[0], "join") == 0;
}

bool mail_lobby_changes(char *const *words, int count)
{
    return is_join(words, count);
}

/* The game a list names: its name (antiquity_quest) or its title in any
 * case ("antiquity quest"); NULL when it names none. */
static const rules_engine *game_named(char *const *words, int count)
{
    const rules_engine *engine = rules_find(words[0]);
    if (engine != NULL)
        return engine;
    char title[128] = "";
    for (int i = 0; i < count; i++) {
        size_t used = strlen(title);
        snprintf(title + used, sizeof title - used, "%s%s", i ? " " : "",
                 words[i]);
    }
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++)
        if (strcasecmp((*e)->title, title) == 0)
            return *e;
    return NULL;
}

static json_t *call_list(char *const *words, int count, apierr *err)
{
    const char *game = NULL;
    if (count > 1) {
        const rules_engine *engine = game_named(words + 1, count - 1);
        if (engine == NULL) {
            apierr_set(err, 400, "unknown_game",
                       "there is no game called \"%.60s\": write list and a "
                       "game the \"games\" command lists, or list alone",
                       words[1]);
            return NULL;
        }
        game = engine->name;
    }
    return lobby_list("forming", game, MAIL_LOBBY_LIST_MAX, err);
}

static json_t *call_join(const caller *who, char *const *words, int count,
                         apierr *err)
{
    long long match_id = count == 2 ? store_parse_match_ref(words[1]) : 0;
    if (match_id <= 0) {
        apierr_set(err, 400, "bad_command",
                   "write \"join\" and the match's id: join m_1234 (\"list\" "
                   "shows the open matches)");
        return NULL;
    }
    json_t *body = json_object();
    json_t *answer = matches_join(who, match_id, body, err);
    json_decref(body);
    return answer;
}

json_t *mail_lobby_call(const caller *who, char *const *words, int count,
                        apierr *err)
{
    if (is_join(words, count))
        return call_join(who, words, count, err);
    return call_list(words, count, err);
}

/* One open match on a line: "m_12  Antiquity Quest, 1 of 3 seats
 * taken, 24 h turns, rated; by Alice (rating 1523, 95% of turns in
 * time)". */
static void tell_open_match(const json_t *row, FILE *out)
{
    const json_t *creator = json_object_get(row, "creator");
    const json_t *deadline = json_object_get(row, "deadline");
    const json_t *rating = json_object_get(creator, "rating");
    const json_t *reliability = json_object_get(creator, "reliability");
    const json_t *min = json_object_get(row, "min_reliability");
    fprintf(out, "  %s  %s, %lld of %lld seats taken, ",
            json_string_value(json_object_get(row, "id")),
            json_string_value(json_object_get(row, "title")),
            (long long)json_integer_value(json_object_get(row, "seats_taken")),
            (long long)json_integer_value(json_object_get(row, "seats")));
    if (json_is_object(deadline))
        fprintf(out, "%lld h turns, ",
                (long long)json_integer_value(
                    json_object_get(deadline, "turn_hours")));
    else
        fputs("no deadlines, ", out);
    fputs(json_is_true(json_object_get(row, "rated")) ? "rated" : "unrated",
          out);
    if (json_is_number(min))
        fprintf(out, ", for players with %ld%% of turns in time",
                lround(json_number_value(min) * 100));
    fprintf(out, "; by %s (",
            json_string_value(json_object_get(creator, "name")));
    if (json_is_number(rating))
        fprintf(out, "rating %ld", lround(json_number_value(rating)));
    else
        fputs("not rated yet", out);
    if (json_is_number(reliability))
        fprintf(out, ", %ld%% of turns in time",
                lround(json_number_value(reliability) * 100));
    fputs(")\n", out);
}

long long mail_lobby_tell(char *const *words, int count, const json_t *answer,
                          FILE *out)
{
    if (is_join(words, count)) {
        const json_t *match = json_object_get(answer, "match");
        const char *status =
            json_string_value(json_object_get(match, "status"));
        const char *ref = json_string_value(json_object_get(match, "id"));
        fprintf(out,
                "You have seat %lld in match %s. %s Answer the mails about it "
                "to play; its mails come from now on.\n",
                (long long)json_integer_value(json_object_get(answer, "seat")),
                ref ? ref : "?",
                status && strcmp(status, "active") == 0
                    ? "Every seat is taken: the match has started."
                    : "It starts when its last seat is taken.");
        return store_parse_match_ref(ref ? ref : "");
    }
    const json_t *matches = json_object_get(answer, "matches");
    if (json_array_size(matches) == 0) {
        fputs("No open match is waiting for players. Start one that anyone "
              "may join with: new GAME seats=N open=yes\n",
              out);
        return 0;
    }
    fputs("Open matches waiting for players, the newest first:\n", out);
    size_t i;
    const json_t *row;
    json_array_foreach(matches, i, row) tell_open_match(row, out);
    fputs("Answer with \"join\" and a match's id (join m_1234) to take a "
          "seat.\n",
          out);
    return 0;
}
