/* Notification settings end to end: channels, quiet hours, daily digests,
 * escalating reminders, nudges and "what changed since your last turn".
 * Hours cannot pass in a test, so where a row is due hours from now the
 * test checks when it was scheduled (in the database), then moves that
 * moment to now and watches the real worker deliver or cancel it. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../support/notify_scene.h"

static PGconn *database(void)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    return conn;
}

/* One value of a query that must answer one row. */
static char *scalar(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s: %s", sql,
                 PQresultErrorMessage(r));
    cr_assert_eq(PQntuples(r), 1, "%s: %d rows", sql, PQntuples(r));
    char *value = strdup(PQgetvalue(r, 0, 0));
    PQclear(r);
    return value;
}

static void exec_ok(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    cr_assert(PQresultStatus(r) == PGRES_COMMAND_OK ||
                  PQresultStatus(r) == PGRES_TUPLES_OK,
              "%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
}

static void put_settings(const e2e_server *s, const e2e_player *p,
                         const char *body)
{
    e2e_response r = e2e_call(s, "PUT", "/v1/players/me/notification-settings",
                              body, p);
    cr_assert_eq(r.status, 200, "settings %s: %ld %s", body, r.status, r.body);
    e2e_response_free(&r);
}

/* The first seat the match waits for, and the player there. */
static const e2e_player *waited_for(const e2e_server *s, const char *match,
                                    const e2e_player *a, const e2e_player *b)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    e2e_response r = e2e_call(s, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    int seat = e2e_first_pending_seat(r.json);
    e2e_response_free(&r);
    return seat == 0 ? a : b; /* a created the match: seat 0 */
}

/* Plays p's first legal move in match. */
static void play_first_move(const e2e_server *s, const e2e_player *p,
                            const char *match)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", match);
    e2e_response v = e2e_call(s, "GET", path, NULL, p);
    cr_assert_eq(v.status, 200, "%s", v.body);
    json_t *body = json_pack(
        "{s:O,s:O}", "seq", json_object_get(json_object_get(v.json, "head"), "seq"),
        "action",
        json_array_get(json_object_get(json_object_get(v.json, "legal"), "moves"), 0));
    e2e_response_free(&v);
    char *text = json_dumps(body, JSON_COMPACT);
    snprintf(path, sizeof path, "/v1/matches/%s/moves", match);
    e2e_response r = e2e_call(s, "POST", path, text, p);
    cr_assert_eq(r.status, 200, "move: %s", r.body);
    e2e_response_free(&r);
    free(text);
    json_decref(body);
}

/* Deliveries the receiver got whose body has this "type". */
static json_t *deliveries_of_type(const receiver *hook, const char *type)
{
    json_t *lines = receiver_lines(hook), *found = json_array();
    size_t i;
    json_t *line;
    json_array_foreach(lines, i, line) {
        json_t *body = json_loads(json_string_value(json_object_get(line, "body")),
                                  0, NULL);
        const char *t = json_string_value(json_object_get(body, "type"));
        if (t != NULL && strcmp(t, type) == 0)
            json_array_append(found, json_object_get(body, "data"));
        json_decref(body);
    }
    json_decref(lines);
    return found;
}

static json_t *wait_deliveries(const receiver *hook, const char *type,
                               size_t count)
{
    for (int i = 0; i < 200; i++) {
        json_t *found = deliveries_of_type(hook, type);
        if (json_array_size(found) >= count)
            return found;
        json_decref(found);
        pause_ms(100);
    }
    return deliveries_of_type(hook, type);
}

/* A server, players a and b, and (when hook is not NULL) a webhook
 * receiver both players registered; with smtp, an SMTP receiver the
 * server sends through. */
static void scene(receiver *hook, receiver *smtp, e2e_server *s, e2e_player *a,
                  e2e_player *b)
{
    notify_server_env();
    char url[64];
    if (smtp != NULL) {
        receiver_start(smtp, "smtp-receiver.mjs", NULL);
        snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp->port);
        setenv("PBEM_SMTP_URL", url, 1);
    }
    if (hook != NULL)
        receiver_start(hook, "webhook-receiver.mjs", NULL);
    e2e_start(s);
    e2e_register(s, "Robert", a);
    e2e_register(s, "Eliza", b);
    if (hook != NULL) {
        snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", hook->port);
        receiver_add_secret(hook, register_webhook(s, a, NULL, url));
        receiver_add_secret(hook, register_webhook(s, b, NULL, url));
    }
}

