/* mailin.c: see mailin.h. The steps, in order: read the message; take its
 * key's lock; skip it when already handled; ignore automatic mail and
 * record bounces; keep to the sender's hourly answers; find who wrote it
 * (mail_sender.h); run its commands (mail_commands.h); queue the answer and
 * record the message in one transaction. */
#include "mailin/mailin.h"

#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/clock.h"
#include "core/config.h"
#include "core/hex.h"
#include "core/log.h"
#include "core/metrics.h"
#include "ledger/public_event.h"
#include "mailin/mail_commands.h"
#include "mailin/mail_join.h"
#include "mailin/mail_message.h"
#include "mailin/mail_pending.h"
#include "mailin/mail_sender.h"
#include "mailin/mail_show.h"
#include "notify/mail_answers.h"
#include "notify/mail_failures.h"
#include "notify/table_talk.h"
#include "notify/mail_time.h"
#include "play/players.h"
#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/mail_answers.h"
#include "store/mail_confirmations.h"
#include "store/mail_messages.h"
#include "store/matches.h"
#include "store/outbox.h"
#include "store/players.h"
#include "store/store.h"

static int answers_per_hour(void)
{
    return (int)config_whole(CONFIG_MAIL_ANSWERS_PER_HOUR);
}

static mailin_outcome finish(mailin_result *result, mailin_outcome outcome,
                             const char *what)
{
    result->outcome = outcome;
    snprintf(result->what, sizeof result->what, "%s", what);
    return outcome;
}

/* The message's idempotency key: "id:<Message-ID>/<sender>", or without
 * a Message-ID "sha256:<hex of the bytes>". */
static void key_of(const mail_message *message, char *key, size_t size)
{
    /* With its sender: two people whose programs reuse a Message-ID must
     * not take each other's mail for a duplicate (the lines' nonces derive
     * from the key too). */
    if (message->message_id != NULL && message->message_id[0] != '\0' &&
        strlen(message->message_id) < 200) {
        snprintf(key, size, "id:%s/%s", message->message_id, message->from);
        return;
    }
    char hex[65];
    hex_encode(message->sha256, 32, hex);
    snprintf(key, size, "sha256:%s", hex);
}

/* Records the message as handled, inside the caller's transaction or
 * alone. */
static bool record(PGconn *conn, const mail_message *message, const char *key,
                   const char *via, const char *outcome, long long player_id,
                   apierr *err)
{
    return store_mail_messages_record(conn, key, message->sha256, message->from,
                                      via, outcome, player_id, err);
}

/* The seat player holds in match, or -1. */
static int seat_in(PGconn *conn, long long match_id, long long player_id)
{
    apierr err;
    return store_seat_of(conn, match_id, player_id, &err);
}

/* The answer's reply address: about the match the answer shows (the
 * player's seat in it), or the player's account, or none for someone who
 * is not a player. */
static void answer_reply_to(PGconn *conn, long long player_id,
                            long long match_id, char *out, size_t size)
{
    out[0] = '\0';
    if (player_id <= 0)
        return;
    char token[REPLY_TOKEN_CHARS + 1];
    int seat = match_id > 0 ? seat_in(conn, match_id, player_id) : -1;
    if (seat >= 0)
        reply_token_make(REPLY_TOKEN_SEAT, player_id, match_id, seat,
                         clock_now(), token);
    else
        reply_token_make(REPLY_TOKEN_ACCOUNT, player_id, 0, -1, clock_now(),
                         token);
    if (!reply_token_address(token, out, size))
        out[0] = '\0';
}

/* "Re: " and the subject, unless it already says so. */
static char *re_subject(const char *subject)
{
    char *out = NULL;
    if (subject == NULL || subject[0] == '\0')
        subject = "your mail";
    if (strncasecmp(subject, "re:", 3) == 0)
        return strdup(subject);
    if (asprintf(&out, "Re: %s", subject) < 0)
        abort();
    return out;
}

