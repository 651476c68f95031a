/* mail_show.c: see mail_show.h. */
#include "mailin/mail_show.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "play/matches.h"
#include "store/db.h"
#include "store/matches.h"
#include "store/store.h"

/* The most matches "show" lists, those in play first. */
#define MAIL_SHOW_MATCHES 20

static const char *str(const json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

static const char *seat_name(const json_t *match, json_int_t seat)
{
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(match, "seats"), i, entry) {
        if (json_integer_value(json_object_get(entry, "seat")) == seat)
            return str(entry, "name") ? str(entry, "name") : "(free)";
    }
    return "?";
}

/* Whether seat is in the array of seats. */
static bool listed(const json_t *seats, json_int_t seat)
{
    size_t i;
    const json_t *s;
    json_array_foreach(seats, i, s) {
        if (json_integer_value(s) == seat)
            return true;
    }
    return false;
}

/* Who the match waits for, in words. */
static void show_waiting(FILE *out, const json_t *view, json_int_t mine)
{
    const json_t *pending = json_object_get(view, "pending");
    const json_t *seats = json_object_get(pending, "seats");
    if (pending == NULL || json_array_size(seats) == 0) {
        if (json_array_size(json_object_get(pending, "committed")) > 0)
            fprintf(out, "Waiting for the sealed choices to be revealed.\n");
        return;
    }
    bool me = false;
    fprintf(out, "Waiting for:");
    size_t i;
    const json_t *seat;
    json_array_foreach(seats, i, seat) {
        json_int_t s = json_integer_value(seat);
        me = me || s == mine;
        fprintf(out, "%s seat %lld %s%s", i ? "," : "", (long long)s,
                seat_name(view, s), s == mine ? " (you)" : "");
    }
    fprintf(out, ": %s\n", str(pending, "prompt") ? str(pending, "prompt")
                                                  : "");
}

bool mail_show_match(FILE *out, const caller *who, long long match_id,
                     mail_show_turn *turn, apierr *err)
{
    json_t *view = matches_seat_view(who, match_id, err);
    if (view == NULL)
        return false;
    json_int_t mine = json_integer_value(json_object_get(view, "seat"));
    const json_t *pending = json_object_get(view, "pending");
    if (turn != NULL)
        *turn = !str(view, "status") || strcmp(str(view, "status"), "active")
                    ? MAIL_SHOW_NOT_ACTIVE
                : listed(json_object_get(pending, "seats"), mine) ||
                        listed(json_object_get(pending, "reveal"), mine)
                    ? MAIL_SHOW_YOUR_TURN
                    : MAIL_SHOW_WAITING;
    fprintf(out, "Match %s, %s (%s), event %lld\n", str(view, "id") ?: "?",
            str(view, "title") ?: "?", str(view, "status") ?: "?",
            (long long)json_integer_value(
                json_object_get(json_object_get(view, "head"), "seq")));
    /* The text the mails show (notify/seat_text.h): the seats, then what
     * this seat sees. */
    const char *text = str(view, "text");
    if (text != NULL)
        fputs(text, out);
    else
        fprintf(out, "The match waits for players to join.\n");
    show_waiting(out, view, mine);
    const json_t *result = json_object_get(view, "result");
    if (json_is_true(json_object_get(result, "over")))
        fprintf(out, "The match is over.\n");
    const char *moves = str(view, "moves_text");
    if (moves != NULL && moves[0] != '\0')
        fprintf(out, "Your moves (write one on a line of its own):\n%s",
                moves);
    json_decref(view);
    return true;
}

/* One event as a line: "12. seat 1 Bob: play B5". */
/* The sentence event seq was told to the seat whose view match is (its
 * "log"), or NULL when the log does not reach back that far. */
static const char *told_to_seat(const json_t *match, long long seq)
{
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(match, "log"), i, entry)
    {
        if (json_integer_value(json_object_get(entry, "seq")) == seq)
            return str(entry, "text");
    }
    return NULL;
}

static void show_event(FILE *out, const json_t *event, const json_t *match)
{
    const char *kind = str(event, "kind") ?: "?";
    const json_t *seat = json_object_get(event, "seat");
    const json_t *data = json_object_get(event, "data");
    long long seq = (long long)json_integer_value(json_object_get(event, "seq"));
    /* What it did, as told to this seat (its own draw names its cards),
     * else as told to everyone; the bare notation only for an event the
     * service has no sentence for. */
    const char *told = told_to_seat(match, seq);
    if (told == NULL)
        told = str(event, "text");
    if (told != NULL) {
        fprintf(out, "%lld. %s\n", seq, told);
        return;
    }
    fprintf(out, "%lld. ", seq);
    if (json_is_integer(seat))
        fprintf(out, "seat %lld %s: ", (long long)json_integer_value(seat),
                seat_name(match, json_integer_value(seat)));
    if (strcmp(kind, "move") == 0 && str(data, "text") != NULL)
        fprintf(out, "%s\n", str(data, "text"));
    else if (strcmp(kind, "committed") == 0)
        fprintf(out, "sealed a choice\n");
    else if (strcmp(kind, "joined") == 0)
        fprintf(out, "joined\n");
    else
        fprintf(out, "%s\n", kind);
}

