/* mail_limits.h: a cheap look at a received mail's raw bytes before GMime
 * builds its tree. GMime makes an object, a header list and a stream for
 * every part it finds, so a 488 KiB mail of 50,000 empty parts costs tens
 * of MiB before mail_body.h could count them. This walks the bytes once,
 * keeping nothing but a stack of open multipart boundaries, and counts
 * what GMime would build: parts, nesting (mail_body.h's bounds) and header
 * fields. It errs towards counting more than GMime would, never fewer: a
 * line that begins with a boundary but is not exactly one counts as a
 * part and changes nothing else, and a multipart whose boundary is written
 * otherwise than as one plain boundary= parameter (RFC 2231 pieces, an
 * encoded word, several), which GMime's parameter parser reads in ways
 * this walk does not follow, is not walked: each line in it beginning
 * with "--" counts as two parts, each Content-Type field as one more. Two
 * counts that need no MIME at all back it up: header lines, and lines
 * beginning with "--", the only way a multipart gains a part. */
#ifndef SERVICE_MAILIN_MAIL_LIMITS_H
#define SERVICE_MAILIN_MAIL_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

/* Header fields in the whole mail, its parts' and attached messages'
 * included. A long relay chain is some 50, a 100-part mail some 500;
 * 256 KiB of fields (mail_message.h's bound) of 80 bytes each is 3,300.
 * GMime keeps some 300 bytes a field: 5,000 is 1.5 MiB, where 256 KiB of
 * "a:b" lines would be 65,000 fields. */
#define MAIL_LIMITS_MAX_HEADERS 5000
/* Lines beginning with "--" anywhere. Each part of a multipart needs
 * one, whatever its boundary parameter says or how it is encoded; a
 * person's reply has a few (a signature, Outlook's "-----Original
 * Message-----" per quoted mail). */
#define MAIL_LIMITS_MAX_DASH_LINES 1000

/* Whether the length bytes at raw (from the first header line, after any
 * mbox "From " line) stay within MAIL_BODY_MAX_PARTS parts,
 * MAIL_BODY_MAX_DEPTH levels, MAIL_LIMITS_MAX_HEADERS header fields and
 * MAIL_LIMITS_MAX_DASH_LINES dash lines. false with a sentence in why (if
 * not NULL): "the message has too many parts" (also when nested too deeply, as
 * mail_body.h says it) or "the message has too many header fields". Reads the
 * bytes once; allocates a few KiB. Out of memory aborts. */
bool mail_limits_check(const char *raw, size_t length, char *why,
                       size_t why_size);

#endif
