/* export_check.c */
#include "ledger/export_check.h"

#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "ledger/httpsig.h"
#include "ledger/replay.h"
#include "ledger/chain.h"

void export_matches_free(export_match *matches, int count)
{
    for (int i = 0; matches != NULL && i < count; i++) {
        json_decref(matches[i].header);
        json_decref(matches[i].events);
    }
    free(matches);
}

int export_parse(const char *text, size_t len, export_match **out,
                 verify_report *report)
{
    memset(report, 0, sizeof *report);
    report->ok = true;
    *out = NULL;
    int count = 0, line_no = 0;
    export_match *matches = NULL;
    size_t at = 0;
    while (at < len) {
        const char *start = text + at;
        const char *nl = memchr(start, '\n', len - at);
        size_t line_len = nl ? (size_t)(nl - start) : len - at;
        at += line_len + (nl ? 1 : 0);
        line_no++;
        if (line_len > 0 && start[line_len - 1] == '\r')
            line_len--;
        if (line_len == 0)
            continue;
        json_error_t jerr;
        json_t *value =
            json_loadb(start, line_len, JSON_REJECT_DUPLICATES, &jerr);
        if (!json_is_object(value)) {
            json_decref(value);
            verify_fail(report, line_no, "line %d is not a JSON object",
                        line_no);
            goto bad;
        }
        if (json_object_get(value, "format") != NULL) {
            export_match *grown =
                realloc(matches, (size_t)(count + 1) * sizeof *matches);
            if (grown == NULL)
                abort();
            matches = grown;
            matches[count].header = value;
            matches[count].events = json_array();
            count++;
        } else if (count == 0) {
            json_decref(value);
            verify_fail(report, line_no,
                        "line %d is an event before any header", line_no);
            goto bad;
        } else {
            json_array_append_new(matches[count - 1].events, value);
        }
    }
    *out = matches;
    return count;
bad:
    export_matches_free(matches, count);
    return -1;
}

static const char *str(const json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

static const json_t *data_of(const json_t *event)
{
    return json_object_get(event, "data");
}

static bool is_kind(const json_t *event, const char *kind)
{
    const char *k = str(event, "kind");
    return k != NULL && strcmp(k, kind) == 0;
}

static bool is_admin_kind(const json_t *event)
{
    return is_kind(event, "rewound") || is_kind(event, "seat_replaced") ||
           is_kind(event, "aborted") || is_kind(event, "imported");
}

/* Events belong to the header's match, except those before an `imported`
 * event, which belong to the match it copied. */
static bool check_refs(const export_match *match, verify_report *report)
{
    const char *ref = str(json_array_get(match->events, 0), "match");
    size_t i;
    const json_t *event;
    json_array_foreach(match->events, i, event) {
        long long seq = (long long)i + 1;
        const char *of = str(event, "match");
        if (of == NULL || ref == NULL)
            return verify_fail(report, seq, "event %lld names no match", seq);
        if (is_kind(event, "imported")) {
            const char *from = str(data_of(event), "from");
            if (from == NULL || strcmp(from, ref) != 0 || strcmp(of, ref) == 0)
                return verify_fail(report, seq,
                                   "event %lld imports from %s, but the events "
                                   "before it are of %s",
                                   seq, from ? from : "(none)", ref);
            ref = of;
        } else if (strcmp(of, ref) != 0) {
            return verify_fail(report, seq,
                               "event %lld belongs to match %s, "
                               "not %s",
                               seq, of, ref);
        }
    }
    const char *header_ref = str(match->header, "match");
    if (strcmp(ref, header_ref) != 0)
        return verify_fail(report, (long long)json_array_size(match->events),
                           "the events are of match %s, not the header's %s",
                           ref, header_ref);
    return true;
}

static const json_t *seat_entry(const json_t *header, json_int_t seat)
{
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(header, "seats"), i, entry) {
        if (json_integer_value(json_object_get(entry, "seat")) == seat)
            return entry;
    }
    return NULL;
}

