/* notify_seen.h: whether a player is on the web page right now, so that a
 * "your turn" email to them can be spared (the turn reaches the page).
 * A player is seen when a request signed by one of their own keys comes
 * in: the page's, the command line's, their event stream opening; not a
 * bot's key acting for them under a delegation, and not mail. The outbox
 * (notify_outbox.h) spares the email of a player seen within
 * PBEM_MAIL_SEEN_MINUTES whose setting skip_when_seen is on (the
 * default); their reminders stay. 0 minutes: nobody is marked, every turn
 * is mailed. */
#ifndef SERVICE_NOTIFY_NOTIFY_SEEN_H
#define SERVICE_NOTIFY_NOTIFY_SEEN_H

/* player_id was seen now. Written to the database at most about once a
 * minute per player and process, on the caller's thread's connection; a
 * failure is logged, never the request's. */
void notify_seen_mark(long long player_id);

#endif