/* A scene (scene) whose two players both have settings, and a match
 * between them. */
static void match_with_settings(receiver *hook, e2e_server *s, e2e_player *a,
                                e2e_player *b, const char *settings,
                                char match[32])
{
    scene(hook, NULL, s, a, b);
    put_settings(s, a, settings);
    put_settings(s, b, settings);
    two_player_match(s, a, b, match);
}

Test(settings, are_read_written_and_checked, .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a;
    e2e_register(&s, "Robert", &a);
    e2e_response r = e2e_call(&s, "GET", "/v1/players/me/notification-settings",
                              NULL, &a);
    cr_assert_eq(r.status, 200, "%s", r.body);
    json_t *defaults = json_pack("{s:b,s:b,s:s,s:n,s:b,s:i,s:[],s:b}", "email",
                                 1, "webhooks", 1, "time_zone", "UTC",
                                 "quiet_hours", "digest", 0, "digest_hour", 8,
                                 "reminder_hours", "skip_when_seen", 1);
    cr_expect(json_equal(r.json, defaults), "defaults: %s", r.body);
    e2e_response_free(&r);
    json_decref(defaults);

    const char *mine = "{\"email\":false,\"webhooks\":true,"
                       "\"time_zone\":\"Europe/Paris\","
                       "\"quiet_hours\":{\"from\":\"22:30\",\"until\":\"07:00\"},"
                       "\"digest\":true,\"digest_hour\":9,"
                       "\"reminder_hours\":[24,72],\"skip_when_seen\":false}";
    put_settings(&s, &a, mine);
    r = e2e_call(&s, "GET", "/v1/players/me/notification-settings", NULL, &a);
    json_t *expected = json_loads(mine, 0, NULL);
    cr_expect(json_equal(r.json, expected), "read back: %s", r.body);
    json_decref(expected);
    e2e_response_free(&r);

    static const char *const refused[] = {
        "{\"time_zone\":\"Mars/Olympus_Mons\"}",
        "{\"colour\":\"blue\"}",
        "{\"reminder_hours\":[72,24]}",
        "{\"reminder_hours\":[0]}",
        "{\"quiet_hours\":{\"from\":\"07:00\",\"until\":\"07:00\"}}",
        "{\"quiet_hours\":{\"from\":\"25:00\",\"until\":\"07:00\"}}",
        "{\"digest_hour\":24}",
        "{\"email\":\"no\"}",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        r = e2e_call(&s, "PUT", "/v1/players/me/notification-settings",
                     refused[i], &a);
        cr_expect_eq(r.status, 400, "%s: %ld %s", refused[i], r.status, r.body);
        cr_expect_str_eq(e2e_error_code(&r), "bad_settings", "%s", refused[i]);
        e2e_response_free(&r);
    }
    /* Nothing refused changed the settings; nobody else may read them. */
    r = e2e_call(&s, "GET", "/v1/players/me/notification-settings", NULL, &a);
    cr_expect(json_is_false(json_object_get(r.json, "email")), "%s", r.body);
    e2e_response_free(&r);
    r = e2e_call(&s, "GET", "/v1/players/me/notification-settings", NULL, NULL);
    cr_expect_eq(r.status, 401, "%s", r.body);
    e2e_response_free(&r);
    stop_server(&s);
}

Test(settings, a_channel_turned_off_gets_nothing, .timeout = 60)
{
    receiver hook;
    e2e_server s = {0};
    e2e_player a, b;
    char match[32];
    match_with_settings(&hook, &s, &a, &b, "{\"webhooks\":false}", match);
    json_t *mine_a = my_notifications(&s, &a), *mine_b = my_notifications(&s, &b);
    cr_expect_eq(json_array_size(mine_a) + json_array_size(mine_b), 0,
                 "queued for a channel turned off");
    json_decref(mine_a);
    json_decref(mine_b);
    stop_server(&s);
    receiver_stop(&hook);
}