/* The header's seats are the joined events' players. */
static bool check_seats(const export_match *match, verify_report *report)
{
    size_t joined = 0, i;
    const json_t *event;
    json_array_foreach(match->events, i, event) {
        if (!is_kind(event, "joined"))
            continue;
        joined++;
        const json_t *entry = seat_entry(
            match->header, json_integer_value(json_object_get(event, "seat")));
        const char *player = str(data_of(event), "player");
        if (entry == NULL || player == NULL || str(entry, "player") == NULL ||
            strcmp(player, str(entry, "player")) != 0)
            return verify_fail(report, (long long)i + 1,
                               "event %lld seats %s, which the header's seats "
                               "do not say",
                               (long long)i + 1, player ? player : "nobody");
    }
    if (joined != json_array_size(json_object_get(match->header, "seats")))
        return verify_fail(
            report, 0,
            "the header lists %zu seats but %zu were "
            "joined",
            json_array_size(json_object_get(match->header, "seats")), joined);
    return true;
}

typedef struct recorded {
    const char *content_digest;
    const char *on_behalf_of; /* a delegated request's Pbem-On-Behalf-Of */
} recorded;

static const char *recorded_header(void *ctx, const char *name)
{
    const recorded *r = ctx;
    if (strcmp(name, "pbem-on-behalf-of") == 0)
        return r->on_behalf_of;
    return strcmp(name, "content-digest") == 0 ? r->content_digest : NULL;
}

static bool key_bytes(const char *b64, uint8_t key[HTTPSIG_PUBLIC_KEY_BYTES])
{
    size_t len = 0;
    return b64 != NULL &&
           sodium_base642bin(key, HTTPSIG_PUBLIC_KEY_BYTES, b64, strlen(b64),
                             "\n", &len, NULL,
                             sodium_base64_VARIANT_ORIGINAL) == 0 &&
           len == HTTPSIG_PUBLIC_KEY_BYTES;
}

/* The recorded request (what: "event 5", or a grant of it) is signed by
 * key_b64 under keyid, covering @method, @path, (with a body) its
 * Content-Digest and, for a bot's request, its Pbem-On-Behalf-Of, which
 * must name on_behalf_of (NULL: the player signed). */
static bool signed_by(const json_t *request, const char *keyid,
                      const char *key_b64, const char *whose,
                      const char *on_behalf_of, const char *what,
                      long long seq, verify_report *report)
{
    const char *used = str(request, "keyid");
    if (used == NULL || keyid == NULL || strcmp(used, keyid) != 0)
        return verify_fail(report, seq,
                           "%s was signed with key %s, not the key of %s",
                           what, used ? used : "(none)", whose);
    uint8_t key[HTTPSIG_PUBLIC_KEY_BYTES];
    if (!key_bytes(key_b64, key))
        return verify_fail(report, seq,
                           "%s: the public key of %s is "
                           "not base64 of 32 bytes",
                           what, whose);
    const char *body = str(request, "body");
    recorded rec = {str(request, "content_digest"),
                    str(request, "on_behalf_of")};
    if (on_behalf_of != NULL &&
        (rec.on_behalf_of == NULL ||
         strcmp(rec.on_behalf_of, on_behalf_of) != 0))
        return verify_fail(report, seq,
                           "%s's signed request does not act for %s", what,
                           on_behalf_of);
    httpsig_request req = {
        .method = str(request, "method"),
        .target = str(request, "target"),
        .header = recorded_header,
        .header_ctx = &rec,
        .body = (const unsigned char *)body,
        .body_len =
            body ? json_string_length(json_object_get(request, "body")) : 0,
    };
    if (req.method == NULL || req.target == NULL)
        return verify_fail(report, seq,
                           "%s's request has no method or target", what);
    if (req.body_len == 0)
        req.body = NULL;
    const char *covered[4] = {"@method", "@path"};
    size_t count = 2;
    if (rec.content_digest != NULL)
        covered[count++] = "content-digest";
    if (on_behalf_of != NULL)
        covered[count++] = "pbem-on-behalf-of";
    httpsig_signature sig;
    httpsig_error herr = {{0}};
    if (!httpsig_parse(str(request, "signature_input"),
                       str(request, "signature"), NULL, &sig, &herr) ||
        !httpsig_check_covers(&sig, covered, count, &herr) ||
        (body != NULL &&
         !httpsig_check_content_digest(rec.content_digest, req.body,
                                       req.body_len, &herr)) ||
        !httpsig_verify(&sig, &req, key, &herr))
        return verify_fail(report, seq,
                           "%s's signed request does not verify: %s", what,
                           herr.message);
    return true;
}

