/* mail_commands.c: see mail_commands.h. Each command is one small
 * function that calls the use case the HTTP route calls, so a mail can do
 * nothing a signed request could not. */
#include "mailin/mail_commands.h"

#include <ctype.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "auth/caller.h"
#include "core/apierr.h"
#include "core/clock.h"
#include "core/hex.h"
#include "core/log.h"
#include "mailin/mail_join.h"
#include "mailin/mail_lobby.h"
#include "mailin/mail_moves.h"
#include "mailin/mail_ratings.h"
#include "mailin/mail_say.h"
#include "mailin/mail_show.h"
#include "notify/notify_settings.h"
#include "play/chat_links.h"
#include "play/invitations.h"
#include "play/matches.h"
#include "play/nudge.h"
#include "play/retry.h"
#include "play/vacations.h"
#include "store/db.h"
#include "store/matches.h"
#include "store/store.h"

#define MAX_COMMANDS 50
#define MAX_WORDS 24

/* One line being run: its words and the request it is. */
typedef struct command {
    const char *line;
    char *words[MAX_WORDS];
    int word_count;
    int number; /* 1-based among the mail's commands */
    caller who;
} command;

/* The state of a whole run. */
typedef struct runner {
    const mail_context *ctx;
    long long player_id; /* may be set by "join" */
    FILE *out;
    mail_run *run;
    bool database_down;
} runner;

/* The request a line is: the nonce is derived from the message and the
 * line's number, so the same message handled again is the same request
 * (answered from retry.h, never applied twice); the digest also covers the
 * line's text. */
static void make_caller(runner *r, command *c)
{
    memset(&c->who, 0, sizeof c->who);
    c->who.player_id = r->player_id;
    snprintf(c->who.key_id, sizeof c->who.key_id, "email");
    uint8_t nonce[16];
    crypto_generichash_state state;
    crypto_generichash_init(&state, NULL, 0, sizeof nonce);
    crypto_generichash_update(&state, (const uint8_t *)r->ctx->message_key,
                              strlen(r->ctx->message_key) + 1);
    char number[16];
    snprintf(number, sizeof number, "%d", c->number);
    crypto_generichash_update(&state, (const uint8_t *)number,
                              strlen(number) + 1);
    crypto_generichash_final(&state, nonce, sizeof nonce);
    hex_encode(nonce, sizeof nonce, c->who.nonce);
    crypto_generichash_init(&state, NULL, 0, sizeof c->who.request_digest);
    crypto_generichash_update(&state, nonce, sizeof nonce);
    crypto_generichash_update(&state, (const uint8_t *)c->line,
                              strlen(c->line));
    crypto_generichash_final(&state, c->who.request_digest,
                             sizeof c->who.request_digest);
    c->who.signature = NULL;
}

/* An error from a use case: a refusal the person reads, or (5xx) a
 * failure of ours that makes the whole message wait for a later try. */
static bool refuse(runner *r, const apierr *err)
{
    if (err->status >= 500) {
        r->database_down = true;
        log_warn("mail %s: %s (the message will be handled again)",
                 r->ctx->message_key, err->message);
        return false;
    }
    fprintf(r->out, "Refused: %s\n", err->message);
    r->run->refused = true;
    return false;
}

static bool refuse_text(runner *r, const char *text)
{
    fprintf(r->out, "Refused: %s\n", text);
    r->run->refused = true;
    return false;
}

/* Runs a use case that changes something, once: a line seen before gets
 * its first answer back. */
typedef json_t *(*changing_call)(runner *r, command *c, apierr *err);

static json_t *once(runner *r, command *c, changing_call call, apierr *err)
{
    retry_answer stored = {0};
    int seen = retry_find(&c->who, &stored, err);
    if (seen < 0)
        return NULL;
    if (seen == 1) {
        json_t *answer = json_loads(stored.body ? stored.body : "{}", 0, NULL);
        int status = stored.status;
        free(stored.body);
        if (status >= 400) {
            /* A stored refusal has the API's error shape. */
            const json_t *error = json_object_get(answer, "error");
            apierr_set(err, status,
                       json_string_value(json_object_get(error, "code"))
                           ?: "refused",
                       "%s",
                       json_string_value(json_object_get(error, "message"))
                           ?: "this line was refused when the mail was "
                              "first handled");
            json_decref(answer);
            return NULL;
        }
        return answer ? answer : json_object();
    }
    return call(r, c, err);
}

