/* The answers queue against the real PostgreSQL: an answer the worker is
 * sending (claimed: its lease pushed its time ahead, its attempts still
 * 0) is no longer held, so nothing written later joins it, where it would
 * be marked sent unread. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../support/pgtest.h"
#include "store/mail_answers.h"
#include "store_support.h"

#define ALICE "alice@example.org"
#define LEASE_SECONDS 120

/* The answers to ALICE, oldest first, as "body|due in the coming hour
 * (t/f)" lines. malloc'd. */
static char *answers(PGconn *conn)
{
    PGresult *r = PQexec(
        conn, "SELECT string_agg(body || '|' || (next_attempt_at > now()"
              " + interval '50 minutes')::text, E'\\n' ORDER BY answer_id)"
              " FROM mail_answers WHERE to_address = '" ALICE "'");
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    char *text = strdup(PQgetvalue(r, 0, 0));
    PQclear(r);
    return text;
}

/* What the answers worker does first: claims the rows due. */
static int claim(PGconn *conn)
{
    apierr err;
    PGresult *r = store_mail_answers_claim(conn, LEASE_SECONDS, 10, &err);
    cr_assert_not_null(r, "%s", err.message);
    int n = PQntuples(r);
    PQclear(r);
    return n;
}

static void hold(PGconn *conn, const char *body)
{
    apierr err;
    cr_assert(store_mail_answers_hold(conn, ALICE, "Re: your move", body, NULL,
                                      NULL, NULL, (long long)time(NULL) + 3600,
                                      &err),
              "%s", err.message);
}

static int held(PGconn *conn)
{
    apierr err;
    long long due;
    int n = store_mail_answers_held(conn, ALICE, &due, &err);
    cr_assert_geq(n, 0, "%s", err.message);
    return n;
}

/* Alice, past her hourly answers, writes while the answer saying so is
 * being sent: the answer to her new mail is held on its own. */
Test(store_mail_answers, an_answer_being_sent_takes_no_later_answer_in)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    apierr err;
    cr_assert(store_mail_answers_insert(conn, ALICE, "Re: your move",
                                        "you are writing fast", NULL, NULL,
                                        NULL, "answer", &err),
              "%s", err.message);
    cr_assert_eq(claim(conn), 1);
    cr_expect_eq(held(conn), 0, "the answer being sent counts as held");
    hold(conn, "your second move");
    char *got = answers(conn);
    cr_expect_str_eq(got, "you are writing fast|false\nyour second move|true",
                     "the second answer joined the one being sent");
    free(got);
    PQfinish(conn);
}

/* A held answer gathers what comes while it waits; once due and taken
 * by the worker, the next mail's answer waits in a new one. */
Test(store_mail_answers, a_held_answer_gathers_until_it_is_being_sent)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    hold(conn, "move one");
    cr_expect_eq(held(conn), 1);
    hold(conn, "move two");
    char *got = answers(conn);
    cr_expect_str_eq(got, "move one\n\nmove two|true");
    free(got);
    pgtest_exec(conn, "UPDATE mail_answers SET next_attempt_at = now()"
                      " - interval '1 second'");
    cr_assert_eq(claim(conn), 1);
    cr_expect_eq(held(conn), 0, "the held answer being sent counts as held");
    hold(conn, "move three");
    got = answers(conn);
    cr_expect_str_eq(got, "move one\n\nmove two|false\nmove three|true",
                     "move three joined the answer being sent");
    free(got);
    PQfinish(conn);
}

/* An answer held for a match's next mail that fell due and is being sent
 * alone is not taken into that mail as well (it would go twice). */
Test(store_mail_answers, a_match_held_answer_being_sent_is_not_taken_again)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    apierr err;
    cr_assert(store_mail_answers_hold_for_match(conn, ALICE, "Re: your move",
                                                "moved", NULL, NULL, NULL, 7, 0,
                                                &err),
              "%s", err.message);
    pgtest_exec(conn, "UPDATE mail_answers SET next_attempt_at = now()"
                      " - interval '1 second'");
    cr_assert_eq(claim(conn), 1);
    PGresult *r =
        store_mail_answers_take_held(conn, 7, ALICE, LEASE_SECONDS, &err);
    cr_assert_not_null(r, "%s", err.message);
    cr_expect_eq(PQntuples(r), 0,
                 "the answer being sent was taken into the turn mail too");
    PQclear(r);
    PQfinish(conn);
}