/* The waited-for player moves until the turn passes; returns the player
 * it passed to. */
static const e2e_player *pass_turn(const e2e_server *s, const char *match,
                                   const e2e_player *a, const e2e_player *b)
{
    const e2e_player *mover = waited_for(s, match, a, b);
    for (int moves = 0; moves < 20; moves++) {
        play_first_move(s, mover, match);
        const e2e_player *next = waited_for(s, match, a, b);
        if (next != mover)
            return next;
    }
    cr_assert_fail("the turn never passed");
    return NULL;
}

/* Moves are served from the process's cached match, which keeps who can
 * be notified: a channel turned on must be used from the very next turn,
 * though the match was cached while it was off. (One turned off needs no
 * such care: the outbox's INSERT reads the settings itself.) */
Test(settings, a_channel_turned_on_mid_match_is_used_from_the_next_turn,
     .timeout = 60)
{
    receiver hook;
    e2e_server s = {0};
    e2e_player a, b;
    char match[32];
    match_with_settings(&hook, &s, &a, &b, "{\"webhooks\":false}", match);
    const e2e_player *second = pass_turn(&s, match, &a, &b);
    json_t *list = my_notifications(&s, second);
    cr_assert_eq(json_array_size(list), 0, "told on a channel turned off");
    json_decref(list);

    put_settings(&s, second, "{\"webhooks\":true}");
    cr_assert_neq(pass_turn(&s, match, &a, &b), second);
    cr_assert_eq(pass_turn(&s, match, &a, &b), second);
    list = my_notifications(&s, second);
    cr_expect_gt(json_array_size(list), 0,
                 "the turn was not told on the channel turned on");
    json_decref(list);
    stop_server(&s);
    receiver_stop(&hook);
}

/* The reminders of the match's first turn (a later turn schedules its own). */
#define FIRST_TURN \
    " AND seq = (SELECT min(seq) FROM outbox WHERE reason LIKE 'reminder%')"

Test(settings, reminders_escalate_and_stop_once_the_player_acts, .timeout = 90)
{
    receiver hook;
    e2e_server s = {0};
    e2e_player a, b;
    char match[32];
    match_with_settings(&hook, &s, &a, &b, "{\"reminder_hours\":[24,72]}", match);
    const e2e_player *waiting = waited_for(&s, match, &a, &b);

    /* Scheduled 24 and 72 hours after the turn began. */
    PGconn *db = database();
    char *hours = scalar(db,
                         "SELECT string_agg(round(extract(epoch FROM"
                         " next_attempt_at - created_at) / 3600)::text, ','"
                         " ORDER BY next_attempt_at) FROM outbox"
                         " WHERE reason LIKE 'reminder%'");
    cr_expect_str_eq(hours, "24,72");
    free(hours);

    /* The first falls due: delivered once, as a reminder. */
    exec_ok(db, "UPDATE outbox SET next_attempt_at = now() WHERE reason LIKE"
                " 'reminder%' AND payload->>'reminder_hours' = '24'" FIRST_TURN);
    json_t *reminders = wait_deliveries(&hook, "match.reminder", 1);
    cr_assert_eq(json_array_size(reminders), 1);
    json_t *first = json_array_get(reminders, 0);
    cr_expect_eq(json_integer_value(json_object_get(first, "reminder_hours")), 24);
    cr_expect_str_eq(json_string_value(json_object_get(first, "match")), match);
    json_decref(reminders);

    /* The player acts; the second falls due and is cancelled, not sent. */
    play_first_move(&s, waiting, match);
    exec_ok(db, "UPDATE outbox SET next_attempt_at = now() WHERE reason LIKE"
                " 'reminder%' AND payload->>'reminder_hours' = '72'" FIRST_TURN);
    char *status = NULL;
    for (int i = 0; i < 100; i++) {
        free(status);
        status = scalar(db, "SELECT status || ': ' || coalesce(last_error, '')"
                            " FROM outbox WHERE reason LIKE 'reminder%'"
                            " AND payload->>'reminder_hours' = '72'" FIRST_TURN);
        if (strncmp(status, "pending", 7) != 0)
            break;
        pause_ms(100);
    }
    cr_expect_str_eq(status, "cancelled: the player has acted since", "status: %s", status);
    free(status);
    reminders = deliveries_of_type(&hook, "match.reminder");
    cr_expect_eq(json_array_size(reminders), 1, "a pointless reminder was sent");
    json_decref(reminders);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&hook);
}

