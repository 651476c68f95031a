/* multi_request.c: see multi_request.h. */
#include "multi_request.h"

#include <stdlib.h>
#include <string.h>

static size_t collect(char *data, size_t size, size_t count, void *user)
{
    multi_request *q = user;
    size_t n = size * count;
    char *grown = realloc(q->answer, q->answer_len + n + 1);
    if (grown == NULL)
        abort();
    memcpy(grown + q->answer_len, data, n);
    q->answer_len += n;
    grown[q->answer_len] = '\0';
    q->answer = grown;
    return n;
}

bool multi_request_send(multi_request *q, CURLM *multi, const char *base_url,
                        const char *method, const char *path, char *body,
                        const client_key *key, void *private, char *error)
{
    char url[256];
    snprintf(url, sizeof url, "%s%s", base_url, path);
    q->body = body;
    q->answer_len = 0;
    q->headers = curl_slist_append(NULL, "Content-Type: application/json");
    q->headers = curl_slist_append(q->headers, "Expect:");
    q->headers = curl_slist_append(q->headers, "Prefer: return=representation");
    if (!client_sign_headers(method, path, body, key, &q->headers, error))
        return false;
    curl_easy_reset(q->easy);
    curl_easy_setopt(q->easy, CURLOPT_URL, url);
    curl_easy_setopt(q->easy, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(q->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(q->easy, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(q->easy, CURLOPT_HTTPHEADER, q->headers);
    if (body != NULL) {
        curl_easy_setopt(q->easy, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(q->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    curl_easy_setopt(q->easy, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(q->easy, CURLOPT_WRITEDATA, q);
    curl_easy_setopt(q->easy, CURLOPT_PRIVATE, private);
    if (curl_multi_add_handle(multi, q->easy) != CURLM_OK) {
        snprintf(error, 256, "curl_multi_add_handle failed");
        return false;
    }
    return true;
}

long multi_request_done(multi_request *q, CURLM *multi)
{
    long status = 0;
    curl_easy_getinfo(q->easy, CURLINFO_RESPONSE_CODE, &status);
    curl_multi_remove_handle(multi, q->easy);
    curl_slist_free_all(q->headers);
    q->headers = NULL;
    free(q->body);
    q->body = NULL;
    return status;
}

void multi_request_free(multi_request *q)
{
    curl_easy_cleanup(q->easy);
    curl_slist_free_all(q->headers);
    free(q->body);
    free(q->answer);
    *q = (multi_request){0};
}

/* curl's socket callback: watch s for what curl waits on, or no more. */
static int watch_socket(CURL *easy, curl_socket_t s, int what, void *user,
                        void *socket_user)
{
    (void)easy;
    multi_sockets *sockets = user;
    struct epoll_event ev = {.data.fd = s};
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(sockets->epoll_fd, EPOLL_CTL_DEL, s, NULL);
        curl_multi_assign(sockets->multi, s, NULL);
        return 0;
    }
    ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0u) |
                (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
    /* socket_user marks a socket already added. */
    if (socket_user == NULL) {
        epoll_ctl(sockets->epoll_fd, EPOLL_CTL_ADD, s, &ev);
        curl_multi_assign(sockets->multi, s, sockets);
    } else {
        epoll_ctl(sockets->epoll_fd, EPOLL_CTL_MOD, s, &ev);
    }
    return 0;
}

void multi_sockets_watch(multi_sockets *s)
{
    curl_multi_setopt(s->multi, CURLMOPT_SOCKETFUNCTION, watch_socket);
    curl_multi_setopt(s->multi, CURLMOPT_SOCKETDATA, s);
}

void multi_sockets_act(multi_sockets *s, const struct epoll_event *ev,
                       int *running)
{
    int flags = (ev->events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                (ev->events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                (ev->events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
    curl_multi_socket_action(s->multi, ev->data.fd, flags, running);
}
