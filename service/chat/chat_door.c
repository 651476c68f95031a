/* chat_door.c: see chat_door.h. */
#include "chat/chat_door.h"

#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "auth/chat_user.h"
#include "core/apierr.h"
#include "core/hex.h"
#include "core/log.h"
#include "ledger/public_event.h"
#include "mailin/mail_commands.h"
#include "mailin/mail_lobby.h"
#include "mailin/mail_show.h"
#include "play/chat_links.h"
#include "play/matches.h"
#include "play/my_matches.h"
#include "store/delegate_grants.h"
#include "store/store.h"

/* A match named in a refusal's list at most. */
#define LISTED_MAX 10

static const char help_text[] =
    "/pbem link CODE      link this account to your player (the code is on "
    "the page, or from pbem chat-link)\n"
    "/pbem view [m_12]    your view and the moves you may make\n"
    "/pbem move [m_12] MOVE   a move, as your view lists them\n"
    "/pbem log [m_12] [N] what happened since your last turn\n"
    "/pbem matches        your matches, with whose turn it is\n"
    "/pbem join m_12      take a free seat in an open match\n"
    "/pbem new GAME seats=N [open=yes] [option=value ...]   start a match "
    "(open: anyone may join it from the list)\n"
    "/pbem list [GAME]    open matches to join, and quick matches waiting\n"
    "/pbem seek GAME seats=N [turn=1d]   wait for a quick match with "
    "strangers of your strength\n"
    "/pbem unseek [s_12]  stop waiting (every seek, when none is named)\n"
    "/pbem games, /pbem rules [GAME], /pbem help\n"
    "Leave out the match when you play one, or are to move in one.\n"
    "Only you see these answers.";

const char *chat_door_help(void)
{
    return help_text;
}

static bool id_ok(const char *id)
{
    if (id == NULL || id[0] == '\0' || strlen(id) > 24)
        return false;
    for (const char *c = id; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
            return false;
    return true;
}

bool chat_door_user(chat_user *user, const char *platform, const char *team,
                    const char *id, const char *name)
{
    memset(user, 0, sizeof *user);
    user->platform = platform;
    if (!id_ok(id) || (team != NULL && !id_ok(team)))
        return false;
    if (team != NULL)
        snprintf(user->key_id, sizeof user->key_id, "%s:%s:%s", platform, team,
                 id);
    else
        snprintf(user->key_id, sizeof user->key_id, "%s:%s", platform, id);
    /* The name as a grant keeps it: no control characters. */
    size_t n = 0;
    for (const char *c = name ? name : ""; *c && n + 1 < sizeof user->name; c++)
        user->name[n++] = (unsigned char)*c < 0x20 ? ' ' : *c;
    user->name[n] = '\0';
    /* Cut on a whole character. */
    if (name != NULL && name[n] != '\0')
        while (n > 0 && ((unsigned char)name[n] & 0xc0) == 0x80)
            user->name[--n] = '\0';
    return true;
}

void chat_door_reply_free(chat_reply *reply)
{
    free(reply->text);
    reply->text = NULL;
}

/* An answer being written. */
typedef struct answer_text {
    char *bytes;
    size_t len;
    FILE *out;
} answer_text;

static void open_text(answer_text *t)
{
    t->bytes = NULL;
    t->len = 0;
    t->out = open_memstream(&t->bytes, &t->len);
    if (t->out == NULL)
        abort();
}

static void close_text(answer_text *t, chat_reply *reply)
{
    fclose(t->out);
    free(reply->text);
    reply->text = t->bytes;
}

/* A refusal as the reply; false only for a failure of ours (5xx). */
static bool refused(chat_reply *reply, const apierr *err)
{
    if (err->status >= 500) {
        log_warn("chat: %s", err->message);
        return false;
    }
    free(reply->text);
    if (asprintf(&reply->text, "Refused: %s", err->message) < 0)
        abort();
    reply->refused = true;
    return true;
}

/* args split off its first word into word (empty when none); the rest. */
static const char *first_word(const char *args, char *word, size_t size)
{
    const char *at = args ? args : "";
    while (isspace((unsigned char)*at))
        at++;
    size_t n = 0;
    while (at[n] != '\0' && !isspace((unsigned char)at[n]))
        n++;
    snprintf(word, size, "%.*s", (int)(n < size ? n : size - 1), at);
    at += n;
    while (isspace((unsigned char)*at))
        at++;
    return at;
}

/* The match args name first ("m_12 …"), moving *args past it; 0 when it
 * names none. */
static long long named_match(const char **args)
{
    char word[32];
    const char *rest = first_word(*args, word, sizeof word);
    long long id = store_parse_match_ref(word);
    if (id != 0)
        *args = rest;
    return id;
}

/* The match to act in when none is named: the only active one, or the
 * only one where it is the player's turn. 0 with err filled (409, the
 * sentence listing the matches) when that is not one match. */
static long long chosen_match(const caller *who, apierr *err)
{
    json_t *list = my_matches_list(who, "active", err);
    if (list == NULL)
        return 0;
    const json_t *matches = json_object_get(list, "matches");
    size_t i;
    const json_t *m;
    long long only = 0, turn = 0;
    int turns = 0;
    char names[LISTED_MAX * 40] = "";
    json_array_foreach(matches, i, m)
    {
        const char *ref = json_string_value(json_object_get(m, "match_id"));
        long long id = store_parse_match_ref(ref);
        only = id;
        if (json_is_true(json_object_get(m, "your_turn"))) {
            turn = id;
            turns++;
        }
        if (i < LISTED_MAX) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s (%s%s)",
                     i ? ", " : "", ref ? ref : "?",
                     json_string_value(json_object_get(m, "game")) ?: "?",
                     json_is_true(json_object_get(m, "your_turn"))
                         ? ", your turn"
                         : "");
        }
    }
    size_t count = json_array_size(matches);
    json_decref(list);
    if (count == 1)
        return only;
    if (turns == 1)
        return turn;
    if (count == 0)
        apierr_set(err, 409, "which_match",
                   "you play in no active match: /pbem matches lists yours, "
                   "/pbem new starts one");
    else
        apierr_set(err, 409, "which_match",
                   "you play in %zu matches; name one, as in /pbem view "
                   "m_12: %s",
                   count, names);
    return 0;
}

