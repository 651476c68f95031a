/* mail_vars.c */
#include "notify/mail_vars.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "ledger/seal.h"
#include "notify/mail_wrap.h"
#include "notify/result_text.h"
#include "store/store.h"

static char *joined(const json_t *array, const char *prefix, const char *sep)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    size_t i;
    const json_t *item;
    json_array_foreach(array, i, item) {
        const char *text = json_string_value(item);
        fprintf(f, "%s%s%s", i ? sep : "", prefix, text ? text : "");
    }
    if (fclose(f) != 0)
        abort();
    return out;
}

/* A digest's list: per match waiting for the player, what is asked, a few
 * of the moves, what was said at its table since the last mail, and the
 * link. */
static char *digest_text(const json_t *matches, const char *base)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    size_t i;
    const json_t *p;
    json_array_foreach(matches, i, p) {
        const char *match = json_string_value(json_object_get(p, "match"));
        const char *game = json_string_value(json_object_get(p, "game_title"));
        const char *prompt = json_string_value(json_object_get(p, "prompt"));
        fprintf(f, "%s- %s, match %s: %s\n", i ? "\n" : "",
                game ? game : "?", match ? match : "?",
                prompt ? prompt : "your turn");
        size_t k;
        const json_t *move;
        json_array_foreach(json_object_get(p, "moves"), k, move) {
            if (k == 5) {
                fprintf(f, "    …\n");
                break;
            }
            fprintf(f, "    %s\n", json_string_value(move) ? json_string_value(move) : "");
        }
        /* The talk notify_digest.c found unmailed (table_talk.h), indented
         * under its match. */
        const char *talk = json_string_value(json_object_get(p, "table_talk"));
        for (const char *line = talk; line != NULL && *line != '\0';) {
            size_t n = strcspn(line, "\n");
            if (n > 0)
                fprintf(f, "  %.*s\n", (int)n, line);
            line += n + (line[n] == '\n');
        }
        fprintf(f, "  Play: %s/matches/%s\n", base, match ? match : "");
    }
    if (fclose(f) != 0)
        abort();
    return out;
}

/* Whose turn: the names of the seats that must act, the reader's own
 * seat as "you". */
static char *whose_turn(const json_t *p)
{
    json_t *names = json_array();
    const json_t *mine = json_object_get(p, "seat");
    size_t i;
    const json_t *seat;
    json_array_foreach(json_object_get(p, "seats"), i, seat) {
        json_t *name = json_array_get(json_object_get(p, "players"),
                                      (size_t)json_integer_value(seat));
        bool you = json_is_integer(mine) &&
                   json_integer_value(mine) == json_integer_value(seat);
        if (you)
            json_array_append_new(names, json_string("you"));
        else
            json_array_append_new(names, name ? json_incref(name)
                                              : json_string("?"));
    }
    char *whose = joined(names, "", ", ");
    json_decref(names);
    return whose;
}

/* The names at a quick match's table but the reader's own: "Ann and
 * Ben". */
static char *found_partners(const json_t *p)
{
    json_t *names = json_array();
    const json_t *mine = json_object_get(p, "seat");
    size_t i;
    const json_t *name;
    json_array_foreach(json_object_get(p, "players"), i, name)
    {
        if (!json_is_integer(mine) || (size_t)json_integer_value(mine) != i)
            json_array_append(names, (json_t *)name);
    }
    size_t n = json_array_size(names);
    json_t *last = n > 1 ? json_incref(json_array_get(names, n - 1)) : NULL;
    if (last)
        json_array_remove(names, n - 1);
    char *head = joined(names, "", ", ");
    json_decref(names);
    char *out = NULL;
    if (asprintf(&out, "%s%s%s", head, last ? " and " : "",
                 last ? json_string_value(last) : "") < 0)
        abort();
    free(head);
    json_decref(last);
    return out;
}

/* A reminder or a nudge is a "your turn" mail that says why it came. */
static void headline_and_opening(mail_vars *v, const char *reason,
                                 const json_t *p, const char *match)
{
    const char *game_title = json_string_value(json_object_get(p, "game_title"));
    const char *nudged_by = json_string_value(json_object_get(p, "nudged_by"));
    if (strncmp(reason, "reminder", 8) == 0) {
        snprintf(v->headline, sizeof v->headline, "Reminder: still your turn");
        snprintf(v->opening, sizeof v->opening,
                 "A reminder: it has been your turn in %s match %s for %lld "
                 "hours (event %s).",
                 game_title ? game_title : "", match ? match : "",
                 (long long)json_integer_value(json_object_get(p, "reminder_hours")),
                 v->seq);
    } else if (strncmp(reason, "nudge", 5) == 0) {
        snprintf(v->headline, sizeof v->headline, "%.80s is waiting for you",
                 nudged_by ? nudged_by : "A player");
        snprintf(v->opening, sizeof v->opening,
                 "%.80s nudged you: it is your turn in %s match %s (event %s).",
                 nudged_by ? nudged_by : "A player", game_title ? game_title : "",
                 match ? match : "", v->seq);
    } else if (strcmp(reason, "match_found") == 0) {
        char *others = found_partners(p);
        snprintf(v->headline, sizeof v->headline, "Your quick match is ready");
        snprintf(v->opening, sizeof v->opening,
                 "Your seek found its players: the %s match %s has started, "
                 "with %s.",
                 game_title ? game_title : "", match ? match : "", others);
        free(others);
    } else {
        snprintf(v->headline, sizeof v->headline, "Your turn");
        snprintf(v->opening, sizeof v->opening,
                 "It is your turn in %s match %s (event %s).",
                 game_title ? game_title : "", match ? match : "", v->seq);
    }
}