/* The request's JSON body (new reference) with its target and method
 * checked, or NULL with report filled. */
static json_t *asked(const json_t *request, const char *target, bool body,
                     long long seq, verify_report *report)
{
    const char *method = str(request, "method");
    const char *was = str(request, "target");
    if (method == NULL || strcmp(method, "POST") != 0 || was == NULL ||
        strncmp(was, target, strlen(target)) != 0 ||
        (was[strlen(target)] != '\0' && was[strlen(target)] != '?')) {
        verify_fail(report, seq,
                    "event %lld's signed request is %s %s, not a request to "
                    "POST %s",
                    seq, method ? method : "?", was ? was : "?", target);
        return NULL;
    }
    if (!body)
        return json_object();
    const char *text = str(request, "body");
    json_t *value =
        text ? json_loads(text, JSON_REJECT_DUPLICATES, NULL) : NULL;
    if (!json_is_object(value)) {
        json_decref(value);
        verify_fail(report, seq,
                    "event %lld's signed request has no JSON "
                    "body",
                    seq);
        return NULL;
    }
    return value;
}

/* A move's request asked for this very move at this very point. */
static bool check_move_request(const json_t *event, const json_t *request,
                               const char *ref, long long seq,
                               verify_report *report)
{
    char target[96];
    snprintf(target, sizeof target, "/v1/matches/%s/moves", ref);
    json_t *body = asked(request, target, true, seq, report);
    if (body == NULL)
        return false;
    bool ok = true;
    const json_t *action = json_object_get(body, "action");
    if (json_integer_value(json_object_get(body, "seq")) != seq - 1 ||
        !json_is_integer(json_object_get(body, "seq")))
        ok = verify_fail(
            report, seq,
            "event %lld's signed request was made for event "
            "%lld, not for this point of the match",
            seq,
            (long long)json_integer_value(json_object_get(body, "seq")) + 1);
    else if (action != NULL &&
             !json_equal(action, json_object_get(data_of(event), "action")))
        ok = verify_fail(report, seq,
                         "event %lld's signed request asked for another move "
                         "than the one recorded",
                         seq);
    else if (action == NULL && !json_is_string(json_object_get(body, "move")))
        ok = verify_fail(report, seq,
                         "event %lld's signed request asks for no move", seq);
    /* A text move is held against the action when the match is replayed. */
    json_decref(body);
    return ok;
}

static bool same_field(const json_t *body, const json_t *data, const char *key)
{
    const json_t *a = json_object_get(body, key);
    return a != NULL && json_equal(a, json_object_get(data, key));
}

/* An admin event's request asked for exactly what the event records. */
static bool check_admin_request(const json_t *event, const json_t *request,
                                const char *ref, long long seq,
                                verify_report *report)
{
    const json_t *data = data_of(event);
    char target[160];
    bool body_kept = !is_kind(event, "imported");
    if (is_kind(event, "rewound"))
        snprintf(target, sizeof target, "/v1/admin/matches/%s/rewind", ref);
    else if (is_kind(event, "aborted"))
        snprintf(target, sizeof target, "/v1/admin/matches/%s/abort", ref);
    else if (is_kind(event, "seat_replaced"))
        snprintf(target, sizeof target,
                 "/v1/admin/matches/%s/seats/%lld/replace", ref,
                 (long long)json_integer_value(json_object_get(event, "seat")));
    else
        snprintf(target, sizeof target, "/v1/admin/matches/import");
    char what[48];
    snprintf(what, sizeof what, "event %lld", seq);
    if (!signed_by(request, "admin", str(data, "admin_key"), "the admin", NULL,
                   what, seq, report))
        return false;
    json_t *body = asked(request, target, body_kept, seq, report);
    if (body == NULL)
        return false;
    bool ok = !body_kept || same_field(body, data, "reason");
    if (ok && is_kind(event, "rewound"))
        ok = same_field(body, data, "to_seq");
    if (ok && is_kind(event, "seat_replaced"))
        ok = same_field(body, data, "player");
    json_decref(body);
    if (!ok)
        return verify_fail(report, seq,
                           "event %lld's signed admin request asked for "
                           "something else than the event records",
                           seq);
    return true;
}

