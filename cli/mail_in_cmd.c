/* mail_in_cmd.c: see mail_in_cmd.h. */
#include "mail_in_cmd.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "admin_client.h"
#include "client.h"
#include "http_post.h"

/* One more byte than the server takes, to tell "too large" at once. */
#define MESSAGE_MAX (1024 * 1024)

static int usage(void)
{
    fputs("usage: pbem mail-in [--url URL] --key FILE < message\n"
          "FILE holds the mail key's Ed25519 seed in base64 (keyid \"mail\";\n"
          "pbemd knows its public half as PBEM_MAIL_INBOUND_KEY); pbem keygen\n"
          "--mail FILE makes both.\n"
          "URL defaults to $PBEM_URL, else http://127.0.0.1:8080\n"
          "Exit: 0 handled, 65 not a mail or too large, 75 try again later.\n",
          stderr);
    return EX_USAGE;
}

/* Standard input whole, NUL-terminated; NULL when it is larger than the
 * limit or holds a NUL byte (mail never does). */
static char *read_message(size_t *length, const char **why)
{
    size_t size = 64 * 1024, used = 0;
    char *text = malloc(size + 1);
    if (text == NULL) {
        *why = "out of memory";
        return NULL;
    }
    for (;;) {
        if (used == size) {
            if (size > MESSAGE_MAX) {
                free(text);
                *why = "the message is larger than 1 MiB";
                return NULL;
            }
            size *= 2;
            char *grown = realloc(text, size + 1);
            if (grown == NULL) {
                free(text);
                *why = "out of memory";
                return NULL;
            }
            text = grown;
        }
        size_t n = fread(text + used, 1, size - used, stdin);
        if (n == 0)
            break;
        used += n;
    }
    text[used] = '\0';
    if (used > MESSAGE_MAX) {
        free(text);
        *why = "the message is larger than 1 MiB";
        return NULL;
    }
    if (memchr(text, '\0', used) != NULL || used == 0) {
        free(text);
        *why = used ? "the message holds a NUL byte" : "the message is empty";
        return NULL;
    }
    *length = used;
    return text;
}

int mail_in_cmd_main(int argc, char **argv)
{
    const char *url = getenv("PBEM_URL"), *key_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--url") == 0 && i + 1 < argc)
            url = argv[++i];
        else if (strcmp(argv[i], "--key") == 0 && i + 1 < argc)
            key_file = argv[++i];
        else
            return usage();
    }
    if (key_file == NULL)
        return usage();
    client_key key;
    if (!admin_client_key(key_file, &key))
        return EX_TEMPFAIL;
    snprintf(key.key_id, sizeof key.key_id, "mail");
    size_t length = 0;
    const char *why = NULL;
    char *message = read_message(&length, &why);
    if (message == NULL) {
        fprintf(stderr, "pbem mail-in: %s\n", why);
        return EX_DATAERR;
    }
    const char *base = url && url[0] ? url : "http://127.0.0.1:8080";
    client_response r;
    char error[256];
    bool answered;
    /* Plain HTTP, the usual case (pbemd on this machine or a private
     * network), without libcurl: a mail server starts one of these per
     * message (curl_lazy.h). */
    if (http_post_takes(base)) {
        answered = http_post_send(base, "/v1/mail/inbound", message, length,
                                  "message/rfc822", &key, &r, error);
    } else {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        client *http = client_new(base);
        client_send_options options = {.content_type = "message/rfc822"};
        answered = client_send(http, "POST", "/v1/mail/inbound", message, &key,
                               &options, &r, error);
        client_free(http);
    }
    int code;
    if (!answered) {
        fprintf(stderr,
                "pbem mail-in: pbemd did not answer (%s); the mail "
                "server will try again\n",
                error);
        code = EX_TEMPFAIL;
    } else {
        const char *what = json_string_value(json_object_get(r.json, "what"));
        /* A refusal has the API's error shape: the sentence is the
         * error's message. */
        const char *said = json_string_value(
            json_object_get(json_object_get(r.json, "error"), "message"));
        if (r.status == 200) {
            fprintf(stderr, "pbem mail-in: %s\n", what ? what : "handled");
            code = EX_OK;
        } else if (r.status == 413 || r.status == 422 || r.status == 415) {
            fprintf(stderr, "pbem mail-in: refused for good (%ld): %s\n",
                    r.status, said ? said : "");
            code = EX_DATAERR;
        } else {
            fprintf(stderr,
                    "pbem mail-in: pbemd answered %ld (%s); the mail "
                    "server will try again\n",
                    r.status, said ? said : "no reason given");
            code = EX_TEMPFAIL;
        }
        client_response_free(&r);
    }
    free(message);
    return code;
}