static bool need_player(runner *r)
{
    if (r->player_id != 0)
        return true;
    if (r->ctx->invitation_id != 0)
        return refuse_text(r, "to take the seat this invitation offers, "
                              "answer it with \"join\"; the other commands "
                              "work once you have joined");
    return refuse_text(r, "you have no account yet: answer an invitation "
                          "with \"join\", or write \"new GAME\" to the "
                          "service's address");
}

static bool need_match(runner *r)
{
    if (r->ctx->match_id != 0)
        return true;
    return refuse_text(r, "this mail is not about a match: answer the mail "
                          "about the match you want to play in (write "
                          "\"matches\" to list yours)");
}

/* ---- moves ------------------------------------------------------------ */

static json_t *call_move(runner *r, command *c, apierr *err)
{
    /* Judged before the turn: a chat line is "not a move", never "it is
     * not your turn". Here and not before the stored answer is looked up:
     * the same line handled again is read against the match as it was. */
    mail_moves_reading reading;
    if (!mail_moves_read(r->ctx->match_id, r->player_id, c->line, &reading,
                         err))
        return NULL;
    if (reading == MAIL_MOVES_NOT_A_MOVE) {
        apierr_set(err, 422, "not_a_move", "not a move");
        return NULL;
    }
    if (reading == MAIL_MOVES_NO_SEAT && r->ctx->invitation_id != 0) {
        /* A registered player answering an invitation with something
         * else than yes: how to take the seat, not "you have no seat". */
        apierr_set(err, 409, "not_joined",
                   "to take the seat this invitation offers, answer it with "
                   "\"join\"; the other commands work once you have joined");
        return NULL;
    }
    json_t *answer = NULL;
    /* A move is made at the match's head as it is now; a move by someone
     * else in between moves the head on, and the move is judged again
     * there (once). */
    for (int attempt = 0; attempt < 2 && answer == NULL; attempt++) {
        long long head = 0;
        int version = 0;
        PGconn *conn = db_conn(err);
        if (conn == NULL ||
            !store_load_head(conn, r->ctx->match_id, &head, &version, err))
            return NULL;
        json_t *body =
            json_pack("{s:I,s:s}", "seq", (json_int_t)head, "move", c->line);
        answer = matches_move(&c->who, r->ctx->match_id, body, false, err);
        json_decref(body);
        if (answer == NULL && strcmp(err->code, "stale_seq") != 0)
            break;
    }
    return answer;
}

/* A line that is neither a command nor a move of the game: a greeting,
 * a signature without its separator, a typo. */
static bool not_a_move(runner *r, command *c)
{
    (void)c;
    fprintf(r->out, "Not a move: this line is neither a command nor a move "
                    "of this game, so it was left alone. Write one move per "
                    "line as your moves below show them, \"say\" and your "
                    "words to write to the other players (\"say to NAME\" "
                    "to one of them), or \"help\" for the commands.\n");
    r->run->refused = true;
    return false;
}

static bool run_move(runner *r, command *c)
{
    if (!need_player(r) || !need_match(r))
        return false;
    apierr err;
    json_t *via = json_deep_copy(r->ctx->via);
    json_object_set_new(via, "line", json_integer(c->number));
    json_object_set_new(via, "command", json_string(c->line));
    c->who.signature = via;
    json_t *answer = once(r, c, call_move, &err);
    json_decref(via);
    c->who.signature = NULL;
    if (answer == NULL && strcmp(err.code, "not_a_move") == 0)
        return not_a_move(r, c);
    if (answer == NULL)
        return refuse(r, &err);
    bool told;
    /* A move during a secret decision is sealed (decisions_commit's
     * answer names the decision): it is not applied yet. */
    if (json_object_get(answer, "decision") != NULL) {
        told = mail_moves_tell_sealed(r->out, r->ctx->match_id, r->player_id,
                                      c->line, answer, &err);
    } else {
        long long seq =
            (long long)json_integer_value(json_object_get(answer, "seq"));
        told =
            mail_moves_tell(r->out, r->ctx->match_id, seq, r->player_id, &err);
        fprintf(r->out, " (event %lld)", seq);
    }
    /* The move stands whatever happens to its sentence. */
    if (!told)
        log_warn("mail %s: the move of line %d was applied but not told: %s",
                 r->ctx->message_key, c->number, err.message);
    fputc('\n', r->out);
    json_decref(answer);
    r->run->changed = true;
    r->run->moves++;
    r->run->match_id = r->ctx->match_id;
    return true;
}

