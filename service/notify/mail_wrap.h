/* mail_wrap.h: a mail's text kept within 72 columns, as mail programs
 * show it without breaking lines of their own (RFC 3676 asks at most 78;
 * 72 leaves room for a quote mark or two). A longer line of prose is
 * broken at its spaces, never between a counting word and its number
 * ("event 6", "seat 2", "round 3"); the continuation lines of a "- "
 * item are indented by two. Left as they are: indented lines (a list's:
 * the moves a person copies whole, a view's rows), lines with a link (a
 * URL cannot be broken), quoted lines ("> "), and single words longer
 * than the width. Columns are counted in characters, not bytes. */
#ifndef SERVICE_NOTIFY_MAIL_WRAP_H
#define SERVICE_NOTIFY_MAIL_WRAP_H

#define MAIL_WRAP_COLUMNS 72

/* text wrapped (malloc'd; text itself when nothing needed it is still
 * copied). */
char *mail_wrap(const char *text);

/* The same for a list of sentences (what happened since a turn, a
 * result's points): its indented lines are broken too, their
 * continuation lines indented two more. Not for moves. */
char *mail_wrap_list(const char *text);

#endif