Test(settings, quiet_hours_hold_email_but_not_webhooks, .timeout = 60)
{
    receiver hook, smtp;
    e2e_server s = {0};
    e2e_player a, b;
    scene(&hook, &smtp, &s, &a, &b);
    /* Quiet from an hour ago until two hours from now, in UTC. */
    time_t now = time(NULL);
    struct tm from, until;
    time_t start = now - 3600, end = now + 7200;
    gmtime_r(&start, &from);
    gmtime_r(&end, &until);
    char settings[160], until_text[8];
    snprintf(until_text, sizeof until_text, "%02d:%02d", until.tm_hour,
             until.tm_min);
    snprintf(settings, sizeof settings,
             "{\"quiet_hours\":{\"from\":\"%02d:%02d\",\"until\":\"%s\"}}",
             from.tm_hour, from.tm_min, until_text);
    put_settings(&s, &a, settings);
    put_settings(&s, &b, settings);
    char match[32];
    two_player_match(&s, &a, &b, match);

    json_t *turns = wait_deliveries(&hook, "match.your_turn", 1);
    cr_assert_eq(json_array_size(turns), 1, "the webhook waited for quiet hours");
    json_decref(turns);
    PGconn *db = database();
    char *email = scalar(db, "SELECT status || ' ' || attempts || ' ' ||"
                             " to_char(next_attempt_at AT TIME ZONE 'UTC', 'HH24:MI')"
                             " FROM outbox WHERE channel = 'email'");
    char expected[64];
    snprintf(expected, sizeof expected, "pending 0 %s", until_text);
    cr_expect_str_eq(email, expected, "the email is not held until quiet hours end");
    free(email);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&hook);
    receiver_stop(&smtp);
}

