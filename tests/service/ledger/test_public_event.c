/* A match's log is public; a move made by mail names its sender by a
 * pseudonym. Moves logged before that carried the address in the hashed
 * bytes: their public form withholds it, and the log still checks. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <string.h>

#include "ledger/canonical.h"
#include "ledger/chain.h"
#include "ledger/public_event.h"
#include "ledger/verify.h"

/* A log of three events as the service stored them before pseudonyms:
 * the second a move mailed by ann@home.test. Each gets its hashes. */
static json_t *old_log(void)
{
    json_t *events = json_pack(
        "[{s:s,s:i,s:s,s:{}},"
        " {s:s,s:i,s:s,s:i,s:{s:s,s:{s:s,s:s,s:s,s:s,s:s,s:s,s:s}}},"
        " {s:s,s:i,s:s,s:i,s:{s:s}}]",
        "kind", "note", "seq", 1, "match", "m_1", "data", "kind", "note", "seq",
        2, "match", "m_1", "seat", 0, "data", "text", "pass", "request", "via",
        "email", "from", "Ann@Home.test", "message_id",
        "<20261129.ann@home.test>", "message_sha256",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "token", "00112233aabbccdd", "authentication", "reply address",
        "command", "pass", "kind", "note", "seq", 3, "match", "m_1", "seat", 1,
        "data", "text", "pass");
    uint8_t prev[CHAIN_HASH_BYTES] = {0}, hash[CHAIN_HASH_BYTES];
    char hex[2 * CHAIN_HASH_BYTES + 1];
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event)
    {
        char *bytes = canonical_json(event);
        chain_hash(prev, bytes, hash);
        free(bytes);
        sodium_bin2hex(hex, sizeof hex, prev, sizeof prev);
        json_object_set_new(event, "prev_hash", json_string(hex));
        sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
        json_object_set_new(event, "hash", json_string(hex));
        memcpy(prev, hash, sizeof prev);
    }
    return events;
}

static json_t *public_log(void)
{
    json_t *events = old_log();
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event) public_event_withhold(event);
    return events;
}

Test(public_event, an_old_mailed_move_shows_no_address)
{
    json_t *events = public_log();
    char *text = json_dumps(events, 0);
    cr_expect_null(strcasestr(text, "home.test"), "%s", text);
    json_t *request = json_object_get(
        json_object_get(json_array_get(events, 1), "data"), "request");
    char sender[PUBLIC_EVENT_SENDER_CHARS + 1];
    public_event_sender("ann@home.test", sender);
    cr_expect_str_eq(json_string_value(json_object_get(request, "sender")),
                     sender);
    cr_expect_str_eq(json_string_value(json_object_get(request, "command")),
                     "pass");
    cr_expect_null(json_object_get(json_array_get(events, 0), "withheld"));
    free(text);
    json_decref(events);
}

Test(public_event, the_public_log_of_an_old_mailed_move_still_checks)
{
    json_t *events = public_log();
    verify_report report;
    verify_events(events, &report);
    /* The whole chain is checked; what comes after it (this log is no
     * whole match) is another check's business. */
    cr_expect_eq(report.withheld, 1);
    cr_expect_eq(report.events, 3, "%s", report.reason);
    cr_expect_null(strstr(report.reason, "hash"), "%s", report.reason);
    cr_expect_null(strstr(report.reason, "chain"), "%s", report.reason);
    json_decref(events);
}

Test(public_event, a_change_after_a_withheld_event_is_still_found)
{
    json_t *events = public_log();
    json_object_set_new(json_object_get(json_array_get(events, 2), "data"),
                        "text", json_string("resign"));
    verify_report report;
    verify_events(events, &report);
    cr_expect_not(report.ok);
    cr_expect_eq(report.bad_seq, 3, "%s", report.reason);
    json_decref(events);
}

/* Whoever holds the mail puts its address and Message-ID back, and the
 * event hashes to its recorded hash again. */
Test(public_event, the_mail_holder_can_hash_a_withheld_event_again)
{
    json_t *events = public_log();
    json_t *event = json_deep_copy(json_array_get(events, 1));
    json_t *request =
        json_object_get(json_object_get(event, "data"), "request");
    json_object_del(request, "sender");
    json_object_set_new(request, "from", json_string("Ann@Home.test"));
    json_object_set_new(request, "message_id",
                        json_string("<20261129.ann@home.test>"));
    json_object_del(event, "withheld");
    uint8_t prev[CHAIN_HASH_BYTES], hash[CHAIN_HASH_BYTES];
    char hex[2 * CHAIN_HASH_BYTES + 1];
    cr_assert_eq(
        sodium_hex2bin(prev, sizeof prev,
                       json_string_value(json_object_get(event, "prev_hash")),
                       64, NULL, NULL, NULL),
        0);
    char *recorded = strdup(json_string_value(json_object_get(event, "hash")));
    json_object_del(event, "hash");
    json_object_del(event, "prev_hash");
    char *bytes = canonical_json(event);
    chain_hash(prev, bytes, hash);
    sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
    cr_expect_str_eq(hex, recorded);
    free(bytes);
    free(recorded);
    json_decref(event);
    json_decref(events);
}

Test(public_event, one_address_one_pseudonym_whatever_its_case)
{
    char a[PUBLIC_EVENT_SENDER_CHARS + 1], b[PUBLIC_EVENT_SENDER_CHARS + 1],
        c[PUBLIC_EVENT_SENDER_CHARS + 1];
    public_event_sender("ann@home.test", a);
    public_event_sender("ANN@Home.Test", b);
    public_event_sender("bob@home.test", c);
    cr_expect_str_eq(a, b);
    cr_expect_str_neq(a, c);
    cr_expect_eq(strlen(a), PUBLIC_EVENT_SENDER_CHARS);
    cr_expect_eq(strncmp(a, "s_", 2), 0);
}
