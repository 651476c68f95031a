/* player_client.c: see player_client.h. */
#include "player_client.h"

#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player_config.h"

const char *player_url(void)
{
    const char *url = getenv("PBEM_URL");
    return url != NULL && url[0] != '\0' ? url : "http://127.0.0.1:8080";
}

int player_open(player_session *s, player_need need)
{
    memset(s, 0, sizeof *s);
    if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
        fputs("pbem: libsodium or libcurl could not start.\n", stderr);
        return PLAYER_REFUSED;
    }
    if (need != PLAYER_NEEDS_NOTHING) {
        if (!player_config_key(&s->key))
            return PLAYER_NOT_SET_UP;
        s->signed_requests = true;
    }
    char player_id[32];
    if (need == PLAYER_NEEDS_REGISTRATION &&
        !player_config_player_id(player_id, sizeof player_id)) {
        fputs("pbem: your key is not registered yet: run pbem register NAME "
              "[EMAIL] first.\n",
              stderr);
        sodium_memzero(&s->key, sizeof s->key);
        return PLAYER_NOT_SET_UP;
    }
    snprintf(s->url, sizeof s->url, "%s", player_url());
    size_t len = strlen(s->url);
    while (len > 0 && s->url[len - 1] == '/')
        s->url[--len] = '\0';
    s->http = client_new(s->url);
    if (s->http == NULL)
        abort();
    return PLAYER_OK;
}

void player_close(player_session *s)
{
    client_free(s->http);
    sodium_memzero(&s->key, sizeof s->key);
    s->http = NULL;
}

int player_send(player_session *s, const char *method, const char *path,
                const char *body, bool prefer, client_response *out)
{
    static const char *const prefer_headers[] = {
        "Prefer: return=representation", NULL};
    client_send_options options = {.extra_headers =
                                       prefer ? prefer_headers : NULL};
    char error[256];
    if (!client_send(s->http, method, path, body,
                     s->signed_requests ? &s->key : NULL, &options, out,
                     error)) {
        fprintf(stderr,
                "pbem: the server at %s cannot be reached (%s): is "
                "pbemd running there, or should --url or PBEM_URL "
                "name another?\n",
                s->url, strchr(error, ':') ? strrchr(error, ':') + 2 : error);
        return PLAYER_UNREACHABLE;
    }
    return PLAYER_OK;
}

const char *player_error_code(const client_response *r)
{
    const char *code = json_string_value(
        json_object_get(json_object_get(r->json, "error"), "code"));
    return code != NULL ? code : "";
}

int player_refused(const client_response *r)
{
    const char *message = json_string_value(
        json_object_get(json_object_get(r->json, "error"), "message"));
    if (message != NULL) {
        size_t len = strlen(message);
        bool stop = len > 0 && strchr(".!?", message[len - 1]) != NULL;
        fprintf(stderr, "pbem: %s%s\n", message, stop ? "" : ".");
    } else {
        fprintf(stderr, "pbem: the server answered %ld%s%.200s.\n", r->status,
                r->body ? ": " : "", r->body ? r->body : "");
    }
    return PLAYER_REFUSED;
}

int player_call(player_session *s, const char *method, const char *path,
                const char *body, client_response *out)
{
    int code = player_send(s, method, path, body, false, out);
    if (code != PLAYER_OK)
        return code;
    if (out->status < 200 || out->status >= 300) {
        code = player_refused(out);
        client_response_free(out);
    }
    return code;
}

bool player_match_path(char *path, size_t size, const char *match,
                       const char *suffix)
{
    if (!player_config_match_id_ok(match)) {
        fprintf(stderr, "pbem: \"%.60s\" is not a match id (like m_12).\n",
                match);
        return false;
    }
    int n = snprintf(path, size, "/v1/matches/%s%s", match, suffix);
    return n > 0 && (size_t)n < size;
}

const char *player_text(const json_t *value)
{
    const char *text = json_string_value(value);
    return text != NULL ? text : "?";
}
