/* players.h: the players of the crash and failover suites. Each is a thread
 * with its own two players and its own antiquity_quest matches, playing random
 * legal moves through whatever happens to pbemd and PostgreSQL, the way a
 * careful client does: a request without an answer (the connection cut, a 5xx)
 * is sent again unchanged, same nonce and all, so a move applied before its
 * answer was lost is answered from the stored first answer and never
 * applied twice (docs/api.md, "Retries"). Every move answered 200 is
 * recorded with its nonce, to be looked for in the match's log at the
 * end. */
#ifndef TESTS_SUPPORT_PLAYERS_H
#define TESTS_SUPPORT_PLAYERS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "client.h"

/* What the players and the one who crashes things share. */
typedef struct board {
    const char *base_url;
    const char *ca_file; /* the CAs to trust over https; NULL: the system's */
    pthread_mutex_t lock;
    pthread_cond_t moved; /* signalled on every acknowledged move */
    long acknowledged;    /* under lock */
    atomic_bool stop;     /* finish the move in hand, then stop */
    /* Odd while PostgreSQL is down or not yet serving again: a 500 is
     * allowed only to a request that overlapped such a time. */
    atomic_long outage;
} board;

/* A move answered 200: its nonce, the head it was played on, and the
 * head (seq and hash) the answer reported. */
typedef struct acknowledged_move {
    int match; /* index into the player's matches */
    char nonce[33];
    long long played_on;
    long long answered_seq;
    char answered_hash[72];
    long long resent_at; /* wall-clock µs of the sending that was
                            answered, when it was not the first; else 0 */
} acknowledged_move;

typedef struct player {
    int index;
    board *board;
    client_key keys[2];
    pthread_t thread;
    char (*matches)[32];
    int match_count;
    acknowledged_move *moves;
    long move_count;
    long resent;                 /* requests sent again for want of an answer */
    long acknowledged_on_resend; /* moves whose first sending went
                                    unanswered (cut, 5xx) */
    long server_errors_outage;   /* 500 answers overlapping an outage */
    long server_errors_up;       /* 500 answers while everything was up */
    long long last_sent_us;      /* wall-clock µs of the latest sending */
    FILE *deaf;                  /* a stream that refuses writes */
    bool lose_next_answer;       /* for the next move's first sending */
    long answers_lost;           /* moves whose answer it threw away */
    char failure[512];           /* the first thing that went wrong, or "" */
} player;

/* Registers the player's two keys (the service must be up). */
void player_register(player *p, board *b, int index);

/* Starts and joins the player's thread. */
void player_start(player *p);
void player_join(player *p);

/* Moves acknowledged so far (read by the thread's owner between joins, or
 * under the board's lock). */
long player_acknowledged(player *p);

/* What the logs say of the player's acknowledged moves. */
typedef struct audit {
    long lost;           /* acknowledged, not in the log */
    long duplicated;     /* a nonce's move in the log more than once */
    long misplaced;      /* in the log, not where its answer said (the
                            move's seq, or the head's seq and hash) */
    long unacknowledged; /* in the log, never acknowledged */
    long replayed;       /* applied by a sending whose answer was lost,
                            acknowledged by a later one (the stored
                            answer): the case the nonce exists for */
    long bad_chains;     /* matches whose verify is not ok */
    long events;         /* events read */
} audit;

/* Reads every match's log and verify through c; adds to a. Failure text
 * into p->failure when a read itself fails. */
void player_audit(player *p, client *c, audit *a);

void player_free(player *p);

#endif