/* The link and the match for a command: who is filled, *match_id set
 * (named in *args, or chosen when need_match). False with err. */
static bool linked(const chat_user *user, unsigned scope, const char **args,
                   bool need_match, caller *who, long long *match_id,
                   apierr *err)
{
    *match_id = args ? named_match(args) : 0;
    if (!auth_chat_user(user->key_id, scope, *match_id, who, err))
        return false;
    if (*match_id == 0 && need_match) {
        *match_id = chosen_match(who, err);
        if (*match_id == 0)
            return false;
        /* The link may name some matches only. */
        if (!auth_chat_user(user->key_id, scope, *match_id, who, err))
            return false;
    }
    return true;
}

/* The request a changing command is: its nonce comes from the
 * interaction, so the same interaction handled twice is one request. */
static void request_of(const chat_user *user, const char *what, caller *who)
{
    uint8_t nonce[16];
    crypto_generichash_state state;
    crypto_generichash_init(&state, NULL, 0, sizeof nonce);
    crypto_generichash_update(&state, (const uint8_t *)user->key_id,
                              strlen(user->key_id) + 1);
    crypto_generichash_update(&state, (const uint8_t *)user->interaction,
                              strlen(user->interaction));
    crypto_generichash_final(&state, nonce, sizeof nonce);
    hex_encode(nonce, sizeof nonce, who->nonce);
    crypto_generichash(who->request_digest, sizeof who->request_digest,
                       (const uint8_t *)what, strlen(what), nonce,
                       sizeof nonce);
    /* The chat user acts as the player; the link is named in the event's
     * via, not as a bot's signed grant (data.delegate). */
    who->delegate_id = 0;
    who->signature = NULL;
}

/* What a move's event records of the chat (new reference): the platform,
 * the chat user's pseudonym, the link and the interaction. */