/* ---- reading ----------------------------------------------------------- */

static bool run_view(runner *r, command *c)
{
    (void)c;
    if (!need_player(r) || !need_match(r))
        return false;
    r->run->match_id = r->ctx->match_id;
    fprintf(r->out, "Your view is below.\n");
    return true;
}

static bool run_log(runner *r, command *c)
{
    if (!need_player(r) || !need_match(r))
        return false;
    int count = 0;
    if (c->word_count > 1) {
        char *end;
        long n = strtol(c->words[1], &end, 10);
        if (*end != '\0' || n < 1 || n > 200)
            return refuse_text(r, "write \"log\" or \"log N\" with N from 1 "
                                  "to 200");
        count = (int)n;
    }
    apierr err;
    if (!mail_show_log(r->out, r->player_id, r->ctx->match_id, count, &err))
        return refuse(r, &err);
    return true;
}

static bool run_matches(runner *r, command *c)
{
    (void)c;
    if (!need_player(r))
        return false;
    apierr err;
    if (!mail_show_matches(r->out, r->player_id, &err))
        return refuse(r, &err);
    return true;
}

static bool run_games(runner *r, command *c)
{
    (void)c;
    mail_show_games(r->out);
    return true;
}

static bool run_rules(runner *r, command *c)
{
    apierr err;
    /* "rules" alone, in answer to a mail about a match: its game's. */
    if (c->word_count < 2 && r->ctx->match_id != 0) {
        if (!mail_show_match_rules(r->out, r->ctx->match_id, &err))
            return refuse(r, &err);
        return true;
    }
    if (c->word_count < 2) {
        apierr_set(&err, 400, "which_game",
                   "write rules and the game: rules antiquity_quest (the "
                   "games command lists them)");
        return refuse(r, &err);
    }
    if (!mail_show_rules(r->out, c->words + 1, c->word_count - 1, &err))
        return refuse(r, &err);
    return true;
}

static bool run_ratings(runner *r, command *c)
{
    apierr err;
    if (!mail_ratings_show(r->out, r->player_id, r->ctx->match_id, c->words + 1,
                           c->word_count - 1, &err))
        return refuse(r, &err);
    return true;
}

static bool run_help(runner *r, command *c)
{
    (void)c;
    mail_commands_help(r->out);
    return true;
}

/* ---- talk at the table ------------------------------------------------ */

static json_t *call_say(runner *r, command *c, apierr *err)
{
    return mail_say_post(&c->who, r->ctx->match_id, c->line, err);
}

static bool run_say(runner *r, command *c)
{
    if (!need_player(r) || !need_match(r))
        return false;
    apierr err;
    json_t *via = json_deep_copy(r->ctx->via);
    json_object_set_new(via, "line", json_integer(c->number));
    c->who.signature = via;
    json_t *answer = once(r, c, call_say, &err);
    json_decref(via);
    c->who.signature = NULL;
    if (answer == NULL)
        return refuse(r, &err);
    mail_say_tell(r->out, answer);
    json_decref(answer);
    r->run->changed = true;
    return true;
}

/* "mute NAME" / "unmute NAME": harmless to repeat, as PUT and DELETE of
 * a mute are, so no stored answer is needed. */
static bool run_mute(runner *r, command *c)
{
    if (!need_player(r) || !need_match(r))
        return false;
    apierr err;
    bool muted = strcasecmp(c->words[0], "mute") == 0;
    json_t *answer =
        mail_say_mute(&c->who, r->ctx->match_id, c->line, muted, &err);
    if (answer == NULL)
        return refuse(r, &err);
    mail_say_tell_mute(r->out, answer);
    json_decref(answer);
    r->run->changed = true;
    return true;
}

/* ---- the player's own settings ---------------------------------------- */