Test(settings, a_digest_lists_every_waiting_match_in_one_email, .timeout = 90)
{
    e2e_server s = {0};
    e2e_player a, b;
    receiver smtp;
    scene(NULL, &smtp, &s, &a, &b);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    int hour = (utc.tm_hour + 2) % 24;
    char settings[96];
    snprintf(settings, sizeof settings, "{\"digest\":true,\"digest_hour\":%d}",
             hour);
    put_settings(&s, &a, settings);
    put_settings(&s, &b, settings);
    /* Three matches: one of the two players waits in at least two. */
    char matches[3][32];
    for (int i = 0; i < 3; i++)
        two_player_match(&s, &a, &b, matches[i]);

    PGconn *db = database();
    char *held = scalar(db, "SELECT count(*) || ' ' || string_agg(DISTINCT"
                            " to_char(next_attempt_at AT TIME ZONE 'UTC', 'HH24:MI'), ',')"
                            " FROM outbox WHERE digest AND status = 'pending'");
    char expected[32];
    snprintf(expected, sizeof expected, "3 %02d:00", hour);
    cr_expect_str_eq(held, expected, "your-turn emails not held for the digest");
    free(held);
    char *players = scalar(db, "SELECT count(DISTINCT player_id) FROM outbox WHERE digest");
    size_t digests = (size_t)atoi(players);
    free(players);

    exec_ok(db, "UPDATE outbox SET next_attempt_at = now() WHERE digest");
    json_t *mails = receiver_wait(&smtp, digests, 20);
    cr_assert_eq(json_array_size(mails), digests, "one digest per player");
    size_t listed = 0;
    size_t i;
    json_t *m;
    json_array_foreach(mails, i, m) {
        const char *text = json_string_value(json_object_get(m, "text"));
        cr_assert_not_null(text);
        for (int k = 0; k < 3; k++)
            listed += strstr(text, matches[k]) != NULL;
        cr_expect_not_null(strstr(json_string_value(json_object_get(m, "subject")),
                                  "Your turn in"));
    }
    cr_expect_eq(listed, 3, "the digests do not list each waiting match once");
    json_decref(mails);
    char *sent = NULL;
    for (int k = 0; k < 100; k++) {
        free(sent);
        sent = scalar(db, "SELECT count(*) FILTER (WHERE status = 'sent') || '/'"
                          " || count(*) FROM outbox WHERE digest");
        if (strcmp(sent, "3/3") == 0)
            break;
        pause_ms(100);
    }
    cr_expect_str_eq(sent, "3/3", "rows covered by the digests are not sent");
    free(sent);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(settings, a_nudge_reaches_the_waited_for_player_once_per_window,
     .timeout = 60)
{
    receiver hook, smtp;
    e2e_server s = {0};
    e2e_player a, b, c;
    scene(&hook, &smtp, &s, &a, &b);
    e2e_register(&s, "Kibitzer", &c);
    char match[32], path[96];
    two_player_match(&s, &a, &b, match);
    const e2e_player *waiting = waited_for(&s, match, &a, &b);
    const e2e_player *other = waiting == &a ? &b : &a;
    snprintf(path, sizeof path, "/v1/matches/%s/nudge", match);

    e2e_response r = e2e_call(&s, "POST", path, NULL, other);
    cr_assert_eq(r.status, 202, "%s", r.body);
    cr_expect_eq(json_array_size(json_object_get(r.json, "nudged")), 1);
    e2e_response_free(&r);
    json_t *nudges = wait_deliveries(&hook, "match.nudge", 1);
    cr_assert_eq(json_array_size(nudges), 1);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(nudges, 0),
                                                       "nudged_by")),
                     other == &a ? "Robert" : "Eliza");
    json_decref(nudges);

    r = e2e_call(&s, "POST", path, NULL, other);
    cr_expect_eq(r.status, 429, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "nudged_recently");
    e2e_response_free(&r);
    r = e2e_call(&s, "POST", path, NULL, waiting);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "nobody_to_nudge");
    e2e_response_free(&r);
    r = e2e_call(&s, "POST", path, NULL, &c);
    cr_expect_eq(r.status, 403, "%s", r.body);
    e2e_response_free(&r);
    nudges = deliveries_of_type(&hook, "match.nudge");
    cr_expect_eq(json_array_size(nudges), 1, "a refused nudge was delivered");
    json_decref(nudges);
    /* By email too: "your turn", then the nudge saying who is waiting. */
    json_t *mails = receiver_wait(&smtp, 2, 20);
    cr_assert_eq(json_array_size(mails), 2);
    char subject[128];
    snprintf(subject, sizeof subject, "%s is waiting for you in %s",
             other == &a ? "Robert" : "Eliza", match);
    /* The subject is the match's thread's; the mail opens with the news. */
    const char *got = json_string_value(json_object_get(json_array_get(mails, 1), "text"));
    cr_expect_eq(strncmp(got, subject, strlen(subject)), 0, "text: %s", got);
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&hook);
    receiver_stop(&smtp);
}

Test(settings, your_turn_tells_what_changed_since_your_last_turn,
     .timeout = 60)
{
    receiver hook;
    e2e_server s = {0};
    e2e_player a, b;
    scene(&hook, NULL, &s, &a, &b);
    char match[32];
    two_player_match(&s, &a, &b, match);
    const e2e_player *first = waited_for(&s, match, &a, &b);
    /* The first player moves until the turn passes. */
    const e2e_player *now_waiting = first;
    int moves = 0;
    while (now_waiting == first && moves < 20) {
        play_first_move(&s, first, match);
        moves++;
        now_waiting = waited_for(&s, match, &a, &b);
    }
    cr_assert_neq(now_waiting, first, "the turn never passed");
    const char *mover = first == &a ? "Robert" : "Eliza";
    json_t *turns = wait_deliveries(&hook, "match.your_turn", 2);
    json_t *latest = json_array_get(turns, json_array_size(turns) - 1);
    json_t *changes = json_object_get(latest, "changes");
    cr_assert_eq(json_array_size(changes), (size_t)moves, "changes: %s",
                 json_dumps(changes, 0));
    for (size_t i = 0; i < json_array_size(changes); i++)
        cr_expect_eq(strncmp(json_string_value(json_array_get(changes, i)), mover,
                             strlen(mover)),
                     0, "change %zu: %s", i,
                     json_string_value(json_array_get(changes, i)));
    json_decref(turns);
    stop_server(&s);
    receiver_stop(&hook);
}

