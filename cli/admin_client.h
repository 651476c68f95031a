/* admin_client.h: what the admin subcommands of pbem share: the admin's
 * key from a file, the whole of a file, and one signed request to the
 * service whose answer goes to standard output. */
#ifndef CLI_ADMIN_CLIENT_H
#define CLI_ADMIN_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "client.h"

/* The whole file, NUL-terminated, its length in *len; NULL after a
 * message on stderr. The caller frees. */
char *admin_client_slurp(const char *file, size_t *len);

/* The admin key from file (the Ed25519 seed in base64), keyid "admin";
 * false after a message on stderr. */
bool admin_client_key(const char *file, client_key *key);

/* Sends method path (with query) and body (may be NULL) to url (NULL:
 * http://127.0.0.1:8080) signed with key. A 2xx answer is printed to
 * stdout (with stream, as it arrives: an export of any size) and 0
 * returned; anything else is described on stderr and 1 returned. */
int admin_client_call(const char *url, const char *method, const char *path,
                      const char *body, const client_key *key, bool stream);

/* Appends text to a query string buffer (size bytes) percent-encoded;
 * false when it does not fit. */
bool admin_client_escape(char *out, size_t size, const char *text);

#endif
