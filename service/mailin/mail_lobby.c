/* mail_lobby.c: see mail_lobby.h. */
#include "mailin/mail_lobby.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "play/lobby.h"
#include "play/matches.h"
#include "play/seeks.h"
#include "rules.h"
#include "store/store.h"

static bool is_join(char *const *words, int count)
{
    return count >= 1 && strcasecmp(words[0], "join") == 0;
}

static bool is_verb(char *const *words, int count, const char *verb)
{
    return count >= 1 && strcasecmp(words[0], verb) == 0;
}

bool mail_lobby_changes(char *const *words, int count)
{
    return is_join(words, count) || is_verb(words, count, "seek") ||
           is_verb(words, count, "unseek");
}

const rules_engine *mail_lobby_game_named(char *const *words, int count)
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
        const rules_engine *engine =
            mail_lobby_game_named(words + 1, count - 1);
        if (engine == NULL) {
            apierr_set(err, 400, "unknown_game",
                       "there is no game called \"%.60s\": write list and a "
                       "game the \"games\" command lists, or list alone",
                       words[1]);
            return NULL;
        }
        game = engine->name;
    }
    json_t *answer = lobby_list("forming", game, MAIL_LOBBY_LIST_MAX, err);
    json_t *seeks = answer ? seeks_waiting(game, err) : NULL;
    if (seeks == NULL) {
        json_decref(answer);
        return NULL;
    }
    json_object_set(answer, "seeks", json_object_get(seeks, "seeks"));
    json_decref(seeks);
    return answer;
}

/* Hours of "1d", "36h" or "24"; -1 when it is none of these. */
static long hours_of(const char *text)
{
    char *end = NULL;
    long n = strtol(text, &end, 10);
    if (end == text || n < 1 || n > 8760)
        return -1;
    if (strcasecmp(end, "d") == 0 && n <= 365)
        return n * 24;
    return *end == '\0' || strcasecmp(end, "h") == 0 ? n : -1;
}

/* "seek GAME seats=3 turn=1d [expires=3d]" */
static json_t *call_seek(const caller *who, char *const *words, int count,
                         apierr *err)
{
    const rules_engine *engine = count >= 2 ? rules_find(words[1]) : NULL;
    if (engine == NULL) {
        apierr_set(err, 400, "bad_command",
                   "write \"seek GAME seats=N turn=1d\" with a game the "
                   "\"games\" command lists: seek antiquity_quest seats=3 "
                   "turn=1d");
        return NULL;
    }
    json_t *body = json_pack("{s:s}", "game", engine->name);
    for (int i = 2; i < count; i++) {
        char *eq = strchr(words[i], '=');
        const char *key = NULL;
        long value = -1;
        if (eq != NULL && strncasecmp(words[i], "seats=", 6) == 0) {
            key = "seats";
            char *end = NULL;
            value = strtol(eq + 1, &end, 10);
            value = end != eq + 1 && *end == '\0' ? value : -1;
        } else if (eq != NULL && strncasecmp(words[i], "turn=", 5) == 0) {
            key = "turn_hours";
            value = hours_of(eq + 1);
        } else if (eq != NULL && strncasecmp(words[i], "expires=", 8) == 0) {
            key = "expires_hours";
            value = hours_of(eq + 1);
        }
        if (key == NULL || value < 0) {
            json_decref(body);
            apierr_set(err, 400, "bad_command",
                       "\"%.40s\" is not one of seats=N, turn=1d (or 36h), "
                       "expires=3d",
                       words[i]);
            return NULL;
        }
        json_object_set_new(body, key, json_integer(value));
    }
    json_t *answer = seeks_create(who, body, err);
    json_decref(body);
    return answer;
}

/* "unseek [s_12]": that seek, or every seek still waiting. */
static json_t *call_unseek(const caller *who, char *const *words, int count,
                           apierr *err)
{
    if (count >= 2)
        return seeks_withdraw(who, words[1], err);
    json_t *mine = seeks_mine(who, err);
    if (mine == NULL)
        return NULL;
    json_t *gone = json_array();
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(mine, "seeks"), i, row)
    {
        const char *status = json_string_value(json_object_get(row, "status"));
        const char *id = json_string_value(json_object_get(row, "id"));
        if (status == NULL || id == NULL || strcmp(status, "waiting") != 0)
            continue;
        json_t *done = seeks_withdraw(who, id, err);
        if (done == NULL) {
            json_decref(gone);
            json_decref(mine);
            return NULL;
        }
        json_decref(done);
        json_array_append_new(gone, json_string(id));
    }
    json_decref(mine);
    return json_pack("{s:o}", "withdrawn", gone);
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
    if (is_verb(words, count, "seek"))
        return call_seek(who, words, count, err);
    if (is_verb(words, count, "unseek"))
        return call_unseek(who, words, count, err);
    return call_list(words, count, err);
}

void mail_lobby_tell_open_match(const json_t *row, FILE *out)
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

/* The seeks waiting, naming no one: "Quick match: 2 waiting for
 * Antiquity Quest, 3 players, 24 h turns." */
static void tell_seeks_waiting(const json_t *seeks, FILE *out)
{
    if (json_array_size(seeks) == 0)
        return;
    fputs("Waiting for a quick match (answer with the same seek line to "
          "meet them):\n",
          out);
    size_t i;
    const json_t *row;
    json_array_foreach(seeks, i, row)
    {
        const rules_engine *engine =
            rules_find(json_string_value(json_object_get(row, "game")));
        fprintf(
            out, "  seek %s seats=%lld turn=%lldh   (since %s)\n",
            engine ? engine->name : "?",
            (long long)json_integer_value(json_object_get(row, "seats")),
            (long long)json_integer_value(json_object_get(row, "turn_hours")),
            json_string_value(json_object_get(row, "waiting_since")));
    }
}

static long long tell_seek(const json_t *answer, FILE *out)
{
    const json_t *seek = json_object_get(answer, "seek");
    const char *match = json_string_value(json_object_get(answer, "match"));
    if (match != NULL) {
        fprintf(out,
                "Your seek %s found its players: match %s has started. Its "
                "mails come to you from now on.\n",
                json_string_value(json_object_get(seek, "id")), match);
        return store_parse_match_ref(match);
    }
    fprintf(out,
            "You wait for a quick match (seek %s) until %s: %lld players, "
            "%lld h turns. The match's mails come to you once it is made and "
            "your turn comes; \"unseek\" withdraws it.\n",
            json_string_value(json_object_get(seek, "id")),
            json_string_value(json_object_get(seek, "expires_at")),
            (long long)json_integer_value(json_object_get(seek, "seats")),
            (long long)json_integer_value(json_object_get(seek, "turn_hours")));
    return 0;
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
    if (is_verb(words, count, "seek"))
        return tell_seek(answer, out);
    if (is_verb(words, count, "unseek")) {
        const json_t *gone = json_object_get(answer, "withdrawn");
        if (json_is_array(gone) && json_array_size(gone) == 0)
            fputs("You had no seek waiting.\n", out);
        else
            fputs("Withdrawn: you no longer wait for a quick match.\n", out);
        return 0;
    }
    tell_seeks_waiting(json_object_get(answer, "seeks"), out);
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
    json_array_foreach(matches, i, row)
    {
        mail_lobby_tell_open_match(row, out);
    }
    fputs("Answer with \"join\" and a match's id (join m_1234) to take a "
          "seat.\n",
          out);
    return 0;
}