/* How the answers to a sender past the hourly limit go (see mailin.h):
 * all zero for one within it. */
typedef struct answer_pace {
    long long note_until; /* answer now, saying the next wait till then */
    long long hold_until; /* held: goes out merged with others then */
} answer_pace;

/* Where an answer goes, besides out at once. */
typedef struct answer_plan {
    long long hold_until; /* past the hourly limit: merged, sent then */
    long long for_match;  /* held hold_seconds for that match's next mail */
    int hold_seconds;
    long long shows_turn; /* the match whose turn mail it stands for */
} answer_plan;

/* Queues, holds or hands on the answer a, as plan says, inside the
 * caller's transaction. */
static bool place(PGconn *conn, const mail_answer *a, const answer_plan *plan,
                  long long player_id, apierr *err)
{
    bool ok;
    if (plan->hold_until)
        ok = store_mail_answers_hold(conn, a->to, a->subject, a->body,
                                     a->reply_to, a->in_reply_to, a->references,
                                     plan->hold_until, err);
    else if (plan->for_match)
        ok = store_mail_answers_hold_for_match(
            conn, a->to, a->subject, a->body, a->reply_to, a->in_reply_to,
            a->references, plan->for_match, plan->hold_seconds, err);
    else
        ok = mail_answers_queue(conn, a, err);
    return ok && (plan->shows_turn == 0 ||
                  store_outbox_cancel_shown_turn(conn, plan->shows_turn,
                                                 player_id, err));
}

/* Queues the answer to message (or holds or hands it on, as plan says)
 * and records it, in one transaction. */
static bool answer(PGconn *conn, const mail_message *message, const char *key,
                   const char *via, const char *outcome, long long player_id,
                   const char *body, const char *reply_to, const char *kind,
                   const answer_plan *plan, apierr *err)
{
    char *subject = re_subject(message->subject);
    mail_answer a = {.to = message->from,
                     .subject = subject,
                     .body = body,
                     .reply_to = reply_to && reply_to[0] ? reply_to : NULL,
                     .in_reply_to = message->message_id,
                     .references = message->references,
                     .kind = kind};
    bool ok = store_begin(conn, err) &&
              record(conn, message, key, via,
                     plan->hold_until ? "held" : outcome, player_id, err) &&
              place(conn, &a, plan, player_id, err) && store_commit(conn, err);
    if (!ok)
        store_rollback(conn);
    free(subject);
    return ok;
}

/* What events made by this mail record of it. The log is public: the
 * sender is named by a pseudonym, never by the address (public_event.h),
 * and the Message-ID, which some mail programs make of the address, is
 * left to the mail's hash. */
static json_t *via_of(const mail_message *message, const mail_sender *sender)
{
    char sha[65], pseudonym[PUBLIC_EVENT_SENDER_CHARS + 1];
    hex_encode(message->sha256, 32, sha);
    public_event_sender(message->from, pseudonym);
    return json_pack("{s:s,s:s,s:s,s:s,s:s}", "via", "email",
                     "message_sha256", sha, "token", sender->token_id,
                     "sender", pseudonym, "authentication",
                     sender->authentication);
}

/* Only commands that need no account: answered to anyone. */
static bool harmless(const char *text)
{
    char *copy = strdup(text ? text : "");
    char *save = NULL;
    bool all = true;
    for (char *line = strtok_r(copy, "\n", &save); line != NULL && all;
         line = strtok_r(NULL, "\n", &save)) {
        while (isspace((unsigned char)*line))
            line++;
        if (*line == '\0')
            continue;
        all = strncasecmp(line, "help", 4) == 0 ||
              strncasecmp(line, "games", 5) == 0;
    }
    free(copy);
    return all;
}

/* Whether name passes the rule every new player's name meets
 * (players_name_normal), which the stripping below may not cover whole;
 * name becomes its normal form. */
