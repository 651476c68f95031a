/* json_bodies.c: fuzzes every route's JSON body through the use case that
 * judges it, as far as the use case goes without a database.
 *
 * The input is a request body. It is read as routes.c reads one (jansson,
 * duplicate keys refused, an object required), then handed to each use case
 * that takes a body. The database is configured at a socket that does not
 * exist: a use case checks its body first and fails with 503 when it first
 * asks the database, in microseconds. What a use case only checks after
 * reading the database (the invitation's fields) is reached through
 * json_bodies_reach.c; what depends on the stored match (whether a move is
 * legal, a reveal matches its commitment) is the engines' and the ledger's
 * business, fuzzed by rules_move and export. */
#include <sodium.h>

#include "admin/repair.h"
#include "auth/caller.h"
#include "core/log.h"
#include "fuzz.h"
#include "json_bodies_reach.h"
#include "notify/notify_settings.h"
#include "notify/webhooks.h"
#include "play/decisions.h"
#include "play/matches.h"
#include "play/players.h"
#include "play/vacations.h"
#include "store/db.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0)
        abort();
    log_set_quiet(1);
    apierr err;
    /* Expected to fail: only the URL is kept. */
    db_init("postgresql:///pbem_fuzz?host=/nonexistent/pbem-fuzz", &err);
    return 0;
}

/* Whether a use case's answer is one the HTTP layer can send: an answer
 * and no error, or no answer and an error with a status and a message. */
static void expect_answer_or_error(json_t *answer, const apierr *err)
{
    if (answer == NULL && (err->status < 400 || err->message[0] == '\0'))
        abort();
    json_decref(answer);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t jerr;
    json_t *body =
        json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
    if (!json_is_object(body)) {
        json_decref(body);
        return 0;
    }
    caller who = {.player_id = 1, .key_id = "k_fuzz", .nonce = "n_fuzz"};
    apierr err;
    uint8_t key[32];

    memset(&err, 0, sizeof err);
    if (players_registration_key(body, key, &err))
        expect_answer_or_error(players_register(&who, body, key, &err), &err);
#define USE_CASE(call)                                                         \
    do {                                                                       \
        memset(&err, 0, sizeof err);                                           \
        expect_answer_or_error(call, &err);                                    \
    } while (0)
    USE_CASE(matches_create(&who, body, &err));
    USE_CASE(matches_join(&who, 1, body, &err));
    USE_CASE(matches_move(&who, 1, body, false, &err));
    USE_CASE(decisions_commit(&who, 1, "r1-d1", body, &err));
    USE_CASE(decisions_reveal(&who, 1, "r1-d1", body, &err));
    USE_CASE(vacations_declare(&who, body, &err));
    USE_CASE(notify_settings_put(1, body, &err));
    USE_CASE(webhooks_register(1, 0, body, &err));
    USE_CASE(webhooks_register(1, 1, body, &err));
    USE_CASE(repair_rewind(&who, 1, body, &err));
    USE_CASE(repair_replace_seat(&who, 1, 0, body, &err));
    USE_CASE(repair_abort(&who, 1, body, &err));
#undef USE_CASE
    memset(&err, 0, sizeof err);
    if (!json_bodies_invitation_fields(body, &err) && err.status != 400)
        abort();
    json_decref(body);
    return 0;
}
