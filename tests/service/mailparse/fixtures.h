/* fixtures.h: the mails of fixtures/, as each mail program writes them,
 * read from the repository root (where make test runs the suites). */
#ifndef TESTS_SERVICE_MAILPARSE_FIXTURES_H
#define TESTS_SERVICE_MAILPARSE_FIXTURES_H

#include <stddef.h>

#include "mailin/mail_message.h"

#define FIXTURES_DIR "tests/service/mailparse/fixtures/"

/* The bytes of fixtures/<name> (malloc'd, NUL-terminated past length);
 * fails the test when it cannot be read. */
char *fixture_bytes(const char *name, size_t *length);

/* fixtures/<name> parsed; fails the test with the reason when refused. */
mail_message *fixture_message(const char *name);

/* Whether address is among message's recipients. */
int fixture_has_recipient(const mail_message *message, const char *address);

#endif