static bool fit_to_show(char *name)
{
    json_t *value = json_string(name);
    char normal[NAMES_MAX_BYTES];
    apierr err;
    bool ok = value != NULL && players_name_normal(value, normal, &err);
    json_decref(value);
    if (ok)
        snprintf(name, NAMES_MAX_BYTES, "%s", normal);
    return ok;
}

/* A name for a new email-only player: the From's display name, without
 * control or bidirectional-override characters (others read it in their
 * mails), at most 80 bytes; else the address's local part; else
 * "player". What is kept always passes players_name_ok. */
static void name_for(const mail_message *message, char *name, size_t size)
{
    size_t n = 0;
    const unsigned char *c =
        (const unsigned char *)(message->from_name ? message->from_name : "");
    for (; *c && n + 1 < size && n < 80; c++) {
        /* U+202A..U+202E and U+2066..U+2069: E2 80 AA..AE, E2 81 A6..A9. */
        if (c[0] == 0xE2 && ((c[1] == 0x80 && c[2] >= 0xAA && c[2] <= 0xAE) ||
                             (c[1] == 0x81 && c[2] >= 0xA6 && c[2] <= 0xA9))) {
            c += 2;
            continue;
        }
        if (*c < 0x20 || *c == 0x7f)
            continue;
        name[n++] = (char)*c;
    }
    /* Cut short inside a character: drop the partial character. */
    if (*c != '\0') {
        while (n > 0 && ((unsigned char)name[n - 1] & 0xC0) == 0x80)
            n--;
        if (n > 0 && ((unsigned char)name[n - 1] & 0x80))
            n--;
    }
    name[n] = '\0';
    while (n > 0 && name[n - 1] == ' ')
        name[--n] = '\0';
    if (fit_to_show(name))
        return;
    const char *address = message->from;
    const char *at = strchr(address, '@');
    size_t local = at ? (size_t)(at - address) : strlen(address);
    if (local >= size)
        local = size - 1;
    snprintf(name, size, "%.*s", (int)local, address);
    if (!fit_to_show(name))
        snprintf(name, size, "player");
}

/* Mail to the bare address that asks for more than help: a confirmation
 * round trip first, so a forged From cannot act for anyone. */
static bool ask_confirmation(PGconn *conn, const mail_message *message,
                             const char *key, const char *via,
                             long long player_id, apierr *err)
{
    /* Registered on the web, link not opened yet: that account's. */
    mail_pending pending;
    bool waiting = false;
    if (player_id <= 0 &&
        !mail_pending_find(conn, message->from, &pending, &waiting, err))
        return false;
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    long long id = (long long)(random_id >> 1) + 1;
    char name[81];
    name_for(message, name, sizeof name);
    char token[REPLY_TOKEN_CHARS + 1], reply_to[256];
    reply_token_make(REPLY_TOKEN_CONFIRMATION, id, 0, -1, clock_now(), token);
    if (!reply_token_address(token, reply_to, sizeof reply_to))
        reply_to[0] = '\0';
    char *body = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&body, &size);
    fprintf(out,
            "Someone, we hope you, wrote to the turn service from %s with:\n\n",
            message->from);
    const char *text = message->text ? message->text : "";
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        fprintf(out, "  %.*s\n", (int)n, line);
        line += n + (end != NULL);
    }
    fprintf(out, "\nTo go ahead, answer this mail; what you write in the "
                 "answer does not matter.\n");
    if (waiting) {
        char until[32];
        clock_format(pending.expires, until);
        fprintf(out,
                "This address is waiting to be confirmed for the player "
                "\"%s\", who registered with it. Open the link in the mail "
                "sent to it then (it works until %s), or answer this mail: "
                "either makes the address %s's, and what you wrote runs as "
                "%s.\nIf you did not register as \"%s\", do not answer; "
                "after %s you may write again for an account of your "
                "own.\n",
                pending.name, until, pending.name, pending.name, pending.name,
                until);
    } else if (player_id <= 0)
        fprintf(out,
                "Answering also makes this address a player, named "
                "\"%s\" (other players see this name).\n",
                name);
    fprintf(out, "If it was not you, ignore this mail: nothing happens.\n");
    fclose(out);
    char *subject = re_subject(message->subject);
    mail_answer a = {.to = message->from,
                     .subject = subject,
                     .body = body,
                     .reply_to = reply_to[0] ? reply_to : NULL,
                     .in_reply_to = message->message_id,
                     .references = message->references,
                     .kind = "confirmation"};
    bool ok = store_begin(conn, err) &&
              store_mail_confirmations_insert(conn, id, message->from, name,
                                              text, err) &&
              record(conn, message, key, via, "answered", player_id, err) &&
              mail_answers_queue(conn, &a, err) && store_commit(conn, err);
    if (!ok)
        store_rollback(conn);
    free(subject);
    free(body);
    return ok;
}