/* The player an admin seated, as the header's replacements list them. */
static bool replacement_known(const json_t *header, const json_t *event,
                              long long seq, verify_report *report)
{
    const json_t *data = data_of(event);
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(header, "replacements"), i, entry) {
        if (same_field(entry, data, "player") &&
            same_field(entry, data, "public_key") &&
            same_field(entry, data, "key_id"))
            return true;
    }
    return verify_fail(report, seq,
                       "event %lld seats %s, whom the header's replacements "
                       "do not list with that key",
                       seq,
                       str(data, "player") ? str(data, "player") : "nobody");
}

/* A move made by mail records the mail instead of a signature: which
 * message (the SHA-256 of its bytes, so whoever holds the mail can check
 * it), which single-use reply address, the sender (its pseudonym,
 * public_event.h, or in moves logged before it, the address) and the
 * command line. Without the mail nobody outside the service can check
 * more than that the record is whole. */
static bool check_email_request(const json_t *event, const json_t *request,
                                long long seq, verify_report *report)
{
    const char *sha = str(request, "message_sha256");
    const char *token = str(request, "token");
    bool hex_sha = sha != NULL && strlen(sha) == 64 &&
                   strspn(sha, "0123456789abcdef") == 64;
    if (!is_kind(event, "move") || !hex_sha || token == NULL ||
        (str(request, "sender") == NULL && str(request, "from") == NULL) ||
        str(request, "command") == NULL)
        return verify_fail(report, seq,
                           "event %lld was made by mail but does not record "
                           "the message's hash, reply address, sender and "
                           "command",
                           seq);
    return true;
}

/* A move made from Discord or Slack (chat/chat_door.h): the chat's own
 * signature on it cannot be kept (the platform's key signs the
 * interaction, which the log does not hold), so, as for a mailed move,
 * the event records what it was made from: the chat user's pseudonym,
 * the link (grant) and the interaction, and the command. */
static bool check_chat_request(const json_t *event, const json_t *request,
                               long long seq, verify_report *report)
{
    if (!is_kind(event, "move") || str(request, "chat_user") == NULL ||
        str(request, "grant") == NULL ||
        str(request, "interaction") == NULL ||
        str(request, "command") == NULL)
        return verify_fail(report, seq,
                           "event %lld was made from a chat but does not "
                           "record the chat user, the link, the interaction "
                           "and the command",
                           seq);
    return true;
}

/* The grant named ref in the header's "delegates", or NULL. */
static const json_t *grant_entry(const json_t *header, const char *ref)
{
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(header, "delegates"), i, entry) {
        const char *id = str(entry, "delegate");
        if (id != NULL && ref != NULL && strcmp(id, ref) == 0)
            return entry;
    }
    return NULL;
}

/* "k_" and the hex of the 8-byte BLAKE2b of a base64 public key, as the
 * service names keys; false when key_b64 is not a key. */
static bool key_id_of(const char *key_b64, char out[24])
{
    uint8_t key[HTTPSIG_PUBLIC_KEY_BYTES], digest[8];
    if (!key_bytes(key_b64, key))
        return false;
    crypto_generichash(digest, sizeof digest, key, sizeof key, NULL, 0);
    memcpy(out, "k_", 2);
    sodium_bin2hex(out + 2, 17, digest, sizeof digest);
    return true;
}

/* What a grant must allow for an event of this kind, or NULL when no
 * delegate may make it. */
static const char *scope_for(const json_t *event)
{
    if (is_kind(event, "move") || is_kind(event, "committed") ||
        is_kind(event, "revealed") || is_kind(event, "voided"))
        return "move";
    return is_kind(event, "joined") ? "join" : NULL;
}

static bool lists(const json_t *array, const char *word)
{
    size_t i;
    const json_t *item;
    json_array_foreach(array, i, item) {
        const char *w = json_string_value(item);
        if (w != NULL && strcmp(w, word) == 0)
            return true;
    }
    return false;
}

/* An event a bot's key made for a seat's player: the grant the event
 * names is in the header, signed by that player's key as a request to
 * POST /v1/players/me/delegates that says exactly what the header says;
 * at the event's time it had neither expired nor been revoked, and it
 * covered this match and this kind of event; and the bot's own request,
 * when the event keeps it, is signed by the granted key, acting for that
 * player. */