static json_t *via_of(const chat_user *user, long long delegate_id)
{
    char pseudonym[PUBLIC_EVENT_SENDER_CHARS + 1], grant[32];
    public_event_sender(user->key_id, pseudonym);
    store_grant_ref(delegate_id, grant);
    return json_pack("{s:s,s:s,s:s,s:s}", "via", user->platform, "chat_user",
                     pseudonym, "grant", grant, "interaction",
                     user->interaction);
}

static void put_match(chat_reply *reply, long long match_id)
{
    store_match_ref(match_id, reply->match);
}

static bool run_link(const chat_user *user, const char *args, chat_reply *reply)
{
    apierr err;
    json_t *linked_to = chat_links_redeem(args, user->key_id, user->name, &err);
    if (linked_to == NULL)
        return refused(reply, &err);
    if (asprintf(&reply->text,
                 "Linked: this account now plays for %s (link %s, until "
                 "%s). Revoke it on the page with your other grants. Try "
                 "/pbem matches.",
                 json_string_value(json_object_get(linked_to, "player")),
                 json_string_value(json_object_get(linked_to, "grant")),
                 json_string_value(json_object_get(linked_to, "expires"))) < 0)
        abort();
    json_decref(linked_to);
    return true;
}

static bool run_view(const chat_user *user, const char *args, chat_reply *reply)
{
    apierr err;
    caller who;
    long long match_id;
    if (!linked(user, STORE_GRANT_VIEW, &args, true, &who, &match_id, &err))
        return refused(reply, &err);
    answer_text t;
    open_text(&t);
    bool shown = mail_show_match(t.out, &who, match_id, NULL, &err);
    close_text(&t, reply);
    put_match(reply, match_id);
    return shown || refused(reply, &err);
}

static bool run_log(const chat_user *user, const char *args, chat_reply *reply)
{
    apierr err;
    caller who;
    long long match_id;
    if (!linked(user, STORE_GRANT_VIEW, &args, true, &who, &match_id, &err))
        return refused(reply, &err);
    int count = 0;
    if (args[0] != '\0') {
        char *end;
        long n = strtol(args, &end, 10);
        if (*end != '\0' || n < 1 || n > 200) {
            apierr_set(&err, 400, "bad_command",
                       "write /pbem log or /pbem log N with N from 1 to "
                       "200");
            return refused(reply, &err);
        }
        count = (int)n;
    }
    answer_text t;
    open_text(&t);
    bool shown = mail_show_log(t.out, who.player_id, match_id, count, &err);
    close_text(&t, reply);
    put_match(reply, match_id);
    return shown || refused(reply, &err);
}

static bool run_matches(const chat_user *user, const char *args,
                        chat_reply *reply)
{
    (void)args;
    apierr err;
    caller who;
    long long match_id;
    if (!linked(user, STORE_GRANT_VIEW, NULL, false, &who, &match_id, &err))
        return refused(reply, &err);
    answer_text t;
    open_text(&t);
    bool shown = mail_show_matches(t.out, who.player_id, &err);
    close_text(&t, reply);
    return shown || refused(reply, &err);
}

/* A move, through the mail door's commands with the chat's context: the
 * same reading of the line ("not a move"), the same sealing of secret
 * choices, the same sentence of what it did; then the view. */
static bool run_move(const chat_user *user, const char *args, chat_reply *reply)
{
    apierr err;
    caller who;
    long long match_id;
    if (!linked(user, STORE_GRANT_MOVE, &args, true, &who, &match_id, &err))
        return refused(reply, &err);
    if (args[0] == '\0' || strchr(args, '\n') != NULL) {
        apierr_set(&err, 400, "bad_command",
                   "write one move after /pbem move, as your view lists "
                   "them");
        return refused(reply, &err);
    }
    /* Only a move: the mail door's other commands (settings, vacation,
     * invite, chat…) are the player's own, beyond what a link allows;
     * "end" is a move where the game has one. */
    char word[16];
    first_word(args, word, sizeof word);
    if (strcasecmp(word, "end") != 0 && mail_commands_is_door_word(word)) {
        apierr_set(&err, 400, "bad_command",
                   "\"%s\" is a command, not a move: /pbem help lists the "
                   "commands a chat can run",
                   word);
        return refused(reply, &err);
    }
    char key[160];
    snprintf(key, sizeof key, "%s:%s", user->platform, user->interaction);
    json_t *via = via_of(user, who.delegate_id);
    mail_context ctx = {.player_id = who.player_id,
                        .match_id = match_id,
                        .message_key = key,
                        .via = via};
    answer_text t;
    open_text(&t);
    mail_run run;
    bool ok = mail_commands_run(&ctx, args, t.out, &run);
    json_decref(via);
    if (ok) {
        fputs("--\n", t.out);
        caller viewer = {.player_id = who.player_id};
        apierr show_err;
        if (!mail_show_match(t.out, &viewer, match_id, NULL, &show_err) &&
            show_err.status >= 500)
            ok = false;
    }
    close_text(&t, reply);
    reply->refused = run.refused;
    put_match(reply, match_id);
    return ok;
}