/* The answer to a confirmation: the address becomes a player if it is
 * not one, and the commands of the first mail are what runs. *commands is
 * malloc'd. */
static bool confirm(PGconn *conn, mail_sender *sender, char **commands,
                    apierr *err)
{
    if (!store_begin(conn, err))
        return false;
    PGresult *r =
        store_mail_confirmations_lock(conn, sender->confirmation_id, err);
    if (r == NULL || PQntuples(r) == 0) {
        PQclear(r);
        store_rollback(conn);
        return r != NULL ? (*commands = strdup(""), true) : false;
    }
    *commands = strdup(PQgetvalue(r, 0, STORE_MAIL_CONFIRMATIONS_COMMANDS));
    long long player_id =
        PQgetisnull(r, 0, STORE_MAIL_CONFIRMATIONS_PLAYER)
            ? 0
            : atoll(PQgetvalue(r, 0, STORE_MAIL_CONFIRMATIONS_PLAYER));
    char *email = strdup(PQgetvalue(r, 0, STORE_MAIL_CONFIRMATIONS_EMAIL));
    char *name = strdup(PQgetvalue(r, 0, STORE_MAIL_CONFIRMATIONS_NAME));
    PQclear(r);
    if (player_id == 0)
        player_id = mail_join_player_of(email, err);
    if (player_id == 0)
        player_id = mail_pending_confirm(conn, email, err);
    char key_id[40];
    bool ok = player_id >= 0 &&
              (player_id > 0 || store_create_player(conn, name, email, NULL,
                                                    &player_id, key_id, err));
    free(email);
    free(name);
    ok = ok &&
         store_mail_confirmations_confirm(conn, sender->confirmation_id,
                                          player_id, err) &&
         store_commit(conn, err);
    if (!ok) {
        store_rollback(conn);
        free(*commands);
        *commands = NULL;
        return false;
    }
    sender->player_id = player_id;
    return true;
}

/* The reply address of an answer to a mail about an invitation: the
 * invitation again while its seat is not taken (a refused line spent
 * nothing and the person answers again), else as answer_reply_to says. */
static void invitation_reply_to(PGconn *conn, const mail_sender *sender,
                                long long player_id, long long match_id,
                                char *out, size_t size)
{
    if (player_id > 0 && seat_in(conn, sender->match_id, player_id) >= 0) {
        answer_reply_to(conn, player_id, match_id, out, size);
        return;
    }
    char token[REPLY_TOKEN_CHARS + 1];
    reply_token_make(REPLY_TOKEN_INVITATION, sender->invitation_id,
                     sender->match_id, -1, clock_now(), token);
    if (!reply_token_address(token, out, size))
        out[0] = '\0';
}