static bool check_delegated(const json_t *header, const json_t *event,
                            const char *player, const char *player_key_id,
                            const char *player_key, const char *ref,
                            long long seq, verify_report *report)
{
    const json_t *delegate = json_object_get(data_of(event), "delegate");
    const json_t *request = json_object_get(data_of(event), "request");
    const char *grant_ref = str(delegate, "grant");
    const json_t *grant = grant_entry(header, grant_ref);
    const char *acting_for = str(delegate, "player");
    char what[96];
    if (grant == NULL)
        return verify_fail(report, seq,
                           "event %lld was made under grant %s, which the "
                           "header's delegates do not carry",
                           seq, grant_ref ? grant_ref : "(none)");
    if (acting_for == NULL || player == NULL ||
        strcmp(acting_for, player) != 0 || str(grant, "player") == NULL ||
        strcmp(str(grant, "player"), player) != 0)
        return verify_fail(report, seq,
                           "event %lld was made for %s under %s, but the "
                           "seat is %s's",
                           seq, acting_for ? acting_for : "nobody", grant_ref,
                           player ? player : "nobody's");
    snprintf(what, sizeof what, "event %lld's grant %s", seq, grant_ref);
    const json_t *grant_request = json_object_get(grant, "request");
    if (grant_request == NULL ||
        !signed_by(grant_request, player_key_id, player_key, player, NULL,
                   what, seq, report))
        return grant_request != NULL ||
               verify_fail(report, seq, "%s carries no signed request",
                           what);
    json_t *body =
        asked(grant_request, "/v1/players/me/delegates", true, seq, report);
    if (body == NULL)
        return false;
    bool ok = true;
    char key_id[24];
    long long at = 0, expires = 0, revoked = 0;
    const char *scope = scope_for(event);
    const json_t *matches = json_object_get(body, "matches");
    const char *revoked_text = str(grant, "revoked");
    if (!same_field(body, grant, "public_key") ||
        !same_field(body, grant, "scope") ||
        !same_field(body, grant, "matches") ||
        !same_field(body, grant, "expires") ||
        !key_id_of(str(body, "public_key"), key_id) ||
        str(grant, "key_id") == NULL ||
        strcmp(str(grant, "key_id"), key_id) != 0 ||
        str(delegate, "key_id") == NULL ||
        strcmp(str(delegate, "key_id"), key_id) != 0)
        ok = verify_fail(report, seq,
                         "%s is not what the player signed: its key, "
                         "scope, matches or expiry differ",
                         what);
    else if (!clock_parse(str(event, "at"), false, &at) ||
             !clock_parse(str(body, "expires"), false, &expires) ||
             (revoked_text != NULL &&
              !clock_parse(revoked_text, false, &revoked)))
        ok = verify_fail(report, seq,
                         "%s or its event has a time that is not RFC 3339",
                         what);
    else if (at >= expires)
        ok = verify_fail(report, seq, "event %lld was made after %s expired",
                         seq, grant_ref);
    else if (revoked_text != NULL && at >= revoked)
        ok = verify_fail(report, seq,
                         "event %lld was made after %s was revoked", seq,
                         grant_ref);
    else if (scope == NULL ||
             !lists(json_object_get(body, "scope"), scope))
        ok = verify_fail(report, seq,
                         "%s does not allow a delegate to make a %s event",
                         what, str(event, "kind") ? str(event, "kind") : "?");
    else if (!(json_is_string(matches) &&
               strcmp(json_string_value(matches), "all") == 0) &&
             !lists(matches, ref))
        ok = verify_fail(report, seq, "%s does not cover match %s", what,
                         ref);
    else if (request == NULL && is_kind(event, "move"))
        ok = verify_fail(report, seq,
                         "event %lld is a delegate's move without its "
                         "signed request",
                         seq);
    if (ok && request != NULL) {
        snprintf(what, sizeof what, "event %lld", seq);
        ok = signed_by(request, key_id, str(body, "public_key"), grant_ref,
                       player, what, seq, report) &&
             (!is_kind(event, "move") ||
              check_move_request(event, request, ref, seq, report));
    }
    json_decref(body);
    return ok;
}