/* The link in the List-Unsubscribe header, as a path ("/v1/unsubscribe?…"). */
static char *unsubscribe_path(const char *raw)
{
    const char *header = strstr(raw, "\r\nList-Unsubscribe: <");
    cr_assert_not_null(header, "no List-Unsubscribe header");
    const char *path = strstr(header, "/v1/unsubscribe?");
    const char *end = path ? strchr(path, '>') : NULL;
    cr_assert(path != NULL && end != NULL, "malformed List-Unsubscribe");
    return strndup(path, (size_t)(end - path));
}

Test(settings, the_unsubscribe_link_of_a_mail_turns_email_off, .timeout = 60)
{
    e2e_server s = {0};
    e2e_player a, b;
    receiver smtp;
    scene(NULL, &smtp, &s, &a, &b);
    char match[32];
    two_player_match(&s, &a, &b, match);
    json_t *mails = receiver_wait(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1);
    const char *raw = json_string_value(json_object_get(json_array_get(mails, 0), "raw"));
    cr_assert_not_null(strstr(raw, "\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"),
                       "no one-click header");
    char *path = unsubscribe_path(raw);
    const char *text = json_string_value(json_object_get(json_array_get(mails, 0), "text"));
    /* The text's link is the same page's, out of the API's /v1/. */
    const char *page = path + strlen("/v1");
    cr_expect_not_null(strstr(text, page), "the body has no unsubscribe link");
    cr_expect_null(strstr(text, "/v1/unsubscribe"), "an API link in the body: %s", text);
    const e2e_player *recipient = strstr(path, a.id) ? &a : &b;
    const e2e_player *other = recipient == &a ? &b : &a;

    /* Fetching either link changes nothing; each offers the button,
     * which posts the one-click URL. */
    e2e_response r;
    const char *const links[] = {path, page};
    for (int k = 0; k < 2; k++) {
        r = e2e_call(&s, "GET", links[k], NULL, NULL);
        cr_assert_eq(r.status, 200, "%s: %s", links[k], r.body);
        cr_expect_not_null(strstr(r.body, "<form method=\"post\" action=\"/v1/unsubscribe?"),
                           "%s", r.body);
        cr_expect_not_null(strstr(r.body, "name=\"then\" value=\"page\""),
                           "the button does not ask for a page back: %s", r.body);
        e2e_response_free(&r);
    }
    r = e2e_call(&s, "GET", "/v1/players/me/notification-settings", NULL, recipient);
    cr_expect(json_is_true(json_object_get(r.json, "email")), "a GET unsubscribed");
    e2e_response_free(&r);

    /* A forged token, or the link aimed at another player, is refused. */
    char *forged = strdup(path);
    forged[strlen(forged) - 1] = forged[strlen(forged) - 1] == '0' ? '1' : '0';
    r = e2e_call(&s, "POST", forged, "List-Unsubscribe=One-Click", NULL);
    cr_expect_eq(r.status, 403, "%s", r.body);
    e2e_response_free(&r);
    char *aimed = strdup(path);
    memcpy(strstr(aimed, recipient->id), other->id, strlen(other->id));
    if (strlen(other->id) == strlen(recipient->id)) {
        r = e2e_call(&s, "POST", aimed, "List-Unsubscribe=One-Click", NULL);
        cr_expect_eq(r.status, 403, "%s", r.body);
        e2e_response_free(&r);
    }

    /* The one-click POST turns email off, for the recipient only. */
    r = e2e_call(&s, "POST", path, "List-Unsubscribe=One-Click", NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(json_is_false(json_object_get(r.json, "email")), "%s", r.body);
    e2e_response_free(&r);
    /* The page's button posts the same form: a person reads a page back,
     * with the way to turn email on again; no JSON. */
    r = e2e_call(&s, "POST", path, "List-Unsubscribe=One-Click&then=page",
                 NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_null(r.json, "the button answered JSON: %s", r.body);
    cr_expect_not_null(strstr(r.body, "no more turn notification emails"),
                       "%s", r.body);
    cr_expect_not_null(strstr(r.body, "/settings\">notification settings"),
                       "%s", r.body);
    e2e_response_free(&r);
    r = e2e_call(&s, "GET", "/v1/players/me/notification-settings", NULL, recipient);
    cr_expect(json_is_false(json_object_get(r.json, "email")), "%s", r.body);
    e2e_response_free(&r);
    r = e2e_call(&s, "GET", "/v1/players/me/notification-settings", NULL, other);
    cr_expect(json_is_true(json_object_get(r.json, "email")), "%s", r.body);
    e2e_response_free(&r);
    free(aimed);
    free(forged);
    free(path);
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&smtp);
}

/* The "your turn" email rows of player p in match that are in status, as
 * "n" (their count), and of those, the ones whose last_error starts with
 * why (NULL: any). */
static int turn_mails(PGconn *db, const char *match, const e2e_player *p,
                      const char *status, const char *why)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM outbox WHERE match_id = %s"
             " AND player_id = %s AND channel = 'email'"
             " AND reason = 'your_turn' AND status = '%s'"
             " AND ('%s' = '' OR last_error LIKE '%s%%')",
             match + 2, p->id + 2, status, why ? why : "", why ? why : "");
    char *n = scalar(db, sql);
    int count = atoi(n);
    free(n);
    return count;
}

