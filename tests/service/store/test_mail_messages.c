/* The mail door's per-sender counts against the real PostgreSQL. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../support/pgtest.h"
#include "store/mail_messages.h"
#include "store_support.h"

/* seq_scan and idx_scan of mail_messages, as the statistics have them. */
static void scans(PGconn *conn, long long *seq, long long *idx)
{
    /* This backend's counts reach the statistics when it is next idle. */
    pgtest_exec(conn, "SELECT pg_stat_force_next_flush()");
    PGresult *r = PQexec(conn, "SELECT seq_scan, coalesce(idx_scan, 0)"
                               " FROM pg_stat_user_tables"
                               " WHERE relid = 'mail_messages'::regclass");
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    *seq = atoll(PQgetvalue(r, 0, 0));
    *idx = atoll(PQgetvalue(r, 0, 1));
    PQclear(r);
}

/* mail_messages keeps a row per message handled, for good, and every mail
 * that comes in asks how many its sender sent this hour: that count must
 * find the sender's rows through an index, not read every message the
 * service ever had (which it did, the index being on sender as written
 * while the count compares it case aside). */
Test(store_mail_messages, a_senders_hourly_count_reads_an_index_not_the_table)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    pgtest_exec(conn,
                "INSERT INTO mail_messages (message_key, sha256, sender, via,"
                " outcome, received_at)"
                " SELECT 'id:' || g, decode(repeat('00', 32), 'hex'),"
                " 'player' || (g % 100) || '@example.org', 'http', 'answered',"
                " now() - make_interval(secs => g)"
                " FROM generate_series(1, 20000) g");
    pgtest_exec(conn, "ANALYZE mail_messages");
    long long seq_before, idx_before;
    scans(conn, &seq_before, &idx_before);
    apierr err;
    for (int i = 0; i < 5; i++)
        cr_assert_eq(store_mail_messages_answered_last_hour(
                         conn, "Player7@Example.org", &err),
                     36, "%s", err.message);
    long long seq_after, idx_after;
    scans(conn, &seq_after, &idx_after);
    cr_expect_eq(seq_after, seq_before,
                 "five counts read the whole table %lld times",
                 seq_after - seq_before);
    cr_expect_geq(idx_after - idx_before, 5, "the counts used no index");
    PQfinish(conn);
}