bool mail_show_log(FILE *out, long long player_id, long long match_id,
                   int count, apierr *err)
{
    caller who = {.player_id = player_id};
    json_t *match = matches_seat_view(&who, match_id, err);
    if (match == NULL)
        return false;
    json_int_t mine = json_integer_value(json_object_get(match, "seat"));
    long long head = (long long)json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    long long window = count > 0 ? count : 200;
    long long after = head > window ? head - window : 0;
    json_t *page = matches_events(match_id, after, (int)window, err);
    if (page == NULL) {
        json_decref(match);
        return false;
    }
    const json_t *events = json_object_get(page, "events");
    size_t first = 0;
    if (count == 0) {
        /* Since the seat's last move: after the last event of its own. */
        size_t i;
        const json_t *event;
        json_array_foreach(events, i, event) {
            const json_t *seat = json_object_get(event, "seat");
            if (json_is_integer(seat) && json_integer_value(seat) == mine &&
                strcmp(str(event, "kind") ?: "", "move") == 0)
                first = i + 1;
        }
    }
    if (first >= json_array_size(events))
        fprintf(out, "Nothing has happened since your last move.\n");
    for (size_t i = first; i < json_array_size(events); i++)
        show_event(out, json_array_get(events, i), match);
    json_decref(page);
    json_decref(match);
    return true;
}

bool mail_show_matches(FILE *out, long long player_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    long long match_ids[MAIL_SHOW_MATCHES];
    int count = store_seats_recent_matches(conn, player_id, MAIL_SHOW_MATCHES,
                                           match_ids, err);
    if (count < 0)
        return false;
    if (count == 0)
        fprintf(out, "You have no matches yet.\n");
    caller who = {.player_id = player_id};
    for (int i = 0; i < count; i++) {
        long long match_id = match_ids[i];
        apierr one;
        json_t *view = matches_seat_view(&who, match_id, &one);
        if (view == NULL)
            continue;
        json_int_t mine = json_integer_value(json_object_get(view, "seat"));
        fprintf(out, "%s %s, seat %lld, %s. ", str(view, "id") ?: "?",
                str(view, "title") ?: "?", (long long)mine,
                str(view, "status") ?: "?");
        bool waits_for_me = false;
        size_t k;
        const json_t *seat;
        json_array_foreach(json_object_get(json_object_get(view, "pending"),
                                           "seats"),
                           k, seat)
            waits_for_me = waits_for_me || json_integer_value(seat) == mine;
        if (waits_for_me)
            fprintf(out, "Your turn.\n");
        else
            show_waiting(out, view, mine);
        if (!waits_for_me &&
            json_array_size(json_object_get(
                json_object_get(view, "pending"), "seats")) == 0)
            fputc('\n', out);
        json_decref(view);
    }
    return true;
}

void mail_show_games(FILE *out)
{
    json_t *games = matches_games();
    size_t i;
    const json_t *game;
    json_array_foreach(json_object_get(games, "games"), i, game) {
        fprintf(out, "%s (%s), %lld to %lld players", str(game, "name"),
                str(game, "title"),
                (long long)json_integer_value(json_object_get(game, "min_seats")),
                (long long)json_integer_value(json_object_get(game, "max_seats")));
        const char *key;
        const json_t *option;
        int shown = 0;
        json_object_foreach(json_object_get(game, "options"), key, option) {
            char *value = json_dumps(json_object_get(option, "default"),
                                     JSON_ENCODE_ANY);
            fprintf(out, "%s %s=%s", shown++ ? "," : "; options:", key,
                    value ? value : "?");
            free(value);
        }
        fputc('\n', out);
    }
    fprintf(out, "Start one with: new GAME seats=N option=value ...\n");
    json_decref(games);
}

/* words joined by '_' in lower case: "Antiquity Quest" is
 * antiquity_quest, as the engines are named. */
static void game_name(char *const *words, int count, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < count && n + 1 < size; i++) {
        if (i > 0)
            out[n++] = '_';
        for (const char *p = words[i]; *p != '\0' && n + 1 < size; p++)
            out[n++] = (char)tolower((unsigned char)*p);
    }
    out[n] = '\0';
}

bool mail_show_rules(FILE *out, char *const *words, int count, apierr *err)
{
    char name[96];
    game_name(words, count, name, sizeof name);
    /* "Quarriors!" and "Another Man's Treasure" as people write them. */
    char plain[96];
    size_t n = 0;
    for (const char *p = name; *p != '\0' && n + 1 < sizeof plain; p++)
        if (*p != '!' && *p != '\'')
            plain[n++] = *p;
    plain[n] = '\0';
    if (strcmp(plain, "another_mans_treasure") != 0 &&
        strncmp(plain, "quarriors", 9) == 0)
        snprintf(plain, sizeof plain, "quarriors");
    json_t *game = matches_game(plain, err);
    if (game == NULL) {
        if (err->status == 404) {
            json_t *games = matches_games();
            char list[512] = "";
            size_t i;
            const json_t *g;
            json_array_foreach(json_object_get(games, "games"), i, g)
            {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s",
                         i ? ", " : "", str(g, "name"));
            }
            json_decref(games);
            apierr_set(err, 404, "unknown_game",
                       "there is no game called \"%.60s\": write rules "
                       "and one of %s",
                       name, list);
        }
        return false;
    }
    fputs(str(game, "summary"), out);
    fprintf(out, "\nThe same on the web: %s%s\n", config_text(CONFIG_PUBLIC_URL),
            str(game, "rules_page"));
    json_decref(game);
    return true;
}

bool mail_show_match_rules(FILE *out, long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return false;
    char game[sizeof match.game];
    snprintf(game, sizeof game, "%s", match.game);
    store_match_free(&match);
    char *words[] = {game};
    return mail_show_rules(out, words, 1, err);
}
