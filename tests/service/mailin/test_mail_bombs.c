/* Part bombs at the mail door (#37.7): a mail of 50,000 empty parts is
 * 488 KiB on the wire and cost pbemd 58 MB while GMime built its tree,
 * memory it did not give back. Now its parts are counted from the bytes
 * (mailin/mail_limits.h) and it is refused before any tree exists: 100 of
 * them, handed in the way a mail server does (pbem mail-in), leave pbemd's
 * RSS within a stated bound, and a move mailed right after is played. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/wire.h"
#include "mail_people.h"

#define BOMBS 100
#define BOMB_PARTS 50000

/* The bound on RSS growth over the 100 bombs, and why. Nothing of a
 * refused mail is kept: what may grow is the allocator's. Each bomb is
 * one 488 KiB request body, read into one buffer (the mail route's limit
 * is 1 MiB) and freed when refused; jemalloc keeps freed pages of each of
 * libmicrohttpd's threads for some seconds before it returns them, so a
 * few such buffers may still be counted. 8 MiB is eight 1 MiB bodies'
 * worth; kept, the bombs would be 48 MiB, and one bomb's GMime tree cost
 * 58 MB in the issue. Measured: +5.2 MiB (31.6 to 36.9 MiB). With the
 * walker switched off each bomb took some 2.5 s of GMime on this busy
 * machine, and the test ran out of time after 87 of them. */
#define RSS_MARGIN_KIB (8 * 1024)

/* A 488 KiB mail of BOMB_PARTS empty parts from a stranger. */
static char *bomb(int n)
{
    size_t size = 1024 + (size_t)BOMB_PARTS * 10;
    char *raw = malloc(size);
    cr_assert_not_null(raw);
    size_t at = (size_t)snprintf(raw, size,
                                 "From: mallory@example.net\r\n"
                                 "To: pbem@example.org\r\n"
                                 "Subject: bomb %d\r\n"
                                 "Message-ID: <bomb-%d@example.net>\r\n"
                                 "MIME-Version: 1.0\r\n"
                                 "Content-Type: multipart/mixed; "
                                 "boundary=\"xxxxxx\"\r\n\r\n",
                                 n, n);
    for (int i = 0; i < BOMB_PARTS; i++) {
        memcpy(raw + at, "--xxxxxx\n\n", 10);
        at += 10;
    }
    raw[at] = '\0';
    return raw;
}

static int acting_seat(mail_table *t)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t->match);
    e2e_response r = e2e_call(&t->scene->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *seats =
        json_object_get(json_object_get(r.json, "pending"), "seats");
    int seat = json_array_size(seats) == 1
                   ? (int)json_integer_value(json_array_get(seats, 0))
                   : -1;
    e2e_response_free(&r);
    return seat;
}

Test(mail_bombs, a_hundred_part_bombs_cost_no_memory_and_a_move_follows,
     .timeout = 240)
{
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    char *raw = bomb(0);
    cr_assert_gt(strlen(raw), 480 * 1024, "the issue's 488 KiB");

    /* Warm up: the route's threads and buffers are set up by the first
     * ones, not counted as growth. */
    for (int i = 0; i < 5; i++)
        cr_assert_eq(mail_hand_in(&scene, raw), 65,
                     "pbem mail-in says EX_DATAERR: the server bounces it");
    long before = wire_rss_kib(scene.server.pid);
    for (int i = 1; i <= BOMBS; i++) {
        free(raw);
        raw = bomb(i);
        cr_assert_eq(mail_hand_in(&scene, raw), 65, "bomb %d was taken", i);
    }
    free(raw);
    long after = wire_rss_kib(scene.server.pid);
    fprintf(stderr, "mail_bombs: RSS %ld KiB before %d bombs, %ld after\n",
            before, BOMBS, after);
    cr_expect_leq(after - before, RSS_MARGIN_KIB,
                  "RSS grew %ld KiB over %d bombs (bound %d KiB)",
                  after - before, BOMBS, RSS_MARGIN_KIB);

    /* An ordinary mail right after: the move is played. */
    int seat = acting_seat(&t);
    cr_assert_geq(seat, 0, "the match waits for one seat");
    mail_table_wait(&t, seat);
    json_t *moves = mail_offered_moves(t.people[seat].latest);
    cr_assert_gt(json_array_size(moves), 0, "%s",
                 mail_text(t.people[seat].latest));
    const char *move = json_string_value(json_array_get(moves, 0));
    json_t *answer = mail_table_answer(&t, seat, move);
    cr_expect(strstr(mail_text(answer), " (event ") != NULL,
              "the move after the bombs was not played:\n%s",
              mail_text(answer));
    cr_expect(strstr(mail_text(answer), "Refused:") == NULL, "%s",
              mail_text(answer));
    json_decref(answer);
    json_decref(moves);

    /* Refused quietly: an answer would have been queued before the move's
     * (mail-in returns once pbemd is done), and none went to the sender. */
    size_t from = 0;
    json_t *to_sender = mail_next_to(&scene, "mallory@example.net", &from, 0);
    cr_expect_null(to_sender, "a bomb was answered: %s", mail_text(to_sender));
    json_decref(to_sender);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