/* Runs the commands and answers: false when the database failed. */
static bool run_and_answer(PGconn *conn, const mail_message *message,
                           const char *key, const char *via,
                           mail_sender *sender, const char *text,
                           const answer_pace *pace, mailin_result *result,
                           apierr *err)
{
    json_t *via_json = via_of(message, sender);
    mail_context ctx = {.player_id = sender->player_id,
                        .match_id = sender->match_id,
                        .invitation_id = sender->invitation_id,
                        .message_key = key,
                        .via = via_json};
    char *body = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&body, &size);
    if (pace->note_until > 0) {
        char when[MAIL_TIME_MAX];
        mail_time_at(conn, sender->player_id, pace->note_until, false, when);
        fprintf(out,
                "You are writing fast: every move you send is applied at "
                "once, but I will answer your next mails in one mail at %s."
                "\n\n",
                when);
    }
    mail_run run;
    bool ok = mail_commands_run(&ctx, text, out, &run);
    if (!ok)
        apierr_set(err, 503, "database",
                   "the database failed while the commands ran; the message "
                   "will be handled again");
    long long player_id = run.player_id ? run.player_id : sender->player_id;
    mail_show_turn turn = MAIL_SHOW_NOT_ACTIVE;
    if (ok && run.match_id != 0 && player_id > 0) {
        caller who = {.player_id = player_id};
        /* What was said at the table since the player's last mail. */
        long long through = 0;
        apierr talk_err;
        char *talk = table_talk_unmailed(conn, run.match_id, player_id,
                                         &through, &talk_err);
        if (talk != NULL && talk[0] != '\0') {
            fputs(talk, out);
            table_talk_mailed(conn, run.match_id, player_id, through,
                              &talk_err);
        }
        free(talk);
        fputs(MAIL_ANSWERS_VIEW_MARK, out);
        apierr show_err;
        if (!mail_show_match(out, &who, run.match_id, &turn, &show_err) &&
            show_err.status >= 500) {
            *err = show_err;
            ok = false;
        }
    }
    fclose(out);
    json_decref(via_json);
    if (ok) {
        char reply_to[256];
        if (sender->door == MAIL_DOOR_INVITATION)
            invitation_reply_to(conn, sender, player_id, run.match_id, reply_to,
                                sizeof reply_to);
        else
            answer_reply_to(conn, player_id, run.match_id, reply_to,
                            sizeof reply_to);
        /* A move that leaves the sender waiting for the others is
         * answered with their next turn, in one mail, when it comes soon
         * enough; a refusal, or a turn already theirs, goes at once, and
         * stands for that turn's mail. */
        bool moved = run.moves > 0 && !run.refused;
        long long hold = config_whole(CONFIG_MAIL_ANSWER_HOLD_SECONDS);
        bool paced = pace->hold_until != 0 || pace->note_until != 0;
        /* The mail that ended the match: answered inside the match-over
         * mail, unless that went already. */
        int over_mailed = 0;
        if (hold > 0 && moved && !paced && turn == MAIL_SHOW_NOT_ACTIVE) {
            apierr ignored;
            over_mailed = store_outbox_over_mailed(conn, run.match_id,
                                                   player_id, &ignored);
        }
        bool holds = hold > 0 && moved && !paced &&
                     (turn == MAIL_SHOW_WAITING ||
                      (turn == MAIL_SHOW_NOT_ACTIVE && over_mailed == 0));
        answer_plan plan = {
            .hold_until = pace->hold_until,
            .for_match = holds ? run.match_id : 0,
            .hold_seconds = (int)hold,
            .shows_turn =
                run.moves > 0 && turn == MAIL_SHOW_YOUR_TURN ? run.match_id : 0,
        };
        ok = answer(conn, message, key, via,
                    pace->note_until ? "noted" : "answered", player_id, body,
                    reply_to, "answer", &plan, err);
        result->player_id = player_id;
        result->commands = run.applied;
        snprintf(result->what, sizeof result->what, "%s%s",
                 pace->hold_until ? "held" : "answered",
                 run.refused ? " (a command was refused)" : "");
    }
    /* A refused line did not do what the reply address was for: it works
     * again (an invitation is still there to accept). */
    if (ok && run.refused && !run.changed && sender->token_id[0] != '\0') {
        apierr ignored;
        if (!store_mail_tokens_release(conn, sender->token_id, key, &ignored))
            log_warn("mail %s: its reply address stays spent: %s", key,
                     ignored.message);
    }
    free(body);
    return ok;
}