/* Whether the mail carries talk at the table: its own, or (a digest)
 * that of one of its matches. */
static bool carries_talk(const json_t *p)
{
    if (json_object_get(p, "table_talk") != NULL)
        return true;
    size_t i;
    const json_t *match;
    json_array_foreach(json_object_get(p, "matches"), i, match)
    {
        if (json_object_get(match, "table_talk") != NULL)
            return true;
    }
    return false;
}

/* The one line that tells a person how to answer a mail (its Reply-To
 * reaches the mailin/ handler): with a move when the seat has one to make,
 * else with a command; and when the mail carries talk, how to talk back
 * (a digest answers for the account, not a seat: from the match's mail). */
static void answer_hint(mail_vars *v, const char *reason, const json_t *p)
{
    const char *example =
        json_string_value(json_array_get(json_object_get(p, "moves"), 0));
    if (strcmp(reason, "digest") == 0)
        snprintf(v->answer_hint, sizeof v->answer_hint,
                 "Answer this mail with a command on a line of its own: "
                 "matches, help.");
    else if (example != NULL && example[0] != '\0')
        snprintf(v->answer_hint, sizeof v->answer_hint,
                 "Answer this mail with your move on a line of its own, for "
                 "example:\n  %.200s\nOther commands: view, log, matches, "
                 "rules, help.",
                 example);
    else
        snprintf(v->answer_hint, sizeof v->answer_hint,
                 "Answer this mail with a command on a line of its own:\n"
                 "view, log, matches, rules, help.");
    if (!carries_talk(p))
        return;
    size_t used = strlen(v->answer_hint);
    snprintf(v->answer_hint + used, sizeof v->answer_hint - used, "\n%s",
             strcmp(reason, "digest") == 0
                 ? "To write at a table, answer the latest mail about that "
                   "match with \"say\" and your words."
                 : "To write at the table: \"say\" and your words (\"say to "
                   "NAME\" for one player alone).");
}

/* The payload's text when it has one (seat_text.h), else a copy of
 * fallback (malloc'd, or NULL when fallback is). */
static char *text_or(const json_t *p, const char *key, char *fallback)
{
    const char *text = json_string_value(json_object_get(p, key));
    if (text == NULL)
        return fallback;
    free(fallback);
    char *copy = strdup(text);
    if (copy == NULL)
        abort();
    return copy;
}

/* The unsubscribe URL of player_id under path ("/v1/unsubscribe" for
 * mail programs, "/unsubscribe" for people). */
static void unsubscribe_url(long long player_id, const char *path, char *out,
                            size_t size)
{
    char token[SEAL_TOKEN_TEXT], player_ref[32];
    seal_unsubscribe_token(player_id, token);
    store_player_ref(player_id, player_ref);
    snprintf(out, size, "%s%s?player=%s&token=%s",
             config_text(CONFIG_PUBLIC_URL), path, player_ref, token);
}

void mail_vars_unsubscribe_link(long long player_id, char *out, size_t size)
{
    unsubscribe_url(player_id, "/v1/unsubscribe", out, size);
}

