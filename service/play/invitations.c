/* invitations.c: see invitations.h. */
#include "play/invitations.h"

#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/log.h"
#include "notify/mail.h"
#include "notify/mail_answers.h"
#include "play/players.h"
#include "play/retry.h"
#include "rules.h"
#include "store/db.h"
#include "store/invitations.h"
#include "store/matches.h"
#include "store/players.h"
#include "store/store.h"

#define EMAIL_MAX_LEN 254
#define NAME_MAX_LEN 80

/* What each game is, in one sentence, for people who have never heard of
 * it: the engines carry a title but no description. */
static const struct {
    const char *game;
    const char *what;
} summaries[] = {
    {"antiquity_quest",
     "a card game for archaeologists: draw or pick up the discard pile, lay "
     "down collections of antiquities for prestige, and beware the thief "
     "Tess Wynter."},
    {"adel_verplichtet",
     "a game where Lords race to exhibit the finest collection of rare "
     "items, buying at "
     "the auction or showing at the castle, while their thieves and "
     "detectives work against each other."},
    {"another_mans_treasure",
     "a card game about packing up two retirees' treasures, laying down "
     "patterns of cards so as to take home as few points as possible."},
    {"artifact_stack",
     "a card game where adventurers take and dig out artifacts from a "
     "crumbling temple of "
     "stacked cards, helped by assistants, to sell them to museums."},
    {"quarriors",
     "a dice-building game: capture creature and spell dice, roll them to "
     "attack your rivals and score glory, and send creatures on quests."},
};

void invitations_ref(long long invitation_id, char out[32])
{
    snprintf(out, 32, "inv_%lld", invitation_id);
}

/* A C0 or C1 control character, or DEL, anywhere in text (UTF-8). */
static bool has_control(const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c < 0x20 || *c == 0x7f)
            return true;
        if (*c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f)
            return true;
    }
    return false;
}

static bool fields_ok(const char *email, const json_t *name,
                      char normal[NAMES_MAX_BYTES], apierr *err)
{
    const char *at = email ? strchr(email, '@') : NULL;
    if (email == NULL || strlen(email) > EMAIL_MAX_LEN ||
        !mail_address_ok(email) || has_control(email) || at == email ||
        at[1] == '\0' || strchr(at + 1, '@') != NULL)
        return apierr_set(err, 400, "bad_email",
                          "email must look like name@example.org (at most %d "
                          "characters)",
                          EMAIL_MAX_LEN);
    return players_name_normal(name, normal, err);
}

/* Whether who may invite to match: a seated player or its creator, while
 * a seat is free. */
static bool may_invite(const caller *who, const store_match *match,
                       apierr *err)
{
    bool seated = false, free_seat = false;
    for (int s = 0; s < match->seat_count; s++) {
        seated = seated || match->seat_player[s] == who->player_id;
        free_seat = free_seat || match->seat_player[s] == 0;
    }
    if (!seated && match->created_by != who->player_id)
        return apierr_set(err, 403, "not_allowed",
                          "only a seated player or the match's creator may "
                          "invite someone");
    if (strcmp(match->status, "open") != 0)
        return apierr_set(err, 409, "not_open",
                          "the match is %s: invitations are for a match "
                          "waiting for players",
                          match->status);
    if (!free_seat)
        return apierr_set(err, 409, "match_full",
                          "this match has no free seat");
    return true;
}

/* The inviter's name, as registered (out: 81 bytes); "A player" when
 * their row is gone. */
static bool inviter_name(PGconn *conn, long long player_id, char *out,
                         apierr *err)
{
    store_player inviter;
    if (store_player_load(conn, player_id, false, &inviter, err)) {
        snprintf(out, NAME_MAX_LEN + 1, "%s", inviter.name);
        return true;
    }
    if (err->status != 404)
        return false;
    snprintf(out, NAME_MAX_LEN + 1, "%s", "A player");
    return true;
}

/* The invitation's row under a new random id (*invitation_id). */
static bool insert(PGconn *conn, long long match_id, const char *email,
                   const char *name, long long invited_by,
                   long long *invitation_id, apierr *err)
{
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    *invitation_id = (long long)(random_id >> 1);
    if (*invitation_id == 0)
        *invitation_id = 1;
    return store_invitations_insert(conn, *invitation_id, match_id, email,
                                    name, invited_by, err);
}

/* text as lines of at most 72 characters, broken between words (a word
 * longer than a line stands alone), and a newline. */
