/* export_check.c */
#include "export_check.h"

#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "httpsig.h"

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
        json_t *value = json_loadb(start, line_len, JSON_REJECT_DUPLICATES,
                                   &jerr);
        if (!json_is_object(value)) {
            json_decref(value);
            verify_fail(report, line_no, "line %d is not a JSON object", line_no);
            goto bad;
        }
        if (json_object_get(value, "format") != NULL) {
            export_match *grown = realloc(matches, (size_t)(count + 1) *
                                                       sizeof *matches);
            if (grown == NULL)
                abort();
            matches = grown;
            matches[count].header = value;
            matches[count].events = json_array();
            count++;
        } else if (count == 0) {
            json_decref(value);
            verify_fail(report, line_no, "line %d is an event before any header",
                 line_no);
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

typedef struct recorded {
    const char *content_digest;
} recorded;

static const char *recorded_header(void *ctx, const char *name)
{
    const recorded *r = ctx;
    return strcmp(name, "content-digest") == 0 ? r->content_digest : NULL;
}

static const char *str(const json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

/* The signed request of one event against the header's key of its seat. */
static bool check_request(const json_t *header, const json_t *event,
                          long long seq, verify_report *report)
{
    const json_t *request =
        json_object_get(json_object_get(event, "data"), "request");
    if (request == NULL)
        return true;
    json_t *seat = json_object_get(event, "seat");
    const json_t *entry =
        json_is_integer(seat) ? seat_entry(header, json_integer_value(seat))
                              : NULL;
    if (entry == NULL) {
        verify_fail(report, seq, "event %lld carries a signed request but no seat "
                          "of the header made it", seq);
        return false;
    }
    const char *keyid = str(request, "keyid");
    const char *key_b64 = str(entry, "public_key");
    const char *expected_keyid = str(entry, "key_id");
    if (keyid == NULL || expected_keyid == NULL ||
        strcmp(keyid, expected_keyid) != 0) {
        verify_fail(report, seq, "event %lld was signed with key %s, not the key of "
                          "seat %lld's player",
             seq, keyid ? keyid : "(none)",
             (long long)json_integer_value(seat));
        return false;
    }
    uint8_t key[HTTPSIG_PUBLIC_KEY_BYTES];
    size_t key_len = 0;
    if (key_b64 == NULL ||
        sodium_base642bin(key, sizeof key, key_b64, strlen(key_b64), "\n",
                          &key_len, NULL, sodium_base64_VARIANT_ORIGINAL) != 0 ||
        key_len != sizeof key) {
        verify_fail(report, 0, "the header's public key of seat %lld is not base64 "
                        "of 32 bytes",
             (long long)json_integer_value(seat));
        return false;
    }
    const char *body = str(request, "body");
    recorded rec = {str(request, "content_digest")};
    httpsig_request req = {
        .method = str(request, "method"),
        .target = str(request, "target"),
        .header = recorded_header,
        .header_ctx = &rec,
        .body = (const unsigned char *)body,
        .body_len = body ? json_string_length(json_object_get(request, "body"))
                         : 0,
    };
    if (req.method == NULL || req.target == NULL) {
        verify_fail(report, seq, "event %lld's request has no method or target", seq);
        return false;
    }
    if (req.body_len == 0)
        req.body = NULL;
    httpsig_signature sig;
    httpsig_error herr = {{0}};
    if (!httpsig_parse(str(request, "signature_input"),
                       str(request, "signature"), NULL, &sig, &herr) ||
        !httpsig_check_content_digest(rec.content_digest, req.body,
                                      req.body_len, &herr) ||
        !httpsig_verify(&sig, &req, key, &herr)) {
        verify_fail(report, seq, "event %lld's signed request does not verify: %s",
             seq, herr.message);
        return false;
    }
    return true;
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
        return verify_fail(report, 0, "the header lacks match, game, seat_count, "
                               "status, seats or sealed_seed");
    if (json_array_size(match->events) == 0)
        return verify_fail(report, 1, "the export has no events");
    size_t i;
    const json_t *event;
    json_array_foreach(match->events, i, event) {
        const char *of = str(event, "match");
        if (of == NULL || strcmp(of, ref) != 0)
            return verify_fail(report, (long long)i + 1,
                        "event %zu belongs to match %s, not %s", i + 1,
                        of ? of : "(none)", ref);
    }
    verify_events(match->events, report);
    if (!report->ok)
        return false;
    const json_t *created = json_array_get(match->events, 0);
    const json_t *data = json_object_get(created, "data");
    const char *kind = str(created, "kind");
    const char *commitment = str(header, "seed_commitment");
    if (kind == NULL || strcmp(kind, "created") != 0 ||
        !json_equal(json_object_get(data, "game"),
                    json_object_get(header, "game")) ||
        !json_equal(json_object_get(data, "engine_version"),
                    json_object_get(header, "engine_version")) ||
        commitment == NULL || str(data, "seed_commitment") == NULL ||
        strcmp(commitment, str(data, "seed_commitment")) != 0)
        return verify_fail(report, 1, "the created event does not agree with the "
                               "header (game, engine version, seed "
                               "commitment)");
    json_array_foreach(match->events, i, event) {
        if (!check_request(header, event, (long long)i + 1, report))
            return false;
    }
    return true;
}

void export_check(const export_match *match, verify_report *report)
{
    memset(report, 0, sizeof *report);
    report->ok = true;
    long long events = (long long)json_array_size(match->events);
    if (check(match, report))
        report->events = events;
}