/* How the answer to a sender past the hourly limit goes: said once that
 * they write fast (answered now), then held and merged into one mail at
 * the time the limit allows another. False when the database failed. */
static bool pace_of(PGconn *conn, const mail_message *message,
                    answer_pace *pace, apierr *err)
{
    *pace = (answer_pace){0};
    long long due = 0;
    int held = store_mail_answers_held(conn, message->from, &due, err);
    if (held < 0)
        return false;
    if (held) {
        pace->hold_until = due;
        return true;
    }
    long long free_at = 0;
    int noted = store_mail_messages_outcomes_last_hour(conn, message->from,
                                                       "noted", err);
    if (noted < 0 ||
        !store_mail_messages_answers_free_at(conn, message->from,
                                             answers_per_hour(), &free_at, err))
        return false;
    if (noted > 0)
        pace->hold_until = free_at;
    else
        pace->note_until = free_at;
    return true;
}

/* Everything after the lock. */
static mailin_outcome handle(PGconn *conn, const mail_message *message,
                             const char *key, const char *via,
                             mailin_result *result)
{
    apierr err;
    int seen = store_mail_messages_seen(conn, key, &err);
    if (seen != 0)
        return seen < 0 ? finish(result, MAILIN_TRY_LATER, err.message)
                        : finish(result, MAILIN_HANDLED, "duplicate");
    if (message->bounce) {
        metrics_mail_received(METRICS_MAIL_BOUNCE);
        const char *failed = message->bounced_recipient;
        bool ok =
            (failed == NULL ||
             mail_failures_record(conn, failed, "the mail bounced", &err)) &&
            record(conn, message, key, via, "bounce", 0, &err);
        if (ok)
            log_info("mail %s: a bounce for %s", key,
                     failed ? failed : "an unknown address");
        return ok ? finish(result, MAILIN_HANDLED, "bounce")
                  : finish(result, MAILIN_TRY_LATER, err.message);
    }
    if (message->automatic) {
        metrics_mail_received(METRICS_MAIL_IGNORED);
        char what[300];
        snprintf(what, sizeof what, "ignored: %s",
                 message->automatic_why ? message->automatic_why
                                        : "automatic mail");
        return record(conn, message, key, via, what, 0, &err)
                   ? finish(result, MAILIN_HANDLED, what)
                   : finish(result, MAILIN_TRY_LATER, err.message);
    }
    int answered =
        store_mail_messages_answered_last_hour(conn, message->from, &err);
    if (answered < 0)
        return finish(result, MAILIN_TRY_LATER, err.message);
    mail_sender sender;
    if (!mail_sender_identify(message, key, &sender, &err))
        return finish(result, MAILIN_TRY_LATER, err.message);
    /* Past the limit, mail that came to a reply address from the address
     * it was made for is still acted on: only its answers wait. Anything
     * else would be answered to an address that may never have written
     * (backscatter): dropped. */
    bool over = answered >= answers_per_hour();
    bool vouched_for =
        sender.door != MAIL_DOOR_REFUSED && sender.door != MAIL_DOOR_BARE;
    if (over && !vouched_for) {
        metrics_mail_received(METRICS_MAIL_LIMITED);
        log_warn("mail %s from %s dropped: %d answers in the last hour", key,
                 message->from, answered);
        return record(conn, message, key, via, "limited", 0, &err)
                   ? finish(result, MAILIN_HANDLED, "limited")
                   : finish(result, MAILIN_TRY_LATER, err.message);
    }
    answer_pace pace = {0};
    if ((over && !pace_of(conn, message, &pace, &err)) ||
        !mail_sender_spend(&sender, key, &err))
        return finish(result, MAILIN_TRY_LATER, err.message);
    result->player_id = sender.player_id;
    metrics_mail_received(METRICS_MAIL_ANSWERED);
    if (sender.door == MAIL_DOOR_REFUSED) {
        log_info("mail %s from %s refused: %s", key, message->from, sender.why);
        char *body = NULL;
        if (asprintf(&body,
                     "The turn service did not act on your mail:\n%s.\n"
                     "\nNothing in it was applied.\n",
                     sender.why) < 0)
            abort();
        /* A fresh reply address, when the From is a player's: the
         * answer goes to that registered address anyway. */
        char reply_to[256] = "";
        long long known = mail_join_player_of(message->from, &err);
        if (known < 0)
            return finish(result, MAILIN_TRY_LATER, err.message);
        answer_reply_to(conn, known, 0, reply_to, sizeof reply_to);
        answer_plan at_once = {0};
        bool ok = answer(conn, message, key, via, "refused", known, body,
                         reply_to, "answer", &at_once, &err);
        free(body);
        char what[sizeof result->what];
        snprintf(what, sizeof what, "refused: %.300s", sender.why);
        return ok ? finish(result, MAILIN_HANDLED, what)
                  : finish(result, MAILIN_TRY_LATER, err.message);
    }
    if (sender.door == MAIL_DOOR_BARE && !harmless(message->text)) {
        if (!ask_confirmation(conn, message, key, via, sender.player_id, &err))
            return finish(result, MAILIN_TRY_LATER, err.message);
        return finish(result, MAILIN_HANDLED, "answered (confirmation asked)");
    }
    char *text = NULL;
    if (sender.door == MAIL_DOOR_CONFIRMATION) {
        if (!confirm(conn, &sender, &text, &err))
            return finish(result, MAILIN_TRY_LATER, err.message);
    }
    bool ok = run_and_answer(conn, message, key, via, &sender,
                             text ? text : message->text, &pace, result, &err);
    free(text);
    if (!ok)
        return finish(result, MAILIN_TRY_LATER, err.message);
    log_info("mail %s from %s: %s, %d command%s applied", key, message->from,
             result->what, result->commands, result->commands == 1 ? "" : "s");
    result->outcome = MAILIN_HANDLED;
    return MAILIN_HANDLED;
}