void mail_vars_fill(mail_vars *v, const char *notification_id,
                    const char *reason, long long player_id,
                    const char *player_name, const json_t *p, bool answerable)
{
    const char *match = json_string_value(json_object_get(p, "match"));
    const char *base = config_text(CONFIG_PUBLIC_URL);
    /* Every link opens a page a person reads (web/), never the API: the
     * match page, its replay, the settings and the games' rules. */
    snprintf(v->link, sizeof v->link, "%s/matches/%s", base,
             match ? match : "");
    snprintf(v->replay, sizeof v->replay, "%s/matches/%s/replay", base,
             match ? match : "");
    /* The rules of this match's game, when the mail is about one. */
    const char *engine = json_string_value(json_object_get(p, "game"));
    if (engine != NULL && engine[0] != '\0')
        snprintf(v->rules, sizeof v->rules, "%s/games/%s", base, engine);
    else
        snprintf(v->rules, sizeof v->rules, "%s/games", base);
    /* The seat's page in the browser (web/), signed there by the
     * player's key; the API's /view would answer an unsigned click 401. */
    snprintf(v->play, sizeof v->play, "%s/matches/%s", base,
             match ? match : "");
    /* The settings page in the browser: the API's route would answer
     * an unsigned click 401. */
    snprintf(v->settings, sizeof v->settings, "%s/settings", base);
    mail_vars_unsubscribe_link(player_id, v->unsubscribe, sizeof v->unsubscribe);
    /* The link in the text is a page's (pbemd's /unsubscribe, the same
     * page the header's GET answers): no link a person opens is the
     * API's. */
    unsubscribe_url(player_id, "/unsubscribe", v->unsubscribe_page,
                    sizeof v->unsubscribe_page);
    snprintf(v->seq, sizeof v->seq, "%lld",
             (long long)json_integer_value(json_object_get(p, "seq")));
    v->whose = whose_turn(p);
    v->moves = text_or(p, "moves_text",
                       joined(json_object_get(p, "moves"), "  ", "\n"));
    char *changes = joined(json_object_get(p, "changes"), "  ", "\n");
    v->changes = mail_wrap_list(changes);
    free(changes);
    v->digest = digest_text(json_object_get(p, "matches"), base);
    size_t waiting = json_array_size(json_object_get(p, "matches"));
    snprintf(v->waiting, sizeof v->waiting, "%zu match%s", waiting,
             waiting == 1 ? "" : "es");
    headline_and_opening(v, reason, p, match);
    v->forms = joined(json_object_get(p, "forms"), "  ", "\n");
    v->view = text_or(p, "text",
                      json_dumps(json_object_get(p, "view"),
                                 JSON_INDENT(2) | JSON_SORT_KEYS));
    v->answer_hint[0] = '\0';
    if (answerable)
        answer_hint(v, reason, p);
    const json_t *seat = json_object_get(p, "seat");
    char *result = result_text(json_object_get(p, "result"),
                               json_object_get(p, "players"),
                               json_is_integer(seat)
                                   ? (int)json_integer_value(seat)
                                   : -1);
    v->result = result ? mail_wrap_list(result) : NULL;
    free(result);
    const char *game = json_string_value(json_object_get(p, "game_title"));
    const char *prompt = json_string_value(json_object_get(p, "prompt"));
    /* Deadline reminders and the admins' notice carry their deadline. */
    const json_t *deadline = json_object_get(p, "deadline");
    const char *due_at = json_string_value(json_object_get(deadline, "due_at"));
    const char *fires_at =
        json_string_value(json_object_get(deadline, "fires_at"));
    const char *action = json_string_value(json_object_get(deadline, "action"));
    const char *because =
        json_string_value(json_object_get(deadline, "reason"));
    const char *admin_reason = json_string_value(json_object_get(p, "reason"));
    const char *talk = json_string_value(json_object_get(p, "table_talk"));
    const templates_var list[] = {
        {"player", player_name},
        {"match", match},
        {"game", game},
        {"seq", v->seq},
        {"whose_turn", v->whose},
        {"prompt", prompt},
        {"view", v->view ? v->view : "{}"},
        {"moves", v->moves},
        {"forms", v->forms},
        {"result", v->result},
        {"link", v->link},
        {"play_link", v->play},
        {"settings_link", v->settings},
        {"notification", notification_id},
        {"changes", v->changes[0] ? v->changes : "  (nothing yet)"},
        {"headline", v->headline},   {"opening", v->opening},
        {"matches", v->digest},      {"waiting", v->waiting},
        {"unsubscribe_link", v->unsubscribe_page},
        {"due_at", due_at ? due_at : ""},
        {"fires_at", fires_at ? fires_at : ""},
        {"deadline_action", action ? action : ""},
        {"deadline_reason", because ? because : ""},
        {"reason", admin_reason ? admin_reason : ""},
        {"answer_hint", v->answer_hint},
        {"replay_link", v->replay},
        {"rules_link", v->rules},
        /* notify.c adds a seat's unmailed messages (table_talk.h). */
        {"table_talk", talk ? talk : ""},
    };
    _Static_assert(sizeof list / sizeof list[0] == MAIL_VARS_MAX,
                   "MAIL_VARS_MAX is the number of template variables");
    memcpy(v->list, list, sizeof list);
    v->count = MAIL_VARS_MAX;
}

void mail_vars_free(mail_vars *v)
{
    free(v->whose);
    free(v->moves);
    free(v->changes);
    free(v->digest);
    free(v->forms);
    free(v->view);
    free(v->result);
}