static void put_wrapped(FILE *f, const char *text)
{
    size_t column = 0;
    while (*text != '\0') {
        size_t word = strcspn(text, " ");
        if (column > 0 && column + 1 + word > 72) {
            fputc('\n', f);
            column = 0;
        } else if (column > 0) {
            fputc(' ', f);
            column++;
        }
        fwrite(text, 1, word, f);
        column += word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}

/* The mail: who invites, to what game, and how to accept (malloc'd). */
static char *invitation_body(const char *name, const char *inviter,
                             const char *title, const char *game,
                             const char *match_ref)
{
    const char *what = NULL;
    for (size_t i = 0; i < sizeof summaries / sizeof summaries[0]; i++)
        if (strcmp(summaries[i].game, game) == 0)
            what = summaries[i].what;
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f == NULL)
        abort();
    fprintf(f, "Hello %s,\n\n", name);
    char *intro = NULL;
    if (asprintf(&intro, "%s invites you to a match of %s (%s). %s%s%s",
                 inviter, title, match_ref, what ? title : "",
                 what ? " is " : "", what ? what : "") < 0)
        abort();
    put_wrapped(f, intro);
    free(intro);
    fprintf(f,
            "\nTo join, answer this mail with the single word\n\n"
            "join\n\n"
            "on a line of its own. Once every seat is taken, the match starts "
            "and\nyou get a mail whenever it is your turn: you play by "
            "answering it.\n\n"
            "The match: %s/matches/%s\n"
            "The rules in short: %s/games/%s\n"
            "(or answer with: rules %s)\n"
            "Not interested? Ignore this mail: nothing happens without your "
            "answer.\n",
            config_text(CONFIG_PUBLIC_URL), match_ref,
            config_text(CONFIG_PUBLIC_URL), game, game);
    if (fclose(f) != 0)
        abort();
    return body;
}

/* Queues the invitation's mail (mail_answers.h) in the caller's
 * transaction. */
static bool queue_mail(PGconn *conn, const store_match *match,
                       long long invitation_id, const char *email,
                       const char *name, const char *inviter, apierr *err)
{
    const rules_engine *engine = rules_find(match->game);
    const char *title = engine ? engine->title : match->game;
    char match_ref[32], subject[400];
    store_match_ref(match->match_id, match_ref);
    snprintf(subject, sizeof subject, "%s invites you to %s (%s)", inviter,
             title, match_ref);
    char reply_to[MAIL_ADDRESS_MAX];
    mail_reply_address(REPLY_TOKEN_INVITATION, invitation_id, match->match_id,
                       -1, reply_to);
    char *body = invitation_body(name, inviter, title, match->game, match_ref);
    mail_answer mail = {
        .to = email,
        .subject = subject,
        .body = body,
        .reply_to = reply_to[0] ? reply_to : NULL,
        .kind = "invitation",
    };
    bool ok = mail_answers_queue(conn, &mail, err);
    free(body);
    return ok;
}

json_t *invitations_create(const caller *who, long long match_id,
                           const json_t *body, apierr *err)
{
    PGconn *conn = db_conn(err);
    store_match match;
    if (conn == NULL || !store_load_match(conn, match_id, &match, err))
        return NULL;
    json_t *answer = NULL;
    const char *email = json_string_value(json_object_get(body, "email"));
    const json_t *name_json = json_object_get(body, "name");
    char name[NAMES_MAX_BYTES];
    char inviter[NAME_MAX_LEN + 1];
    long long invitation_id = 0;
    /* The invited person joins under this name: refused now, while the
     * inviter can choose another, rather than when they answer. */
    if (!may_invite(who, &match, err) ||
        !fields_ok(email, name_json, name, err) ||
        !players_name_fits_match(name, "the name", 0, &match, err) ||
        !inviter_name(conn, who->player_id, inviter, err) ||
        !store_begin(conn, err))
        goto done;
    if (!insert(conn, match_id, email, name, who->player_id, &invitation_id,
                err) ||
        !queue_mail(conn, &match, invitation_id, email, name, inviter, err)) {
        store_rollback(conn);
        goto done;
    }
    char ref[32], match_ref[32];
    invitations_ref(invitation_id, ref);
    store_match_ref(match_id, match_ref);
    answer = json_pack("{s:s,s:s,s:s,s:s}", "invitation", ref, "match",
                       match_ref, "email", email, "name", name);
    /* Kept with the nonce: a retry gets this answer, not a second mail. */
    if (!retry_commit(conn, who, NULL, 201, answer, err)) {
        json_decref(answer);
        answer = NULL;
        goto done;
    }
    log_info("match %s: %s invited by player %lld", match_ref, ref,
             who->player_id);
done:
    store_match_free(&match);
    return answer;
}