static bool run_join(const chat_user *user, const char *args, chat_reply *reply)
{
    apierr err;
    caller who;
    long long match_id;
    if (!linked(user, STORE_GRANT_JOIN, &args, false, &who, &match_id, &err))
        return refused(reply, &err);
    if (match_id == 0) {
        apierr_set(&err, 400, "which_match",
                   "name the match to join: /pbem join m_12");
        return refused(reply, &err);
    }
    request_of(user, "join", &who);
    json_t *body = json_object();
    json_t *joined = matches_join(&who, match_id, body, &err);
    json_decref(body);
    if (joined == NULL)
        return refused(reply, &err);
    json_decref(joined);
    char ref[32];
    store_match_ref(match_id, ref);
    if (asprintf(&reply->text,
                 "You have a seat in match %s. /pbem view %s shows it once "
                 "it starts.",
                 ref, ref) < 0)
        abort();
    put_match(reply, match_id);
    return true;
}

/* "3" a number, "true"/"yes" and "false"/"no" a flag (as a mail writes
 * open=yes), anything else a word. */
static json_t *option_json(const char *text)
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

static bool run_new(const chat_user *user, const char *args, chat_reply *reply)
{
    apierr err;
    caller who;
    long long match_id;
    if (!linked(user, STORE_GRANT_JOIN, NULL, false, &who, &match_id, &err))
        return refused(reply, &err);
    char game[64], word[128];
    const char *rest = first_word(args, game, sizeof game);
    if (game[0] == '\0') {
        apierr_set(&err, 400, "bad_command",
                   "write /pbem new GAME seats=N; /pbem games lists them");
        return refused(reply, &err);
    }
    json_t *body = json_pack("{s:s,s:{}}", "game", game, "options");
    while (rest[0] != '\0') {
        rest = first_word(rest, word, sizeof word);
        char *eq = strchr(word, '=');
        if (eq == NULL || eq == word) {
            json_decref(body);
            apierr_set(&err, 400, "bad_command",
                       "write options as name=value, as in seats=2 (\"%s\" "
                       "is not one)",
                       word);
            return refused(reply, &err);
        }
        *eq = '\0';
        /* The match's own settings, as a mail's "new" has them; the
         * rest are the game's options. */
        bool setting = strcmp(word, "seats") == 0 ||
                       strcmp(word, "open") == 0 || strcmp(word, "rated") == 0;
        json_object_set_new(setting ? body : json_object_get(body, "options"),
                            word, option_json(eq + 1));
    }
    request_of(user, args, &who);
    json_t *made = matches_create(&who, body, &err);
    json_decref(body);
    if (made == NULL)
        return refused(reply, &err);
    const char *ref = json_string_value(
        json_object_get(json_object_get(made, "match"), "id"));
    if (asprintf(&reply->text,
                 "Match %s is open and you have seat 0. The others join "
                 "with /pbem join %s.",
                 ref ? ref : "?", ref ? ref : "?") < 0)
        abort();
    put_match(reply, store_parse_match_ref(ref));
    json_decref(made);
    return true;
}

/* The lobby's line "verb args" run as the mail door runs it (the
 * parsing and the use case); its answer, or NULL with err. who NULL: no
 * link needed (the list is public). At most 12 words. */