static json_t *call_vacation(runner *r, command *c, apierr *err)
{
    (void)r;
    char from[40], until[40];
    const char *a = c->words[1], *b = c->words[2];
    /* Bare dates are whole days in UTC: from the start of the first to the
     * end of the last day named. */
    long long from_s, until_s;
    if (strlen(a) == 10 && strlen(b) == 10) {
        snprintf(from, sizeof from, "%sT00:00:00Z", a);
        snprintf(until, sizeof until, "%sT00:00:00Z", b);
        if (!clock_parse(from, false, &from_s) ||
            !clock_parse(until, false, &until_s)) {
            apierr_set(err, 400, "bad_vacation",
                       "write the dates as YYYY-MM-DD: vacation 2026-12-24 "
                       "2027-01-02");
            return NULL;
        }
        clock_format(until_s + 86400, until);
    } else {
        snprintf(from, sizeof from, "%s", a);
        snprintf(until, sizeof until, "%s", b);
    }
    json_t *body = json_pack("{s:s,s:s}", "from", from, "until", until);
    json_t *answer = vacations_declare(&c->who, body, err);
    json_decref(body);
    return answer;
}

/* Ends every vacation of the player that is not over: how many, or -1. */
static int end_vacations(long long player_id, apierr *err)
{
    json_t *list = vacations_list(player_id, err);
    if (list == NULL)
        return -1;
    const json_t *all =
        json_is_array(list) ? list : json_object_get(list, "vacations");
    int ended = 0;
    size_t i;
    const json_t *vacation;
    json_array_foreach(all, i, vacation)
    {
        const char *id = json_string_value(json_object_get(vacation, "id"));
        apierr one;
        json_t *done = id ? vacations_cancel(player_id, id, &one) : NULL;
        if (done != NULL)
            ended++;
        else if (id != NULL && one.status >= 500) {
            *err = one;
            json_decref(list);
            return -1;
        }
        json_decref(done);
    }
    json_decref(list);
    return ended;
}

static bool run_vacation(runner *r, command *c)
{
    if (!need_player(r))
        return false;
    apierr err;
    if (c->word_count == 2 && strcasecmp(c->words[1], "off") == 0) {
        int ended = end_vacations(r->player_id, &err);
        if (ended < 0)
            return refuse(r, &err);
        fprintf(r->out, "%s\n",
                ended ? "Vacation cancelled: your clocks run "
                        "as usual."
                      : "You had no vacation to cancel.");
        r->run->changed = ended > 0;
        return true;
    }
    if (c->word_count != 3)
        return refuse_text(r, "write \"vacation FROM UNTIL\" with dates "
                              "(vacation 2026-12-24 2027-01-02) or "
                              "\"vacation off\"");
    json_t *answer = once(r, c, call_vacation, &err);
    if (answer == NULL)
        return refuse(r, &err);
    const json_t *vacation = json_object_get(answer, "vacation");
    fprintf(r->out,
            "Vacation from %s until %s: your clocks stand still "
            "then.\n",
            json_string_value(json_object_get(vacation, "from")) ?: "?",
            json_string_value(json_object_get(vacation, "until")) ?: "?");
    json_decref(answer);
    r->run->changed = true;
    return true;
}

static json_t *call_nudge(runner *r, command *c, apierr *err)
{
    return nudge_send(&c->who, r->ctx->match_id, err);
}

static bool run_nudge(runner *r, command *c)
{
    if (!need_player(r) || !need_match(r))
        return false;
    apierr err;
    json_t *answer = once(r, c, call_nudge, &err);
    if (answer == NULL)
        return refuse(r, &err);
    fprintf(r->out, "Nudged: the seats the match waits for are reminded.\n");
    json_decref(answer);
    r->run->match_id = r->ctx->match_id;
    return true;
}

static bool on_off(const char *word, bool *value)
{
    if (strcasecmp(word, "on") == 0 || strcasecmp(word, "yes") == 0)
        return *value = true, true;
    if (strcasecmp(word, "off") == 0 || strcasecmp(word, "no") == 0)
        return *value = false, true;
    return false;
}

/* The settings as PUT takes them, from what GET gives. */
static json_t *settings_body(const json_t *current)
{
    static const char *const fields[] = {
        "email",  "webhooks",    "time_zone",      "quiet_hours",
        "digest", "digest_hour", "reminder_hours", "skip_when_seen"};
    json_t *body = json_object();
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        json_t *value = json_object_get(current, fields[i]);
        if (value != NULL)
            json_object_set(body, fields[i], value);
    }
    return body;
}