mailin_outcome mailin_receive(const char *raw, size_t length, const char *via,
                              mailin_result *result)
{
    memset(result, 0, sizeof *result);
    char why[256];
    mail_message *message = mail_message_parse(raw, length, why, sizeof why);
    if (message == NULL) {
        metrics_mail_received(METRICS_MAIL_UNREADABLE);
        char what[300];
        snprintf(what, sizeof what, "unreadable: %s", why);
        log_warn("mail from %s: %s", via, what);
        return finish(result, MAILIN_UNREADABLE, what);
    }
    key_of(message, result->message_key, sizeof result->message_key);
    apierr err;
    PGconn *conn = db_conn(&err);
    mailin_outcome outcome;
    int locked =
        conn ? store_mail_messages_lock(conn, result->message_key, true, &err)
             : -1;
    if (locked < 0)
        outcome = finish(result, MAILIN_TRY_LATER, err.message);
    else if (locked == 0)
        outcome = finish(result, MAILIN_TRY_LATER,
                         "another process is handling this message now");
    else {
        outcome = handle(conn, message, result->message_key, via, result);
        store_mail_messages_lock(conn, result->message_key, false, &err);
    }
    mail_message_free(message);
    return outcome;
}

imap_outcome mailin_from_imap(void *context, const char *raw, size_t length)
{
    (void)context;
    mailin_result result;
    switch (mailin_receive(raw, length, "imap", &result)) {
    case MAILIN_HANDLED:
        return IMAP_HANDLED;
    case MAILIN_UNREADABLE:
        return IMAP_UNREADABLE;
    case MAILIN_TRY_LATER:
        break;
    }
    return IMAP_TRY_LATER;
}
