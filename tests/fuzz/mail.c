/* mail.c: fuzzes the reading of a received mail (mailin/mail_message.h):
 * the raw bytes an MTA pipes in or IMAP hands over, read with GMime into
 * sender, recipients, the automatic and bounce flags and the written text;
 * then what the mail path does next with those fields: the
 * Authentication-Results check (mail_authres.h), the reply token of each
 * recipient that is one of ours (auth/reply_token.h), and the reply-cutting of
 * mail_text.h and the HTML reading of mail_html.h on the raw bytes as text,
 * which reach their line rules more directly than through MIME.
 *
 * Input: a mail, any bytes. */
#include <stdlib.h>

#include "auth/reply_token.h"
#include "fuzz.h"
#include "mailin/mail_authres.h"
#include "mailin/mail_html.h"
#include "mailin/mail_message.h"
#include "mailin/mail_text.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* Our reply address; tokens are MACed with the service key, left
     * all zero here (no key file is loaded), as the seeds' token is. */
    setenv("PBEM_MAIL_REPLY_TO", "pbem@example.org", 1);
    return 0;
}

/* Reads the reply token of each recipient that is one of our addresses. */
static void read_tokens(const mail_message *message)
{
    for (size_t i = 0; i < message->recipient_count; i++) {
        char token[REPLY_TOKEN_CHARS + 1];
        reply_token read;
        char why[200];
        if (reply_token_in_address(message->recipients[i], token) &&
            token[0] != '\0')
            reply_token_read(token, 1767225600, &read, why, sizeof why);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[200];
    why[0] = '\0';
    mail_message *message =
        mail_message_parse((const char *)data, size, why, sizeof why);
    if (message == NULL) {
        if (why[0] == '\0')
            abort(); /* a refusal must say why */
    } else {
        if (message->from == NULL || message->text == NULL ||
            strlen(message->text) > MAIL_MESSAGE_MAX_TEXT)
            abort();
        mail_authres_pass(message->authentication_results,
                          message->authentication_result_count,
                          "mx.example.org", message->from_domain, why,
                          sizeof why);
        read_tokens(message);
        mail_message_free(message);
    }
    char *text = fuzz_text(data, size);
    free(mail_text_written_part(text));
    free(mail_html_to_text(text));
    free(text);
    return 0;
}
