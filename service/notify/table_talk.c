/* table_talk.c: see table_talk.h. */
#include "notify/table_talk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/match_messages.h"
#include "store/matches.h"

/* The seat player_id holds in match, or -1. */
static int seat_of(const store_match *match, long long player_id)
{
    for (int s = 0; s < match->seat_count; s++)
        if (match->seat_player[s] == player_id)
            return s;
    return -1;
}

/* Writes text indented under its writer: continuation lines line up. */
static void write_text(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        fputc(*p, out);
        if (*p == '\n')
            fputs("      ", out);
    }
    fputc('\n', out);
}

char *table_talk_unmailed(PGconn *conn, long long match_id, long long player_id,
                          long long *through, apierr *err)
{
    *through = 0;
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return NULL;
    int seat = seat_of(&match, player_id);
    char *lines = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&lines, &size);
    if (out == NULL)
        abort();
    PGresult *r = seat < 0
                      ? NULL
                      : store_messages_unmailed(conn, match_id, seat, player_id,
                                                TABLE_TALK_MAIL_MAX, err);
    bool failed = seat >= 0 && r == NULL;
    int n = r != NULL ? PQntuples(r) : 0;
    if (n > 0)
        fputs("Messages at the table since your last mail:\n", out);
    for (int i = 0; i < n; i++) {
        int from = atoi(PQgetvalue(r, i, STORE_MESSAGE_FROM_SEAT));
        bool private = !PQgetisnull(r, i, STORE_MESSAGE_TO_SEAT);
        fprintf(out, "  %s%s: ",
                from >= 0 && from < match.seat_count ? match.seat_name[from]
                                                     : "?",
                private ? ", to you alone" : "");
        write_text(out, PQgetvalue(r, i, STORE_MESSAGE_TEXT));
        *through = atoll(PQgetvalue(r, i, STORE_MESSAGE_ID));
    }
    if (n > 0)
        fputc('\n', out);
    PQclear(r);
    fclose(out);
    store_match_free(&match);
    if (failed) {
        free(lines);
        return NULL;
    }
    return lines;
}

bool table_talk_mailed(PGconn *conn, long long match_id, long long player_id,
                       long long through, apierr *err)
{
    if (through <= 0)
        return true;
    return store_messages_mailed(conn, match_id, player_id, through, err);
}