static json_t *lobby_line(const caller *who, const char *verb, const char *args,
                          apierr *err)
{
    char *copy = strdup(args ? args : "");
    char *words[12] = {(char *)verb};
    int count = 1;
    char *save = NULL;
    for (char *w = strtok_r(copy, " \t", &save); w != NULL && count < 12;
         w = strtok_r(NULL, " \t", &save))
        words[count++] = w;
    caller nobody = {.player_id = 0};
    json_t *answer = mail_lobby_call(who ? who : &nobody, words, count, err);
    free(copy);
    return answer;
}

static bool run_list(const chat_user *user, const char *args, chat_reply *reply)
{
    (void)user;
    apierr err;
    json_t *answer = lobby_line(NULL, "list", args, &err);
    if (answer == NULL)
        return refused(reply, &err);
    answer_text t;
    open_text(&t);
    size_t i;
    const json_t *row;
    const json_t *seeks = json_object_get(answer, "seeks");
    if (json_array_size(seeks) > 0)
        fputs("Waiting for a quick match (the same /pbem seek meets them):\n",
              t.out);
    json_array_foreach(seeks, i, row)
    {
        fprintf(
            t.out, "  /pbem seek %s seats=%lld turn=%lldh   (since %s)\n",
            json_string_value(json_object_get(row, "game")),
            (long long)json_integer_value(json_object_get(row, "seats")),
            (long long)json_integer_value(json_object_get(row, "turn_hours")),
            json_string_value(json_object_get(row, "waiting_since")));
    }
    const json_t *matches = json_object_get(answer, "matches");
    if (json_array_size(matches) == 0)
        fputs("No open match is waiting for players. /pbem seek GAME "
              "seats=N waits for one with strangers of your strength.\n",
              t.out);
    else
        fputs("Open matches waiting for players, the newest first:\n", t.out);
    json_array_foreach(matches, i, row)
    {
        mail_lobby_tell_open_match(row, t.out);
    }
    if (json_array_size(matches) > 0)
        fputs("/pbem join m_1234 takes a seat in one.\n", t.out);
    close_text(&t, reply);
    json_decref(answer);
    return true;
}

static bool run_seek(const chat_user *user, const char *args, chat_reply *reply)
{
    apierr err;
    caller who;
    long long match_id;
    if (!linked(user, STORE_GRANT_JOIN, NULL, false, &who, &match_id, &err))
        return refused(reply, &err);
    json_t *answer = lobby_line(&who, "seek", args, &err);
    if (answer == NULL)
        return refused(reply, &err);
    const json_t *seek = json_object_get(answer, "seek");
    const char *id = json_string_value(json_object_get(seek, "id")) ?: "?";
    const char *match = json_string_value(json_object_get(answer, "match"));
    int made;
    if (match != NULL) {
        made = asprintf(&reply->text,
                        "Your seek %s found its players: match %s has "
                        "started. /pbem view %s shows it.",
                        id, match, match);
        put_match(reply, store_parse_match_ref(match));
    } else {
        made = asprintf(
            &reply->text,
            "You wait for a quick match (seek %s) until %s: %lld players, "
            "%lld h turns. Once it is made you are told as you are told of "
            "your turns, and /pbem matches shows it; /pbem unseek %s stops "
            "waiting.",
            id, json_string_value(json_object_get(seek, "expires_at")) ?: "?",
            (long long)json_integer_value(json_object_get(seek, "seats")),
            (long long)json_integer_value(json_object_get(seek, "turn_hours")),
            id);
    }
    if (made < 0)
        abort();
    json_decref(answer);
    return true;
}

static bool run_unseek(const chat_user *user, const char *args,
                       chat_reply *reply)
{
    apierr err;
    caller who;
    long long match_id;
    if (!linked(user, STORE_GRANT_JOIN, NULL, false, &who, &match_id, &err))
        return refused(reply, &err);
    json_t *answer = lobby_line(&who, "unseek", args, &err);
    if (answer == NULL)
        return refused(reply, &err);
    const json_t *gone = json_object_get(answer, "withdrawn");
    const char *one = json_string_value(json_object_get(answer, "seek"));
    int made;
    if (one != NULL)
        made =
            asprintf(&reply->text, "Withdrawn: seek %s no longer waits.", one);
    else if (json_array_size(gone) == 0)
        made = asprintf(&reply->text, "You had no seek waiting.");
    else
        made = asprintf(&reply->text,
                        "Withdrawn: you no longer wait for a quick match.");
    if (made < 0)
        abort();
    json_decref(answer);
    return true;
}

