/* mail_parts.c: fuzzes the mail door's part walker (mailin/mail_limits.h),
 * which counts a mail's parts, nesting and header fields from its bytes
 * before GMime builds the tree, and checks it against GMime: a mail the
 * walker lets through must never turn out, once GMime has built it, to
 * have more parts or levels than mail_body.h allows. The walker may count
 * more than GMime, never fewer; otherwise a part bomb shaped that way
 * would cost the memory the walker is there to save.
 *
 * Input: a mail, any bytes. */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "mailin/mail_limits.h"
#include "mailin/mail_message.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *raw = (const char *)data;
    char why[200] = "";
    bool within = mail_limits_check(raw, size, why, sizeof why);
    if (!within && why[0] == '\0')
        abort(); /* a refusal must say why */
    mail_message *message = mail_message_parse(raw, size, why, sizeof why);
    if (within && message == NULL &&
        strcmp(why, "the message has too many parts") == 0) {
        fprintf(stderr, "the walker let through what GMime found too big\n");
        abort();
    }
    mail_message_free(message);
    return 0;
}
