/* export.c: fuzzes the export reader (ledger/export_check.h), which the
 * import route and `pbem verify --export` run on a file an admin uploads:
 * JSON Lines split into matches, each checked (header, hash chain, seats,
 * signed requests, sealed choices, a replay once the seed is revealed).
 *
 * Input: an export, any bytes. A match that fails its check must say which
 * event and why, as the import's 422 does.
 *
 * A changed byte in an event breaks the hash chain, the first check, so
 * each match is checked a second time re-chained: every event's hashes
 * recomputed (as rechain() of tests/service/admin does to forge a log), so
 * edited moves, seats, signed requests and reveals reach the checks after
 * the chain, down to the replay.
 *
 * Then the import route's reading of the same bytes (admin/import.h) runs as
 * far as it goes without a database: every check above, then each match's
 * preparation (its header read into a match, its event times, its sealed
 * decision, and for an active match the replay from its sealed seed, opened
 * with tests/fuzz/export.key, the throwaway service key of the test server
 * that made the Adel Verplichtet seed). The database is configured at a
 * socket that does not exist, so an export that passes ends in a 503. */
#include <sodium.h>
#include <unistd.h>

#include "admin/import.h"
#include "core/log.h"
#include "fuzz.h"
#include "ledger/canonical.h"
#include "ledger/chain.h"
#include "ledger/export_check.h"
#include "ledger/seal.h"
#include "store/db.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0)
        abort();
    log_set_quiet(1);
    apierr err;
    /* seal_load_key would create a missing file: only an existing one. */
    if (access("tests/fuzz/export.key", R_OK) == 0 &&
        !seal_load_key("tests/fuzz/export.key", &err))
        abort();
    /* Expected to fail: only the URL is kept. */
    db_init("postgresql:///pbem_fuzz?host=/nonexistent/pbem-fuzz", &err);
    return 0;
}

/* Rewrites the hash and prev_hash of events (an array of objects) so the
 * chain holds, as a forger with the whole log would. */
static void rechain(json_t *events)
{
    uint8_t prev[CHAIN_HASH_BYTES] = {0};
    char hex[2 * CHAIN_HASH_BYTES + 1];
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event) {
        json_object_del(event, "hash");
        json_object_del(event, "prev_hash");
        char *bytes = canonical_json(event);
        uint8_t hash[CHAIN_HASH_BYTES];
        chain_hash(prev, bytes, hash);
        free(bytes);
        sodium_bin2hex(hex, sizeof hex, prev, sizeof prev);
        json_object_set_new(event, "prev_hash", json_string(hex));
        sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
        json_object_set_new(event, "hash", json_string(hex));
        memcpy(prev, hash, sizeof prev);
    }
}

static void check_match(const export_match *match)
{
    verify_report report;
    memset(&report, 0, sizeof report);
    export_check(match, &report);
    if (!report.ok && report.reason[0] == '\0')
        abort(); /* a refusal must say why */
    json_decref(verify_report_json(&report));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    export_match *matches = NULL;
    verify_report report;
    memset(&report, 0, sizeof report);
    int count = export_parse((const char *)data, size, &matches, &report);
    if (count < 0) {
        if (report.reason[0] == '\0')
            abort(); /* a refusal must say why */
        return 0;
    }
    for (int i = 0; i < count; i++) {
        check_match(&matches[i]);
        rechain(matches[i].events);
        check_match(&matches[i]);
    }
    export_matches_free(matches, count);

    caller admin = {.player_id = 0, .key_id = "admin", .nonce = "n_fuzz"};
    apierr err;
    memset(&err, 0, sizeof err);
    json_t *imported = import_matches(&admin, (const char *)data, size,
                                      size % 2 == 1, &err);
    if (imported == NULL && (err.status < 400 || err.message[0] == '\0'))
        abort(); /* a refusal must have a status and say why */
    json_decref(imported);
    return 0;
}