static bool run_games(const chat_user *user, const char *args,
                      chat_reply *reply)
{
    (void)user;
    (void)args;
    answer_text t;
    open_text(&t);
    mail_show_games(t.out);
    close_text(&t, reply);
    return true;
}

static bool run_rules(const chat_user *user, const char *args,
                      chat_reply *reply)
{
    (void)user;
    apierr err;
    char *copy = strdup(args ? args : "");
    char *words[8];
    int count = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, " \t", &save); w != NULL && count < 8;
         w = strtok_r(NULL, " \t", &save))
        words[count++] = w;
    answer_text t;
    open_text(&t);
    bool shown = count > 0 && mail_show_rules(t.out, words, count, &err);
    close_text(&t, reply);
    free(copy);
    if (count == 0)
        apierr_set(&err, 400, "which_game",
                   "write /pbem rules GAME; /pbem games lists them");
    return shown || refused(reply, &err);
}

static bool run_help(const chat_user *user, const char *args, chat_reply *reply)
{
    (void)user;
    (void)args;
    reply->text = strdup(help_text);
    return true;
}

typedef struct verb {
    const char *name;
    bool (*run)(const chat_user *user, const char *args, chat_reply *reply);
} verb;

static const verb verbs[] = {
    {"link", run_link},     {"view", run_view},       {"move", run_move},
    {"log", run_log},       {"matches", run_matches}, {"join", run_join},
    {"new", run_new},       {"games", run_games},     {"rules", run_rules},
    {"help", run_help},     {"list", run_list},       {"seek", run_seek},
    {"unseek", run_unseek},
};

bool chat_door_run(const chat_user *user, const char *verb_name,
                   const char *args, chat_reply *reply)
{
    *reply = (chat_reply){.text = NULL};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
        if (verb_name != NULL && strcasecmp(verb_name, verbs[i].name) == 0) {
            bool ok = verbs[i].run(user, args ? args : "", reply);
            if (reply->text == NULL)
                reply->text = strdup("");
            return ok;
        }
    if (asprintf(&reply->text, "Unknown command. %s", help_text) < 0)
        abort();
    reply->refused = true;
    return true;
}

json_t *chat_door_answer(const chat_user *user, const char *verb,
                         const char *args, chat_door_format *format,
                         apierr *err)
{
    chat_reply reply;
    if (!chat_door_run(user, verb, args, &reply)) {
        chat_door_reply_free(&reply);
        apierr_set(err, 503, "try_later",
                   "the database failed; try the command again");
        return NULL;
    }
    char title[64];
    snprintf(title, sizeof title, "/pbem %.20s%s%s", verb,
             reply.match[0] ? " " : "", reply.match);
    json_t *answer = format(title, reply.text);
    chat_door_reply_free(&reply);
    return answer;
}

/* user's seat view of match_ref's match (NULL or "": the one
 * chat_door_run would choose), with its match filled; NULL with err. */
static json_t *seat_view_of(const chat_user *user, const char *match_ref,
                            long long *match_id, apierr *err)
{
    caller who;
    const char *args = match_ref ? match_ref : "";
    if (!linked(user, STORE_GRANT_VIEW, &args, true, &who, match_id, err))
        return NULL;
    return matches_seat_view(&who, *match_id, err);
}

json_t *chat_door_moves(const chat_user *user, const char *match_ref,
                        const char *typed, int max)
{
    json_t *offered = json_array();
    apierr err;
    long long match_id;
    json_t *view = seat_view_of(user, match_ref, &match_id, &err);
    const json_t *texts =
        json_object_get(json_object_get(view, "legal"), "texts");
    size_t typed_len = typed ? strlen(typed) : 0;
    size_t i;
    const json_t *text;
    json_array_foreach(texts, i, text)
    {
        const char *move = json_string_value(text);
        if (move == NULL || (int)json_array_size(offered) >= max)
            continue;
        if (typed_len == 0 || strncasecmp(move, typed, typed_len) == 0)
            json_array_append_new(offered, json_string(move));
    }
    json_decref(view);
    return offered;
}