/* Robert plays on the web page (his requests are signed by his own key);
 * Eliza left it an hour ago. Robert's turns reach the page and no mail;
 * Eliza's come by mail. With his setting off, Robert is mailed too. */
Test(settings, a_player_on_the_page_gets_no_turn_mail_the_other_does,
     .timeout = 90)
{
    setenv("PBEM_MAIL_SEEN_MINUTES", "10", 1);
    receiver smtp;
    e2e_server s = {0};
    e2e_player a, b;
    scene(NULL, &smtp, &s, &a, &b);
    char match[32];
    two_player_match(&s, &a, &b, match);
    PGconn *db = database();
    char sql[512];
    snprintf(sql, sizeof sql,
             "UPDATE players_seen SET seen_at = now() - interval '1 hour'"
             " WHERE player_id = %s",
             b.id + 2);
    /* Both were on the page when the match began. */
    int spared_before = turn_mails(db, match, &b, "cancelled",
                                   "the player was on the web page");
    for (int turns = 0; turns < 2; turns++) {
        exec_ok(db, sql);
        pass_turn(&s, match, &a, &b);
    }
    /* The turn reached the page: the match waits for one of them, and
     * Robert's turns were told there only. */
    cr_expect_gt(turn_mails(db, match, &a, "cancelled",
                            "the player was on the web page"),
                 0, "Robert was mailed his turn while on the page");
    cr_expect_eq(turn_mails(db, match, &a, "sent", NULL) +
                     turn_mails(db, match, &a, "pending", NULL),
                 0, "a turn mail went to Robert, on the page");
    cr_expect_eq(turn_mails(db, match, &b, "cancelled",
                            "the player was on the web page"),
                 spared_before, "Eliza, away, was spared a turn mail");
    json_t *sent = wait_notification(&s, &b, "email", "sent", 20);
    cr_expect_not_null(sent, "Eliza's turn never came by mail");
    json_decref(sent);
    /* Robert asks for every turn by mail, page or not. */
    put_settings(&s, &a, "{\"skip_when_seen\":false}");
    e2e_response r =
        e2e_call(&s, "GET", "/v1/players/me/notification-settings", NULL, &a);
    cr_expect(json_is_false(json_object_get(r.json, "skip_when_seen")), "%s",
              r.body);
    e2e_response_free(&r);
    do
        pass_turn(&s, match, &a, &b);
    while (waited_for(&s, match, &a, &b) != &a);
    sent = wait_notification(&s, &a, "email", "sent", 20);
    cr_expect_not_null(sent, "Robert's setting off did not bring his turn "
                             "by mail");
    json_decref(sent);
    PQfinish(db);
    stop_server(&s);
    receiver_stop(&smtp);
    unsetenv("PBEM_MAIL_SEEN_MINUTES");
}