/* Changes one setting in body from the command's words; false with why. */
static bool change_setting(json_t *body, command *c, const char **why)
{
    const char *what = c->words[1], *value = c->words[2];
    bool flag;
    if ((strcasecmp(what, "digest") == 0 || strcasecmp(what, "email") == 0 ||
         strcasecmp(what, "webhooks") == 0) &&
        on_off(value, &flag)) {
        char key[16];
        snprintf(key, sizeof key, "%s", what);
        for (char *k = key; *k; k++)
            *k = (char)tolower((unsigned char)*k);
        json_object_set_new(body, key, json_boolean(flag));
        return true;
    }
    if (strcasecmp(what, "zone") == 0) {
        json_object_set_new(body, "time_zone", json_string(value));
        return true;
    }
    /* "settings page off": mail every turn, even while on the page. */
    if (strcasecmp(what, "page") == 0 && on_off(value, &flag)) {
        json_object_set_new(body, "skip_when_seen", json_boolean(flag));
        return true;
    }
    if (strcasecmp(what, "quiet") == 0) {
        if (strcasecmp(value, "off") == 0) {
            json_object_set_new(body, "quiet_hours", json_null());
            return true;
        }
        char from[6], until[6];
        if (strlen(value) == 11 && value[5] == '-') {
            snprintf(from, sizeof from, "%.5s", value);
            snprintf(until, sizeof until, "%.5s", value + 6);
            json_object_set_new(
                body, "quiet_hours",
                json_pack("{s:s,s:s}", "from", from, "until", until));
            return true;
        }
        *why = "write the quiet hours as HH:MM-HH:MM (settings quiet "
               "22:00-07:00) or \"settings quiet off\"";
        return false;
    }
    if (strcasecmp(what, "reminders") == 0) {
        json_t *hours = json_array();
        if (strcasecmp(value, "off") != 0) {
            char *copy = strdup(value), *save = NULL;
            for (char *h = strtok_r(copy, ",", &save); h != NULL;
                 h = strtok_r(NULL, ",", &save)) {
                char *end;
                long n = strtol(h, &end, 10);
                if (*end != '\0' || n < 1 || n > 10000) {
                    free(copy);
                    json_decref(hours);
                    *why = "write reminder hours as numbers: settings "
                           "reminders 24,72 (or off)";
                    return false;
                }
                json_array_append_new(hours, json_integer(n));
            }
            free(copy);
        }
        json_object_set_new(body, "reminder_hours", hours);
        return true;
    }
    *why = "the settings are: digest on|off, email on|off, quiet "
           "HH:MM-HH:MM|off, zone Area/City, reminders H,H…|off, page "
           "on|off";
    return false;
}

static bool run_settings(runner *r, command *c)
{
    if (!need_player(r))
        return false;
    if (c->word_count != 3)
        return refuse_text(r, "write one setting per line: settings digest "
                              "on, settings quiet 22:00-07:00, settings zone "
                              "Europe/Paris, settings reminders 24,72");
    apierr err;
    json_t *current = notify_settings_get(r->player_id, &err);
    if (current == NULL)
        return refuse(r, &err);
    json_t *body = settings_body(current);
    json_decref(current);
    const char *why = NULL;
    if (!change_setting(body, c, &why)) {
        json_decref(body);
        return refuse_text(r, why);
    }
    json_t *answer = notify_settings_put(r->player_id, body, &err);
    json_decref(body);
    if (answer == NULL)
        return refuse(r, &err);
    fprintf(r->out, "Settings changed: %s %s.\n", c->words[1], c->words[2]);
    json_decref(answer);
    r->run->changed = true;
    return true;
}

/* ---- joining and starting ---------------------------------------------- */

/* ---- the lobby (mail_lobby.h) ------------------------------------------ */

static json_t *call_lobby(runner *r, command *c, apierr *err)
{
    (void)r;
    return mail_lobby_call(&c->who, c->words, c->word_count, err);
}

static bool run_lobby(runner *r, command *c)
{
    if (!need_player(r))
        return false;
    apierr err;
    bool changes = mail_lobby_changes(c->words, c->word_count);
    json_t *answer = changes ? once(r, c, call_lobby, &err)
                             : call_lobby(r, c, &err);
    if (answer == NULL)
        return refuse(r, &err);
    long long match_id =
        mail_lobby_tell(c->words, c->word_count, answer, r->out);
    json_decref(answer);
    r->run->changed = r->run->changed || changes;
    if (match_id != 0)
        r->run->match_id = match_id;
    return true;
}