/* The reply for a click that is not the clicker's to make. */
static void not_your_seat(chat_reply *reply, const char *match, int seat)
{
    free(reply->text);
    if (seat >= 0) {
        if (asprintf(&reply->text,
                     "Not your seat: this button is seat %d's in %s, and "
                     "your link plays another (or none). Nothing was "
                     "moved.",
                     seat, match) < 0)
            abort();
    } else if (asprintf(&reply->text,
                        "Not your seat: you have no move to make in %s now. "
                        "/pbem view %s shows your seat.",
                        match, match) < 0) {
        abort();
    }
    reply->refused = true;
}

json_t *chat_door_turn(const chat_user *user, const char *match_ref, int max,
                       size_t chars, int *seat, chat_reply *reply)
{
    *reply = (chat_reply){.text = NULL};
    apierr err;
    long long match_id = 0;
    /* A button names its match: a forged one naming none is no seat's. */
    json_t *view = NULL;
    if (store_parse_match_ref(match_ref) == 0)
        apierr_set(&err, 403, "not_seated", "the button names no match");
    else
        view = seat_view_of(user, match_ref, &match_id, &err);
    if (view == NULL) {
        /* Not linked, or no seat in that match: said as the door says
         * it; a seat it cannot see is not the clicker's. */
        if (err.status == 403 || err.status == 404)
            not_your_seat(reply, match_ref ? match_ref : "that match", -1);
        else if (!refused(reply, &err)) {
            free(reply->text);
            reply->text = strdup("The database failed; click again.");
            reply->refused = true;
        }
        return NULL;
    }
    store_match_ref(match_id, reply->match);
    *seat = (int)json_integer_value(json_object_get(view, "seat"));
    json_t *offered = json_array();
    const json_t *texts =
        json_object_get(json_object_get(view, "legal"), "texts");
    size_t i, left_out = 0;
    const json_t *text;
    json_array_foreach(texts, i, text)
    {
        const char *move = json_string_value(text);
        if (move == NULL)
            continue;
        /* A choice shows and sends the whole move or none of it. */
        if ((int)json_array_size(offered) >= max || strlen(move) > chars)
            left_out++;
        else
            json_array_append_new(offered, json_string(move));
    }
    json_decref(view);
    if (json_array_size(offered) == 0 && left_out == 0) {
        json_decref(offered);
        not_your_seat(reply, reply->match, -1);
        return NULL;
    }
    if (asprintf(&reply->text,
                 left_out ? "Choose your move in %s (seat %d). %zu more are "
                            "not listed: /pbem move %s with its "
                            "autocomplete offers them all."
                          : "Choose your move in %s (seat %d).",
                 reply->match, *seat, left_out, reply->match) < 0)
        abort();
    return offered;
}

json_t *chat_door_play(const chat_user *user, const char *match_ref, int seat,
                       const char *move, chat_door_format *format, apierr *err)
{
    apierr ignored;
    long long match_id = 0;
    json_t *view = store_parse_match_ref(match_ref) != 0
                       ? seat_view_of(user, match_ref, &match_id, &ignored)
                       : NULL;
    int mine =
        view ? (int)json_integer_value(json_object_get(view, "seat")) : -1;
    json_decref(view);
    if (view == NULL || mine != seat) {
        chat_reply reply = {.text = NULL};
        not_your_seat(
            &reply, store_parse_match_ref(match_ref) ? match_ref : "that match",
            seat);
        json_t *answer = format("pbem", reply.text);
        chat_door_reply_free(&reply);
        return answer;
    }
    char *args;
    if (asprintf(&args, "%s %s", match_ref, move) < 0)
        abort();
    json_t *answer = chat_door_answer(user, "move", args, format, err);
    free(args);
    return answer;
}
