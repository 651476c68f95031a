/* bytea.h: bytea columns and parameters as libpq's text format carries
 * them, "\x" then two lower-case hex digits a byte (PostgreSQL's default
 * bytea_output). Statements here are sent and read as text, so every
 * hash, key, commitment and sealed secret crosses this way. */
#ifndef SERVICE_STORE_BYTEA_H
#define SERVICE_STORE_BYTEA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The characters bytea text of len bytes takes, with its NUL. */
#define BYTEA_TEXT_SIZE(len) (2 * (len) + 3)

/* Writes len bytes as bytea text into out, which must hold
 * BYTEA_TEXT_SIZE(len) characters. */
void bytea_write(const uint8_t *bytes, size_t len, char *out);

/* Reads bytea text into out, which holds capacity bytes; *len is how many
 * it read. False when text is not bytea text or holds more than capacity
 * bytes. */
bool bytea_read(const char *text, uint8_t *out, size_t capacity, size_t *len);

/* Reads bytea text that must hold exactly len bytes into out; false when
 * it is not bytea text or holds another number of bytes. */
bool bytea_read_exact(const char *text, uint8_t *out, size_t len);

/* Reads bytea text of any length into a new buffer (malloc'd, the
 * caller's to free; never NULL for an empty value) and sets *len; NULL
 * when text is not bytea text. */
uint8_t *bytea_read_copy(const char *text, size_t *len);

#endif