static bool run_join(runner *r, command *c)
{
    if (r->ctx->invitation_id == 0 && c->word_count == 2)
        return run_lobby(r, c);
    if (r->ctx->invitation_id == 0)
        return refuse_text(r, "\"join\" answers an invitation: answer the "
                              "invitation mail itself");
    apierr err;
    long long match_id = 0, player_id = 0;
    int seat = -1;
    if (!mail_join_accept(r->ctx->invitation_id, &c->who, &match_id, &player_id,
                          &seat, &err))
        return refuse(r, &err);
    r->player_id = player_id;
    char ref[32];
    store_match_ref(match_id, ref);
    fprintf(r->out,
            "You have seat %d in match %s. Answer the mails about "
            "it to play; its mails come from now on.\n",
            seat, ref);
    r->run->changed = true;
    r->run->match_id = match_id;
    return true;
}

static json_t *option_value(const char *text)
{
    char *end;
    long long n = strtoll(text, &end, 10);
    if (*text != '\0' && *end == '\0')
        return json_integer(n);
    if (strcasecmp(text, "true") == 0 || strcasecmp(text, "yes") == 0)
        return json_true();
    if (strcasecmp(text, "false") == 0 || strcasecmp(text, "no") == 0)
        return json_false();
    return json_string(text);
}

static json_t *call_new(runner *r, command *c, apierr *err)
{
    (void)r;
    json_t *body = json_pack("{s:s,s:{}}", "game", c->words[1], "options");
    for (int i = 2; i < c->word_count; i++) {
        char *eq = strchr(c->words[i], '=');
        if (eq == NULL || eq == c->words[i]) {
            json_decref(body);
            apierr_set(err, 400, "bad_command",
                       "write options as name=value: new %s seats=3 "
                       "variant=advanced (\"%s\" is not one)",
                       c->words[1], c->words[i]);
            return NULL;
        }
        *eq = '\0';
        if (strcmp(c->words[i], "seats") == 0 ||
            strcmp(c->words[i], "open") == 0 ||
            strcmp(c->words[i], "rated") == 0)
            json_object_set_new(body, c->words[i], option_value(eq + 1));
        else
            json_object_set_new(json_object_get(body, "options"), c->words[i],
                                option_value(eq + 1));
        *eq = '=';
    }
    json_t *answer = matches_create(&c->who, body, err);
    json_decref(body);
    return answer;
}

static bool run_new(runner *r, command *c)
{
    if (!need_player(r))
        return false;
    if (c->word_count < 2)
        return refuse_text(r, "write \"new GAME seats=N\"; \"games\" lists "
                              "the games and their options");
    apierr err;
    json_t *answer = once(r, c, call_new, &err);
    if (answer == NULL)
        return refuse(r, &err);
    const char *ref = json_string_value(
        json_object_get(json_object_get(answer, "match"), "id"));
    fprintf(r->out,
            "Match %s is open and you have seat 0. Invite the "
            "others by answering this mail with one line per "
            "player: invite ADDRESS NAME\n",
            ref ? ref : "?");
    r->run->match_id = store_parse_match_ref(ref ? ref : "");
    json_decref(answer);
    r->run->changed = true;
    return true;
}

static json_t *call_invite(runner *r, command *c, apierr *err)
{
    /* The name is every word after the address: "invite bob@x.org Bob
     * Smith". */
    char name[128] = "";
    for (int i = 2; i < c->word_count; i++) {
        size_t used = strlen(name);
        snprintf(name + used, sizeof name - used, "%s%s", i > 2 ? " " : "",
                 c->words[i]);
    }
    json_t *body = json_pack("{s:s,s:s}", "email", c->words[1], "name", name);
    json_t *answer = invitations_create(&c->who, r->ctx->match_id, body, err);
    json_decref(body);
    return answer;
}

static bool run_invite(runner *r, command *c)
{
    if (!need_player(r) || !need_match(r))
        return false;
    if (c->word_count < 3)
        return refuse_text(r, "write \"invite ADDRESS NAME\": invite "
                              "bob@example.org Bob");
    apierr err;
    json_t *answer = once(r, c, call_invite, &err);
    if (answer == NULL)
        return refuse(r, &err);
    fprintf(r->out,
            "Invited %s as %s: answering the invitation with "
            "\"join\" seats them.\n",
            json_string_value(json_object_get(answer, "email")) ?: "?",
            json_string_value(json_object_get(answer, "name")) ?: "?");
    json_decref(answer);
    r->run->changed = true;
    r->run->match_id = r->ctx->match_id;
    return true;
}

