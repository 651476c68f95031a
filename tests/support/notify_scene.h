/* notify_scene.h: what the notification tests and the deadline tests
 * set up around a real pbemd to see notifications arrive: its environment
 * (loopback webhooks, fast retries), two players in a match, webhooks
 * registered, a Standard Webhooks receiver (receiver.h), and bounded waits
 * on a player's list of notifications. */
#ifndef TESTS_SUPPORT_NOTIFY_SCENE_H
#define TESTS_SUPPORT_NOTIFY_SCENE_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "e2e.h"
#include "receiver.h"

/* A pbemd for notification tests: a private database, loopback webhooks
 * allowed unless told otherwise, fast retries. */
void notify_server_env(void);

/* Registers a webhook at url for the player (match NULL) or the match;
 * returns the secret (static buffer overwritten per call). */
const char *register_webhook(const e2e_server *s, const e2e_player *p,
                             const char *match, const char *url);

/* "webhook:<id>", the channel of the last webhook registered. */
extern char last_webhook_channel[64];

/* The caller's notifications (GET /v1/players/me/notifications). */
json_t *my_notifications(const e2e_server *s, const e2e_player *p);

/* Waits up to seconds until a notification of p's list is in status;
 * returns it (new reference) or NULL. channel_prefix filters ("webhook:"). */
json_t *wait_notification(const e2e_server *s, const e2e_player *p,
                          const char *channel_prefix, const char *status,
                          int seconds);

/* wait_notification for whichever of a match's two players has it (who
 * is told first depends on who moves first): each is asked every round,
 * so neither's wait is paid in full when the other has it. *whose (may be
 * NULL) is 0 when it is a's, 1 when b's. */
json_t *wait_notification_of_either(const e2e_server *s, const e2e_player *a,
                                    const e2e_player *b,
                                    const char *channel_prefix,
                                    const char *status, int seconds,
                                    int *whose);

/* Creates a 2-seat match between a and b (a creates, b joins). */
void two_player_match(const e2e_server *s, const e2e_player *a,
                      const e2e_player *b, char match[32]);

/* SIGTERM; pbemd must exit 0 by itself (graceful stop of the HTTP server
 * and the outbox worker), leak-free under LeakSanitizer. */
void stop_server(e2e_server *s);

/* The usual scene of these tests: the notify environment, a webhook
 * receiver started with args, a server, and two registered players. */
void notify_scene(receiver *hook, const char *const *args, e2e_server *s,
                  e2e_player *a, e2e_player *b);

#endif
