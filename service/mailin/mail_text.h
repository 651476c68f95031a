/* mail_text.h: the part of a mail's text that its sender wrote, without
 * what mail programs add around it: the quoted original, the line
 * introducing it, the signature. Pure string work, UTF-8 in and out; the
 * MIME decoding happens before (mail_body.h). */
#ifndef SERVICE_MAILIN_MAIL_TEXT_H
#define SERVICE_MAILIN_MAIL_TEXT_H

/* The lines the person wrote in a reply, whether they wrote above the
 * quoted original (Gmail, Outlook, Apple Mail) or below and between its
 * lines (mutt). Dropped:
 * - quoted lines, whose first non-blank character is '>';
 * - the attribution: a line ending in ':' that names a writer ("wrote",
 *   "schreef", "schrieb", "a écrit", "escribió"…: "On <date>, <name>
 *   wrote:", "pbem <pbem@…> wrote:", "Op <date> schreef <name>:"), also
 *   split over two lines as Gmail wraps it, and any line ending in ':'
 *   right before a quoted line (mutt's "* name <address> [date]:"); with
 *   the quote below it, whether marked by '>' or indented by tabs or
 *   spaces (s-nail), up to the next line that is neither;
 * - from a line containing "Original Message" or "Forwarded message"
 *   between dashes, or a "From: ..." line followed by Sent:, Date:, To:,
 *   Cc: or Subject: lines (Outlook's header block, also in Dutch, German,
 *   French and Spanish: Van/Verzonden, Von/Gesendet, De/Envoyé,
 *   De/Enviado…), to the end, with the line of underscores Outlook puts
 *   above that block;
 * - from the signature separator "-- " (or "--") to the end, and from a
 *   phone's "Sent from my ..." or "Get Outlook for ..." line;
 * - everything after a line that is "end" (any case, spaces around); the
 *   line itself is kept, trimmed, as the last line: it is a move in some
 *   games (mail_commands.h reads it).
 * CRLF and lone CR become LF, U+00A0 becomes a space, U+FEFF and U+200B
 * are dropped, each line loses its trailing spaces and tabs, and leading
 * and trailing blank lines go. Returns a malloc'd string, "" when nothing
 * is left; out of memory aborts. */
char *mail_text_written_part(const char *text);

#endif
