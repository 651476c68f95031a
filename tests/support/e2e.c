/* e2e.c */
#include "e2e.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


void e2e_start(e2e_server *server)
{
    cr_assert(sodium_init() >= 0);
    const char *bin = getenv("PBEM_BIN");
    cr_assert_not_null(bin, "PBEM_BIN is not set: run the tests with make test");
    if (server->key_file[0] == '\0') {
        strcpy(server->key_file, "/tmp/pbem-e2e-key-XXXXXX");
        int fd = mkstemp(server->key_file);
        cr_assert_geq(fd, 0);
        close(fd);
        unlink(server->key_file); /* pbemd creates it with mode 0600 */
    }
    int out[2];
    cr_assert_eq(pipe(out), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        setenv("PBEM_LISTEN", "127.0.0.1:0", 1);
        setenv("PBEM_KEY_FILE", server->key_file, 1);
        setenv("PBEM_QUIET", "1", 1);
        execl(bin, bin, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    FILE *lines = fdopen(out[0], "r");
    char line[256] = {0};
    cr_assert_not_null(fgets(line, sizeof line, lines),
                       "pbemd exited before serving (see its stderr above)");
    const char *at = strstr(line, "http://127.0.0.1:");
    cr_assert_not_null(at, "unexpected first line: %s", line);
    server->port = atoi(at + strlen("http://127.0.0.1:"));
    server->pid = pid;
    fclose(lines);
    char base[64];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", server->port);
    client_free(server->http);
    server->http = client_new(base);
}

int e2e_stop(e2e_server *server)
{
    int status = 0;
    kill(server->pid, SIGTERM);
    waitpid(server->pid, &status, 0);
    client_free(server->http);
    server->http = NULL;
    return status;
}

/* With PBEM_E2E_RECORD set, every answer is appended as one JSON line, so
 * tests/node/check-responses.mjs can hold it against openapi.yaml. One
 * write() per line keeps lines whole across parallel test processes. */
static void record(const char *method, const char *path,
                   const e2e_response *response)
{
    const char *file = getenv("PBEM_E2E_RECORD");
    if (file == NULL || file[0] == '\0')
        return;
    json_t *line = json_pack("{s:s,s:s,s:i}", "method", method, "path", path,
                             "status", (int)response->status);
    if (response->json != NULL)
        json_object_set(line, "json", response->json);
    else
        json_object_set_new(line, "text",
                            json_string(response->body ? response->body : ""));
    char *text = json_dumps(line, JSON_COMPACT);
    size_t len = strlen(text);
    text[len] = '\n';
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0644);
    cr_assert_geq(fd, 0, "cannot open %s", file);
    cr_assert_eq(write(fd, text, len + 1), (ssize_t)(len + 1));
    close(fd);
    free(text);
    json_decref(line);
}

e2e_response e2e_call_signed(const e2e_server *server, const char *method,
                             const char *path, const char *body,
                             const e2e_player *signer, int64_t created,
                             const char *nonce, const char *const *extra_headers,
                             bool tamper_body_after_signing)
{
    client_send_options options = {
        .created = created,
        .nonce = nonce,
        .extra_headers = extra_headers,
        .tamper_body_after_signing = tamper_body_after_signing,
    };
    e2e_response response;
    char error[256];
    cr_assert(client_send(server->http, method, path, body,
                          signer ? &signer->key : NULL, &options, &response,
                          error),
              "%s", error);
    record(method, path, &response);
    return response;
}

e2e_response e2e_call(const e2e_server *server, const char *method,
                      const char *path, const char *body,
                      const e2e_player *signer)
{
    return e2e_call_signed(server, method, path, body, signer,
                           (int64_t)time(NULL), NULL, NULL, false);
}

void e2e_register(const e2e_server *server, const char *name,
                  e2e_player *player)
{
    memset(player, 0, sizeof *player);
    client_new_key(&player->key);
    char error[256];
    cr_assert(client_register(server->http, name, "player@example.org",
                              &player->key, player->id, error),
              "register %s: %s", name, error);
    snprintf(player->name, sizeof player->name, "%s", name);
}

void e2e_response_free(e2e_response *response)
{
    client_response_free(response);
}
