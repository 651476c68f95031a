/* mail_vars.h: the {{names}} a notification mail's templates see
 * (templates/<reason>.txt and .html, templates.h), worked out from the
 * outbox row's payload: whose turn it is, the moves, forms and changes as
 * lines, a reminder's or a nudge's headline and opening, a digest's list
 * of matches, a deadline's times, the result as sentences (result_text.h)
 * and the links, each a page of the web client a person reads, never the
 * API: the match (and "Play", the same seat page,
 * <PBEM_PUBLIC_URL>/matches/<match>), its replay (…/replay), the games'
 * rules (/games), the settings and the unsubscribe page (/unsubscribe,
 * whose button turns the mail off; the List-Unsubscribe header keeps the
 * API's one-click URL, for mail programs). Links start with
 * PBEM_PUBLIC_URL (core/config.h). */
#ifndef SERVICE_NOTIFY_MAIL_VARS_H
#define SERVICE_NOTIFY_MAIL_VARS_H

#include <jansson.h>
#include <stdbool.h>

#include "notify/templates.h"

#define MAIL_VARS_MAX 29

typedef struct mail_vars {
    templates_var list[MAIL_VARS_MAX]; /* what templates_render_* take */
    int count;
    char unsubscribe[640];      /* the List-Unsubscribe header's (RFC 8058) */
    char unsubscribe_page[640]; /* the text's: a page with one button */
    /* The text list points into: */
    char link[512], play[512], replay[512], rules[512], settings[512];
    char seq[32], waiting[32];
    char headline[160], opening[400], answer_hint[512];
    char *whose, *moves, *changes, *digest, *forms, *view, *result;
} mail_vars;

/* Fills vars for the mail notification_id about payload (a digest's:
 * {"matches": [row payloads]}) to player_name; player_id signs the
 * unsubscribe link; reason ("your_turn", "reminder_24h", "nudge_7", …)
 * picks the headline; answerable (the mail has a Reply-To) adds the line
 * that says how to answer it ({{answer_hint}}, else empty). What the seat
 * sees and may do is the payload's text (seat_text.h: "text",
 * "moves_text"), or for rows queued without it, its JSON. The strings and
 * payload are borrowed and must outlive vars; vars points into itself, so
 * it is filled where it stays and released with mail_vars_free. */
void mail_vars_fill(mail_vars *vars, const char *notification_id,
                    const char *reason, long long player_id,
                    const char *player_name, const json_t *payload,
                    bool answerable);

/* The one-click unsubscribe URL of player_id (RFC 8058; seal.h's token)
 * into out: what every mail to a player carries. */
void mail_vars_unsubscribe_link(long long player_id, char *out, size_t size);

/* Frees what mail_vars_fill allocated (not vars itself). */
void mail_vars_free(mail_vars *vars);

#endif