/* ---- chat ------------------------------------------------------------- */

static bool run_chat(runner *r, command *c)
{
    (void)c;
    if (!need_player(r))
        return false;
    apierr err;
    json_t *code = chat_links_issue(r->player_id, &err);
    if (code == NULL)
        return refuse(r, &err);
    const char *text = json_string_value(json_object_get(code, "code"));
    fprintf(r->out,
            "Your chat link code: %s (it works once, until %s). In Discord "
            "or Slack, where the pbem app is installed, type:\n"
            "  /pbem link %s\n",
            text, json_string_value(json_object_get(code, "expires")), text);
    json_decref(code);
    return true;
}

/* ---- dispatch ---------------------------------------------------------- */

typedef struct verb {
    const char *name;
    bool (*run)(runner *r, command *c);
} verb;

static const verb verbs[] = {
    {"view", run_view},       {"log", run_log},
    {"matches", run_matches}, {"games", run_games},
    {"help", run_help},       {"vacation", run_vacation},
    {"rules", run_rules},
    {"nudge", run_nudge},     {"settings", run_settings},
    {"join", run_join},       {"new", run_new},
    {"invite", run_invite},   {"chat", run_chat},
    {"say", run_say},
    {"mute", run_mute},
    {"unmute", run_mute},
    {"list", run_lobby},
    {"seek", run_lobby},
    {"unseek", run_lobby},
    {"ratings", run_ratings},
};

static int split_words(char *line, char **words)
{
    int count = 0;
    char *save = NULL;
    for (char *w = strtok_r(line, " \t", &save); w != NULL && count < MAX_WORDS;
         w = strtok_r(NULL, " \t", &save))
        words[count++] = w;
    return count;
}

/* Whether line, in answer to an invitation, says yes as people write it:
 * "join", "Join!", "yes", "OK.", "Count me in, join", "I'm in". Every word
 * must be one of these (so "yes, but not now" is no join), and one must
 * say yes. */
static bool reads_as_join(const char *line)
{
    static const char *const yes[] = {"join",   "yes",  "yep",  "yeah",
                                      "ok",     "okay", "sure", "in",
                                      "accept", "y",    NULL};
    static const char *const also[] = {
        "count", "me",   "i'm", "im",   "i",  "am",     "please", "let's",
        "lets",  "play", "i'd", "love", "to", "gladly", NULL};
    char words[256];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)line;
         *p && n + 1 < sizeof words; p++) {
        if (p[0] == 0xE2 && p[1] == 0x80 && p[2] == 0x99) { /* ’ */
            words[n++] = '\'';
            p += 2;
        } else if (isalpha(*p) || *p == '\'') {
            words[n++] = (char)tolower(*p);
        } else if (*p < 0x80) {
            words[n++] = ' ';
        } else {
            return false;
        }
    }
    words[n] = '\0';
    bool said_yes = false, all_known = true;
    char *save = NULL;
    for (char *w = strtok_r(words, " ", &save); w != NULL && all_known;
         w = strtok_r(NULL, " ", &save)) {
        bool known = false;
        for (size_t i = 0; yes[i] != NULL && !known; i++)
            known = strcmp(w, yes[i]) == 0;
        said_yes = said_yes || known;
        for (size_t i = 0; also[i] != NULL && !known; i++)
            known = strcmp(w, also[i]) == 0;
        all_known = known;
    }
    return said_yes && all_known;
}

static bool run_line(runner *r, command *c)
{
    fprintf(r->out, "> %.*s\n", mail_say_first_line(c->line), c->line);
    make_caller(r, c);
    char *copy = strdup(c->line);
    c->word_count = split_words(copy, c->words);
    bool ok = false;
    const verb *found = NULL;
    for (size_t i = 0; c->word_count > 0 && i < sizeof verbs / sizeof *verbs;
         i++) {
        if (strcasecmp(c->words[0], verbs[i].name) == 0)
            found = &verbs[i];
    }
    if (found == NULL && r->ctx->invitation_id != 0 && reads_as_join(c->line))
        ok = run_join(r, c);
    else
        ok = found ? found->run(r, c) : run_move(r, c);
    free(copy);
    fputc('\n', r->out);
    return ok;
}