/* Every signed request, against the key of whoever sat in the seat then. */
static bool check_requests(const export_match *match, verify_report *report)
{
    const json_t *header = match->header;
    const char *key_b64[CHAIN_MAX_SEATS] = {0};
    const char *key_id[CHAIN_MAX_SEATS] = {0};
    const char *player[CHAIN_MAX_SEATS] = {0};
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(header, "seats"), i, entry) {
        json_int_t seat = json_integer_value(json_object_get(entry, "seat"));
        if (seat < 0 || seat >= CHAIN_MAX_SEATS)
            return verify_fail(report, 0, "the header has a seat %lld",
                               (long long)seat);
        key_b64[seat] = str(entry, "public_key");
        key_id[seat] = str(entry, "key_id");
        player[seat] = str(entry, "player");
    }
    const char *ref = str(json_array_get(match->events, 0), "match");
    const json_t *event;
    json_array_foreach(match->events, i, event) {
        long long seq = (long long)i + 1;
        const json_t *request = json_object_get(data_of(event), "request");
        json_t *seat_value = json_object_get(event, "seat");
        json_int_t seat =
            json_is_integer(seat_value) ? json_integer_value(seat_value) : -1;
        if (is_kind(event, "imported"))
            ref = str(event, "match");
        if (is_admin_kind(event)) {
            if (request == NULL)
                return verify_fail(report, seq,
                                   "event %lld is an admin's and carries no "
                                   "signed request",
                                   seq);
            if (!check_admin_request(event, request, ref, seq, report))
                return false;
        } else if (request != NULL && str(request, "via") != NULL &&
                   strcmp(str(request, "via"), "email") == 0) {
            if (!check_email_request(event, request, seq, report))
                return false;
        } else if (request != NULL && str(request, "via") != NULL &&
                   (strcmp(str(request, "via"), "discord") == 0 ||
                    strcmp(str(request, "via"), "slack") == 0)) {
            if (!check_chat_request(event, request, seq, report))
                return false;
        } else if (json_object_get(data_of(event), "delegate") != NULL) {
            if (seat < 0 || seat >= CHAIN_MAX_SEATS || key_b64[seat] == NULL)
                return verify_fail(report, seq,
                                   "event %lld was made by a delegate but no "
                                   "seated player granted it",
                                   seq);
            if (!check_delegated(header, event, player[seat], key_id[seat],
                                 key_b64[seat], ref, seq, report))
                return false;
        } else if (request != NULL) {
            char whose[64];
            snprintf(whose, sizeof whose, "seat %lld's player",
                     (long long)seat);
            if (!is_kind(event, "move") || seat < 0 ||
                seat >= CHAIN_MAX_SEATS || key_b64[seat] == NULL)
                return verify_fail(report, seq,
                                   "event %lld carries a signed request but no "
                                   "seated player made it",
                                   seq);
            char what[48];
            snprintf(what, sizeof what, "event %lld", seq);
            if (!signed_by(request, key_id[seat], key_b64[seat], whose, NULL,
                           what, seq, report) ||
                !check_move_request(event, request, ref, seq, report))
                return false;
        }
        if (is_kind(event, "seat_replaced")) {
            if (seat < 0 || seat >= CHAIN_MAX_SEATS || key_b64[seat] == NULL)
                return verify_fail(report, seq,
                                   "event %lld replaces an empty seat", seq);
            if (!replacement_known(header, event, seq, report))
                return false;
            key_b64[seat] = str(data_of(event), "public_key");
            key_id[seat] = str(data_of(event), "key_id");
            player[seat] = str(data_of(event), "player");
        }
    }
    return true;
}

/* The commitment of a committed event that counts, or NULL. */
static const json_t *commitment_event(const json_t *events, const bool *counts,
                                      const char *decision, json_int_t seat)
{
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        const char *of = str(data_of(event), "decision");
        if (counts[i] && is_kind(event, "committed") && of != NULL &&
            strcmp(of, decision) == 0 &&
            json_integer_value(json_object_get(event, "seat")) == seat)
            return event;
    }
    return NULL;
}

static bool check_sealed_choices(const export_match *match,
                                 verify_report *report)
{
    const json_t *rows = json_object_get(match->header, "sealed_choices");
    size_t n = json_array_size(match->events);
    bool *counts = calloc(n + 1, sizeof *counts);
    if (counts == NULL)
        abort();
    replay_error rerr = {0};
    bool ok = replay_history(match->events, counts, &rerr);
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row) {
        const char *decision = str(row, "decision");
        const char *mode = str(row, "mode");
        const char *sealed = str(row, "sealed");
        json_int_t seat = json_integer_value(json_object_get(row, "seat"));
        const json_t *event =
            ok && decision
                ? commitment_event(match->events, counts, decision, seat)
                : NULL;
        if (!ok || event == NULL || mode == NULL ||
            !same_field(row, data_of(event), "commitment") ||
            strcmp(mode, str(data_of(event), "mode")
                             ? str(data_of(event), "mode")
                             : "") != 0 ||
            (sealed != NULL &&
             (strlen(sealed) % 2 != 0 ||
              strspn(sealed, "0123456789abcdef") != strlen(sealed)))) {
            ok = false;
            verify_fail(report, 0,
                        "sealed choice %zu of the header (decision %s, seat "
                        "%lld) is not a commitment of the log",
                        i + 1, decision ? decision : "?", (long long)seat);
            break;
        }
    }
    char open[64];
    uint32_t committed =
        ok ? replay_open_decision(match->events, counts, open) : 0;
    for (int seat = 0; ok && seat < 32; seat++) {
        if (!(committed & (1u << seat)))
            continue;
        bool found = false;
        json_array_foreach(rows, i, row) {
            const char *decision = str(row, "decision");
            if (decision != NULL && strcmp(decision, open) == 0 &&
                json_integer_value(json_object_get(row, "seat")) == seat)
                found = true;
        }
        if (!found)
            ok = verify_fail(report, 0,
                             "the header lacks seat %d's sealed choice in "
                             "decision %s, which is in progress",
                             seat, open);
    }
    free(counts);
    return ok;
}

static bool check(const export_match *match, verify_report *report)
{
    const json_t *header = match->header;
    const char *format = str(header, "format");
    const char *ref = str(header, "match");
    if (format == NULL || strcmp(format, EXPORT_FORMAT) != 0)
        return verify_fail(report, 0, "the header's format is not \"%s\"",
                           EXPORT_FORMAT);
    if (ref == NULL || str(header, "game") == NULL ||
        !json_is_array(json_object_get(header, "seats")) ||
        !json_is_integer(json_object_get(header, "seat_count")) ||
        str(header, "status") == NULL || str(header, "sealed_seed") == NULL)
        return verify_fail(report, 0,
                           "the header lacks match, game, seat_count, "
                           "status, seats or sealed_seed");
    const json_t *replaced = json_object_get(header, "replacements");
    const json_t *choices = json_object_get(header, "sealed_choices");
    if ((replaced != NULL && !json_is_array(replaced)) ||
        (choices != NULL && !json_is_array(choices)))
        return verify_fail(report, 0,
                           "the header's replacements or "
                           "sealed_choices is not an array");
    if (json_array_size(match->events) == 0)
        return verify_fail(report, 1, "the export has no events");
    if (!check_refs(match, report))
        return false;
    verify_events(match->events, report);
    if (!report->ok || !check_seats(match, report))
        return false;
    const json_t *created = json_array_get(match->events, 0);
    const json_t *data = data_of(created);
    const char *commitment = str(header, "seed_commitment");
    if (!is_kind(created, "created") ||
        !json_equal(json_object_get(data, "game"),
                    json_object_get(header, "game")) ||
        !json_equal(json_object_get(data, "engine_version"),
                    json_object_get(header, "engine_version")) ||
        commitment == NULL || str(data, "seed_commitment") == NULL ||
        strcmp(commitment, str(data, "seed_commitment")) != 0)
        return verify_fail(report, 1,
                           "the created event does not agree with the "
                           "header (game, engine version, seed "
                           "commitment)");
    return check_requests(match, report) && check_sealed_choices(match, report);
}

void export_check(const export_match *match, verify_report *report)
{
    memset(report, 0, sizeof *report);
    report->ok = true;
    if (check(match, report))
        report->events = (long long)json_array_size(match->events);
}