/* "end" stops the reading (mail_text.h keeps it as the last line), but
 * in Quarriors it is also the move that ends a turn: it is that move when
 * the sender may make it now. */
static bool end_is_a_move(runner *r)
{
    if (r->player_id == 0 || r->ctx->match_id == 0)
        return false;
    mail_moves_reading reading;
    apierr err;
    if (!mail_moves_read(r->ctx->match_id, r->player_id, "end", &reading,
                         &err)) {
        /* Read as a move, its refusal says what failed. */
        return true;
    }
    return reading == MAIL_MOVES_LEGAL;
}

bool mail_commands_run(const mail_context *ctx, const char *text, FILE *out,
                       mail_run *run)
{
    *run = (mail_run){.match_id = 0};
    runner r = {
        .ctx = ctx, .player_id = ctx->player_id, .out = out, .run = run};
    char *copy = mail_say_paragraphs(text ? text : "");
    char *save = NULL;
    int number = 0;
    int skipped = 0;
    for (char *line = strtok_r(copy, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        while (isspace((unsigned char)*line))
            line++;
        size_t n = strlen(line);
        while (n > 0 && isspace((unsigned char)line[n - 1]))
            line[--n] = '\0';
        if (n == 0)
            continue;
        if (run->refused || r.database_down || number >= MAX_COMMANDS) {
            skipped++;
            continue;
        }
        if (strcasecmp(line, "end") == 0 && !end_is_a_move(&r))
            break;
        number++;
        command c = {.line = line, .number = number};
        if (run_line(&r, &c))
            run->applied++;
    }
    free(copy);
    run->player_id = r.player_id;
    if (r.database_down)
        return false;
    if (number == 0) {
        fprintf(out, "Your mail held no command.\n\n");
        mail_commands_help(out);
    }
    if (skipped > 0)
        fprintf(out, "%d more line%s after %s %s not applied.\n\n", skipped,
                skipped == 1 ? "" : "s",
                run->refused ? "the refusal" : "the first 50",
                skipped == 1 ? "was" : "were");
    if (run->match_id == 0 && ctx->match_id != 0)
        run->match_id = ctx->match_id;
    return true;
}

bool mail_commands_is_door_word(const char *word)
{
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
        if (strcasecmp(word, verbs[i].name) == 0)
            return true;
    return strcasecmp(word, "end") == 0;
}

void mail_commands_help(FILE *out)
{
    fputs("Write one command per line; the first refusal stops the rest.\n"
          "  a move, as the mails list them (play B5)\n"
          "  view             your view and the moves you may make\n"
          "  log [N]          what happened since your turn, or the last N\n"
          "  matches          your matches, with whose turn it is\n"
          "  games            the games and their options\n"
          "  rules [GAME]     a game's rules in short, with its moves\n"
          "  vacation 2026-12-24 2027-01-02, or vacation off\n"
          "  nudge            remind the players the match waits for\n"
          "  say TEXT         write to everyone at the table; say to NAME\n"
          "                   TEXT writes to that player alone\n"
          "  mute NAME        read nothing more that player writes; unmute\n"
          "                   NAME reads them again\n"
          "  settings digest on|off, settings email on|off,\n"
          "    settings quiet 22:00-07:00|off, settings zone Europe/Paris,\n"
          "    settings reminders 24,72|off, settings page on|off (no\n"
          "    turn mail while you are on the web page)\n"
          "  join             take the seat an invitation offers\n"
          "  list [GAME]      the open matches waiting for players\n"
          "  join m_1234      take a free seat of that match\n"
          "  seek GAME seats=N turn=1d   wait for a quick match\n"
          "  unseek           stop waiting\n"
          "  ratings [GAME]   the game's top 10 players, and your line\n"
          "  new GAME seats=N [open=yes] [option=value ...]   start a match\n"
          "  invite ADDRESS NAME   invite someone to the match by mail\n"
          "  chat             a code that links Discord or Slack to you\n"
          "  help             this list\n"
          "Answer the latest mail about a match to play in it: its reply\n"
          "address is how the service knows the mail is yours.\n",
          out);
}
